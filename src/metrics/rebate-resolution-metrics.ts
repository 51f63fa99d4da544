/**
 * The metrics of resolving maker rebates from the public trade feed (src/rewards/rebate-resolver.ts): how many maker
 * fills' rebates are resolved from their trade, still the prior's estimate, or never matched; each resolution by
 * outcome and kind of match; and the trade-feed elements skipped as unreadable.
 *
 * Owns: these metrics' names, help and labels. Invariants: labels are bounded (states, outcomes and kinds are fixed
 * lists); counts that are not non-negative safe integers are ignored.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

export const REBATE_STATES = ['pending', 'trade', 'unmatched'] as const;
export type RebateState = (typeof REBATE_STATES)[number];

export interface RebateResolutionMetrics {
  /** The ledger's maker rebates (of fills not failed) per state. */
  rebateStates(counts: Readonly<Record<RebateState, number>>): void;
  /** One maker fill's rebate left 'pending': resolved from its trade (kind of match) or unmatched in time. */
  rebateResolved(outcome: 'trade' | 'unmatched', match: 'same' | 'complementary' | 'none', count?: number): void;
  /** Elements of the trade feed (GET /markets/{slug}/events) skipped because they failed validation. */
  tradeFeedSkipped(count: number): void;
}

const countable = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;

export function createRebateResolutionMetrics(registers: Registry[]): RebateResolutionMetrics {
  const states = new Gauge({ name: 'outcome_maker_rebate_fills', help: 'Maker fills with a rebate estimate, by state: pending (the prior\'s estimate), trade (resolved from the public trade feed), unmatched (never found: the prior\'s estimate kept).', labelNames: ['state'] as const, registers });
  const resolved = new Counter({ name: 'outcome_maker_rebate_resolutions_total', help: 'Maker rebates resolved from the trade feed (outcome trade, by kind of match) or given up (outcome unmatched).', labelNames: ['outcome', 'match'] as const, registers });
  const skipped = new Counter({ name: 'outcome_maker_trade_feed_skipped_total', help: 'Trade-feed elements (GET /markets/{slug}/events) skipped because a field failed validation.', registers });
  for (const state of REBATE_STATES) states.set({ state }, 0);
  skipped.inc(0);
  return {
    rebateStates(counts) {
      for (const state of REBATE_STATES) if (countable(counts[state])) states.set({ state }, counts[state]);
    },
    rebateResolved(outcome, match, count = 1) {
      if (countable(count) && count > 0) resolved.inc({ outcome, match }, count);
    },
    tradeFeedSkipped(count) {
      if (countable(count) && count > 0) skipped.inc(count);
    },
  };
}
