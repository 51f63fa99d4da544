import { describe, expect, it } from 'vitest';
import { ALICE, BOB, SHARE, T0, USDC, fok, limit, ok, world } from './helpers.js';

describe('UserOrder and order queries', () => {
  it('formats UserOrder exactly as the spec lists it', () => {
    const { engine, m, markets } = world();
    const o = ok(engine.place(limit(m, ALICE, 'NO', 'BUY', 555, 7.123, { clientOrderId: 'cid-1' }))).order;
    expect(engine.userOrder(o)).toEqual({
      id: o.id,
      ownerId: ALICE,
      marketId: String(m.id),
      token: m.noTokenId,
      type: 'GTC',
      status: 'LIVE',
      side: 'BUY',
      makerAmount: '3953265',
      takerAmount: '7123000',
      price: '0.555',
      originalSize: '7123000',
      remainingSize: '7123000',
      createdAt: new Date(T0).toISOString(),
      clientOrderId: 'cid-1',
    });
    expect(o.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const plain = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 100, 1))).order;
    expect(Object.keys(engine.userOrder(plain))).not.toContain('clientOrderId');
    const killed = ok(engine.place(fok(markets[1]!, BOB, 'YES', 'BUY', USDC))).order;
    expect(engine.userOrder(killed)).toMatchObject({ type: 'FOK', status: 'UNMATCHED', price: '0', originalSize: '0', remainingSize: '0' });
  });

  it('lists orders newest first, filtered by status, limited', () => {
    const { engine, m, clock } = world();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push(ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 100 + i, 1))).order.id);
      clock.advance(10);
    }
    engine.cancel(ALICE, ids[1]!);
    engine.cancel(ALICE, ids[3]!);
    expect(engine.orders(ALICE, m.slug, ['LIVE']).map((o) => o.id)).toEqual([ids[4], ids[2], ids[0]]);
    expect(engine.orders(ALICE, m.slug, ['CANCELED']).map((o) => o.id)).toEqual([ids[3], ids[1]]);
    expect(engine.orders(ALICE, m.slug, ['LIVE', 'CANCELED'], 2).map((o) => o.id)).toEqual([ids[4], ids[3]]);
    expect(engine.orders(BOB, m.slug, ['LIVE'])).toEqual([]);
    expect(engine.orders(ALICE, 'nope', ['LIVE'])).toEqual([]);
  });

  it('forgets the oldest terminal orders beyond the retention limit, never live ones', () => {
    const { engine, m } = world({ retention: { terminalOrdersPerBook: 10 } });
    const live = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 100, 1))).order;
    const first = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 101, 1, { clientOrderId: 'old' }))).order;
    engine.cancel(ALICE, first.id);
    for (let i = 0; i < 40; i += 1) {
      const o = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 102, 1))).order;
      engine.cancel(ALICE, o.id);
    }
    expect(engine.orders(ALICE, m.slug, ['CANCELED']).length).toBeLessThanOrEqual(10 * 1.25 + 16);
    expect(engine.orderById(first.id)).toBeUndefined();
    expect(engine.orderByClientOrderId(ALICE, 'old')).toBeUndefined();
    expect(engine.orderById(live.id)?.status).toBe('LIVE');
    expect(engine.checkInvariants()).toEqual([]);
  });

  it('the live orders (read from the list\'s live set) are those a walk of every order finds, through fills, cancels, retention and cancel-all', () => {
    const { engine, m } = world({ retention: { terminalOrdersPerBook: 10 } });
    const everyStatus = ['LIVE', 'MATCHED', 'CANCELED', 'UNMATCHED'] as const;
    const liveByWalk = (): string[] => engine.orders(ALICE, m.slug, [...everyStatus]).filter((o) => o.status === 'LIVE').map((o) => o.id);
    for (let i = 0; i < 60; i += 1) {
      const o = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 100 + (i % 50), 1))).order;
      if (i % 3 === 0) engine.cancel(ALICE, o.id);
      // Every seventh: BOB's NO bid at 0.900 meets ALICE's best YES bid (a mint), so one of her bids ends MATCHED.
      if (i % 7 === 6) ok(engine.place(limit(m, BOB, 'NO', 'BUY', 900, 1)));
      expect(engine.orders(ALICE, m.slug, ['LIVE']).map((x) => x.id)).toEqual(liveByWalk());
    }
    const live = liveByWalk();
    expect(live.length).toBeGreaterThan(20);
    expect(engine.orders(ALICE, m.slug, ['LIVE'], 3).map((x) => x.id)).toEqual(live.slice(0, 3));
    expect(engine.orders(ALICE, m.slug, ['MATCHED']).length).toBeGreaterThan(0);
    expect(engine.positions(ALICE).find((p) => p.marketSlug === m.slug)?.liveOrders).toBe(live.length);
    expect(engine.checkInvariants()).toEqual([]);
    const all = engine.cancelAll(ALICE, m.slug);
    expect(all.ok && [...all.canceled].sort()).toEqual([...live].sort());
    expect(engine.orders(ALICE, m.slug, ['LIVE'])).toEqual([]);
    expect(engine.checkInvariants()).toEqual([]);
  });
});

describe('positions', () => {
  it('tracks balances, locks, average cost, realised PnL and fees per market', () => {
    const { engine, m } = world();
    ok(engine.place(limit(m, BOB, 'NO', 'BUY', 600, 10))); // YES ask 0.400
    ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 400, 10))); // ALICE buys 10 YES at 0.40
    ok(engine.place(limit(m, BOB, 'YES', 'BUY', 500, 4)));
    ok(engine.place(limit(m, ALICE, 'YES', 'SELL', 500, 4))); // sells 4 at 0.50
    ok(engine.place(limit(m, ALICE, 'YES', 'SELL', 900, 2))); // rests, locks 2 YES
    const pos = engine.positions(ALICE);
    expect(pos).toHaveLength(1);
    expect(pos[0]).toEqual({
      marketSlug: m.slug,
      marketId: m.id,
      conditionId: m.conditionId,
      yes: { tokenId: m.yesTokenId, balanceRaw: 6 * SHARE, lockedRaw: 2 * SHARE, costBasisRaw: 2.4 * USDC, averageFillPrice: 0.4, realisedPnlRaw: 0.4 * USDC },
      no: { tokenId: m.noTokenId, balanceRaw: 0, lockedRaw: 0, costBasisRaw: 0, averageFillPrice: null, realisedPnlRaw: 0 },
      liveOrders: 1,
      collateralLockedRaw: 0,
      feesPaidRaw: 120_000 + 60_000,
    });
    expect(engine.positions(999)).toEqual([]);
  });
});
