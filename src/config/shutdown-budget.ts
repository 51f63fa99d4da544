/**
 * The shutdown budget a stop needs (pure). A stop cancels the bot's orders market by market — the venue's cancel
 * batches name one market (exchange-facts §6), so one request per market holding orders, `rateLimits.minTimeMs`
 * apart — then confirms what stays uncertain with status lookups across markets, flushes the ledger and closes; the
 * app keeps 1.5 s of the budget for that last part. A budget below that cost ends the stop with orders resting.
 *
 * Owns: the cost model and the derived default (`shutdown.budgetMs` left unset: the larger of 10 s and the cost of
 * the most markets the config can quote). Invariants: ecosystem.config.cjs derives pm2's `kill_timeout` from the same
 * rule (test/unit/config/shutdown-budget.test.ts holds the two together); a bound that the config cannot know (groups
 * without `markets.select.max`) gives null and the plain default.
 */
import type { MarketsConfig } from './types.js';

export const DEFAULT_SHUTDOWN_BUDGET_MS = 10_000;
/** Per market: one request slot plus the arrival jitter the limiter's spacing leaves. */
const PER_MARKET_SLACK_MS = 30;
/** The status lookups that confirm uncertain cancels, and the app's own 1.5 s (flush, close). */
const FIXED_STOP_MS = 3_000;

/** What a stop of `markets` markets takes at `minTimeMs` between requests, ms. */
export function stopCostMs(markets: number, minTimeMs: number): number {
  return Math.max(0, markets) * (minTimeMs + PER_MARKET_SLACK_MS) + FIXED_STOP_MS;
}

/**
 * The most markets the config can quote at once: `markets.select.max` when set (named markets included), else the
 * named slugs plus `select.top`; null when groups are listed without a cap (their members are known only at run time).
 */
export function marketBound(markets: Pick<MarketsConfig, 'slugs' | 'groups' | 'select'>): number | null {
  if (markets.select?.max != null) return markets.select.max;
  if (markets.groups.length > 0) return null;
  return markets.slugs.length + (markets.select?.top ?? 0);
}

/** `shutdown.budgetMs` when the config leaves it unset. */
export function defaultShutdownBudgetMs(bound: number | null, minTimeMs: number): number {
  return bound === null ? DEFAULT_SHUTDOWN_BUDGET_MS : Math.max(DEFAULT_SHUTDOWN_BUDGET_MS, stopCostMs(bound, minTimeMs));
}
