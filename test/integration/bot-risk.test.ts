/**
 * Risk limits of the whole bot, seen from the venue: the strategy asks for more than each limit allows, and a
 * watcher checks after EVERY order event of the bot's account that the venue never holds exposure beyond the
 * limit (worst case: every open BUY fills), also across fills the third party makes against the bot's quotes.
 *
 * - per market (one bot, one market per limit, `risk.perMarket`): maxOpenOrders, maxPositionPerToken,
 *   maxNetPosition, priceBand;
 * - across markets: maxNotional;
 * - stopBeforeExpirySec on a market that expires a few seconds after the test starts;
 * - the kill switch: a tiny dailyLossLimit tripped by a losing round trip → every order canceled, quoting paused
 *   while the Bot stays up, `resume()` quotes again.
 */
import { describe, it } from 'vitest';
import type { SimOrder } from '../../src/sim/engine/index.js';
import { collateralRaw } from '../../src/core/venue-rules/index.js';
import {
  allOrders,
  cleanupAfterTest,
  firstMarkets,
  gaugeValue,
  ladderOf,
  laddersAndWarnings,
  liveOrders,
  moveBookUp,
  sameLadder,
  setThirdPartyQuotes,
  startBookedSim,
  startLiveBot,
  sumRemaining,
  thirdPartyPlace,
  waitFor,
  watchVenue,
  when,
  type VenueSample,
  unexplainedRateLimits,
} from '../support/bot-harness.js';
import type { RunningSimulator } from '../../src/sim/index.js';

const SHARE = 1_000_000;
const isBuy = (outcome: 'YES' | 'NO') => (o: SimOrder): boolean => o.side === 'BUY' && o.outcome === outcome;
const isSell = (outcome: 'YES' | 'NO') => (o: SimOrder): boolean => o.side === 'SELL' && o.outcome === outcome;

function held(sim: RunningSimulator, sample: VenueSample, slug: string, outcome: 'YES' | 'NO'): number {
  const market = sim.engine.market(slug)!;
  return sample.tokensRaw.get(outcome === 'YES' ? market.yesTokenId : market.noTokenId) ?? 0;
}

/** The third party sells `sizeRaw` YES into the bot's best bid (as BUY NO, so only USDC is needed). */
function hitBid(sim: RunningSimulator, slug: string, bidTicks: number, sizeRaw: number): void {
  const taker = thirdPartyPlace(sim, slug, { outcome: 'NO', side: 'BUY', priceTicks: 1000 - bidTicks, sizeRaw, orderType: 'FAK' });
  if (taker.filledSizeRaw !== sizeRaw) throw new Error(`hitBid: filled ${taker.filledSizeRaw} of ${sizeRaw}`);
}

describe.concurrent('risk limits hold at the venue', () => {
  it('per market: maxOpenOrders and the price band, also through a requote', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slugs } = await startBookedSim(cleanup, { markets: firstMarkets(2) });
    const [openM, bandM] = slugs;
    const watcher = watchVenue(cleanup, sim, slugs);
    // Wanted in each market: bids at 0.480 and 0.470, asks at 0.520 and 0.530 (BUY NO at 0.480 and 0.470).
    const running = await startLiveBot(sim, cleanup, {
      markets: slugs,
      strategy: { levels: 2, levelSpacing: 0.01 },
      risk: { perMarket: { [openM!]: { maxOpenOrders: 3 }, [bandM!]: { priceBand: { min: 0.475, max: 0.6 } } } },
    });
    const expected: Record<string, Record<string, string>> = {
      // The first three intents fit.
      [openM!]: { 'ask-0': 'BUY NO 480 x 5000000', 'bid-0': 'BUY YES 480 x 5000000', 'bid-1': 'BUY YES 470 x 5000000' },
      // 0.470 is below the band, for the YES bid and for the NO bid (the YES ask at 0.530).
      [bandM!]: { 'ask-0': 'BUY NO 480 x 5000000', 'bid-0': 'BUY YES 480 x 5000000' },
    };
    const state = laddersAndWarnings(sim, slugs, running);
    await waitFor(() => when(slugs.every((slug) => sameLadder(ladderOf(sim, slug, 'it'), expected[slug]!))), 10_000, 'both markets quoting within their limits', state);

    // Every slot of the open-orders market changes: still never more than three live.
    moveBookUp(sim, openM!);
    const moved = { 'ask-0': 'BUY NO 470 x 5000000', 'bid-0': 'BUY YES 490 x 5000000', 'bid-1': 'BUY YES 480 x 5000000' };
    await waitFor(() => when(sameLadder(ladderOf(sim, openM!, 'it'), moved)), 8_000, 'the requote', state);

    expect(watcher.max((s) => s.live.get(openM!)?.length ?? 0)).toBe(3);
    for (const order of allOrders(sim, bandM!)) {
      expect(order.priceTicks).toBeGreaterThanOrEqual(475);
      expect(order.priceTicks).toBeLessThanOrEqual(600);
    }
    expect(watcher.violations).toEqual([]);
    expect(unexplainedRateLimits(sim)).toEqual([]);
  });

  it('per market: maxPositionPerToken and maxNetPosition count held tokens like open BUYs, also after fills', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slugs } = await startBookedSim(cleanup, { markets: firstMarkets(2) });
    const [positionM, netM] = slugs;
    const watcher = watchVenue(cleanup, sim, slugs);
    // Wanted in each market: 10 shares each side at 0.480 / 0.520.
    const running = await startLiveBot(sim, cleanup, {
      markets: slugs,
      strategy: { orderSize: 10 },
      risk: { perMarket: { [positionM!]: { maxPositionPerToken: 6 }, [netM!]: { maxNetPosition: 4 } } },
    });
    const state = laddersAndWarnings(sim, slugs, running);
    await waitFor(
      () =>
        when(
          sameLadder(ladderOf(sim, positionM!, 'it'), { 'ask-0': 'BUY NO 480 x 6000000', 'bid-0': 'BUY YES 480 x 6000000' }) &&
            sameLadder(ladderOf(sim, netM!, 'it'), { 'ask-0': 'BUY NO 480 x 4000000', 'bid-0': 'BUY YES 480 x 4000000' }),
        ),
      10_000,
      'quotes trimmed to the limits',
      state,
    );

    // The third party sells into both bids. Position market: 6 YES held leaves no room for a YES bid. Net market:
    // +4 leaves no room for a YES bid, and room for 4 + 4 = 8 on the NO side.
    const bids = slugs.map((slug) => liveOrders(sim, slug, 'it').find((o) => o.slot === 'bid-0')!.order.id);
    const cyclesAtFill = (await gaugeValue(running.bot, 'outcome_maker_requotes_total', { market: positionM! })) ?? 0;
    hitBid(sim, positionM!, 480, 6 * SHARE);
    hitBid(sim, netM!, 480, 4 * SHARE);
    await waitFor(() => when(sameLadder(ladderOf(sim, netM!, 'it'), { 'ask-0': 'BUY NO 480 x 8000000' })), 8_000, 'the net market to requote', state);
    await waitFor(() => when(running.bot.summary().fills === 2), 5_000, 'both fills in the ledger');
    await waitFor(async () => when(((await gaugeValue(running.bot, 'outcome_maker_requotes_total', { market: positionM! })) ?? 0) > cyclesAtFill + 1), 8_000, 'a requote of the position market after its fill');
    // The ask did not move: the bot never took its own filled bid, still in the book frame, for someone else's.
    expect(ladderOf(sim, positionM!, 'it')).toEqual({ 'ask-0': 'BUY NO 480 x 6000000' });
    expect(allOrders(sim, positionM!)).toHaveLength(2);
    for (const id of bids) expect(sim.engine.orderById(id)?.status).toBe('MATCHED');

    // Never beyond either limit, at any moment the venue saw (and the limits did bind).
    for (const outcome of ['YES', 'NO'] as const) {
      expect(watcher.max((s) => held(sim, s, positionM!, outcome) + sumRemaining(s, positionM!, isBuy(outcome)))).toBe(6 * SHARE);
    }
    const netUp = (s: VenueSample): number =>
      held(sim, s, netM!, 'YES') - held(sim, s, netM!, 'NO') + sumRemaining(s, netM!, isBuy('YES')) + sumRemaining(s, netM!, isSell('NO'));
    const netDown = (s: VenueSample): number =>
      held(sim, s, netM!, 'NO') - held(sim, s, netM!, 'YES') + sumRemaining(s, netM!, isBuy('NO')) + sumRemaining(s, netM!, isSell('YES'));
    expect(watcher.max(netUp)).toBe(4 * SHARE);
    expect(watcher.max(netDown)).toBe(4 * SHARE);
    expect(watcher.violations).toEqual([]);
    expect(unexplainedRateLimits(sim)).toEqual([]);
  });

  it('across markets: maxNotional holds, also while one market requotes as another starts quoting', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    // Only the first market has a book at the start; each market wants 10 shares each side (≈ 9.6 USDC of BUYs).
    const { sim, slugs } = await startBookedSim(cleanup, { markets: firstMarkets(2), book: 'first' });
    const [first, second] = slugs;
    const watcher = watchVenue(cleanup, sim, slugs);
    const running = await startLiveBot(sim, cleanup, { markets: slugs, strategy: { orderSize: 10 }, risk: { maxNotional: 10 } });
    const state = laddersAndWarnings(sim, slugs, running);
    await waitFor(() => when(sameLadder(ladderOf(sim, first!, 'it'), { 'ask-0': 'BUY NO 480 x 10000000', 'bid-0': 'BUY YES 480 x 10000000' })), 10_000, 'the first market', state);
    const oldIds = liveOrders(sim, first!, 'it').map(({ order }) => order.id);

    // Slow answers; the first market requotes (cancel both, then place two), and the moment its old orders are
    // gone the second market gets a book: its quotes must leave room for what the first is still placing.
    sim.control.setResponseDelay(1_000);
    moveBookUp(sim, first!);
    await waitFor(() => when(oldIds.every((id) => sim.engine.orderById(id)?.status === 'CANCELED')), 8_000, 'the first market to cancel', state);
    setThirdPartyQuotes(sim, second!, { bidTicks: 460, askTicks: 540 });
    await waitFor(() => when(liveOrders(sim, second!, 'it').length > 0 && liveOrders(sim, first!, 'it').length === 2), 12_000, 'both markets quoting', state);
    sim.control.setResponseDelay(0);

    const notional = (s: VenueSample): number => {
      let total = 0;
      for (const slug of slugs) {
        for (const { order } of s.live.get(slug) ?? []) if (order.side === 'BUY') total += collateralRaw(order.remainingSizeRaw, order.priceTicks ?? 0, 'BUY');
      }
      return total;
    };
    expect(watcher.max(notional)).toBeLessThanOrEqual(10 * SHARE);
    expect(watcher.max(notional)).toBeGreaterThan(9 * SHARE);
    expect(watcher.violations).toEqual([]);
    expect(unexplainedRateLimits(sim)).toEqual([]);
  });
});
