/**
 * The expected adverse selection per minute from the markouts (src/strategy/adverse-selection.ts, pure) and reward
 * quoting's use of it (src/strategy/reward-quoting.ts): the formula, the prior chain market → cadence → strategy, and
 * a reward quote that the view's own figures allow but the markouts price out (and the other way round).
 */
import { describe, expect, it } from 'vitest';
import { expectedAdverseSelection, NO_ADVERSE_STATS, shrinkAdverse, type AdverseSelectionView, type AdverseStats } from '../../../src/strategy/adverse-selection.js';
import { applyRewardQuoting, rewardQuotingSchema } from '../../../src/strategy/reward-quoting.js';
import { view } from '../../support/views.js';

const WEIGHTS = { priorFills: 5, priorMinutes: 30 };
const PRIOR = { perShareUsdc: 0.003, fillsPerMinute: 0.05 };
const stats = (s: Partial<AdverseStats>): AdverseStats => ({ ...NO_ADVERSE_STATS, ...s });
const both = (s: AdverseStats): Record<'bid' | 'ask', AdverseStats> => ({ bid: s, ask: s });
const adverseView = (market: AdverseStats, cadence: AdverseStats = NO_ADVERSE_STATS): AdverseSelectionView => ({
  horizonMs: 60_000,
  cadenceName: 'hourly',
  market: both(market),
  cadence: both(cadence),
});

describe('shrinkAdverse', () => {
  it('is exactly the prior without data', () => {
    expect(shrinkAdverse(NO_ADVERSE_STATS, PRIOR, 20, WEIGHTS)).toEqual(PRIOR);
    expect(shrinkAdverse(NO_ADVERSE_STATS, PRIOR, 20, { priorFills: 0, priorMinutes: 0 })).toEqual(PRIOR);
  });

  it('weighs the data against the prior as the docs state', () => {
    const s = stats({ fills: 4, exposureMinutes: 10, judgedFills: 4, judgedShares: 50, adverseUsdc: 0.5 });
    const got = shrinkAdverse(s, PRIOR, 20, WEIGHTS);
    // (0.5 + 5·20·0.003) / (50 + 5·20) and (4 + 30·0.05) / (10 + 30)
    expect(got.perShareUsdc).toBeCloseTo(0.8 / 150, 12);
    expect(got.fillsPerMinute).toBeCloseTo(5.5 / 40, 12);
    // Without a prior the data alone decides.
    const raw = shrinkAdverse(s, PRIOR, 20, { priorFills: 0, priorMinutes: 0 });
    expect(raw.perShareUsdc).toBeCloseTo(0.01, 12);
    expect(raw.fillsPerMinute).toBeCloseTo(0.4, 12);
  });
});

describe('expectedAdverseSelection', () => {
  it('falls back to the cadence, then to the strategy, and says which decided', () => {
    const none = expectedAdverseSelection(adverseView(NO_ADVERSE_STATS), 'bid', PRIOR, 20, WEIGHTS);
    expect(none).toMatchObject({ source: 'strategy', perShareUsdc: PRIOR.perShareUsdc, fillsPerMinute: PRIOR.fillsPerMinute });
    expect(none.perMinuteUsdc).toBeCloseTo(0.05 * 20 * 0.003, 12);
    const cadence = stats({ fills: 60, exposureMinutes: 120, judgedFills: 60, judgedShares: 1200, adverseUsdc: 24 });
    const fromCadence = expectedAdverseSelection(adverseView(NO_ADVERSE_STATS, cadence), 'bid', PRIOR, 20, WEIGHTS);
    expect(fromCadence.source).toBe('cadence');
    expect(fromCadence.perShareUsdc).toBeCloseTo(shrinkAdverse(cadence, PRIOR, 20, WEIGHTS).perShareUsdc, 12);
    const market = stats({ fills: 10, exposureMinutes: 20, judgedFills: 10, judgedShares: 200, adverseUsdc: -1 });
    const fromMarket = expectedAdverseSelection(adverseView(market, cadence), 'ask', PRIOR, 20, WEIGHTS);
    expect(fromMarket.source).toBe('market');
    const viaCadence = shrinkAdverse(cadence, PRIOR, 20, WEIGHTS);
    expect(fromMarket.perShareUsdc).toBeCloseTo((-1 + 100 * viaCadence.perShareUsdc) / 300, 12);
    expect(fromMarket.fillsPerMinute).toBeCloseTo((10 + 30 * viaCadence.fillsPerMinute) / 50, 12);
  });

  it('never prices favourable fills below zero', () => {
    const market = stats({ fills: 30, exposureMinutes: 30, judgedFills: 30, judgedShares: 600, adverseUsdc: -30 });
    const got = expectedAdverseSelection(adverseView(market), 'bid', PRIOR, 20, WEIGHTS);
    expect(got.perShareUsdc).toBeLessThan(0);
    expect(got.perMinuteUsdc).toBe(0);
  });
});

describe('reward quoting judged from the markouts', () => {
  // Default test book: bids 480/470, asks 520/530 (100 shares each), a 1,000 USDC/day pool, maxSpread 30, minSize 10.
  const plan = { intents: [], diagnostics: {} };
  const toxic = stats({ fills: 40, exposureMinutes: 20, judgedFills: 40, judgedShares: 400, adverseUsdc: 8 });
  const benign = stats({ fills: 40, exposureMinutes: 20, judgedFills: 40, judgedShares: 400, adverseUsdc: -20 });
  const run = (adverse: AdverseSelectionView | null, extra: Record<string, unknown> = {}) => {
    const v = { ...view({ market: { dailyRewardRaw: 1_000_000_000 } }), adverseSelection: adverse };
    return applyRewardQuoting(plan, { view: v, own: [], previous: [] }, rewardQuotingSchema.parse({ enabled: true, ...extra }));
  };

  it('adds reward quotes at the strategy prior, keeps them out where the market\'s markouts are toxic', () => {
    const prior = run(null);
    expect(prior.intents).toHaveLength(2);
    expect(prior.diagnostics['rewardQuotingBidAdverseSource']).toBe(0);
    const toxicRun = run(adverseView(toxic));
    expect(toxicRun.intents).toEqual([]);
    expect(toxicRun.diagnostics['rewardQuotingBidAdverseSource']).toBe(3);
    expect(toxicRun.diagnostics['rewardQuotingBidAdversePerMin']).toBeGreaterThan(toxicRun.diagnostics['rewardQuotingBidGainPerMin'] ?? Infinity);
    // The same toxic figures, but the setting reads the view only: the prior decides, as before.
    expect(run(adverseView(toxic), { adverseFrom: 'view' }).intents).toHaveLength(2);
  });

  it('quotes where the markouts say the fills were benign even though the strategy prior is priced out', () => {
    const pricedOut = { baseAdverseTicks: 200 };
    expect(run(adverseView(NO_ADVERSE_STATS), pricedOut).intents).toEqual([]);
    const got = run(adverseView(benign), pricedOut);
    expect(got.intents).toHaveLength(2);
    expect(got.diagnostics['rewardQuotingAskAdversePerMin']).toBe(0);
  });

  it('a toxic cadence with a quiet market prices the market out too', () => {
    const got = run(adverseView(NO_ADVERSE_STATS, toxic));
    expect(got.intents).toEqual([]);
    expect(got.diagnostics['rewardQuotingBidAdverseSource']).toBe(2);
  });
});
