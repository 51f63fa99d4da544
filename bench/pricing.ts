/**
 * Pricing from the underlying against pricing from the book, on the same seeded crypto world: every built-in
 * strategy with (a) the book reference (mid, adjusted midpoint: how the bot priced before), (b) the model reference
 * (the digital on the underlying's published price, src/pricing), and (c) the model plus the fast-market guard. The
 * informed traders see the underlying `leadMs` before the published price; the synthetic maker quotes the published
 * one; noise flow on. Markouts are per fill against the TRUE fair value (the digital on the true price) 1 s, 10 s and
 * 60 s later. Trading PnL, the liquidity rewards the resting quotes scored under the venue's formula
 * (src/strategy/rewards.ts) and the maker rebates estimated from the maker fills (taker fee on the fee curve ×
 * BENCH_REBATE_RATE, an assumption: the venue's rate is per market and unrecorded) are separate columns, then their
 * total. Prints one table; `run()` returns the figures. `figuresOf` and `textTable` are shared with
 * bench/pricing-surface.ts (the surface against realized-only).
 * Run: npx tsx bench/pricing.ts [--hours 2] [--seed 11]
 */
import { pathToFileURL } from 'node:url';
import { runBacktest, type BacktestOptions, type BacktestResult } from '../src/backtest/index.js';
import { DEFAULT_PRICER_SETTINGS, type PricerSettings } from '../src/pricing/market-pricer.js';
import { DEFAULT_UNDERLYINGS } from '../src/sim/engine/index.js';
import { CONTENDERS, type Contender } from './strategies.js';

export const argValue = (flag: string, fallback: number): number => {
  const i = process.argv.indexOf(flag);
  const v = i >= 0 ? Number(process.argv[i + 1]) : Number.NaN;
  return Number.isFinite(v) ? v : fallback;
};

const SEED = argValue('--seed', 11);
const HOURS = argValue('--hours', 2);
const START = Date.UTC(2026, 0, 1, 0, 0);
const LEAD_MS = 1500;
/** The rebate rate assumed for every market (src/strategy/rebates.ts; the venue's `rebateRate` is unrecorded). */
export const BENCH_REBATE_RATE = 0.25;

/** The strategies with the parameters of bench/strategies.ts (the same flow fits them the same way). */
type Variant = 'book' | 'model' | 'model+guard';
const VARIANTS: readonly Variant[] = ['book', 'model', 'model+guard'];

function pricingOf(variant: Variant): PricerSettings | undefined {
  if (variant === 'book') return undefined;
  return { ...DEFAULT_PRICER_SETTINGS, guard: { ...DEFAULT_PRICER_SETTINGS.guard, enabled: variant === 'model+guard' } };
}

function options(contender: Contender, variant: Variant): BacktestOptions {
  const pricing = pricingOf(variant);
  return {
    // The book variant runs without the pricer: no model view, so every strategy falls back to its book sources.
    strategy: { module: contender.module, params: contender.params },
    seed: SEED,
    startMs: START,
    durationMs: HOURS * 3_600_000,
    stepMs: 1000,
    // One strike per ticker, settling at 04:00, after the run: 4 markets on BTC, ETH, SOL and XRP.
    world: {
      underlying: { underlyings: DEFAULT_UNDERLYINGS, leadMs: LEAD_MS },
      markets: { cadences: ['daily'], strikesPerExpiry: 1, strikeSpacingSigmas: 0.5, dailyHourUtc: 4, recurring: false },
    },
    ...(pricing === undefined ? {} : { pricing }),
    account: { rebateRate: BENCH_REBATE_RATE },
    risk: { stopBeforeExpiryMs: 600_000 },
  };
}

export const horizon = (r: BacktestResult, ms: number): number => r.markouts.find((h) => h.horizonMs === ms)?.meanPerFillUsdc ?? Number.NaN;

/** The money and markout figures of one run (USDC; markouts per fill against the true fair value). */
export interface RunFigures {
  readonly tradingPnlUsdc: number;
  readonly rewardsUsdc: number;
  readonly rebatesUsdc: number;
  readonly totalUsdc: number;
  readonly fills: number;
  readonly markout1s: number;
  readonly markout10s: number;
  readonly markout60s: number;
  readonly unquoted: number;
}

export function figuresOf(result: BacktestResult): RunFigures {
  if (result.engineInvariantViolations.length > 0) throw new Error(`engine invariants broken: ${result.engineInvariantViolations.join('; ')}`);
  return {
    tradingPnlUsdc: result.pnlRaw / 1e6,
    rewardsUsdc: result.scoredRewardUsdc,
    rebatesUsdc: result.rebatesRaw / 1e6,
    totalUsdc: (result.pnlRaw + result.rebatesRaw) / 1e6 + result.scoredRewardUsdc,
    fills: result.fills,
    markout1s: horizon(result, 1_000),
    markout10s: horizon(result, 10_000),
    markout60s: horizon(result, 60_000),
    unquoted: 1 - result.quotingFraction,
  };
}

/** A text table: the first `leftColumns` columns left-aligned, the others right-aligned, a rule under the header. */
export function textTable(rows: readonly (readonly string[])[], leftColumns = 2): string {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]): string => r.map((c, i) => (i < leftColumns ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(rows[0] ?? []), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)].join('\n');
}

export async function run(): Promise<Record<string, number | string>> {
  const figures: Record<string, number | string> = { seed: SEED, virtualHours: HOURS, leadMs: LEAD_MS };
  const rows: string[][] = [['strategy', 'reference', 'trading PnL', 'rewards', 'rebates', 'total (USDC)', 'fills', 'markout/fill 1s', '10s', '60s', 'unquoted', 'requests']];
  for (const contender of CONTENDERS) {
    for (const variant of VARIANTS) {
      const result = await runBacktest(options(contender, variant));
      const f = figuresOf(result);
      const key = `${contender.label.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '')}.${variant}`;
      figures[`${key}.pnlUsdc`] = Number(f.tradingPnlUsdc.toFixed(2));
      figures[`${key}.pnlWithRewardsUsdc`] = Number((f.tradingPnlUsdc + f.rewardsUsdc).toFixed(2));
      figures[`${key}.rewardsUsdc`] = Number(f.rewardsUsdc.toFixed(2));
      figures[`${key}.rebatesUsdc`] = Number(f.rebatesUsdc.toFixed(2));
      figures[`${key}.totalUsdc`] = Number(f.totalUsdc.toFixed(2));
      figures[`${key}.fills`] = f.fills;
      figures[`${key}.markout1s`] = Number(f.markout1s.toFixed(4));
      figures[`${key}.markout10s`] = Number(f.markout10s.toFixed(4));
      figures[`${key}.markout60s`] = Number(f.markout60s.toFixed(4));
      figures[`${key}.unquoted`] = Number(f.unquoted.toFixed(4));
      rows.push([
        contender.label,
        variant,
        f.tradingPnlUsdc.toFixed(2),
        f.rewardsUsdc.toFixed(2),
        f.rebatesUsdc.toFixed(2),
        f.totalUsdc.toFixed(2),
        String(f.fills),
        f.markout1s.toFixed(4),
        f.markout10s.toFixed(4),
        f.markout60s.toFixed(4),
        `${(f.unquoted * 100).toFixed(1)}%`,
        String(result.requests.total),
      ]);
    }
  }
  console.log(`pricing: seed ${SEED}, ${HOURS} virtual hours, 4 crypto strike markets (BTC ETH SOL XRP), informed lead ${LEAD_MS} ms; markouts per fill (USDC) against the true fair value`);
  console.log(textTable(rows));
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
}
