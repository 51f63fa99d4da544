/**
 * Conformance: GET /portfolio/positions (exchange-facts §6 shape, delegation) and POST /portfolio/redeem
 * (resolved market, payout posted, server-managed wallets only, one conditionId, onBehalfOf in the body).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, obj, waitUntil } from '../../support/sim-http.js';
import { call, BOB, EOA, PARTNER, placedId, placeOrder, startTestSim, SUB, type TestSim } from '../fixtures.js';

let t: TestSim;
beforeAll(async () => {
  t = await startTestSim();
  // demo BUY YES 10 @ 0.60 rests; bob BUY NO 10 @ 0.40 takes → demo holds 10 YES, bob 10 NO.
  placedId(await placeOrder(t.sim, t.demo, { market: t.market, side: 'BUY', priceTicks: 600, sizeRaw: 10_000_000 }));
  placedId(await placeOrder(t.sim, BOB, { market: t.market, outcome: 'NO', side: 'BUY', priceTicks: 400, sizeRaw: 10_000_000 }));
});
afterAll(async () => {
  await t.sim.close();
});

describe('GET /portfolio/positions', () => {
  it('answers {clob: [{market, tokensBalance, positions, orders, rewards}], rewards}', async () => {
    const r = await call(t.sim.baseUrl, 'GET', '/portfolio/positions', { creds: t.demo.creds });
    expect(r.status).toBe(200);
    const body = obj(r.body);
    expect(Object.keys(body).sort()).toEqual(['amm', 'clob', 'group', 'rewards']); // the official client's PortfolioPositionsResponse
    const clob = arr(body['clob']).map(obj);
    expect(clob).toHaveLength(1);
    const entry = clob[0]!;
    expect(obj(entry['market'])['slug']).toBe(t.market.slug);
    expect(entry['tokensBalance']).toEqual({ yes: '10000000', no: '0' });
    const yes = obj(obj(entry['positions'])['yes']);
    expect(yes['cost']).toBe('6000000');
    expect(yes['fillPrice']).toBe('600000'); // raw, as the API reference shows it ("750000" is 0.75)
    for (const k of ['realisedPnl', 'unrealizedPnl', 'marketValue']) expect(typeof yes[k]).toBe('string');
    expect(obj(entry['orders'])).toEqual({ liveOrders: 0, totalCollateralLocked: '0' });
    expect(entry).toHaveProperty('rewards');
    expect((await call(t.sim.baseUrl, 'GET', '/portfolio/positions?x=1', { creds: t.demo.creds })).status).toBe(400);
    expect((await call(t.sim.baseUrl, 'GET', '/portfolio/positions')).status).toBe(401);
  });

  it('reads a sub-account with x-on-behalf-of', async () => {
    placedId(await placeOrder(t.sim, SUB, { market: t.market2, side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000 }, PARTNER));
    const r = await call(t.sim.baseUrl, 'GET', '/portfolio/positions', { creds: PARTNER.creds, headers: { 'x-on-behalf-of': String(SUB.profileId) } });
    expect(r.status).toBe(200);
    const clob = arr(obj(r.body)['clob']).map(obj);
    expect(clob.map((c) => obj(c['market'])['slug'])).toEqual([t.market2.slug]);
    expect(obj(clob[0]!['orders'])).toEqual({ liveOrders: 1, totalCollateralLocked: '300000' });
  });
});

describe('POST /portfolio/redeem', () => {
  it('refuses before resolution and before payout, pays after; only server-managed wallets', async () => {
    const conditionId = t.market.conditionId;
    const early = await call(t.sim.baseUrl, 'POST', '/portfolio/redeem', { creds: t.demo.creds, body: { conditionId } });
    expect(early.status).toBe(400);
    t.sim.control.resolveMarket(t.market.slug, { winningOutcomeIndex: 0 });
    const market = obj((await call(t.sim.baseUrl, 'GET', `/markets/${t.market.slug}`)).body);
    expect(market['status']).toBe('RESOLVED');
    expect(market['winningOutcomeIndex']).toBe(0);
    await waitUntil(() => (t.sim.engine.payoutPosted(t.market.slug) ? true : undefined), 2_000, 'payout posted');
    const before = t.sim.control.balances(t.demo.profileId).usdc.totalRaw;
    const r = await call(t.sim.baseUrl, 'POST', '/portfolio/redeem', { creds: t.demo.creds, body: { conditionId } });
    expect(r.status).toBe(200);
    expect(obj(r.body)).toMatchObject({ conditionId, marketSlug: t.market.slug, payout: '10000000' });
    expect(t.sim.control.balances(t.demo.profileId).usdc.totalRaw - before).toBe(10_000_000);
    // The claim is in the account's history at once (one transaction), in the official client's HistoryEntry shape.
    const listed = arr(obj((await call(t.sim.baseUrl, 'GET', '/portfolio/history', { creds: t.demo.creds })).body)['data']).map(obj);
    const claim = listed.find((e) => e['strategy'] === 'Claim');
    expect(claim).toMatchObject({ collateralAmount: '10000000', market: { slug: t.market.slug, closed: true } });
    expect(String(claim?.['transactionHash'])).toMatch(/^0x[0-9a-f]{64}$/);
    const twice = await call(t.sim.baseUrl, 'POST', '/portfolio/redeem', { creds: t.demo.creds, body: { conditionId } });
    expect(twice.status).toBe(400);
    const eoa = await call(t.sim.baseUrl, 'POST', '/portfolio/redeem', { creds: EOA.creds, body: { conditionId } });
    expect(eoa.status).toBe(403);
  });

  it('validates the body and delegation', async () => {
    for (const bad of [{}, { conditionId: '0x12' }, { conditionId: t.market.conditionId, onBehalfOf: 'x' }, { conditionId: t.market.conditionId, extra: 1 }]) {
      const r = await call(t.sim.baseUrl, 'POST', '/portfolio/redeem', { creds: t.demo.creds, body: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    const foreign = await call(t.sim.baseUrl, 'POST', '/portfolio/redeem', { creds: BOB.creds, body: { conditionId: t.market.conditionId, onBehalfOf: SUB.profileId } });
    expect(foreign.status).toBe(403);
    const nothing = await call(t.sim.baseUrl, 'POST', '/portfolio/redeem', { creds: PARTNER.creds, body: { conditionId: t.market.conditionId, onBehalfOf: SUB.profileId } });
    expect(nothing.status).toBe(400);
    const unknown = await call(t.sim.baseUrl, 'POST', '/portfolio/redeem', { creds: t.demo.creds, body: { conditionId: `0x${'0'.repeat(64)}` } });
    expect(unknown.status).toBe(404);
  });
});
