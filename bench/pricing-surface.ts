/**
 * The volatility surface against realized-only pricing, traded: the bot's backtest (real runner, executor, request
 * model) on the simulator's surface-law world (intraday variance profile, fat-tailed jumps, synthetic makers quoting
 * the TRUE surface 20 s late, informed traders 1.5 s ahead of the published underlying), BTC and SOL hourly ladders of
 * 3 strikes. Each strategy runs twice on the same seeded flow, the pricer differing only in `pricing.surface`:
 * `realized-only` (α 0, flat clock, no gap term: the model before the surface) and `surface` (the bot's default:
 * α 0.8 implied, the default intraday profile, the gap term). The pricer follows the underlying from a warm-up of
 * `WARMUP_MS` before the first ladder opens (nothing traded then), so the realized estimate is warm; the bot trades
 * the ladders settling within the window and leaves each 60 s before its settlement (the pricer's stop). Per run:
 * trading PnL (marked at the true fair value), rewards, estimated rebates, markouts per fill against the true fair
 * value 1 s / 10 s / 60 s later, and calibration as the bot records it (the model's and the book mid's predictions at
 * 50, 30, 10, 5 and 1 minutes before each settlement, mean log-loss and Brier against the outcomes). Printed per seed,
 * then the mean over seeds with the smallest…largest seed in brackets.
 * Run: nice -n 10 npx tsx bench/pricing-surface.ts [--seeds 3] [--hours 1] [--strategies fixed-spread,glft] [--json]
 */
import { pathToFileURL } from 'node:url';
import { runBacktest, type BacktestOptions } from '../src/backtest/index.js';
import type { BacktestCalibration } from '../src/backtest/calibration.js';
import { DEFAULT_PRICER_SETTINGS, type PricerSettings } from '../src/pricing/market-pricer.js';
import { DEFAULT_SURFACE, FLAT_PROFILE } from '../src/pricing/surface/index.js';
import { cryptoWorldOptions } from '../src/sim/engine/index.js';
import { argValue, BENCH_REBATE_RATE, figuresOf, textTable, type RunFigures } from './pricing.js';
import { CONTENDERS, type Contender } from './strategies.js';

const HOUR = 3_600_000;
/** The first ladder opens at 13:00 UTC: the simulator's profile rises into the US hours there (docs/simulator.md). */
const FIRST_LADDER_MS = Date.UTC(2026, 0, 1, 13, 0);
const WARMUP_MS = 10 * 60_000;
/** After the last settlement: the engine resolves 2 s after the instant, then the run ends. */
const TAIL_MS = 10_000;
const FIRST_SEED = 21;

/** Fixed-spread: quotes the fair value ±1 cent, so its PnL and markouts judge the fair value alone. GLFT: also takes σ from the surface. */
const STRATEGIES: Readonly<Record<string, Contender>> = {
  'fixed-spread': CONTENDERS.find((c) => c.label === 'fixed-spread')!,
  glft: CONTENDERS.find((c) => c.label === 'AS (glft)')!,
};

export type PricingVariant = 'realized-only' | 'surface';
export const PRICING_VARIANTS: readonly PricingVariant[] = ['realized-only', 'surface'];

/** The bot's pricer settings of each variant (the bot's defaults otherwise, fast-market guard on). */
export function pricerOf(variant: PricingVariant): PricerSettings {
  if (variant === 'surface') return DEFAULT_PRICER_SETTINGS;
  return { ...DEFAULT_PRICER_SETTINGS, surface: { ...DEFAULT_SURFACE, impliedWeight: 0, profile: FLAT_PROFILE, gapWeight: 0 } };
}

/** The backtest of one (strategy, variant, seed): `hours` hourly ladders traded after the warm-up. */
export function surfaceOptions(contender: Contender, variant: PricingVariant, seed: number, hours: number): BacktestOptions {
  const lastSettlement = FIRST_LADDER_MS + hours * HOUR;
  return {
    strategy: { module: contender.module, params: contender.params },
    seed,
    startMs: FIRST_LADDER_MS - WARMUP_MS,
    durationMs: WARMUP_MS + hours * HOUR + TAIL_MS,
    stepMs: 1000,
    world: cryptoWorldOptions({ tickers: ['BTC', 'SOL'], cadences: ['hourly'], strikesPerExpiry: 3, surface: true }),
    // Only the ladders opening after the warm-up and settling inside the window are traded.
    admits: (market) => market.expiresAtMs !== null && market.expiresAtMs > FIRST_LADDER_MS && market.expiresAtMs <= lastSettlement,
    pricing: pricerOf(variant),
    calibration: {},
    account: { rebateRate: BENCH_REBATE_RATE },
    // The bot's stop for a priced market: the pricer's (src/pricing/live-pricing.ts riskConfig).
    risk: { stopBeforeExpiryMs: DEFAULT_PRICER_SETTINGS.stopBeforeSettlementMs },
  };
}

export interface SurfaceRun extends RunFigures {
  readonly strategy: string;
  readonly variant: PricingVariant;
  readonly seed: number;
  readonly calibration: Pick<BacktestCalibration, 'model' | 'mid' | 'missing'>;
}

export async function runOne(strategy: string, variant: PricingVariant, seed: number, hours: number): Promise<SurfaceRun> {
  const contender = STRATEGIES[strategy];
  if (contender === undefined) throw new Error(`--strategies: unknown ${strategy} (one of ${Object.keys(STRATEGIES).join(', ')})`);
  const result = await runBacktest(surfaceOptions(contender, variant, seed, hours));
  const calibration = result.calibration;
  if (calibration === null) throw new Error('the backtest returned no calibration');
  return { strategy, variant, seed, ...figuresOf(result), calibration: { model: calibration.model, mid: calibration.mid, missing: calibration.missing } };
}

const f2 = (v: number): string => v.toFixed(2);
const f4 = (v: number): string => v.toFixed(4);

/** Mean over seeds, with the smallest and largest in brackets. */
function spread(values: readonly number[], digits: (v: number) => string): string {
  const mean = values.reduce((a, v) => a + v, 0) / values.length;
  return values.length < 2 ? digits(mean) : `${digits(mean)} (${digits(Math.min(...values))}…${digits(Math.max(...values))})`;
}

const COLUMNS: readonly { readonly name: string; readonly of: (r: SurfaceRun) => number; readonly digits: (v: number) => string }[] = [
  { name: 'trading PnL', of: (r) => r.tradingPnlUsdc, digits: f2 },
  { name: 'rewards', of: (r) => r.rewardsUsdc, digits: f2 },
  { name: 'total (USDC)', of: (r) => r.totalUsdc, digits: f2 },
  { name: 'fills', of: (r) => r.fills, digits: (v) => v.toFixed(0) },
  { name: 'markout/fill 1s', of: (r) => r.markout1s, digits: f4 },
  { name: '10s', of: (r) => r.markout10s, digits: f4 },
  { name: '60s', of: (r) => r.markout60s, digits: f4 },
  { name: 'model log-loss', of: (r) => r.calibration.model.logLoss, digits: f4 },
  { name: 'model Brier', of: (r) => r.calibration.model.brier, digits: f4 },
  { name: 'mid log-loss', of: (r) => r.calibration.mid.logLoss, digits: f4 },
  { name: 'mid Brier', of: (r) => r.calibration.mid.brier, digits: f4 },
];

export function table(runs: readonly SurfaceRun[]): string {
  const rows: string[][] = [['strategy', 'pricing', 'seed', ...COLUMNS.map((c) => c.name), 'n model/mid']];
  const groups = [...new Set(runs.map((r) => `${r.strategy}\u0000${r.variant}`))];
  for (const group of groups) {
    const mine = runs.filter((r) => `${r.strategy}\u0000${r.variant}` === group);
    for (const r of mine) rows.push([r.strategy, r.variant, String(r.seed), ...COLUMNS.map((c) => c.digits(c.of(r))), `${r.calibration.model.n}/${r.calibration.mid.n}`]);
  }
  for (const group of groups) {
    const mine = runs.filter((r) => `${r.strategy}\u0000${r.variant}` === group);
    const first = mine[0]!;
    const n = (pick: (r: SurfaceRun) => number): number => mine.reduce((a, r) => a + pick(r), 0);
    rows.push([first.strategy, first.variant, 'mean', ...COLUMNS.map((c) => spread(mine.map(c.of), c.digits)), `${n((r) => r.calibration.model.n)}/${n((r) => r.calibration.mid.n)}`]);
  }
  return textTable(rows, 3);
}

export async function run(seeds = argValue('--seeds', 3), hours = argValue('--hours', 1), strategies = listArg('--strategies', Object.keys(STRATEGIES))): Promise<SurfaceRun[]> {
  const runs: SurfaceRun[] = [];
  // Seed by seed, so that the runs done so far always pair the two pricings; each run is one JSON line on stderr.
  for (let seed = FIRST_SEED; seed < FIRST_SEED + seeds; seed += 1) {
    for (const strategy of strategies) {
      for (const variant of PRICING_VARIANTS) {
        const one = await runOne(strategy, variant, seed, hours);
        process.stderr.write(`${JSON.stringify(one)}\n`);
        runs.push(one);
      }
    }
  }
  return runs;
}

function listArg(flag: string, fallback: readonly string[]): readonly string[] {
  const i = process.argv.indexOf(flag);
  const v = i >= 0 ? process.argv[i + 1] : undefined;
  return v === undefined ? fallback : v.split(',').filter((s) => s !== '');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  const runs = await run();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ runs, wallMs: Math.round(performance.now() - started) }));
  } else {
    const hours = argValue('--hours', 1);
    console.log(
      `pricing-surface: surface-law world, BTC and SOL hourly ladders of 3 strikes, ${hours} ladder(s) traded after a ${WARMUP_MS / 60_000}-minute warm-up from 13:00 UTC; seeds ${FIRST_SEED}… ; ` +
        'PnL marked at the true fair value, markouts per fill (USDC) against it; calibration at 50/30/10/5/1 min before settlement',
    );
    console.log(table(runs));
    const missing: Record<string, number> = {};
    for (const r of runs) for (const [k, v] of Object.entries(r.calibration.missing)) missing[k] = (missing[k] ?? 0) + v;
    console.log(`predictions missing (all runs): ${Object.entries(missing).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}; wall ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
}
