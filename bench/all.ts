/**
 * `npm run bench`: runs every benchmark's exported run() in turn and prints ONE table of figures on stdout, each with
 * what it compares against where there is a baseline (a stated target, the venue's limits, or the other policies /
 * strategies of the same benchmark). What the benchmarks print themselves goes to stderr. A benchmark that is missing
 * or fails is a 'not available' row with the reason, never a crash.
 *
 * Short by default: the soak runs SOAK_MARKETS (20) markets for SOAK_MINUTES (1); the requote bench
 * BENCH_REQUOTE_SECONDS (20) per policy; the ladder bench BENCH_LADDER_SECONDS (60) per run and BENCH_LADDER_SEEDS (1).
 * Set them for longer runs. `npx tsx bench/all.ts [name ...]` runs a subset.
 */
import { format } from 'node:util';

interface BenchModule {
  run(): Promise<Record<string, number | string>>;
}

interface Row {
  readonly benchmark: string;
  readonly figure: string;
  readonly value: string;
  readonly compare: string;
}

const BENCHES = ['signing', 'tick-to-trade', 'book', 'metrics', 'ledger', 'sim-engine', 'sim-server', 'strategies', 'requote', 'ladder', 'replay', 'soak'] as const;

/** The venue's limit per API key: 2 in flight, 300 ms between requests → at most 3.3 requests/s. */
const VENUE_RATE = 'venue allows ≤ 3.3 requests/s per key';

/** Baselines by `benchmark.figure` (exact) or by a prefix ending in '*'. */
const BASELINES: Readonly<Record<string, string>> = {
  'signing.signedOrdersPerSec': `${VENUE_RATE} (signing must never be the bottleneck)`,
  'signing.speedupVsViem': 'target ≥ 2 (× viem signTypedData, same inputs, same run)',
  'tick-to-trade.totalP99Us': 'target ≤ 2,000 µs from book frame to signed request on the wire',
  'tick-to-trade.meetsTarget': 'p99 ≤ 2 ms',
  'book.apply_100_levels_per_s': 'target ≥ 50,000/s on one core',
  'book.apply_plus_no_view_100_levels_per_s': 'target ≥ 50,000/s on one core',
  'book.meets_target': '≥ 50,000 applies/s',
  'metrics.metric_book_updated_ns': 'target < 5,000 ns per call',
  'metrics.metric_requoted_ns': 'target < 5,000 ns per call',
  'metrics.metric_http_request_ns': 'target < 5,000 ns per call',
  'metrics.meets_target': '< 5,000 ns per metric call',
  'replay.wall_seconds_per_recorded_hour': 'target < 10 s per recorded hour',
  'replay.meets_target': '< 10 s per recorded hour',
  'ledger.fills/s*': 'fills arrive at most at the venue rate (≤ 3.3 placements/s, a few fills each)',
  'sim-server.place_sequential_per_s': `the bot needs ≤ 3.3/s (${VENUE_RATE})`,
  'sim-engine.syntheticInvariantViolations': '0',
  'soak.rssSlopeAfterWarmupMbPerMin': '≈ 0 MB/min after warm-up (no growth); a 1-minute soak mostly sees GC saw-tooth',
  'soak.rssFloorSlopeMbPerMin': '≈ 0 MB/min (needs ≥ 3 min after warm-up: SOAK_MINUTES)',
  'soak.rateLimited429': '0 in normal operation',
  'soak.venueLimiter429NotExplainedByStalls': '0 (the bot never outpaces the venue)',
  'soak.requestsPerSecond': VENUE_RATE,
  'soak.eventLoopExcessP99Ms': 'over the 10 ms sampling timer; small = the loop is never blocked',
  'soak.cpuSecondsPerWallSecond': '1.0 = one core saturated',
  'soak.allQuotedWithinS': 'target ≤ 20 s from the process start (every market has had a live order)',
  'ladder.cross-market-36.errorTicks': 'target ≤ 1 tick at 36 markets',
  'ladder.cross-market-36.moveToReplacedP99Ms': 'target ≤ 1,500 ms at 36 markets',
  'ladder.cross-market-36.markout1sCommonUsdc': 'target ≥ 0.8 × the 1 s markout at 4 markets (the at-the-money hourly strikes of both)',
};

function baselineFor(bench: string, figure: string): string {
  const exact = BASELINES[`${bench}.${figure}`];
  if (exact !== undefined) return exact;
  for (const [key, text] of Object.entries(BASELINES)) if (key.endsWith('*') && `${bench}.${figure}`.startsWith(key.slice(0, -1))) return text;
  return '';
}

/**
 * `a.metric` figures of one benchmark are compared with the same metric of its other prefixes (the requote bench's
 * policies diff / naive / allOrNothing, the strategies bench's contenders).
 */
function peerComparison(figures: Readonly<Record<string, number | string>>, figure: string): string {
  const dot = figure.indexOf('.');
  if (dot <= 0) return '';
  const metric = figure.slice(dot + 1);
  const peers = Object.keys(figures)
    .filter((key) => key !== figure && key.endsWith(`.${metric}`) && key.indexOf('.') === key.length - metric.length - 1)
    .map((key) => `${key.slice(0, key.indexOf('.'))} ${show(figures[key])}`);
  return peers.length === 0 ? '' : `vs ${peers.join(', ')}`;
}

/** Numbers grouped, at most 3 decimals; long strings cut at 70 characters. */
function show(value: number | string | undefined): string {
  if (typeof value === 'number') return value.toLocaleString('en-US', { maximumFractionDigits: 3 });
  const text = value ?? '—';
  return text.length > 70 ? `${text.slice(0, 69)}…` : text;
}

function isBenchModule(value: unknown): value is BenchModule {
  return typeof value === 'object' && value !== null && 'run' in value && typeof value.run === 'function';
}

/** Runs `fn` with console.log/table/info sent to stderr, so stdout holds only the table. */
async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const saved = { log: console.log, info: console.info, table: console.table };
  const toStderr = (...args: unknown[]): void => void process.stderr.write(`${format(...args)}\n`);
  console.log = toStderr;
  console.info = toStderr;
  console.table = (data: unknown) => toStderr(data);
  try {
    return await fn();
  } finally {
    console.log = saved.log;
    console.info = saved.info;
    console.table = saved.table;
  }
}

function printTable(rows: readonly Row[]): void {
  const cols = ['benchmark', 'figure', 'value', 'compare'] as const;
  const header: Row = { benchmark: 'benchmark', figure: 'figure', value: 'value', compare: 'compared with' };
  const width = (c: (typeof cols)[number]): number => Math.max(...[header, ...rows].map((r) => r[c].length));
  const line = (r: Row): string => cols.map((c) => r[c].padEnd(width(c))).join('  ').trimEnd();
  process.stdout.write(`${line(header)}\n${cols.map((c) => '-'.repeat(width(c))).join('  ')}\n`);
  let previous = '';
  for (const row of rows) {
    process.stdout.write(`${line({ ...row, benchmark: row.benchmark === previous ? '' : row.benchmark })}\n`);
    previous = row.benchmark;
  }
}

async function main(): Promise<void> {
  process.env['SOAK_MARKETS'] ??= '20';
  process.env['SOAK_MINUTES'] ??= '1';
  process.env['BENCH_REQUOTE_SECONDS'] ??= '20';
  process.env['BENCH_LADDER_SECONDS'] ??= '60';
  process.env['BENCH_LADDER_SEEDS'] ??= '1';
  const wanted = process.argv.slice(2);
  const names = wanted.length === 0 ? BENCHES : BENCHES.filter((name) => wanted.includes(name));
  const rows: Row[] = [];
  for (const name of names) {
    const started = Date.now();
    process.stderr.write(`bench ${name} …\n`);
    try {
      const module: unknown = await import(`./${name}.js`);
      if (!isBenchModule(module)) throw new Error('the module exports no run()');
      const figures = await quietly(() => module.run());
      for (const [figure, value] of Object.entries(figures)) {
        const compare = [baselineFor(name, figure), peerComparison(figures, figure)].filter((text) => text !== '').join('; ');
        rows.push({ benchmark: name, figure, value: show(value), compare });
      }
      rows.push({ benchmark: name, figure: '(wall time)', value: `${((Date.now() - started) / 1000).toFixed(1)} s`, compare: '' });
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] ?? error.message : String(error);
      rows.push({ benchmark: name, figure: 'not available', value: reason.slice(0, 160), compare: '' });
    }
    process.stderr.write(`bench ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
  printTable(rows);
}

await main();
