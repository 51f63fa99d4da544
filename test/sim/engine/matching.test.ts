import { describe, expect, it } from 'vitest';
import { ALICE, BOB, CAROL, SHARE, USDC, expectSound, fok, limit, ok, tokens, usdc, world } from './helpers.js';

describe('book folding', () => {
  it('rests BUY YES as a bid, BUY NO at p as an ask at 1-p, SELL NO at p as a bid at 1-p, SELL YES as an ask', () => {
    const { engine, m } = world();
    engine.deposit(BOB, { tokens: { [m.yesTokenId]: 100 * SHARE, [m.noTokenId]: 100 * SHARE } });
    ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 400, 10)));
    ok(engine.place(limit(m, ALICE, 'NO', 'BUY', 300, 5))); // YES ask 0.700
    ok(engine.place(limit(m, BOB, 'NO', 'SELL', 650, 7))); // YES bid 0.350
    ok(engine.place(limit(m, BOB, 'YES', 'SELL', 800, 3))); // YES ask 0.800
    expect(engine.book(m.slug)).toEqual({
      bids: [
        { priceTicks: 400, sizeRaw: 10 * SHARE },
        { priceTicks: 350, sizeRaw: 7 * SHARE },
      ],
      asks: [
        { priceTicks: 700, sizeRaw: 5 * SHARE },
        { priceTicks: 800, sizeRaw: 3 * SHARE },
      ],
    });
    expectSound(engine);
  });

  it('aggregates a level and keeps price-time priority', () => {
    const { engine, m } = world();
    const first = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 500, 4))).order;
    const second = ok(engine.place(limit(m, CAROL, 'YES', 'BUY', 500, 4))).order;
    const better = ok(engine.place(limit(m, CAROL, 'YES', 'BUY', 510, 1))).order;
    expect(engine.book(m.slug)?.bids).toEqual([
      { priceTicks: 510, sizeRaw: 1 * SHARE },
      { priceTicks: 500, sizeRaw: 8 * SHARE },
    ]);
    engine.deposit(BOB, { tokens: { [m.yesTokenId]: 100 * SHARE } });
    const taker = ok(engine.place(limit(m, BOB, 'YES', 'SELL', 500, 3)));
    expect(taker.makerMatches.map((x) => [x.orderId, x.matchedSize])).toEqual([
      [better.id, String(1 * SHARE)],
      [first.id, String(2 * SHARE)],
    ]);
    expect(engine.orderById(first.id)?.remainingSizeRaw).toBe(2 * SHARE);
    expect(engine.orderById(second.id)?.remainingSizeRaw).toBe(4 * SHARE);
    expectSound(engine);
  });
});

describe('complementary matching', () => {
  it('BUY YES against SELL YES is a transfer at the maker price; the taker pays the fee on top', () => {
    const { engine, m } = world();
    engine.deposit(BOB, { tokens: { [m.yesTokenId]: 10 * SHARE } });
    ok(engine.place(limit(m, BOB, 'YES', 'SELL', 600, 10)));
    const r = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 650, 10)));
    expect(r.order.status).toBe('MATCHED');
    // The official client's ExecutionTotalsRaw (fees in USDC: none in contracts).
    expect(r.execution.totalsRaw).toEqual({
      contractsGross: String(10 * SHARE), contractsFee: '0', contractsNet: String(10 * SHARE),
      usdGross: String(6 * USDC), usdFee: '180000', usdNet: '6180000',
    });
    expect(r.execution.effectiveFeeBps).toBe(300);
    expect(usdc(engine, ALICE)).toEqual({ total: 1000 * USDC - 6 * USDC - 180_000, locked: 0 });
    expect(usdc(engine, BOB)).toEqual({ total: 1006 * USDC, locked: 0 });
    expect(tokens(engine, ALICE, m.yesTokenId).total).toBe(10 * SHARE);
    expect(tokens(engine, BOB, m.yesTokenId)).toEqual({ total: 0, locked: 0 });
    expect(engine.stats().feesCollectedRaw).toBe(180_000);
    expectSound(engine);
  });

  it('BUY YES against BUY NO mints a pair from both buyers', () => {
    const { engine, m } = world();
    ok(engine.place(limit(m, BOB, 'NO', 'BUY', 400, 10))); // YES ask 0.600
    const r = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 620, 10)));
    expect(r.makerMatches).toHaveLength(1);
    expect(r.execution.totalsRaw.usdGross).toBe(String(6 * USDC));
    expect(usdc(engine, BOB)).toEqual({ total: 996 * USDC, locked: 0 });
    expect(tokens(engine, ALICE, m.yesTokenId).total).toBe(10 * SHARE);
    expect(tokens(engine, BOB, m.noTokenId).total).toBe(10 * SHARE);
    const fills = engine.accountTrades(BOB);
    expect(fills[0]).toMatchObject({ role: 'MAKER', kind: 'MINT', outcome: 'NO', side: 'BUY', priceTicks: 400, collateralRaw: 4 * USDC, feeRaw: 0 });
    expectSound(engine);
  });

  it('accountTradesOf gives an order\'s fills of one trade event: accountTrades filtered, newest first, as copies', () => {
    const { engine, m } = world();
    const maker = ok(engine.place(limit(m, BOB, 'NO', 'BUY', 400, 10))).order;
    ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 620, 4)));
    ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 620, 3)));
    const all = engine.accountTrades(BOB);
    expect(all).toHaveLength(2);
    for (const fill of all) {
      const own = engine.accountTradesOf(BOB, fill.tradeEventId, maker.id);
      expect(own).toEqual(all.filter((f) => f.tradeEventId === fill.tradeEventId && f.orderId === maker.id));
      expect(own).toHaveLength(1);
      expect(own[0]).not.toBe(all[0]);
    }
    expect(engine.accountTradesOf(BOB, all[0]!.tradeEventId, 'another-order')).toEqual([]);
    expect(engine.accountTradesOf(999, all[0]!.tradeEventId, maker.id)).toEqual([]);
  });

  it('accountTradesOf follows the retention limit: a fill trimmed from the history is gone from it too', () => {
    const { engine, m } = world({ retention: { fillsPerAccount: 2 } });
    const maker = ok(engine.place(limit(m, BOB, 'NO', 'BUY', 400, 40))).order;
    // The history is trimmed to the limit once it passes 1.25 × the limit + 16 fills.
    const everyEvent = new Set<string>();
    for (let i = 0; i < 30; i += 1) {
      ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 620, 1)));
      everyEvent.add(engine.accountTrades(BOB)[0]!.tradeEventId);
    }
    expect(everyEvent.size).toBe(30);
    const kept = engine.accountTrades(BOB);
    expect(kept.length).toBeLessThan(30);
    expect(kept.length).toBeGreaterThan(0);
    const keptEvents = new Set(kept.map((f) => f.tradeEventId));
    for (const tradeEventId of everyEvent) {
      expect(engine.accountTradesOf(BOB, tradeEventId, maker.id)).toHaveLength(keptEvents.has(tradeEventId) ? 1 : 0);
    }
  });

  it('SELL YES against SELL NO merges a pair, paying both sellers', () => {
    const { engine, m } = world();
    engine.deposit(ALICE, { tokens: { [m.yesTokenId]: 10 * SHARE } });
    engine.deposit(BOB, { tokens: { [m.noTokenId]: 10 * SHARE } });
    ok(engine.place(limit(m, BOB, 'NO', 'SELL', 450, 10))); // YES bid 0.550
    const r = ok(engine.place(limit(m, ALICE, 'YES', 'SELL', 500, 10)));
    expect(r.order.status).toBe('MATCHED');
    expect(r.execution.totalsRaw).toMatchObject({ usdGross: String(5.5 * USDC), usdFee: '165000', usdNet: String(5.5 * USDC - 165_000) });
    expect(usdc(engine, ALICE).total).toBe(1005.5 * USDC - 165_000);
    expect(usdc(engine, BOB).total).toBe(1004.5 * USDC);
    expect(tokens(engine, ALICE, m.yesTokenId).total).toBe(0);
    expect(tokens(engine, BOB, m.noTokenId).total).toBe(0);
    expect(engine.accountTrades(ALICE)[0]?.kind).toBe('MERGE');
    expectSound(engine);
  });

  it('BUY NO against SELL NO is a transfer of NO', () => {
    const { engine, m } = world();
    engine.deposit(BOB, { tokens: { [m.noTokenId]: 5 * SHARE } });
    ok(engine.place(limit(m, BOB, 'NO', 'SELL', 300, 5))); // YES bid 0.700
    const r = ok(engine.place(limit(m, ALICE, 'NO', 'BUY', 310, 5)));
    expect(r.execution.totalsRaw.usdGross).toBe(String(1.5 * USDC));
    expect(tokens(engine, ALICE, m.noTokenId).total).toBe(5 * SHARE);
    expect(engine.accountTrades(ALICE)[0]).toMatchObject({ kind: 'TRANSFER', priceTicks: 300 });
    expectSound(engine);
  });

  it('BUY NO takes YES bids (mint) at the complement of the maker price', () => {
    const { engine, m } = world();
    ok(engine.place(limit(m, BOB, 'YES', 'BUY', 700, 5)));
    const r = ok(engine.place(limit(m, ALICE, 'NO', 'BUY', 350, 5))); // crosses: YES ask 0.650 <= bid 0.700
    expect(r.execution.totalsRaw.usdGross).toBe(String(1.5 * USDC)); // NO at 1 - 0.700
    expect(engine.accountTrades(ALICE)[0]).toMatchObject({ kind: 'MINT', priceTicks: 300 });
    expectSound(engine);
  });

  it('does not cross when prices do not meet', () => {
    const { engine, m } = world();
    ok(engine.place(limit(m, BOB, 'NO', 'BUY', 400, 10))); // ask 0.600
    const r = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 599, 10)));
    expect(r.order.status).toBe('LIVE');
    expect(r.execution).toMatchObject({ matched: false, settlementStatus: 'UNMATCHED' });
    expect(engine.book(m.slug)).toEqual({ bids: [{ priceTicks: 599, sizeRaw: 10 * SHARE }], asks: [{ priceTicks: 600, sizeRaw: 10 * SHARE }] });
  });
});

describe('order types and partial fills', () => {
  it('GTC fills what crosses and rests the remainder with an exact lock', () => {
    const { engine, m } = world();
    ok(engine.place(limit(m, BOB, 'NO', 'BUY', 450, 4))); // ask 0.550
    const r = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 600, 10)));
    expect(r.order).toMatchObject({ status: 'LIVE', filledSizeRaw: 4 * SHARE, remainingSizeRaw: 6 * SHARE });
    expect(usdc(engine, ALICE)).toEqual({ total: 1000 * USDC - 2.2 * USDC - 66_000, locked: 3.6 * USDC });
    expect(engine.book(m.slug)?.bids).toEqual([{ priceTicks: 600, sizeRaw: 6 * SHARE }]);
    expectSound(engine);
  });

  it('FAK fills what it can and cancels the rest; FAK with nothing is UNMATCHED', () => {
    const { engine, m } = world();
    ok(engine.place(limit(m, BOB, 'NO', 'BUY', 450, 4)));
    const partial = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 600, 10, { type: 'FAK' })));
    expect(partial.order).toMatchObject({ status: 'CANCELED', cancelReason: 'UNFILLED_REMAINDER', filledSizeRaw: 4 * SHARE, remainingSizeRaw: 6 * SHARE });
    expect(usdc(engine, ALICE).locked).toBe(0);
    const none = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 600, 10, { type: 'FAK' })));
    expect(none.order.status).toBe('UNMATCHED');
    expect(none.execution.matched).toBe(false);
    expect(engine.book(m.slug)).toEqual({ bids: [], asks: [] });
    expectSound(engine);
  });

  it('FOK SELL fills in full or not at all', () => {
    const { engine, m } = world();
    engine.deposit(ALICE, { tokens: { [m.yesTokenId]: 10 * SHARE } });
    ok(engine.place(limit(m, BOB, 'YES', 'BUY', 500, 6)));
    ok(engine.place(limit(m, CAROL, 'YES', 'BUY', 490, 3)));
    const before = engine.balances(ALICE);
    const killed = ok(engine.place(fok(m, ALICE, 'YES', 'SELL', 10 * SHARE)));
    expect(killed.order).toMatchObject({ status: 'UNMATCHED', remainingSizeRaw: 10 * SHARE, filledSizeRaw: 0 });
    expect(engine.balances(ALICE)).toEqual(before);
    expect(engine.book(m.slug)?.bids).toHaveLength(2);
    const filled = ok(engine.place(fok(m, ALICE, 'YES', 'SELL', 9 * SHARE)));
    expect(filled.order).toMatchObject({ status: 'MATCHED', remainingSizeRaw: 0, filledSizeRaw: 9 * SHARE, priceTicks: null });
    expect(filled.execution.totalsRaw.usdGross).toBe(String(3 * USDC + 1.47 * USDC));
    expect(engine.userOrder(filled.order).price).toBe('0.496667');
    expectSound(engine);
  });

  it('FOK BUY spends its budget down to less than one size step, or is killed when the book runs out', () => {
    const { engine, m } = world();
    engine.deposit(BOB, { tokens: { [m.yesTokenId]: 20 * SHARE } });
    ok(engine.place(limit(m, BOB, 'YES', 'SELL', 400, 5)));
    ok(engine.place(limit(m, BOB, 'YES', 'SELL', 500, 5)));
    // 4.5 USDC: 5 @ 0.40 = 2.0, then 2.5 / 0.50 = 5 shares -> exactly spent
    const full = ok(engine.place(fok(m, ALICE, 'YES', 'BUY', 4.5 * USDC)));
    expect(full.order).toMatchObject({ status: 'MATCHED', originalSizeRaw: 10 * SHARE, filledSizeRaw: 10 * SHARE, remainingSizeRaw: 0 });
    ok(engine.place(limit(m, BOB, 'YES', 'SELL', 300, 1)));
    // 0.3001 USDC at 0.300: one share and 100 raw of dust left (< one step at 0.300)
    const dust = ok(engine.place(fok(m, ALICE, 'YES', 'BUY', 300_100)));
    expect(dust.order).toMatchObject({ status: 'MATCHED', filledSizeRaw: 1 * SHARE });
    ok(engine.place(limit(m, BOB, 'YES', 'SELL', 300, 1)));
    const killed = ok(engine.place(fok(m, ALICE, 'YES', 'BUY', 1 * USDC)));
    expect(killed.order).toMatchObject({ status: 'UNMATCHED', originalSizeRaw: 0, filledSizeRaw: 0 });
    expect(engine.book(m.slug)?.asks).toEqual([{ priceTicks: 300, sizeRaw: 1 * SHARE }]);
    expectSound(engine);
  });
});

describe('fees', () => {
  it('charges only the taker, at its fee rate, and a SELL pays it out of the proceeds', () => {
    const { engine, m } = world({ accounts: [{ profileId: ALICE, address: '0x' + '1'.repeat(40), usdcRaw: 100 * USDC, feeRateBps: 100 }, { profileId: BOB, address: '0x' + '2'.repeat(40), usdcRaw: 100 * USDC, feeRateBps: 0 }] });
    engine.deposit(ALICE, { tokens: { [m.yesTokenId]: 10 * SHARE } });
    ok(engine.place(limit(m, BOB, 'YES', 'BUY', 333, 3, { feeRateBps: 0 })));
    const r = ok(engine.place(limit(m, ALICE, 'YES', 'SELL', 300, 3, { feeRateBps: 100 })));
    // notional 0.999, fee ceil(0.999 * 1%) = 0.00999 -> 9990 raw
    expect(r.execution.totalsRaw).toEqual({ contractsGross: String(3 * SHARE), contractsFee: '0', contractsNet: String(3 * SHARE), usdGross: '999000', usdFee: '9990', usdNet: '989010' });
    expect(r.order.feePaidRaw).toBe(9990);
    expect(engine.accountTrades(BOB)[0]?.feeRaw).toBe(0);
    expect(usdc(engine, BOB).total).toBe(100 * USDC - 999_000);
    expectSound(engine);
  });

  it('rejects a BUY whose fee would overdraw the account, changing nothing', () => {
    const { engine, m } = world({ accounts: [{ profileId: ALICE, address: '0x' + '1'.repeat(40), usdcRaw: 5 * USDC }, { profileId: BOB, address: '0x' + '2'.repeat(40), usdcRaw: 100 * USDC }] });
    ok(engine.place(limit(m, BOB, 'NO', 'BUY', 500, 10)));
    const snapshot = JSON.stringify([engine.book(m.slug), engine.balances(ALICE), engine.balances(BOB)]);
    const r = engine.place(limit(m, ALICE, 'YES', 'BUY', 500, 10));
    expect(r).toMatchObject({ ok: false, status: 400, code: 'INSUFFICIENT_BALANCE' });
    expect(JSON.stringify([engine.book(m.slug), engine.balances(ALICE), engine.balances(BOB)])).toBe(snapshot);
    // resting without crossing needs no fee
    expect(engine.place(limit(m, ALICE, 'YES', 'BUY', 499, 10)).ok).toBe(true);
    expectSound(engine);
  });
});

describe('self-trade prevention', () => {
  it('cancel_maker cancels own resting orders met on the way and keeps matching others', () => {
    const { engine, m, frames } = world();
    const own = ok(engine.place(limit(m, ALICE, 'NO', 'BUY', 450, 5))).order; // ask 0.550
    ok(engine.place(limit(m, BOB, 'NO', 'BUY', 440, 5))); // ask 0.560
    const r = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 600, 5, { stp: 'cancel_maker' })));
    expect(r.execution.stpMakerCancels).toEqual([own.id]);
    expect(r.order.status).toBe('MATCHED');
    expect(r.makerMatches).toHaveLength(1);
    expect(engine.orderById(own.id)).toMatchObject({ status: 'CANCELED', cancelReason: 'STP_MAKER_CANCELLED' });
    expect(frames.some((f) => f.frame.source === 'OME' && f.frame.type === 'CANCELLATION' && f.frame.orderId === own.id && f.frame.reason === 'STP_MAKER_CANCELLED')).toBe(true);
    expectSound(engine);
  });

  it('cancel_taker rejects the taker and leaves the maker', () => {
    const { engine, m } = world();
    const own = ok(engine.place(limit(m, ALICE, 'NO', 'BUY', 450, 5))).order;
    const r = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 600, 5, { stp: 'cancel_taker' })));
    expect(r.order).toMatchObject({ status: 'CANCELED', cancelReason: 'STP_TAKER_REJECTED', filledSizeRaw: 0 });
    expect(r.execution.reason).toBe('STP_TAKER_REJECTED');
    expect(engine.orderById(own.id)?.status).toBe('LIVE');
    expect(usdc(engine, ALICE).locked).toBe(2.25 * USDC);
    expectSound(engine);
  });

  it('cancel_taker keeps fills made before meeting the own order', () => {
    const { engine, m } = world();
    ok(engine.place(limit(m, BOB, 'NO', 'BUY', 460, 2))); // ask 0.540
    ok(engine.place(limit(m, ALICE, 'NO', 'BUY', 450, 5))); // ask 0.550
    const r = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 600, 5, { stp: 'cancel_taker' })));
    expect(r.order).toMatchObject({ status: 'CANCELED', cancelReason: 'STP_TAKER_REJECTED', filledSizeRaw: 2 * SHARE });
    expect(r.execution.matched).toBe(true);
    expectSound(engine);
  });

  it('cancel_both cancels both', () => {
    const { engine, m } = world();
    const own = ok(engine.place(limit(m, ALICE, 'NO', 'BUY', 450, 5))).order;
    const r = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 600, 5, { stp: 'cancel_both' })));
    expect(r.order.status).toBe('CANCELED');
    expect(r.execution).toMatchObject({ reason: 'STP_TAKER_REJECTED', stpMakerCancels: [own.id] });
    expect(engine.orderById(own.id)?.status).toBe('CANCELED');
    expect(engine.book(m.slug)).toEqual({ bids: [], asks: [] });
    expect(usdc(engine, ALICE)).toEqual({ total: 1000 * USDC, locked: 0 });
    expectSound(engine);
  });
});

describe('post-only', () => {
  it('rejects a post-only order that would cross, rests one that does not', () => {
    const { engine, m } = world();
    ok(engine.place(limit(m, BOB, 'NO', 'BUY', 450, 5))); // ask 0.550
    const crossing = engine.place(limit(m, ALICE, 'YES', 'BUY', 550, 5, { postOnly: true }));
    expect(crossing).toMatchObject({ ok: false, status: 400, code: 'POST_ONLY_WOULD_CROSS' });
    expect(ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 549, 5, { postOnly: true }))).order.status).toBe('LIVE');
    // the NO view of the same rule: BUY NO at 0.451 is a YES ask at 0.549 = the bid
    expect(engine.place(limit(m, CAROL, 'NO', 'BUY', 451, 1, { postOnly: true }))).toMatchObject({ code: 'POST_ONLY_WOULD_CROSS' });
    expect(engine.place(limit(m, ALICE, 'YES', 'BUY', 500, 5, { postOnly: true, type: 'FAK' }))).toMatchObject({ code: 'INVALID_ORDER' });
    expectSound(engine);
  });
});

describe('balances and locks', () => {
  it('locks tokens for a resting SELL and releases them on cancel', () => {
    const { engine, m } = world();
    engine.deposit(ALICE, { tokens: { [m.yesTokenId]: 10 * SHARE } });
    const o = ok(engine.place(limit(m, ALICE, 'YES', 'SELL', 700, 6))).order;
    expect(tokens(engine, ALICE, m.yesTokenId)).toEqual({ total: 10 * SHARE, locked: 6 * SHARE });
    expect(engine.place(limit(m, ALICE, 'YES', 'SELL', 700, 5))).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    expect(engine.cancel(ALICE, o.id)).toMatchObject({ ok: true, message: 'Order canceled successfully' });
    expect(tokens(engine, ALICE, m.yesTokenId)).toEqual({ total: 10 * SHARE, locked: 0 });
    expectSound(engine);
  });

  it('a maker BUY filled at its own price consumes exactly its lock', () => {
    const { engine, m } = world();
    ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 333, 7)));
    expect(usdc(engine, ALICE).locked).toBe(2_331_000);
    ok(engine.place(limit(m, BOB, 'NO', 'BUY', 700, 3))); // YES ask 0.300 crosses bid 0.333: BOB pays 0.667
    expect(usdc(engine, ALICE)).toEqual({ total: 1000 * USDC - 999_000, locked: 1_332_000 });
    expect(usdc(engine, BOB).total).toBe(1000 * USDC - 2_001_000 - 60_030);
    expectSound(engine);
  });
});
