/**
 * Issue 31 item 5 on the synthetic backtest: `strategy.params.rewardQuoting` (src/strategy/reward-quoting.ts), which
 * every built-in strategy honours, with and without it on the same seeds. fixed-spread quoting 4 cents from the mid
 * with 10 shares earns no reward in a band of 3 cents with a 20-share minimum; with reward quoting on, each side keeps
 * a 20-share quote inside the band where the reward it adds beats the adverse selection it buys — judged, by default,
 * from the markouts of the run's own fills per market and cadence (the backtest's adverse-selection provider,
 * src/markouts/adverse-provider.ts, read through `view.adverseSelection`), the strategy's own view being the prior
 * (`adverseFrom: 'view'`: that prior alone, the behaviour before). The figures (rewards, adverse selection at 60 s
 * against the true fair value, trading PnL, total) are printed and in docs/rewards.md.
 */
import { describe, expect, it } from 'vitest';
import { runBacktest, type BacktestResult } from '../../src/backtest/index.js';
import type { AdverseSelectionView } from '../../src/strategy/adverse-selection.js';
import type { MarketView, Strategy, StrategyModule } from '../../src/strategy/contract.js';
import avellanedaStoikov from '../../strategies/avellaneda-stoikov.js';
import fixedSpread from '../../strategies/fixed-spread.js';
import { scenario, VIRTUAL_MINUTES } from './strategies-fixtures.js';

/** The module, with every view's adverse selection and reward-quoting diagnostics recorded. */
function watched<P>(module: StrategyModule<P>, seen: { views: Map<string, AdverseSelectionView | null>; sources: Set<number> }): StrategyModule<P> {
  return {
    ...module,
    create: (params: P): Strategy => {
      const inner = module.create(params);
      return {
        quote: (view: MarketView) => {
          seen.views.set(view.market.slug, view.adverseSelection ?? null);
          const intents = inner.quote(view);
          const source = inner.diagnostics?.(view)['rewardQuotingBidAdverseSource'];
          if (source !== undefined) seen.sources.add(source);
          return intents;
        },
      };
    },
  };
}

const WIDE = { bidSpread: 0.04, askSpread: 0.04, orderSize: 10 };
const ON = { enabled: true };
const SEEDS = [1];

/** Σ over fills of the 60 s markout against the true fair value (negative: adverse selection), USDC. */
const markout60 = (r: BacktestResult): number => {
  const h = r.markouts.find((m) => m.horizonMs === 60_000);
  return h === undefined ? 0 : h.meanPerFillUsdc * h.fills;
};
const figures = (r: BacktestResult) => ({
  rewards: Number(r.scoredRewardUsdc.toFixed(2)),
  markout60: Number(markout60(r).toFixed(2)),
  trading: r.pnlRaw / 1e6,
  total: Number((r.pnlRaw / 1e6 + r.scoredRewardUsdc + r.rebatesRaw / 1e6).toFixed(2)),
  fills: r.fills,
});

describe('reward quoting on the synthetic backtest (10 virtual minutes, informed flow on)', () => {
  it('fixed-spread: with it on, the same seeds earn rewards they did not earn without it, judged from the run\'s markouts', async () => {
    for (const seed of SEEDS) {
      const seen = { views: new Map<string, AdverseSelectionView | null>(), sources: new Set<number>() };
      const off = await runBacktest(scenario(fixedSpread, WIDE, seed));
      const on = await runBacktest(scenario(watched(fixedSpread, seen), { ...WIDE, rewardQuoting: ON }, seed));
      console.log(`reward quoting seed ${seed}: off ${JSON.stringify(figures(off))} on ${JSON.stringify(figures(on))}`);
      expect(off.scoredRewardUsdc).toBe(0);
      expect(on.scoredRewardUsdc).toBeGreaterThan(0.05);
      expect(on.counters.invalidIntents).toBe(0);
      expect(on.engineInvariantViolations).toEqual([]);
      // The backtest's provider reached every market's view: the minutes quoted, the fills made (read every 30 s).
      expect([...seen.views.keys()].sort()).toEqual(on.markets.map((m) => m.slug).sort());
      for (const [slug, adverse] of seen.views) {
        expect(adverse).not.toBeNull();
        expect(adverse?.market.bid.exposureMinutes).toBeGreaterThan(VIRTUAL_MINUTES - 1);
        const fills = (adverse?.market.bid.fills ?? 0) + (adverse?.market.ask.fills ?? 0);
        expect(fills).toBeLessThanOrEqual(on.markets.find((m) => m.slug === slug)?.fills ?? 0);
      }
      // The decision read the markouts (1: their prior, 2: the cadence, 3: the market), never the view alone (0).
      expect(seen.sources.size).toBeGreaterThan(0);
      expect(seen.sources.has(0)).toBe(false);
    }
  });

  it('avellaneda-stoikov honours the same setting, from the markouts and from the view alone; adverse selection priced above any reward keeps it off', async () => {
    const params = { orderSize: 10, gamma: 2 };
    const off = await runBacktest(scenario(avellanedaStoikov, params, 3));
    const on = await runBacktest(scenario(avellanedaStoikov, { ...params, rewardQuoting: ON }, 3));
    const viewOnly = await runBacktest(scenario(avellanedaStoikov, { ...params, rewardQuoting: { enabled: true, adverseFrom: 'view' } }, 3));
    const priced = await runBacktest(scenario(avellanedaStoikov, { ...params, rewardQuoting: { enabled: true, baseAdverseTicks: 10_000, minFillsPerMinute: 10 } }, 3));
    console.log(
      `reward quoting avellaneda-stoikov seed 3: off ${JSON.stringify(figures(off))} on ${JSON.stringify(figures(on))} view-only ${JSON.stringify(figures(viewOnly))} priced-out ${JSON.stringify(figures(priced))}`,
    );
    expect(on.scoredRewardUsdc).toBeGreaterThan(off.scoredRewardUsdc);
    expect(viewOnly.scoredRewardUsdc).toBeGreaterThan(off.scoredRewardUsdc);
    expect(priced.scoredRewardUsdc).toBe(off.scoredRewardUsdc);
  });
});
