import { describe, expect, it } from 'vitest';
import { ALICE, BOB, SHARE, USDC, expectSound, fok, limit, ok, world } from './helpers.js';

describe('placement validation', () => {
  it('rejects bad orders with a typed code, the spec body and no state change', () => {
    const { engine, m, markets } = world({ priceBand: { minTicks: 10, maxTicks: 990 } });
    const other = markets[1]!;
    const good = limit(m, ALICE, 'YES', 'BUY', 500, 10);
    const cases = [
      [{ ...good, marketSlug: 'nope' }, 404, 'MARKET_NOT_FOUND'],
      [{ ...good, profileId: 999 }, 404, 'PROFILE_NOT_FOUND'],
      [{ ...good, tokenId: other.yesTokenId }, 400, 'TOKEN_NOT_IN_MARKET'],
      [limit(m, ALICE, 'YES', 'BUY', 5, 10), 400, 'PRICE_OUT_OF_BAND'],
      [limit(m, ALICE, 'YES', 'BUY', 995, 10), 400, 'PRICE_OUT_OF_BAND'],
      [{ ...good, priceTicks: 500.5 }, 400, 'INVALID_ORDER'],
      [{ ...good, priceTicks: null }, 400, 'INVALID_ORDER'],
      [{ ...good, makerAmount: good.makerAmount + 1 }, 400, 'AMOUNTS_MISMATCH'],
      [{ ...good, takerAmount: 10 * SHARE + 1000 }, 400, 'AMOUNTS_MISMATCH'],
      [limit(m, ALICE, 'YES', 'BUY', 500, 1.0005), 400, 'SIZE_NOT_ON_STEP'],
      [{ ...good, makerAmount: 0 }, 400, 'INVALID_ORDER'],
      [{ ...good, takerAmount: -5 }, 400, 'INVALID_ORDER'],
      [{ ...good, feeRateBps: 0 }, 400, 'FEE_RATE_MISMATCH'],
      [{ ...good, clientOrderId: 'x'.repeat(129) }, 400, 'INVALID_ORDER'],
      [{ ...fok(m, ALICE, 'YES', 'BUY', USDC), takerAmount: 2 }, 400, 'AMOUNTS_MISMATCH'],
      [{ ...fok(m, ALICE, 'YES', 'BUY', USDC), priceTicks: 500 }, 400, 'INVALID_ORDER'],
      [fok(m, ALICE, 'YES', 'SELL', 1500), 400, 'SIZE_NOT_ON_STEP'],
      [limit(m, ALICE, 'YES', 'BUY', 500, 5000), 400, 'INSUFFICIENT_BALANCE'],
      [limit(m, ALICE, 'NO', 'SELL', 500, 1), 400, 'INSUFFICIENT_BALANCE'],
    ] as const;
    const before = JSON.stringify([engine.balances(ALICE), engine.book(m.slug), engine.orders(ALICE, m.slug, ['LIVE', 'CANCELED', 'UNMATCHED', 'MATCHED'])]);
    for (const [input, status, code] of cases) {
      const r = engine.place(input);
      expect(r, code).toMatchObject({ ok: false, status, code });
      if (!r.ok) {
        expect(r.body).toHaveProperty('message');
        expect(r.body.statusCode).toBe(status);
      }
    }
    expect(JSON.stringify([engine.balances(ALICE), engine.book(m.slug), engine.orders(ALICE, m.slug, ['LIVE', 'CANCELED', 'UNMATCHED', 'MATCHED'])])).toBe(before);
    expect(engine.stats().ordersPlaced).toBe(0);
  });

  it('names the field in validation bodies', () => {
    const { engine, m } = world();
    const r = engine.place({ ...limit(m, ALICE, 'YES', 'BUY', 500, 10), makerAmount: 4_999_999 });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.body).toMatchObject({ error: 'Bad Request', statusCode: 400, message: [{ field: 'order.makerAmount' }] });
    }
  });

  it('treats a duplicate clientOrderId of the same profile as 409, other profiles are independent', () => {
    const { engine, m } = world();
    ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 400, 1, { clientOrderId: 'bot-m1-bid-0-1' })));
    expect(engine.place(limit(m, ALICE, 'YES', 'BUY', 401, 1, { clientOrderId: 'bot-m1-bid-0-1' }))).toMatchObject({ ok: false, status: 409, code: 'DUPLICATE_CLIENT_ORDER_ID' });
    ok(engine.place(limit(m, BOB, 'YES', 'BUY', 400, 1, { clientOrderId: 'bot-m1-bid-0-1' })));
    expect(engine.orderByClientOrderId(ALICE, 'bot-m1-bid-0-1')?.priceTicks).toBe(400);
    // a terminal order still owns its clientOrderId
    const o = engine.orderByClientOrderId(ALICE, 'bot-m1-bid-0-1')!;
    engine.cancel(ALICE, o.id);
    expect(engine.place(limit(m, ALICE, 'YES', 'BUY', 400, 1, { clientOrderId: 'bot-m1-bid-0-1' })).ok).toBe(false);
    expectSound(engine);
  });

  it('accepts the full default band 0.001..0.999', () => {
    const { engine, m } = world();
    expect(ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 1, 10))).order.status).toBe('LIVE');
    expect(ok(engine.place(limit(m, ALICE, 'NO', 'BUY', 1, 10))).order.status).toBe('LIVE');
    expect(engine.book(m.slug)).toEqual({ bids: [{ priceTicks: 1, sizeRaw: 10 * SHARE }], asks: [{ priceTicks: 999, sizeRaw: 10 * SHARE }] });
  });
});
