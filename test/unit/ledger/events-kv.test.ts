import { describe, expect, it } from 'vitest';
import { LedgerInputError } from '../../../src/ledger/errors.js';
import { fillInput, memoryLedger, recordingObserver, T0 } from '../../support/ledger-fixtures.js';

describe('raw events', () => {
  it('stores an event once; the repeat is a no-op reported as not new', () => {
    const observer = recordingObserver();
    const ledger = memoryLedger({ observer });
    expect(ledger.recordEvent('ome:17', 'OME', { type: 'PLACEMENT', remainingSize: '10' }, T0)).toBe(true);
    expect(ledger.recordEvent('ome:17', 'OME', { type: 'PLACEMENT', remainingSize: '10' }, T0 + 1)).toBe(false);
    expect(ledger.hasEvent('ome:17')).toBe(true);
    expect(ledger.counts().events).toBe(1);
    expect(observer.calls.filter(([name]) => name === 'onEvent')).toEqual([
      ['onEvent', 'OME', true],
      ['onEvent', 'OME', false],
    ]);
    const stored = ledger.db.prepare('SELECT payload, received_at_ms FROM order_events').get();
    expect(stored).toEqual({ payload: '{"type":"PLACEMENT","remainingSize":"10"}', received_at_ms: T0 });
  });

  it('rejects payloads JSON cannot carry, naming the field', () => {
    const ledger = memoryLedger();
    expect(() => ledger.recordEvent('e1', 'OME', { size: 10n })).toThrow(LedgerInputError);
    expect(() => ledger.recordEvent('e1', 'OME', { size: 10n })).toThrow(/event.payload/);
    expect(() => ledger.recordEvent('', 'OME', {})).toThrow(/event.eventId/);
    expect(ledger.counts().events).toBe(0);
  });
});

describe('kv', () => {
  it('stores and replaces text values', () => {
    const ledger = memoryLedger();
    expect(ledger.getKv('reconcile.lastAtMs')).toBeNull();
    ledger.setKv('reconcile.lastAtMs', '1');
    ledger.setKv('reconcile.lastAtMs', '2');
    expect(ledger.getKv('reconcile.lastAtMs')).toBe('2');
    expect(() => ledger.setKv('', 'x')).toThrow(/kv.key/);
  });
});

describe('markets list', () => {
  it('leaves out a market whose only fill failed', () => {
    const ledger = memoryLedger();
    ledger.recordFill(fillInput({ tradeEventId: 'a', marketSlug: 'gone', state: 'failed' }));
    ledger.recordFill(fillInput({ tradeEventId: 'b', marketSlug: 'kept' }));
    ledger.recordFill(fillInput({ tradeEventId: 'c', marketSlug: 'reversed' }));
    ledger.failFill({ tradeEventId: 'c', orderId: 'order-1' }, { reason: 'FAILED', atMs: T0 });
    expect(ledger.pnl().markets.map((market) => market.marketSlug)).toEqual(['kept']);
  });
});
