/**
 * Turns a pure planner — (view, own orders, previous intents) → intents + diagnostics — into a
 * Strategy. It owns the only state a built-in strategy keeps: the intents it returned last per market
 * (the fallback picture of its own orders, and the previous quote for hysteresis) and the diagnostics
 * of the last quote (so `diagnostics(view)` with the same view object right after `quote(view)` costs
 * nothing and agrees with it; any other view is planned afresh, without touching the memory).
 *
 * Invariant: the planner sees only the view and what this wrapper remembers from earlier views, so a
 * replay of the same views gives the same quotes.
 */
import type { MarketView, OwnOrderView, QuoteIntent, Strategy } from './contract.js';
import { OwnQuoteMemory, ownOrdersOf } from './own-orders.js';

export interface PlanInput {
  readonly view: MarketView;
  /** The bot's resting orders in this market (from the view, else the previous intents). */
  readonly own: readonly OwnOrderView[];
  /** What this strategy returned last time for this market. */
  readonly previous: readonly OwnOrderView[];
}

export interface QuotePlan {
  readonly intents: QuoteIntent[];
  readonly diagnostics: Readonly<Record<string, number>>;
}

export type Planner = (input: PlanInput) => QuotePlan;

export function strategyFromPlanner(planner: Planner): Strategy {
  const memory = new OwnQuoteMemory();
  let last: { readonly view: MarketView; readonly diagnostics: Readonly<Record<string, number>> } | null = null;
  const planFor = (view: MarketView): QuotePlan =>
    planner({ view, own: ownOrdersOf(view, memory), previous: memory.recall(view.market.slug) });
  return {
    quote(view: MarketView): QuoteIntent[] {
      const plan = planFor(view);
      memory.remember(view.market.slug, plan.intents);
      last = { view, diagnostics: plan.diagnostics };
      return plan.intents;
    },
    diagnostics(view: MarketView): Readonly<Record<string, number>> {
      if (last !== null && last.view === view) return last.diagnostics;
      return planFor(view).diagnostics;
    },
  };
}
