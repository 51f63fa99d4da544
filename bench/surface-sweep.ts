/**
 * The volatility surface's settings judged where a market maker is paid: by trading real recordings (issue 41).
 * Replays (`backtest --replay`'s own runReplayBacktest, src/replay/) each recording with fixed-spread
 * (config/fixed-spread.yaml) and Avellaneda–Stoikov (config/avellaneda-stoikov.yaml), each quoting around the model
 * (`referencePrice: [model, mid, adjustedMidpoint]`) and around the book (`[mid, adjustedMidpoint]`), over a modest
 * grid of `pricing.surface`: impliedWeight × gapWeight, the implied filter (minimum strikes per expiry, minimum
 * distance from the money `minAbsD`), and the evidence rule off (the surface before issue 41). Book-referenced rows
 * run with the default `readModel: realized` (their guard on the model without the surface: the same figures
 * whatever the surface), with `none` (no guard) and with `full` under the old surface (main before issue 41). Prints per recording: total PnL (USDC), fills, mean markouts per fill at 1 s / 10 s / 60 s
 * against the recorded mid (the same yardstick for every variant: a markout against the model would move with the
 * model), and the mean |fair with − without the surface| at the fills.
 *
 * Recordings (read from ../shared/replay-samples/ or --samples DIR; a missing one is skipped, saying so; nothing is
 * copied into the repository):
 * - `sol-updown`: the Polymarket SOL 15-minute up/down market (6 min of books and trades), imported as
 *   docs/replay.md says, priced from the SOLUSDT 1-minute klines with the window's open (11:00) as its strike;
 * - `btc-ladder`: the Limitless BTC ladder (4 strikes, 2 expiries, 12 min of REST polls) with its klines; its trades
 *   are INFERRED from `lastTradePrice` (bench/limitless-ladder-stream.ts): thin;
 * - `sim-ladder`: the project's own recording, examples/sim-btc-ladder/ (4 markets, 6 min, the simulator's flow).
 * A kline-priced recording runs with the pricer's staleness at 90 s and the fast-market guard off (one print a
 * minute: as `price --books` does, src/pricing/price-books.ts `recordingSettings`).
 *
 * CPU-heavy (78 replays, ~4 min on a loaded 2-core machine). Run: nice -n 10 npx tsx bench/surface-sweep.ts
 * [--samples DIR] [--only sol-updown,btc-ladder,sim-ladder] [--json]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfigFile, validateStrategy } from '../src/config/index.js';
import type { AppConfig } from '../src/config/types.js';
import type { SurfaceSettings } from '../src/pricing/surface/index.js';
import type { ReplayEvent, ReplayHeader } from '../src/replay/format.js';
import { importPolymarketFiles, importUnderlyingFile } from '../src/replay/import-command.js';
import { readReplay } from '../src/replay/reader.js';
import { runReplayBacktest } from '../src/replay/replay-backtest.js';
import { ladderStream } from './limitless-ladder-stream.js';

const ROOT = resolve(import.meta.dirname, '..');
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const SAMPLES = resolve(arg('--samples') ?? process.env['OM_REPLAY_SAMPLES'] ?? join(ROOT, '..', 'shared', 'replay-samples'));

interface Recording {
  readonly name: string;
  readonly header: ReplayHeader;
  readonly events: readonly ReplayEvent[];
  /** Priced from one-minute klines: staleness 90 s, guard off. */
  readonly klines: boolean;
  readonly note: string;
}

/** The recordings there are; a missing one is reported and skipped. */
function recordings(work: string, only: readonly string[] | null, skipped: string[]): Recording[] {
  const list: Recording[] = [];
  const want = (name: string): boolean => only === null || only.includes(name);
  const sol = join(SAMPLES, 'polymarket-sol-updown-15m');
  const solKlines = join(SAMPLES, 'SOLUSDT-1m-2025-12-11T1000-1300Z.csv');
  if (want('sol-updown')) {
    if (['up-books', 'up-trades', 'down-books', 'down-trades'].every((p) => existsSync(`${sol}-${p}.json`)) && existsSync(solKlines)) {
      const price = join(work, 'sol-price.ndjson.gz');
      importUnderlyingFile({ ticker: 'SOL', from: solKlines, out: price, nowMs: 0 });
      const out = join(work, 'sol-updown.ndjson.gz');
      importPolymarketFiles({
        books: `${sol}-up-books.json`,
        trades: `${sol}-up-trades.json`,
        booksOther: `${sol}-down-books.json`,
        tradesOther: `${sol}-down-trades.json`,
        market: 'sol-updown-15m-1765450800',
        title: 'Solana Up or Down - December 11, 6:00AM-6:15AM ET',
        ticker: 'SOL',
        windowOpen: '2025-12-11T11:00:00Z',
        settles: '2025-12-11T11:15:00Z',
        underlying: price,
        out,
        nowMs: 0,
      });
      const stream = readReplay(out);
      list.push({ name: 'sol-updown', header: stream.header, events: stream.events, klines: true, note: 'one strike (the window open), 6 min, 52 trades' });
    } else skipped.push(`sol-updown: the Polymarket sample or SOLUSDT klines are not in ${SAMPLES}`);
  }
  const ladder = join(SAMPLES, 'limitless-btc-ladder-2025-12-17');
  const btcKlines = join(ladder, 'BTCUSDT-1m-2025-12-17T0000-0300Z.csv');
  if (want('btc-ladder')) {
    if (['markets.jsonl', 'orderbooks.jsonl'].every((f) => existsSync(join(ladder, f))) && existsSync(btcKlines)) {
      const stream = ladderStream({ markets: readFileSync(join(ladder, 'markets.jsonl'), 'utf8'), books: readFileSync(join(ladder, 'orderbooks.jsonl'), 'utf8'), klines: readFileSync(btcKlines, 'utf8'), klinesFile: btcKlines });
      list.push({ name: 'btc-ladder', header: stream.header, events: stream.events, klines: true, note: `4 strikes / 2 expiries, 12 min, ${stream.inferredTrades} trades inferred from lastTradePrice` });
    } else skipped.push(`btc-ladder: the Limitless BTC ladder sample is not in ${ladder}`);
  }
  if (want('sim-ladder')) {
    const stream = readReplay(join(ROOT, 'examples', 'sim-btc-ladder', 'recording.ndjson.gz'));
    list.push({ name: 'sim-ladder', header: stream.header, events: stream.events, klines: false, note: "the project's simulator recording: 2 strikes × hourly and daily, 6 min" });
  }
  return list;
}

type Ref = 'model' | 'book';
interface Variant {
  readonly name: string;
  readonly refs: readonly Ref[];
  readonly readModel?: 'none' | 'full';
  readonly surface: (s: SurfaceSettings) => SurfaceSettings;
}

const NO_EVIDENCE = { minStrikes: 1, fullStrikes: 1, fullBooks: 1, spreadHalf: 1e9 };
const both: readonly Ref[] = ['model', 'book'];
const surface = (impliedWeight: number, gapWeight: number, minStrikes: number) => (s: SurfaceSettings): SurfaceSettings => ({ ...s, impliedWeight, gapWeight, evidence: { ...s.evidence, minStrikes } });
export const VARIANTS: readonly Variant[] = [
  { name: 'realized only (α 0, g 0)', refs: both, surface: surface(0, 0, 2) },
  { name: 'α 0.3, g 0, minStrikes 1', refs: ['model'], surface: surface(0.3, 0, 1) },
  { name: 'α 0.3, g 1, minStrikes 1', refs: ['model'], surface: surface(0.3, 1, 1) },
  { name: 'α 0.8, g 0, minStrikes 1', refs: ['model'], surface: surface(0.8, 0, 1) },
  { name: 'α 0.8, g 1, minStrikes 1', refs: ['model'], surface: surface(0.8, 1, 1) },
  { name: '**α 0.8, g 1, minStrikes 2 (default)**', refs: both, surface: surface(0.8, 1, 2) },
  { name: 'α 0.8, g 1, minStrikes 2, minAbsD 0.3', refs: ['model'], surface: (s) => ({ ...surface(0.8, 1, 2)(s), filter: { ...s.filter, minAbsD: 0.3 } }) },
  { name: 'α 0.8, g 1, no evidence rule (before #41)', refs: both, surface: (s) => ({ ...s, impliedWeight: 0.8, gapWeight: 1, evidence: NO_EVIDENCE }) },
  { name: 'readModel none (no guard), default surface', refs: ['book'], readModel: 'none', surface: surface(0.8, 1, 2) },
  { name: 'readModel full, before #41 (main be91530)', refs: ['book'], readModel: 'full', surface: (s) => ({ ...s, impliedWeight: 0.8, gapWeight: 1, evidence: NO_EVIDENCE }) },
];

export interface Row {
  readonly recording: string;
  readonly strategy: string;
  readonly ref: Ref;
  readonly variant: string;
  readonly pnl: number;
  readonly fills: number;
  /** Mean markout per fill vs the recorded mid, USDC, at 1 s, 10 s, 60 s (null: no fill known that long after). */
  readonly markouts: readonly (number | null)[];
  /** Mean |fair with − without the surface| at the fills, price; null: surface off or no fill. */
  readonly fairDiff: number | null;
}

function configFor(base: AppConfig, recording: Recording, ref: Ref, variant: Variant): AppConfig {
  const pricer = base.pricing.pricer;
  const stale = recording.klines ? { staleMs: 90_000 } : {};
  return {
    ...base,
    strategy: {
      ...base.strategy,
      params: { ...base.strategy.params, referencePrice: ref === 'model' ? ['model', 'mid', 'adjustedMidpoint'] : ['mid', 'adjustedMidpoint'], ...(variant.readModel === undefined ? {} : { readModel: variant.readModel }) },
    },
    pricing: {
      ...base.pricing,
      store: { ...base.pricing.store, ...stale },
      pricer: { ...pricer, ...stale, guard: recording.klines ? { ...pricer.guard, enabled: false } : pricer.guard, surface: variant.surface(pricer.surface) },
    },
  };
}

const HORIZONS = [1_000, 10_000, 60_000];

export async function run(only: readonly string[] | null = null, log: (line: string) => void = () => undefined): Promise<{ rows: Row[]; skipped: string[]; notes: Record<string, string> }> {
  const work = mkdtempSync(join(tmpdir(), 'om-surface-sweep-'));
  const skipped: string[] = [];
  try {
    const recs = recordings(work, only, skipped);
    const rows: Row[] = [];
    for (const recording of recs) {
      for (const file of ['fixed-spread', 'avellaneda-stoikov']) {
        const base = loadConfigFile(join(ROOT, 'config', `${file}.yaml`));
        for (const variant of VARIANTS) {
          for (const ref of variant.refs) {
            const config = configFor(base, recording, ref, variant);
            const check = await validateStrategy(config);
            if (!check.ok) throw new Error(`${file}: ${JSON.stringify(check.issues)}`);
            const report = await runReplayBacktest({ config, strategy: check.module.create(check.params), header: recording.header, events: recording.events, latencyMs: 50, queueModel: 'conservative', feeRateBps: 300 });
            const f = report.figures;
            const row: Row = {
              recording: recording.name,
              strategy: file,
              ref,
              variant: variant.name,
              pnl: f.totalPnlUsdc,
              fills: f.fills,
              markouts: HORIZONS.map((h) => {
                const m = f.markouts.find((x) => x.horizonMs === h);
                return m === undefined || m.fills === 0 ? null : m.meanUsdc;
              }),
              fairDiff: report.surface?.total.meanAbsFairDiff ?? null,
            };
            rows.push(row);
            log(formatRow(row));
          }
        }
      }
    }
    return { rows, skipped, notes: Object.fromEntries(recs.map((r) => [r.name, r.note])) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const num = (v: number | null, digits: number): string => (v === null ? '—' : v.toFixed(digits));

export function formatRow(r: Row): string {
  return `| ${r.recording} | ${r.strategy} | ${r.ref} | ${r.variant} | ${r.pnl.toFixed(2)} | ${r.fills} | ${r.markouts.map((m) => num(m, 4)).join(' | ')} | ${num(r.fairDiff, 4)} |`;
}

export const TABLE_HEADER = '| recording | strategy | reference | surface | total PnL (USDC) | fills | markout 1 s | markout 10 s | markout 60 s | mean abs(fair Δ) |\n|---|---|---|---|---|---|---|---|---|---|';

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const only = arg('--only')?.split(',') ?? null;
  const json = process.argv.includes('--json');
  if (!json) console.log(TABLE_HEADER);
  const result = await run(only, json ? () => undefined : (line) => console.log(line));
  for (const s of result.skipped) console.error(`skipped ${s}`);
  for (const [name, note] of Object.entries(result.notes)) if (!json) console.log(`\n${name}: ${note}`);
  if (json) console.log(JSON.stringify(result));
}
