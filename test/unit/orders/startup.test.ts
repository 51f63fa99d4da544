import { describe, expect, it } from 'vitest';
import { formatClientOrderId, marketKey } from '../../../src/orders/client-order-id.js';
import { adopt } from '../../../src/orders/startup.js';
import type { VenueOrderSnapshot } from '../../../src/orders/venue-port.js';

const SLUG = 'btc-above-100k';
const KEY = marketKey(SLUG);
const tokens = { yes: 'Y', no: 'N' };
let n = 0;
const snap = (clientOrderId: string | null, extra: Partial<VenueOrderSnapshot> = {}): VenueOrderSnapshot => {
  n += 1;
  return { orderId: `o${n}`, clientOrderId, marketSlug: SLUG, tokenId: 'Y', side: 'BUY', priceTicks: 500, sizeRaw: 1_000_000, remainingRaw: 1_000_000, status: 'LIVE', createdAtMs: n, fills: [], ...extra };
};
const cid = (slot: string, sequence: number, tag = 'mm1', key = KEY): string => formatClientOrderId({ botTag: tag, marketKey: key, slot, sequence });

describe('adopt', () => {
  it('adopts one order per slot: the newest by sequence; older duplicates are canceled', () => {
    const older = snap(cid('bid-0', 100));
    const newest = snap(cid('bid-0', 300));
    const middle = snap(cid('bid-0', 200));
    const other = snap(cid('ask-0', 150), { tokenId: 'N', side: 'BUY' });
    const plan = adopt({ marketSlug: SLUG, tokens, botTag: 'mm1', liveOrders: [older, newest, middle, other], foreignPolicy: 'leave' });
    expect(plan.adopt.map((a) => [a.slot, a.snapshot.orderId, a.token])).toEqual([
      ['ask-0', other.orderId, 'NO'],
      ['bid-0', newest.orderId, 'YES'],
    ]);
    expect(plan.cancel).toEqual(
      expect.arrayContaining([
        { snapshot: middle, reason: 'duplicate-in-slot' },
        { snapshot: older, reason: 'duplicate-in-slot' },
      ]),
    );
    expect(plan.cancel).toHaveLength(2);
    expect(plan.maxSequence).toBe(300);
  });

  it('leaves foreign orders alone by default, cancels them when configured', () => {
    const manual = snap(null);
    const otherBot = snap(cid('bid-0', 5, 'mm2'));
    const odd = snap('not-an-id');
    const leave = adopt({ marketSlug: SLUG, tokens, botTag: 'mm1', liveOrders: [manual, otherBot, odd], foreignPolicy: 'leave' });
    expect(leave.foreign).toEqual([manual, otherBot, odd]);
    expect(leave.cancel).toEqual([]);
    expect(leave.adopt).toEqual([]);
    const cancel = adopt({ marketSlug: SLUG, tokens, botTag: 'mm1', liveOrders: [manual, otherBot], foreignPolicy: 'cancel' });
    expect(cancel.cancel.map((c) => c.reason)).toEqual(['foreign', 'foreign']);
    expect(cancel.maxSequence).toBeNull();
  });

  it('cancels our orders placed for another market or on a token that is not this market', () => {
    const elsewhere = snap(cid('bid-0', 5, 'mm1', marketKey('another-market')));
    const badToken = snap(cid('bid-1', 6), { tokenId: 'ZZZ' });
    const plan = adopt({ marketSlug: SLUG, tokens, botTag: 'mm1', liveOrders: [elsewhere, badToken], foreignPolicy: 'leave' });
    expect(plan.cancel.map((c) => c.reason)).toEqual(['other-market', 'unknown-token']);
  });

  it('on resync: reports tracked orders as known, and cancels a stray in an occupied slot', () => {
    const tracked = snap(cid('bid-0', 10));
    const stray = snap(cid('bid-0', 11));
    const fresh = snap(cid('bid-1', 12));
    const plan = adopt({
      marketSlug: SLUG,
      tokens,
      botTag: 'mm1',
      liveOrders: [tracked, stray, fresh],
      foreignPolicy: 'leave',
      trackedOrderIds: new Set([tracked.orderId]),
      occupiedSlots: new Set(['bid-0']),
    });
    expect(plan.known).toEqual([tracked]);
    expect(plan.cancel).toEqual([{ snapshot: stray, reason: 'slot-occupied' }]);
    expect(plan.adopt.map((a) => a.slot)).toEqual(['bid-1']);
  });
});
