import { describe, expect, it } from 'vitest';
import { ALICE, BOB, USDC, expectSound, limit, ok, usdc, world } from './helpers.js';

describe('cancel', () => {
  it('cancels a live order, releases its lock, and answers the spec cases word for word', () => {
    const { engine, m } = world();
    const o = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 400, 10))).order;
    expect(usdc(engine, ALICE).locked).toBe(4 * USDC);
    expect(engine.cancel(BOB, o.id)).toMatchObject({ ok: false, status: 401, body: { message: 'Unauthorized' } });
    expect(engine.cancel(ALICE, '5d2f9a1e-8c1b-4e7a-9f3c-1a2b3c4d5e6f')).toMatchObject({ ok: false, status: 404, body: { message: 'Order not found' } });
    const r = engine.cancel(ALICE, o.id);
    expect(r).toMatchObject({ ok: true, message: 'Order canceled successfully' });
    expect(usdc(engine, ALICE)).toEqual({ total: 1000 * USDC, locked: 0 });
    expect(engine.cancel(ALICE, o.id)).toMatchObject({ ok: false, status: 400, body: { message: 'Order not found or already canceled' } });
    expect(engine.book(m.slug)).toEqual({ bids: [], asks: [] });
    expectSound(engine);
  });

  it('refuses cancels in a resolved market with the spec message', () => {
    const { engine, m } = world();
    const o = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 400, 10))).order;
    ok2(engine.resolve(m.slug, { winningOutcomeIndex: 0 }));
    expect(engine.cancel(ALICE, o.id)).toMatchObject({ ok: false, status: 400, code: 'MARKET_RESOLVED', body: { message: 'Market has already been resolved' } });
    expect(engine.orderById(o.id)).toMatchObject({ status: 'CANCELED', cancelReason: 'MARKET_RESOLVED' });
    expect(usdc(engine, ALICE).locked).toBe(0);
  });

  it('batch-cancels within one market and reports failures per order', () => {
    const { engine, m, markets } = world();
    const a = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 400, 1))).order;
    const b = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 401, 1))).order;
    const c = ok(engine.place(limit(m, BOB, 'YES', 'BUY', 402, 1))).order;
    const elsewhere = ok(engine.place(limit(markets[1]!, ALICE, 'YES', 'BUY', 400, 1))).order;
    expect(engine.cancelBatch(ALICE, [a.id, elsewhere.id])).toMatchObject({ ok: false, status: 400, code: 'MIXED_MARKETS' });
    expect(engine.orderById(a.id)?.status).toBe('LIVE');
    const r = engine.cancelBatch(ALICE, [a.id, b.id, c.id, 'unknown-id']);
    expect(r).toEqual({
      ok: true,
      canceled: [a.id, b.id],
      failed: [
        { orderId: c.id, reason: 'NOT_ORDER_OWNER', message: 'Unauthorized' },
        { orderId: 'unknown-id', reason: 'ORDER_NOT_FOUND', message: 'Order not found' },
      ],
    });
    expect(engine.cancelBatch(ALICE, [])).toMatchObject({ ok: false, status: 400 });
    expectSound(engine);
  });

  it('cancels all of one profile in one market only', () => {
    const { engine, m, markets } = world();
    const a = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 400, 1))).order;
    const b = ok(engine.place(limit(m, ALICE, 'NO', 'BUY', 400, 1))).order;
    ok(engine.place(limit(m, BOB, 'YES', 'BUY', 402, 1)));
    const other = ok(engine.place(limit(markets[1]!, ALICE, 'YES', 'BUY', 400, 1))).order;
    expect(engine.cancelAll(ALICE, m.slug)).toEqual({ ok: true, canceled: [a.id, b.id], failed: [] });
    expect(engine.orderById(other.id)?.status).toBe('LIVE');
    expect(engine.book(m.slug)?.bids).toHaveLength(1);
    expect(engine.cancelAll(ALICE, 'nope')).toMatchObject({ ok: false, status: 404 });
    expectSound(engine);
  });
});

function ok2<T extends { ok: boolean }>(r: T): T {
  if (!r.ok) throw new Error(JSON.stringify(r));
  return r;
}

describe('admin deposits', () => {
  it('credits USDC and tokens, and rejects bad input without changes', () => {
    const { engine, m } = world();
    expect(engine.deposit(ALICE, { usdcRaw: 5 * USDC, tokens: { [m.yesTokenId]: 3 } })).toMatchObject({ ok: true });
    expect(usdc(engine, ALICE).total).toBe(1005 * USDC);
    const before = JSON.stringify(engine.balances(ALICE));
    expect(engine.deposit(ALICE, { usdcRaw: -1 })).toMatchObject({ ok: false, status: 400 });
    expect(engine.deposit(ALICE, { usdcRaw: Number.MAX_SAFE_INTEGER })).toMatchObject({ ok: false, status: 400 });
    expect(engine.deposit(ALICE, { usdcRaw: 1, tokens: { '999': 1 } })).toMatchObject({ ok: false, code: 'TOKEN_NOT_IN_MARKET' });
    expect(engine.deposit(999, { usdcRaw: 1 })).toMatchObject({ ok: false, status: 404 });
    expect(JSON.stringify(engine.balances(ALICE))).toBe(before);
    expect(engine.addAccount({ profileId: ALICE, address: '0x' + '9'.repeat(40), usdcRaw: 0 })).toMatchObject({ ok: false, status: 400 });
    expect(engine.addAccount({ profileId: 77, address: '0x' + 'ab'.repeat(20), usdcRaw: 0 })).toMatchObject({ ok: true, account: { profileId: 77, address: '0xABaBaBaBABabABabAbAbABAbABabababaBaBABaB' } });
    expect(engine.accountByAddress('0x' + 'ab'.repeat(20))?.profileId).toBe(77);
    expectSound(engine);
  });
});
