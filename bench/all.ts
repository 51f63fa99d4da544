/**
 * `npm run bench`: runs every benchmark's exported run() in turn and prints ONE table of figures, each with what it
 * compares against where the benchmark has a baseline. A benchmark that fails is a row saying so, not a crash.
 * The soak runs short here (SOAK_MARKETS/SOAK_MINUTES override); the requote bench's window is BENCH_REQUOTE_SECONDS.
 */
interface BenchModule {
  run(): Promise<Record<string, number | string>>;
}

const BASELINES: Readonly<Record<string, string>> = {
  'book.appliesPerSecond100Levels': '≥ 50,000/s target',
  'metrics.bookUpdatedMicros': '< 5 µs target',
  'soak.rssSlopeAfterWarmupMbPerMin': '≈ 0 (no growth after warm-up)',
  'soak.rateLimited429': '0 in normal operation',
};

function isBenchModule(value: unknown): value is BenchModule {
  return typeof value === 'object' && value !== null && 'run' in value && typeof value.run === 'function';
}

async function main(): Promise<void> {
  process.env['SOAK_MARKETS'] ??= '20';
  process.env['SOAK_MINUTES'] ??= '1';
  process.env['BENCH_REQUOTE_SECONDS'] ??= '30';
  const names = ['signing', 'book', 'metrics', 'ledger', 'sim-engine', 'sim-server', 'strategies', 'requote', 'soak'];
  const rows: { benchmark: string; figure: string; value: string; compare: string }[] = [];
  for (const name of names) {
    const started = Date.now();
    process.stderr.write(`bench ${name}…\n`);
    try {
      const module: unknown = await import(`./${name}.js`);
      if (!isBenchModule(module)) throw new Error('no exported run()');
      const figures = await module.run();
      for (const [figure, value] of Object.entries(figures)) {
        const key = `${name}.${figure}`;
        const comparison = name === 'requote' && figure.startsWith('diff.') ? `naive: ${String(figures[figure.replace(/^diff\./, 'naive.')] ?? '—')}` : (BASELINES[key] ?? '');
        rows.push({ benchmark: name, figure, value: String(value), compare: comparison });
      }
    } catch (error) {
      rows.push({ benchmark: name, figure: 'not available', value: error instanceof Error ? error.message : String(error), compare: '' });
    }
    process.stderr.write(`bench ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
  const width = (key: keyof (typeof rows)[number]): number => Math.max(key.length, ...rows.map((r) => r[key].length));
  const cols = ['benchmark', 'figure', 'value', 'compare'] as const;
  const line = (r: Record<(typeof cols)[number], string>): string => cols.map((c) => r[c].padEnd(width(c))).join('  ');
  console.log(line({ benchmark: 'benchmark', figure: 'figure', value: 'value', compare: 'compared with' }));
  console.log(cols.map((c) => '-'.repeat(width(c))).join('  '));
  for (const row of rows) console.log(line(row));
}

await main();
