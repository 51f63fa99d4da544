/**
 * The bot's real REST client (src/exchange) against the embedded simulator (src/sim) over loopback: connecting
 * (profile → ownerId and fee rate), market listings and details, the orderbook, the maintenance status.
 * Everything the client returns is compared with what the simulator's engine holds.
 */
import { describe, expect, it } from 'vitest';
import { FrameworkError, OrderBuildError, RequestInputError } from '../../src/exchange/errors.js';
import { signingMarketOf } from '../../src/exchange/signer.js';
import { normalizeRewardSettings } from '../../src/exchange/wire.js';
import { clientSimPerTest, lastSeq, placeLimit, rejectionOf, startClientSim } from '../support/client-sim.js';
import { adjustedMidpoint } from '../../src/core/venue-rules/index.js';

const startHarness = clientSimPerTest({ invariants: false });

describe('client ↔ simulator: connect and read', () => {
  it('connectExchange reads the profile: ownerId and the fee rate it then signs into orders', async () => {
    const h = await startHarness({ sim: { demo: { feeRateBps: 120 } } });
    const { demo, sim } = h;
    expect(demo.client.profile).toEqual({ id: sim.demoAccount.profileId, account: sim.demoAccount.address, feeRateBps: 120 });
    expect(demo.client.api.profileId).toBe(sim.demoAccount.profileId);
    expect(demo.client.signer.feeRateBps).toBe(120);
    expect(demo.client.signer.makerAddress).toBe(sim.demoAccount.address);
    // The profile request was signed with the demo token (the simulator counts it under that token).
    const profileRequest = sim.control.requestLog().find((e) => e.path === `/profiles/${sim.demoAccount.address}`);
    expect(profileRequest).toMatchObject({ status: 200, tokenId: sim.demoAccount.tokenId });

    // The fee rate read at connect time is the one the simulator requires: the order is accepted and echoes it.
    const placed = await placeLimit(demo.client, h.signing, { outcome: 'YES', side: 'BUY', priceTicks: 300, sizeRaw: 5_000_000, postOnly: true });
    expect(placed.execution?.feeRateBps).toBe(120);
    expect(sim.engine.orderById(placed.orderId)).toMatchObject({ profileId: sim.demoAccount.profileId, feeRateBps: 120, status: 'LIVE' });
  });

  it('venue branding is configuration: another header prefix and EIP-712 domain work end to end', async () => {
    const branded = { domainName: 'Branded CTF Exchange', chainId: 84_532 };
    const h = await startHarness({ sim: { headerPrefix: 'brand', ...branded }, signerDomain: branded });
    const { demo, sim, signing } = h;
    expect(sim.headerPrefix).toBe('brand');
    const placed = await placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000, postOnly: true });
    expect(placed.order.status).toBe('LIVE');
    expect(await demo.client.api.getUserOrders(signing.slug)).toHaveLength(1);

    expect(demo.client.signer.domainFor(signing.venueExchange)).toMatchObject({ name: 'Branded CTF Exchange', chainId: 84_532 });

    // A client left on the default domain is refused by the venue: its signature recovers to another address.
    const defaults = await startClientSim({ seed: 12, sim: { headerPrefix: 'brand', ...branded } });
    try {
      const refused = await rejectionOf(
        placeLimit(defaults.demo.client, defaults.signing, { outcome: 'YES', side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000, postOnly: true }),
        FrameworkError,
      );
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/^Invalid order signature/);
      expect(defaults.sim.control.accountOrders(defaults.sim.demoAccount.profileId)).toEqual([]);
    } finally {
      await defaults.close();
    }
  });

  it('getActiveMarkets lists every tradable market once, group members flattened with their group slug', async () => {
    const h = await startHarness();
    const { demo, sim } = h;
    const page = await demo.client.api.getActiveMarkets();
    const engineMarkets = sim.engine.markets().filter((m) => m.tradable);
    expect(page.markets.map((m) => m.slug).sort()).toEqual(engineMarkets.map((m) => m.slug).sort());
    for (const m of engineMarkets) {
      const listed = page.markets.find((x) => x.slug === m.slug);
      expect(listed).toMatchObject({
        id: m.id,
        conditionId: m.conditionId,
        tokens: { yes: m.yesTokenId, no: m.noTokenId },
        // As recorded from the live venue, a simple CLOB market's adapter is null; NegRisk submarkets keep theirs.
        venue: { exchange: m.venue.exchange, adapter: m.groupSlug === undefined ? null : m.venue.adapter },
        groupSlug: m.groupSlug ?? null,
        expirationMs: m.expirationMs,
        resolved: false,
      });
    }
    const groups = sim.engine.groups();
    expect(groups.length).toBeGreaterThan(0);
    // `total` counts listing entries: single markets plus groups.
    const singles = engineMarkets.filter((m) => m.groupSlug === undefined).length;
    expect(page.total).toBe(singles + groups.length);

    // Paging: limit 2 → entries 3 and 4 on page 2 (each entry a market, or a group's members).
    const first = await demo.client.api.getActiveMarkets({ page: 1, limit: 2 });
    const second = await demo.client.api.getActiveMarkets({ page: 2, limit: 2 });
    const firstSlugs = new Set(first.markets.map((m) => m.slug));
    expect(second.markets.length).toBeGreaterThan(0);
    expect(second.markets.some((m) => firstSlugs.has(m.slug))).toBe(false);

    // By category: exactly the tradable markets carrying that category id.
    const categoryId = engineMarkets[0]?.categoryIds[0];
    if (categoryId === undefined) throw new Error('generated market without a category');
    const inCategory = await demo.client.api.getActiveMarkets({ categoryId, limit: 25 });
    expect(inCategory.markets.map((m) => m.slug).sort()).toEqual(engineMarkets.filter((m) => m.categoryIds.includes(categoryId)).map((m) => m.slug).sort());

    // The spec forbids nothing here, but the client refuses a nonsense page before sending anything.
    const before = lastSeq(sim);
    await rejectionOf(demo.client.api.getActiveMarkets({ page: 0 }), RequestInputError);
    expect(lastSeq(sim)).toBe(before);
  });

  it('getMarket: venue, tokens and reward settings normalized to exact units; a group is not signable', async () => {
    const h = await startHarness();
    const { demo, sim, simMarket, market } = h;
    expect(market).toMatchObject({
      id: simMarket.id,
      slug: simMarket.slug,
      title: simMarket.title,
      conditionId: simMarket.conditionId,
      negRiskRequestId: null,
      status: simMarket.status,
      expired: false,
      expirationMs: simMarket.expirationMs,
      tokens: { yes: simMarket.yesTokenId, no: simMarket.noTokenId },
      venue: { exchange: simMarket.venue.exchange, adapter: null }, // a simple CLOB market (recorded: adapter null)
      isRewardable: simMarket.isRewardable,
      tradeType: 'clob',
      marketType: 'single',
      winningOutcomeIndex: null,
      payoutNumerators: null,
      resolved: false,
      groupSlug: null,
      collateral: { symbol: 'USDC', decimals: 6 },
    });
    expect(market.categories).toEqual([...simMarket.categories]);

    const normalized = normalizeRewardSettings(market.settings);
    expect(normalized).toMatchObject({
      minSizeRaw: simMarket.settings.minSizeRaw,
      maxSpreadTicks: simMarket.settings.maxSpreadTicks,
      dailyRewardRaw: simMarket.settings.dailyRewardRaw,
      c: simMarket.settings.c ?? 3,
    });
    expect(normalized.assumptions.minSize).toBe('raw');
    expect(normalized.assumptions.maxSpread).toBe('price');

    expect(signingMarketOf(market)).toEqual({
      slug: simMarket.slug,
      venueExchange: simMarket.venue.exchange,
      tokens: { yes: simMarket.yesTokenId, no: simMarket.noTokenId },
    });

    // A NegRisk submarket carries its own venue; the group slug answers the group form, which has no tokens.
    const group = sim.engine.groups()[0];
    const member = group?.markets[0];
    if (group === undefined || member === undefined) throw new Error('the simulator generated no group');
    const sub = await demo.client.api.getMarket(member.slug);
    expect(sub.negRiskRequestId).toBe(group.negRiskRequestId);
    expect(sub.venue?.exchange).toBe(member.venue.exchange);
    const groupForm = await demo.client.api.getMarket(group.slug);
    expect(groupForm).toMatchObject({ slug: group.slug, marketType: 'group', tokens: null, venue: null });
    expect(() => signingMarketOf(groupForm)).toThrow(OrderBuildError);

    const missing = await rejectionOf(demo.client.api.getMarket('no-such-market'), FrameworkError);
    expect(missing).toMatchObject({ status: 404, endpoint: { method: 'GET', pathTemplate: '/markets/{slug}' } });
    expect(sim.control.requestLog().filter((e) => e.path === '/markets/no-such-market')).toHaveLength(1);
  });

  it('getOrderbook equals the engine book in ticks and raw sizes, NO bids folded in as YES asks at 1 − p', async () => {
    const h = await startHarness();
    const { demo, counterparty, sim, simMarket, signing } = h;
    const empty = await demo.client.api.getOrderbook(simMarket.slug);
    expect(empty).toMatchObject({ bids: [], asks: [], tokenId: simMarket.yesTokenId, adjustedMidpoint: null, lastTradePrice: null });

    await placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 450, sizeRaw: 10_000_000, postOnly: true });
    await placeLimit(counterparty.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 450, sizeRaw: 2_000_000, postOnly: true });
    await placeLimit(counterparty.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 440, sizeRaw: 5_500_000, postOnly: true });
    await placeLimit(demo.client, signing, { outcome: 'NO', side: 'BUY', priceTicks: 400, sizeRaw: 7_000_000, postOnly: true });
    await placeLimit(counterparty.client, signing, { outcome: 'NO', side: 'BUY', priceTicks: 380, sizeRaw: 3_250_000, postOnly: true });

    const book = await demo.client.api.getOrderbook(simMarket.slug);
    const engineBook = sim.engine.book(simMarket.slug);
    if (engineBook === undefined) throw new Error('no engine book');
    expect(book.bids).toEqual(engineBook.bids);
    expect(book.asks).toEqual(engineBook.asks);
    expect(book.bids).toEqual([
      { priceTicks: 450, sizeRaw: 12_000_000 },
      { priceTicks: 440, sizeRaw: 5_500_000 },
    ]);
    // BUY NO @ 0.400 rests as a YES ask @ 0.600; BUY NO @ 0.380 as a YES ask @ 0.620.
    expect(book.asks).toEqual([
      { priceTicks: 600, sizeRaw: 7_000_000 },
      { priceTicks: 620, sizeRaw: 3_250_000 },
    ]);
    expect(book.tokenId).toBe(simMarket.yesTokenId);
    expect(book.adjustedMidpoint).toBe(adjustedMidpoint(engineBook, simMarket.settings.minSizeRaw));
    expect(book.minSize).toBe(simMarket.settings.minSizeRaw);
    expect(book.maxSpread).toBe(simMarket.settings.maxSpreadTicks / 1000);
  });

  it('getMaintenanceStatus in normal trading: no active or scheduled windows', async () => {
    const h = await startHarness();
    const status = await h.demo.client.api.getMaintenanceStatus();
    expect(status).toEqual({ active: [], scheduled: [], mode: 'normal', resumeAtMs: null });
  });
});
