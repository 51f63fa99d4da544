/**
 * Conformance: the simulator pays like the venue, through its HTTP API. A rewardable market with a maker rebate rate
 * (settings.rebateRate on GET /markets/{slug}), taker fees on the dynamic curve (the fill answer's effectiveFeeBps and
 * fee), orders resting two-sided, a short scoring and payout cycle: GET /portfolio/positions carries the rewards and
 * rebates per market and in total (read back with the bot's own parser), and the account's USDC holds the payouts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointRef } from '../../../src/exchange/errors.js';
import { parseMarket, parsePortfolio, type PortfolioPositions } from '../../../src/exchange/wire.js';
import { generateMarkets } from '../../../src/sim/engine/index.js';
import { DEFAULT_EPOCH_JUDGING, venueRewardsOf } from '../../../src/rewards/venue-rewards.js';
import { obj, waitUntil } from '../../support/sim-http.js';
import { call, BOB, placeOrder, SEED, startTestSim, type TestSim } from '../fixtures.js';

const EP: EndpointRef = { method: 'GET', pathTemplate: '/portfolio/positions' };
const SHARE = 1_000_000;

let t: TestSim;
beforeAll(async () => {
  const markets = generateMarkets(6, SEED, Date.now());
  const [first, ...rest] = markets;
  if (!first) throw new Error('no market');
  // 8640 USDC a day: 0.1 USDC a second; half of each taker fee to the maker.
  const rewarded = { ...first, isRewardable: true, settings: { minSizeRaw: 10 * SHARE, maxSpreadTicks: 30, dailyRewardRaw: 8640 * SHARE, c: 3, rebateRate: 0.5 } };
  t = await startTestSim({ markets: [rewarded, ...rest], fees: { model: 'curve' }, rewards: { enabled: true, scoreIntervalSec: 1, payoutIntervalSec: 2 } });
});
afterAll(async () => {
  await t.sim.close();
});

async function portfolio(): Promise<PortfolioPositions> {
  const r = await call(t.sim.baseUrl, 'GET', '/portfolio/positions', { creds: t.demo.creds });
  expect(r.status).toBe(200);
  return parsePortfolio(r.body, EP, 200);
}

describe('rewards and rebates over HTTP', () => {
  it('lists the rebate rate in the market settings', async () => {
    const r = await call(t.sim.baseUrl, 'GET', `/markets/${t.market.slug}`);
    expect(obj(obj(r.body)['settings'])['rebateRate']).toBe(0.5);
    expect(parseMarket(r.body, { method: 'GET', pathTemplate: '/markets/{slug}' }, 200).settings?.rebateRate).toBe(0.5);
  });

  it('scores resting orders, rebates the taker fee to the maker, pays both into USDC and reports them in the portfolio', async () => {
    const startUsdc = t.sim.engine.balances(t.demo.profileId)?.usdc.totalRaw ?? 0;
    for (const outcome of ['YES', 'NO'] as const) {
      const placed = await placeOrder(t.sim, t.demo, { market: t.market, outcome, side: 'BUY', priceTicks: 490, sizeRaw: 100 * SHARE });
      expect(placed.status).toBe(201);
    }
    // BOB buys 10 YES at 0.51 from the demo's NO bid: 5.1 USDC at 102 bps (the curve at 0.51) = 0.05202 USDC.
    const taken = await placeOrder(t.sim, BOB, { market: t.market, side: 'BUY', priceTicks: 510, sizeRaw: 10 * SHARE });
    expect(taken.status).toBe(201);
    expect(obj(obj(taken.body)['execution'])).toMatchObject({ effectiveFeeBps: 102, totalsRaw: { usdFee: '52020' } });

    const paid = await waitUntil(
      async () => {
        const p = await portfolio();
        return p.rewards?.totalPaidRebatesRaw === 26_010 && (p.rewards.totalPaidRewardsRaw ?? 0) > 0 ? p : undefined;
      },
      8_000,
      'a payout with the rebate',
    );
    const entry = paid.clob.find((c) => c.marketSlug === t.market.slug);
    expect(entry?.rewards?.isEarning).toBe(true);
    // The documented epoch shape (raw amounts, `timestamp`, `userRewards` of `totalRewards`), read as the bot reads it:
    // 2 s epochs paid on the simulator's 2 s boundaries.
    const judging = { ...DEFAULT_EPOCH_JUDGING, read: { ...DEFAULT_EPOCH_JUDGING.read, epochLengthMs: 2_000 }, payoutCycleMs: 2_000 };
    const report = venueRewardsOf(paid, Date.now(), judging);
    const marketEpochs = report.paid?.filter((e) => e.marketSlug === t.market.slug) ?? [];
    expect(marketEpochs.length).toBeGreaterThan(0);
    expect(marketEpochs.reduce((sum, e) => sum + (e.rebatesRaw ?? 0), 0)).toBe(26_010);
    expect(report.paid?.filter((e) => e.marketSlug === '*').reduce((sum, e) => sum + (e.rewardsRaw ?? 0), 0)).toBe(paid.rewards?.totalPaidRewardsRaw);
    expect(report.shapes?.account).toBe('start=timestamp rewards=userRewards rebates=userRebates');
    expect(report.unreadableEpochs).toBe(0);

    // The USDC balance holds every payout: read in one tick with the engine's own record of them.
    const view = t.sim.engine.rewards(t.demo.profileId);
    const balance = t.sim.engine.balances(t.demo.profileId)?.usdc.totalRaw;
    expect(view.paidRebatesRaw).toBe(26_010);
    expect(balance).toBe(startUsdc - 4_900_000 + view.paidRewardsRaw + view.paidRebatesRaw);
    expect(t.sim.engine.checkInvariants()).toEqual([]);
  });
});
