import { describe, expect, it } from 'vitest';
import { BoundedDedupe, eventKey, OrderEventError, validateOrderEvent, type OmeEventInput, type SettlementEventInput } from '../../../src/orders/order-events.js';
import { OrphanEvents } from '../../../src/orders/orphan-events.js';

const ome = (eventId: string, extra: Partial<OmeEventInput> = {}): OmeEventInput => ({ source: 'OME', type: 'UPDATE', eventId, orderId: 'o1', remainingRaw: 1_000_000, atMs: 1, ...extra });
const settlement = (type: SettlementEventInput['type'], extra: Partial<SettlementEventInput> = {}): SettlementEventInput => ({
  source: 'SETTLEMENT',
  type,
  eventId: 'settlement:t1',
  tradeEventId: 't1',
  fills: [{ orderId: 'o1', role: 'maker', sizeRaw: 1_000_000, priceTicks: 500 }],
  atMs: 1,
  ...extra,
});

describe('order events', () => {
  it('keys settlement frames by eventId and type, so MINED is not taken for a repeat of MATCHED', () => {
    expect(eventKey(settlement('MATCHED'))).not.toBe(eventKey(settlement('MINED')));
    expect(eventKey(settlement('MINED'))).toBe(eventKey(settlement('MINED')));
    expect(eventKey(ome('7'))).toBe('OME:7');
  });

  it('validates the fields it relies on, naming the bad one', () => {
    expect(validateOrderEvent(ome('1'))).toBeNull();
    expect(validateOrderEvent(settlement('MATCHED'))).toBeNull();
    const cases: [OmeEventInput | SettlementEventInput, RegExp][] = [
      [ome(''), /eventId/],
      [ome('1', { remainingRaw: 1.5 }), /remainingRaw/],
      [ome('1', { orderId: '' }), /orderId/],
      [ome('1', { atMs: Number.NaN }), /atMs/],
      [settlement('MATCHED', { fills: [{ role: 'maker', sizeRaw: 1, priceTicks: 500 }] }), /fills\[0\]/],
      [settlement('MATCHED', { fills: [{ orderId: 'o', role: 'maker', sizeRaw: 0, priceTicks: 500 }] }), /sizeRaw/],
      [settlement('MATCHED', { fills: [{ orderId: 'o', role: 'maker', sizeRaw: 1, priceTicks: 1000 }] }), /priceTicks/],
      [settlement('MATCHED', { tradeEventId: '' }), /tradeEventId/],
    ];
    for (const [event, pattern] of cases) {
      const error = validateOrderEvent(event);
      expect(error).toBeInstanceOf(OrderEventError);
      expect(error?.message).toMatch(pattern);
    }
  });

  it('bounded dedupe forgets the oldest key first', () => {
    const dedupe = new BoundedDedupe(3);
    expect(['a', 'b', 'c'].map((k) => dedupe.seen(k))).toEqual([false, false, false]);
    expect(dedupe.seen('a')).toBe(true);
    expect(dedupe.seen('d')).toBe(false); // evicts a
    expect(dedupe.size).toBe(3);
    expect(dedupe.seen('a')).toBe(false);
    expect(() => new BoundedDedupe(0)).toThrow(OrderEventError);
  });

  it('orphan parts wait for their order, bounded by capacity and age', () => {
    const orphans = new OrphanEvents(2, 1000);
    expect(orphans.add('o:1', { kind: 'ome', event: ome('1') }, 0)).toEqual([]);
    orphans.add('o:1', { kind: 'ome', event: ome('2') }, 10);
    orphans.add('o:2', { kind: 'ome', event: ome('3') }, 20);
    const evicted = orphans.add('o:3', { kind: 'ome', event: ome('4') }, 30);
    expect(evicted.map((p) => p.event.eventId)).toEqual(['1', '2']);
    expect(orphans.take('o:2').map((p) => p.event.eventId)).toEqual(['3']);
    expect(orphans.take('o:2')).toEqual([]);
    expect(orphans.expire(1030).map((p) => p.event.eventId)).toEqual(['4']);
    expect(orphans.size).toBe(0);
  });
});
