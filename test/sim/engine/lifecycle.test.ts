import { describe, expect, it } from 'vitest';
import type { MarketResolvedFrame } from '../../../src/sim/engine/index.js';
import { ALICE, BOB, CAROL, SHARE, T0, USDC, account, expectSound, limit, ok, tokens, usdc, world } from './helpers.js';

describe('expiry', () => {
  it('stops trading and cancels resting orders at expirationMs', () => {
    const { engine, m, clock } = world();
    const o = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 400, 10))).order;
    const statuses: string[] = [];
    engine.on({ marketStatusChanged: (slug) => slug === m.slug && statuses.push(slug) });
    clock.advanceTo(m.expirationMs - 1);
    expect(engine.market(m.slug)).toMatchObject({ expired: false, tradable: true });
    clock.advanceTo(m.expirationMs);
    expect(engine.market(m.slug)).toMatchObject({ expired: true, tradable: false, status: 'FUNDED' });
    expect(engine.orderById(o.id)).toMatchObject({ status: 'CANCELED', cancelReason: 'MARKET_EXPIRED' });
    expect(usdc(engine, ALICE).locked).toBe(0);
    expect(statuses).toEqual([m.slug]);
    expect(engine.place(limit(m, ALICE, 'YES', 'BUY', 400, 10))).toMatchObject({ ok: false, status: 400, code: 'MARKET_EXPIRED' });
    expect(engine.cancel(ALICE, o.id)).toMatchObject({ ok: false, status: 400, body: { message: 'Order not found or already canceled' } });
    expectSound(engine);
  });

  it('enforces expiry even if the timer has not fired yet', () => {
    const markets = [{ ...world().m, expirationMs: T0 + 1000 }];
    const clock = { now: () => T0 + 5000, schedule: () => () => undefined };
    const { engine } = world({ markets, clock });
    expect(engine.place(limit(markets[0]!, ALICE, 'YES', 'BUY', 400, 1))).toMatchObject({ code: 'MARKET_EXPIRED' });
  });
});

describe('resolution and redemption', () => {
  it('resolves, cancels orders, posts the payout after a delay, and redeems 1 USDC per winning token', () => {
    const { engine, m, clock } = world({
      accounts: [account(ALICE, 1000, { serverManagedWallet: true }), account(BOB), account(CAROL)],
    });
    ok(engine.place(limit(m, BOB, 'NO', 'BUY', 400, 10)));
    ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 600, 10))); // ALICE 10 YES, BOB 10 NO
    const resting = ok(engine.place(limit(m, BOB, 'YES', 'BUY', 100, 5))).order;
    const resolved: MarketResolvedFrame[] = [];
    engine.on({ marketResolved: (f) => resolved.push(f) });

    expect(engine.redeem(ALICE, m.conditionId)).toMatchObject({ ok: false, code: 'MARKET_NOT_RESOLVED' });
    const r = engine.resolve(m.slug, { winningOutcomeIndex: 0 });
    expect(r).toMatchObject({ ok: true, market: { status: 'RESOLVED', winningOutcomeIndex: 0, payoutNumerators: null, payoutPosted: false } });
    expect(resolved).toEqual([{ slug: m.slug, type: 'CLOB', winningOutcome: 'YES', winningIndex: 0, payoutNumerators: null, resolutionDate: new Date(T0).toISOString() }]);
    expect(engine.orderById(resting.id)).toMatchObject({ status: 'CANCELED', cancelReason: 'MARKET_RESOLVED' });
    expect(usdc(engine, BOB).locked).toBe(0);
    expect(engine.place(limit(m, ALICE, 'YES', 'BUY', 600, 1))).toMatchObject({ ok: false, status: 400, code: 'MARKET_RESOLVED', body: { message: 'Market has already been resolved' } });
    expect(engine.resolve(m.slug, { winningOutcomeIndex: 1 })).toMatchObject({ ok: false, code: 'ALREADY_RESOLVED' });

    expect(engine.redeem(ALICE, m.conditionId)).toMatchObject({ ok: false, status: 400, code: 'PAYOUT_NOT_POSTED' });
    clock.advance(5000);
    expect(engine.payoutPosted(m.slug)).toBe(true);
    expect(engine.redeem(BOB, m.conditionId)).toMatchObject({ ok: false, status: 403, code: 'REDEEM_NOT_ALLOWED' });
    const before = usdc(engine, ALICE).total;
    expect(engine.redeem(ALICE, m.conditionId.toUpperCase().replace('0X', '0x'))).toEqual({
      ok: true,
      conditionId: m.conditionId,
      marketSlug: m.slug,
      payoutRaw: 10 * USDC,
      yesBurnedRaw: 10 * SHARE,
      noBurnedRaw: 0,
    });
    expect(usdc(engine, ALICE).total).toBe(before + 10 * USDC);
    expect(tokens(engine, ALICE, m.yesTokenId).total).toBe(0);
    expect(engine.redeem(ALICE, m.conditionId)).toMatchObject({ ok: false, code: 'NOTHING_TO_REDEEM' });
    const pos = engine.positions(ALICE).find((p) => p.marketSlug === m.slug);
    expect(pos?.yes).toMatchObject({ balanceRaw: 0, costBasisRaw: 0, realisedPnlRaw: 4 * USDC });
    expect(engine.redeem(ALICE, '0x' + 'ab'.repeat(32))).toMatchObject({ ok: false, status: 404 });
    expectSound(engine);
  });

  it('pays a payout split at the given ratio', () => {
    const { engine, m, clock } = world({ accounts: [account(ALICE, 1000, { serverManagedWallet: true }), account(BOB)] });
    engine.deposit(ALICE, { tokens: { [m.yesTokenId]: 0 } });
    ok(engine.place(limit(m, BOB, 'NO', 'BUY', 500, 10)));
    ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 500, 10)));
    ok(engine.place(limit(m, BOB, 'YES', 'BUY', 300, 4)));
    ok(engine.place(limit(m, ALICE, 'NO', 'BUY', 700, 4))); // ALICE: 10 YES + 4 NO
    expect(engine.resolve(m.slug, { payoutNumerators: [1, 3] })).toMatchObject({ ok: true, market: { winningOutcomeIndex: null, payoutNumerators: [1, 3] } });
    clock.advance(5000);
    const r = engine.redeem(ALICE, m.conditionId);
    // 10 * 1/4 + 4 * 3/4 = 5.5
    expect(r).toMatchObject({ ok: true, payoutRaw: 5.5 * USDC, yesBurnedRaw: 10 * SHARE, noBurnedRaw: 4 * SHARE });
    expectSound(engine);
  });

  it('validates resolution input', () => {
    const { engine, m } = world();
    expect(engine.resolve('nope', { winningOutcomeIndex: 0 })).toMatchObject({ ok: false, status: 404 });
    expect(engine.resolve(m.slug, { payoutNumerators: [0, 0] })).toMatchObject({ ok: false, status: 400 });
    expect(engine.resolve(m.slug, { payoutNumerators: [-1, 2] })).toMatchObject({ ok: false, status: 400 });
    expect(engine.market(m.slug)?.status).toBe('FUNDED');
  });
});

describe('NegRisk groups', () => {
  it('groups submarkets, each with its own venue, and serves a group feed', () => {
    const { engine, markets, clock } = world({}, 5);
    const groups = engine.groups();
    expect(groups).toHaveLength(1);
    const g = groups[0]!;
    expect(g.markets).toHaveLength(3);
    expect(new Set(g.markets.map((x) => x.venue.exchange)).size).toBe(3);
    expect(g.negRiskRequestId).toMatch(/^0x[0-9a-f]{64}$/);
    const sub = markets.find((x) => x.slug === g.markets[1]?.slug)!;
    ok(engine.place(limit(sub, BOB, 'NO', 'BUY', 500, 1)));
    ok(engine.place(limit(sub, ALICE, 'YES', 'BUY', 500, 1)));
    clock.advance(2000);
    expect(engine.trades([g.slug])).toHaveLength(1);
    expect(engine.group('nope')).toBeUndefined();
  });
});
