/**
 * Strategies side by side: each built-in strategy backtested on the SAME seed, markets and synthetic flow
 * (passive maker, noise takers, informed takers on), 2 virtual hours over 4 markets, through the real
 * matching engine and the bot's own strategy runner, account view, gate and order executor, with the bot's
 * default order management, risk limits and request model (src/backtest). Prints one table; `run()` returns the figures.
 * Run: npx tsx bench/strategies.ts
 */
import { pathToFileURL } from 'node:url';
import { comparisonTable, runBacktest, type BacktestOptions, type BacktestResult, type LabelledResult } from '../src/backtest/index.js';
import type { StrategyModule } from '../src/strategy/contract.js';
import avellanedaStoikov from '../strategies/avellaneda-stoikov.js';
import fixedSpread from '../strategies/fixed-spread.js';
import liquidityRewards from '../strategies/liquidity-rewards.js';

const SEED = 7;
const HOURS = 2;
const MARKETS = 4;

export interface Contender {
  readonly label: string;
  readonly module: StrategyModule<unknown>;
  readonly params: Record<string, unknown>;
}

/**
 * Parameters: the defaults, except where a default does not fit this flow — fixed-spread's 2-cent spread
 * sits behind the synthetic maker's quotes (at ±2 cents) and never fills, and Avellaneda–Stoikov's 24-hour
 * horizon with the flow's volatility (0.6 log-odds/√h) quotes far outside the book.
 */
export const CONTENDERS: readonly Contender[] = [
  { label: 'fixed-spread', module: fixedSpread, params: { bidSpread: 0.01, askSpread: 0.01 } },
  { label: 'avellaneda-stoikov', module: avellanedaStoikov, params: { horizonCapHours: 1 } },
  { label: 'AS (glft)', module: avellanedaStoikov, params: { model: 'glft' } },
  { label: 'liquidity-rewards', module: liquidityRewards, params: {} },
];

function keyOf(contender: Contender): string {
  return contender.label.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '');
}

function options(contender: Contender): BacktestOptions {
  return {
    strategy: { module: contender.module, params: contender.params },
    seed: SEED,
    durationMs: HOURS * 3_600_000,
    stepMs: 1000,
    markets: { count: MARKETS },
  };
}

export async function run(): Promise<Record<string, number | string>> {
  const results: LabelledResult[] = [];
  const figures: Record<string, number | string> = { seed: SEED, virtualHours: HOURS, markets: MARKETS };
  for (const contender of CONTENDERS) {
    const started = performance.now();
    const result: BacktestResult = await runBacktest(options(contender));
    const wallMs = performance.now() - started;
    results.push({ label: contender.label, result });
    const key = keyOf(contender);
    figures[`${key}.pnlUsdc`] = result.pnlRaw / 1e6;
    figures[`${key}.fills`] = result.fills;
    figures[`${key}.volumeUsdc`] = result.volumeRaw / 1e6;
    figures[`${key}.maxAbsInventoryShares`] = result.maxAbsInventoryRaw / 1e6;
    figures[`${key}.twoSidedFraction`] = Number(result.twoSidedFraction.toFixed(4));
    figures[`${key}.expectedRewardPerDayUsdc`] = Number(result.expectedRewardPerDay.toFixed(2));
    figures[`${key}.scoredRewardUsdc`] = Number(result.scoredRewardUsdc.toFixed(2));
    figures[`${key}.requests`] = result.requests.total;
    figures[`${key}.wallMs`] = Math.round(wallMs);
    figures[`${key}.virtualSpeedup`] = Math.round((HOURS * 3_600_000) / wallMs);
    // A table over an inconsistent engine would be worthless: refuse it.
    if (result.engineInvariantViolations.length > 0) throw new Error(`engine invariants broken: ${result.engineInvariantViolations.join('; ')}`);
  }
  console.log(`strategies: seed ${SEED}, ${HOURS} virtual hours, ${MARKETS} markets, informed flow on, bot defaults (10 s cool-off, 50 ms one way, 320 ms between requests)`);
  console.log(comparisonTable(results));
  console.log(`wall time per run (ms): ${CONTENDERS.map((c) => `${c.label} ${String(figures[`${keyOf(c)}.wallMs`])}`).join(', ')}`);
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
}
