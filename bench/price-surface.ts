/**
 * The volatility surface judged on real books: `outcome-maker price --books --underlying` over the recorded BTC ladder
 * of the live venue (../shared/replay-samples/limitless-btc-ladder-2025-12-17/: 4 strike markets, 397 book polls,
 * 01:19–01:31 UTC, an exchange's 1-minute klines), once per variant of `pricing.surface`, scored on the books with
 * both sides within 5 cents: the share of books whose fair value lies inside [bid, ask], the p90 of |fair − mid|, and
 * the log-loss of the fair value and of the mid on the markets that settled at 02:00 (outcome: the klines' 02:00
 * open raised by their measured basis to Pyth, +2.6 bp; the 87,520.58 strike sits 0.3 bp from it: scored with and
 * without it). Prints one table; `run()` returns the rows.
 * Run: npx tsx bench/price-surface.ts [--samples DIR]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { logLoss, type Prediction } from '../src/pricing/model/index.js';
import { runPrice, type PriceFlags } from '../src/pricing/price-cli.js';
import { importUnderlyingFile } from '../src/replay/import-command.js';

const i = process.argv.indexOf('--samples');
const DIR = resolve(i >= 0 ? (process.argv[i + 1] ?? '') : join(import.meta.dirname, '..', '..', 'shared', 'replay-samples', 'limitless-btc-ladder-2025-12-17'));
/** Pyth's print over these klines at the two strikes created at 00:00:06 and 01:00:06 (README): +2.76 and +2.43 bp. */
const BASIS = 1.00026;
const SETTLE_02 = Date.UTC(2025, 11, 17, 2, 0);

export interface Row {
  readonly variant: string;
  readonly books: number;
  readonly inside: number;
  readonly p90: number;
  readonly logLossModel: number;
  readonly logLossMid: number;
  readonly logLossModelClear: number;
  readonly logLossMidClear: number;
}

const VARIANTS: readonly { readonly name: string; readonly flags: Partial<PriceFlags> }[] = [
  { name: 'realized only (flat clock): before', flags: { impliedWeight: '0', profileStrength: '0' } },
  { name: 'realized + intraday profile', flags: { impliedWeight: '0', profileStrength: '1' } },
  { name: 'surface α 0.5', flags: { impliedWeight: '0.5', profileStrength: '1' } },
  { name: 'surface α 0.8, flat clock', flags: { impliedWeight: '0.8', profileStrength: '0' } },
  { name: 'surface α 0.8, profile 0.5', flags: { impliedWeight: '0.8', profileStrength: '0.5' } },
  { name: 'surface α 0.8 (the default)', flags: { impliedWeight: '0.8', profileStrength: '1' } },
  { name: 'implied only α 1', flags: { impliedWeight: '1', profileStrength: '1' } },
  { name: 'surface α 0.8 + fitted tails', flags: { impliedWeight: '0.8', profileStrength: '1', fitTails: true } },
];

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

export function run(): Row[] {
  const work = mkdtempSync(join(tmpdir(), 'om-price-surface-'));
  try {
    const stream = join(work, 'btc.ndjson.gz');
    importUnderlyingFile({ ticker: 'BTC', from: join(DIR, 'BTCUSDT-1m-2025-12-17T0000-0300Z.csv'), out: stream, nowMs: 0 });
    const klines = readFileSync(join(DIR, 'BTCUSDT-1m-2025-12-17T0000-0300Z.csv'), 'utf8').split('\n');
    const open02 = Number(klines.find((l) => l.startsWith(String(SETTLE_02)))?.split(',')[1]) * BASIS;
    return VARIANTS.map(({ name, flags }) => {
      const { lines } = runPrice({ markets: join(DIR, 'markets.jsonl'), books: join(DIR, 'orderbooks.jsonl'), underlying: [stream], ...flags }, 0);
      const rows = lines.map((l) => JSON.parse(l) as { bid: number | null; ask: number | null; mid: number | null; fair: number | null; strike: string; settlesAt: string });
      const judged = rows.filter((r) => r.fair !== null && r.bid !== null && r.ask !== null && r.mid !== null && r.ask - r.bid <= 0.05 + 1e-9);
      const inside = judged.filter((r) => r.fair !== null && r.bid !== null && r.ask !== null && r.fair >= r.bid && r.fair <= r.ask).length;
      const gaps = judged.map((r) => Math.abs((r.fair ?? 0) - (r.mid ?? 0)));
      const settled = judged.filter((r) => Date.parse(r.settlesAt) === SETTLE_02);
      const outcome = (r: { strike: string }): 0 | 1 => (open02 > Number(r.strike) ? 1 : 0);
      const clear = settled.filter((r) => Math.abs(open02 / Number(r.strike) - 1) > 5e-4);
      const score = (list: typeof settled, p: (r: (typeof settled)[number]) => number): number => logLoss(list.map((r): Prediction => ({ p: p(r), outcome: outcome(r) })));
      return {
        variant: name,
        books: judged.length,
        inside: inside / judged.length,
        p90: quantile(gaps, 0.9),
        logLossModel: score(settled, (r) => r.fair ?? 0.5),
        logLossMid: score(settled, (r) => r.mid ?? 0.5),
        logLossModelClear: score(clear, (r) => r.fair ?? 0.5),
        logLossMidClear: score(clear, (r) => r.mid ?? 0.5),
      };
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (!existsSync(join(DIR, 'orderbooks.jsonl'))) {
    process.stderr.write(`the BTC ladder sample is not in ${DIR} (it lives beside the clone: ../shared/replay-samples/)\n`);
    process.exit(1);
  }
  const pct = (x: number): string => `${(100 * x).toFixed(0)} %`;
  process.stdout.write('| variant | books | fair inside [bid, ask] | p90 abs(fair − mid) | log-loss model / mid (02:00, 3 markets) | … without 87,520.58 |\n|---|---|---|---|---|---|\n');
  for (const r of run()) {
    process.stdout.write(`| ${r.variant} | ${r.books} | ${pct(r.inside)} | ${(100 * r.p90).toFixed(1)} c | ${r.logLossModel.toFixed(3)} / ${r.logLossMid.toFixed(3)} | ${r.logLossModelClear.toFixed(3)} / ${r.logLossMidClear.toFixed(3)} |\n`);
  }
}
