/**
 * The whole bot against the simulator: it places the orders its strategy intends, and requotes only what changed.
 *
 * Flow off: a third party makes a fixed book (bid 0.460 / ask 0.540, mid 0.500) and the fixed-spread ladder is
 * known by hand. Flow on: the simulator's synthetic maker quotes around a fair value the test moves, and the bot
 * must follow the book it makes. Throughout, a watcher samples the venue after every order event of the bot's
 * account: never two live orders in one (market, slot), never a live order of the account without the bot's tag.
 */
import { describe, it } from 'vitest';
import {
  allOrders,
  cleanupAfterTest,
  ladderOf,
  liveOrders,
  othersTouch,
  sameLadder,
  setThirdPartyQuotes,
  slotOverlaps,
  startBookedSim,
  startBot,
  startLiveBot,
  testConfig,
  waitFor,
  watchVenue,
  when,
  unexplainedRateLimits,
} from '../support/bot-harness.js';

describe.concurrent('the bot quotes what the strategy intends', () => {
  it('flow off: a two-level fixed-spread ladder around a third-party book, one order per slot, all tagged, post-only', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug } = await startBookedSim(cleanup);
    const watcher = watchVenue(cleanup, sim, [slug]);

    const running = await startLiveBot(sim, cleanup, { markets: [slug], strategy: { levels: 2, levelSpacing: 0.01, orderSize: 5, sizeIncrement: 2 } });

    // mid 0.500: bids 0.480 / 0.470 (BUY YES), asks 0.520 / 0.530 as BUY NO at 0.480 / 0.470 (no YES held).
    const expected = {
      'ask-0': 'BUY NO 480 x 5000000',
      'ask-1': 'BUY NO 470 x 7000000',
      'bid-0': 'BUY YES 480 x 5000000',
      'bid-1': 'BUY YES 470 x 7000000',
    };
    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), expected)), 10_000, 'the ladder', () => ({ ladder: ladderOf(sim, slug, 'it'), warnings: running.warnings() }));
    for (const { order } of liveOrders(sim, slug, 'it')) expect(order.postOnly).toBe(true);
    // Nothing else was ever placed: exactly the four orders of the ladder.
    expect(sim.engine.orders(sim.demoAccount.profileId, slug, ['LIVE', 'CANCELED', 'MATCHED', 'UNMATCHED'])).toHaveLength(4);
    expect(running.bot.summary().openOrders).toBe(4);
    expect(watcher.samples.length).toBeGreaterThanOrEqual(4);
    expect(watcher.violations).toEqual([]);
  });

  it('flow on: the bot follows the synthetic maker as the fair value moves, in every market', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const config = testConfig({
      venue: {
        kind: 'sim',
        seed: 5,
        markets: 3,
        flow: { enabled: true, stepMs: 100, volatilityPerSqrtHour: 0, jumpsPerHour: 0, noiseTakersPerMinute: 0, informedTakersPerMinute: 0, makerLevels: 3, makerSpreadTicks: 20 },
      },
      strategy: { bidSpread: 0.02, askSpread: 0.02, orderSize: 5 },
    });
    const running = await startBot(config, {}, cleanup);
    const sim = running.bot.simulator;
    if (sim === null) throw new Error('the embedded simulator is missing');
    const slugs = sim.engine.markets().map((m) => m.slug);
    expect(slugs).toHaveLength(3);
    const watcher = watchVenue(cleanup, sim, slugs);

    /** The one-level ladder around the book without the bot's orders: bid rounded down, ask rounded up. */
    const expectedLadder = (slug: string): Record<string, string> | undefined => {
      const touch = othersTouch(sim, slug);
      if (touch.bidTicks === null || touch.askTicks === null) return undefined;
      const mid = (touch.bidTicks + touch.askTicks) / 2;
      return { 'ask-0': `BUY NO ${1000 - Math.ceil(mid + 20)} x 5000000`, 'bid-0': `BUY YES ${Math.floor(mid - 20)} x 5000000` };
    };
    const converged = (slug: string): boolean => {
      const expected = expectedLadder(slug);
      return expected !== undefined && sameLadder(ladderOf(sim, slug, 'it'), expected);
    };
    const state = (): unknown => slugs.map((slug) => ({ slug, fair: sim.engine.fairValueTicks(slug), touch: othersTouch(sim, slug), ladder: ladderOf(sim, slug, 'it') }));
    await waitFor(() => when(slugs.every(converged)), 10_000, 'quotes around the synthetic book in every market', state);

    // Move one market's fair value: the synthetic maker requotes around it, and the bot follows.
    const moved = slugs[0]!;
    const fair = sim.engine.fairValueTicks(moved)!;
    const target = fair <= 500 ? fair + 15 : fair - 15;
    sim.control.setFairValue(moved, target);
    await waitFor(() => when(othersTouch(sim, moved).bidTicks === target - 20), 5_000, 'the synthetic maker to requote', state);
    await waitFor(() => when(slugs.every(converged)), 8_000, 'the bot to follow the moved book', state);
    const bid = ladderOf(sim, moved, 'it')['bid-0'];
    expect(bid).toBe(`BUY YES ${target - 20} x 5000000`);
    expect(watcher.violations).toEqual([]);
    // Also before the watcher existed (the embedded simulator starts with the bot): never two orders in a slot.
    for (const slug of slugs) expect(slotOverlaps(sim, slug, 'it')).toEqual([]);
    expect(allOrders(sim, moved).length).toBeGreaterThanOrEqual(4);
    expect(unexplainedRateLimits(sim)).toEqual([]);
  });

  it('a price move requotes only the slots that changed; the others keep their venue order ids', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug } = await startBookedSim(cleanup);
    const watcher = watchVenue(cleanup, sim, [slug]);
    const running = await startLiveBot(sim, cleanup, { markets: [slug], strategy: { levels: 2, levelSpacing: 0.01 } });
    const before = {
      'ask-0': 'BUY NO 480 x 5000000',
      'ask-1': 'BUY NO 470 x 5000000',
      'bid-0': 'BUY YES 480 x 5000000',
      'bid-1': 'BUY YES 470 x 5000000',
    };
    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), before)), 10_000, 'the first ladder', () => ladderOf(sim, slug, 'it'));
    const idsBefore = new Map(liveOrders(sim, slug, 'it').map(({ order, slot }) => [slot, order.id]));
    const seq = sim.control.requestLog({ limit: 1 })[0]?.seq ?? 0;

    // The ask moves up one tick: mid 0.5005. Bids round down (0.4805 → 0.480, unchanged), asks round up
    // (0.5205 → 0.521, i.e. BUY NO 0.479; 0.5305 → 0.531, BUY NO 0.469).
    setThirdPartyQuotes(sim, slug, { askTicks: 541 });
    const after = { ...before, 'ask-0': 'BUY NO 479 x 5000000', 'ask-1': 'BUY NO 469 x 5000000' };
    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), after)), 8_000, 'the asks to move', () => ({ ladder: ladderOf(sim, slug, 'it'), warnings: running.warnings() }));

    const idsAfter = new Map(liveOrders(sim, slug, 'it').map(({ order, slot }) => [slot, order.id]));
    expect(idsAfter.get('bid-0')).toBe(idsBefore.get('bid-0'));
    expect(idsAfter.get('bid-1')).toBe(idsBefore.get('bid-1'));
    expect(idsAfter.get('ask-0')).not.toBe(idsBefore.get('ask-0'));
    expect(idsAfter.get('ask-1')).not.toBe(idsBefore.get('ask-1'));
    for (const slot of ['ask-0', 'ask-1']) expect(sim.engine.orderById(idsBefore.get(slot)!)?.status).toBe('CANCELED');
    // The two asks were replaced in one cancel-replace batch (no plain placement, and no cancel touched the bids).
    // A 429 the watcher explains (a stall of this process's loop: its own check below) is answered by the same request
    // again, not by another decision of the bot, so the requests the venue served are the ones counted.
    const trading = sim.control.requestLog({ sinceSeq: seq }).filter((e) => e.tokenId === sim.demoAccount.tokenId && e.method !== 'GET' && !e.path.startsWith('/orders/status'));
    const served = trading.filter((e) => e.status !== 429);
    const described = trading.map((e) => `${e.method} ${e.path} → ${e.status}${e.detail === undefined ? '' : ` ${JSON.stringify(e.detail)}`}`).join('; ');
    expect(served.map((e) => `${e.method} ${e.path}`), described).toEqual(['POST /orders/cancel-replace/batch']);
    for (const slot of ['bid-0', 'bid-1']) expect(sim.engine.orderById(idsBefore.get(slot)!)?.status).toBe('LIVE');
    expect(watcher.violations).toEqual([]);
  });
});
