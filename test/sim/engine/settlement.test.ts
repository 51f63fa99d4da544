import { describe, expect, it } from 'vitest';
import type { OmeFrame, SettlementFrame } from '../../../src/sim/engine/index.js';
import { ALICE, BOB, CAROL, SHARE, USDC, limit, ok, world } from './helpers.js';

const ome = (f: { frame: OmeFrame | SettlementFrame }): OmeFrame | null => (f.frame.source === 'OME' ? f.frame : null);
const settlement = (f: { frame: OmeFrame | SettlementFrame }): SettlementFrame | null => (f.frame.source === 'SETTLEMENT' ? f.frame : null);

describe('settlement', () => {
  it('sends MATCHED at once to taker and makers, MINED after the delay, and publishes the trade only when MINED', () => {
    const { engine, m, clock, frames } = world();
    const makerA = ok(engine.place(limit(m, BOB, 'NO', 'BUY', 450, 3, { clientOrderId: 'bob-1' }))).order;
    const makerB = ok(engine.place(limit(m, CAROL, 'NO', 'BUY', 440, 3))).order;
    frames.length = 0;
    const r = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 600, 5, { clientOrderId: 'alice-1' })));
    const tradeEventId = r.execution.tradeEventId;
    expect(tradeEventId).toBeDefined();
    expect(r.execution).toMatchObject({ matched: true, settlementStatus: 'MATCHED', clientOrderId: 'alice-1', feeRateBps: 300 });

    const matched = frames.map((f) => ({ p: f.profileId, s: settlement(f) })).filter((x) => x.s?.type === 'MATCHED');
    expect(matched.map((x) => x.p).sort()).toEqual([ALICE, BOB, CAROL]);
    const takerCopy = matched.find((x) => x.p === ALICE)?.s;
    expect(takerCopy).toMatchObject({
      eventId: `settlement:${tradeEventId}`,
      orderId: r.order.id,
      clientOrderId: 'alice-1',
      marketSlug: m.slug,
      tokenId: m.yesTokenId,
      side: 'BUY',
      amountContracts: String(5 * SHARE),
      amountCollateral: String(1.65 * USDC + 1.12 * USDC),
      price: '0.554',
      // SettlementOrderEvent's fee fields and the taker's identity (takerOrderId, takerAccount), in every copy.
      configuredFeeRateBps: 300,
      feeAmountCollateral: '83100',
      feeAmountContracts: '0',
      isEstimate: true,
      token: 'YES',
      takerOrderId: r.order.id,
      takerAccount: engine.account(ALICE)?.address,
      tradeEventId,
      makerMatches: [
        { account: engine.account(BOB)?.address, orderId: makerA.id, matchedSize: String(3 * SHARE), price: '0.45' },
        { account: engine.account(CAROL)?.address, orderId: makerB.id, matchedSize: String(2 * SHARE), price: '0.44' },
      ],
    });
    expect(takerCopy?.txHash).toBeUndefined();
    expect(matched.find((x) => x.p === BOB)?.s?.orderId).toBeUndefined();
    expect(matched.find((x) => x.p === BOB)?.s?.takerOrderId).toBe(r.order.id);
    expect(engine.trades([m.slug])).toEqual([]);
    expect(engine.accountTrades(ALICE).every((f) => f.settlementStatus === 'MATCHED')).toBe(true);

    clock.advance(1999);
    expect(engine.trades([m.slug])).toEqual([]);
    clock.advance(1);
    const trades = engine.trades([m.slug]);
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({
      makerAmount: '2770000',
      takerAmount: '2770000',
      matchedSize: String(5 * SHARE),
      price: 0.554,
      side: 0,
      title: m.title,
      tokenId: m.yesTokenId,
    });
    expect(trades[0]?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    const mined = frames.map((f) => settlement(f)).filter((s) => s?.type === 'MINED');
    expect(mined).toHaveLength(3);
    expect(mined[0]?.txHash).toBe(trades[0]?.txHash);
    expect(engine.accountTrades(BOB)[0]).toMatchObject({ settlementStatus: 'MINED', txHash: trades[0]?.txHash, minedAtMs: clock.now() });
  });

  it('emits OME frames with monotonic event ids: PLACEMENT, EXECUTION (PARTIALLY_FILLED/FILLED/KILLED), UPDATE, CANCELLATION', () => {
    const { engine, m, frames } = world();
    const maker = ok(engine.place(limit(m, BOB, 'NO', 'BUY', 450, 3))).order;
    const taker = ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 600, 5, { clientOrderId: 'c1' }))).order;
    const fak = ok(engine.place(limit(m, CAROL, 'NO', 'BUY', 300, 1, { type: 'FAK' }))).order;
    engine.cancel(ALICE, taker.id);
    const omes = frames.map((f) => ({ p: f.profileId, f: ome(f) })).filter((x) => x.f !== null);
    const ids = omes.map((x) => x.f?.eventId ?? 0);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const summary = omes.map((x) => [x.p, x.f?.orderId === maker.id ? 'maker' : x.f?.orderId === taker.id ? 'taker' : x.f?.orderId === fak.id ? 'fak' : '?', x.f?.type, x.f?.status ?? x.f?.reason ?? '', x.f?.remainingSize]);
    expect(summary).toEqual([
      // remainingSize is a raw integer NUMBER (the official client's OmeOrderEvent).
      [BOB, 'maker', 'PLACEMENT', '', 3 * SHARE],
      [ALICE, 'taker', 'PLACEMENT', '', 5 * SHARE],
      [BOB, 'maker', 'EXECUTION', 'FILLED', 0],
      [ALICE, 'taker', 'EXECUTION', 'PARTIALLY_FILLED', 2 * SHARE],
      [ALICE, 'taker', 'UPDATE', '', 2 * SHARE],
      [CAROL, 'fak', 'PLACEMENT', '', 1 * SHARE],
      [CAROL, 'fak', 'EXECUTION', 'KILLED', 1 * SHARE],
      [ALICE, 'taker', 'CANCELLATION', '', 2 * SHARE],
    ]);
    const first = omes[1]?.f;
    expect(first).toMatchObject({ clientOrderId: 'c1', marketId: String(m.id), token: m.yesTokenId, side: 'BUY', price: 0.6, userId: ALICE });
  });

  it('delivers events after the command, lets listeners call back in, and survives a throwing listener', () => {
    const errors: unknown[] = [];
    const { engine, m } = world({ observer: { onListenerError: (e) => errors.push(e) } });
    const seen: string[] = [];
    engine.on({
      bookChanged: (slug) => {
        seen.push(`book:${slug}:${engine.book(slug)?.bids.length}`);
        throw new Error('listener bug');
      },
    });
    engine.on({
      positionsChanged: (profileId) => {
        seen.push(`pos:${profileId}`);
        if (profileId === ALICE) engine.cancelAll(BOB, m.slug);
      },
    });
    ok(engine.place(limit(m, BOB, 'YES', 'BUY', 400, 1)));
    ok(engine.place(limit(m, BOB, 'NO', 'BUY', 450, 1)));
    ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 600, 1)));
    expect(seen).toContain(`pos:${ALICE}`);
    expect(engine.book(m.slug)).toEqual({ bids: [], asks: [] });
    expect(engine.orders(BOB, m.slug, ['LIVE'])).toEqual([]);
    expect(errors.length).toBeGreaterThan(0);
    expect(engine.checkInvariants()).toEqual([]);
  });
});
