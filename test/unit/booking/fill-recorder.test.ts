/**
 * FillRecorder: executor fills → ledger rows, exactly once, with the economics remembered for their trade event
 * (found through the typed fill part id for every part of a multi-part settlement); the tally and `onBooked` see a
 * fill once; nothing is written after close; a fill without a venue order id is left to the reconciliation; a fill is
 * booked in one process-durable transaction in its own handling and made FULL-durable by one commit per tick, after it.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { FillRecorder, KV_FILLS_DURABLE_AT, type BookedFill } from '../../../src/booking/fill-recorder.js';
import { FillPartIdError, formatFillPartId, parseFillPartId } from '../../../src/orders/fill-part-id.js';
import { EXECUTOR_FILL, memoryLedger } from '../../support/ledger-fixtures.js';

const FILL = EXECUTOR_FILL;

function recorder(): { recorder: FillRecorder; ledger: ReturnType<typeof memoryLedger>; booked: BookedFill[]; warnings: string[] } {
  const ledger = memoryLedger();
  const booked: BookedFill[] = [];
  const warnings: string[] = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
  return { recorder: new FillRecorder({ ledger, log, onBooked: (b) => booked.push(b) }), ledger, booked, warnings };
}

describe('FillRecorder.record', () => {
  it('books a fill exactly once: a repeat is a duplicate, the tally and onBooked count it once', () => {
    const h = recorder();
    expect(h.recorder.record(FILL)).toBe('inserted');
    expect(h.recorder.record(FILL)).toBe('duplicate');
    expect(h.recorder.record({ ...FILL, state: 'mined', update: true })).toBe('updated');
    expect(h.ledger.tokenPosition('btc', 'YES')).toMatchObject({ positionRaw: 4_000_000, fillCount: 1 });
    expect(h.recorder.tally()).toEqual({ fills: 1, volumeRaw: 1_800_000 });
    expect(h.booked).toEqual([{ fill: FILL, notionalRaw: 1_800_000 }]);
    h.ledger.close();
  });

  it('every part of a multi-part settlement is booked once, each with the details of its trade event', () => {
    const h = recorder();
    h.recorder.rememberDetail('trade-1', 'order-1', { collateralRaw: 1_790_000, feeRaw: 20_000, role: 'taker' });
    const parts = [1, 2, 3].map((part) => ({ ...FILL, tradeEventId: formatFillPartId('trade-1', part), sizeRaw: 1_000_000 }));
    for (const part of parts) expect(h.recorder.record(part)).toBe('inserted');
    for (const part of parts) expect(h.recorder.record(part)).toBe('duplicate');
    expect(parts.map((p) => p.tradeEventId)).toEqual(['trade-1', 'trade-1/2', 'trade-1/3']);
    for (const part of parts) {
      expect(h.ledger.getFill({ tradeEventId: part.tradeEventId, orderId: 'order-1' })).toMatchObject({ role: 'taker', feeRaw: 20_000, collateralRaw: 1_790_000 });
    }
    expect(h.recorder.tally().fills).toBe(3);
    expect(h.ledger.tokenPosition('btc', 'YES').positionRaw).toBe(3_000_000);
    h.ledger.close();
  });

  it('a fill without remembered details is booked as a maker fill without fee', () => {
    const h = recorder();
    h.recorder.rememberDetail('trade-9', 'order-1', { collateralRaw: 1, feeRaw: 1, role: 'taker' });
    h.recorder.record(FILL);
    expect(h.ledger.getFill({ tradeEventId: 'trade-1', orderId: 'order-1' })).toMatchObject({ role: 'maker', feeRaw: 0 });
    h.ledger.close();
  });

  it('a failed fill is marked failed, not counted again', () => {
    const h = recorder();
    h.recorder.record(FILL);
    expect(h.recorder.record({ ...FILL, state: 'failed', update: true })).toBe('failed');
    expect(h.ledger.getFill({ tradeEventId: 'trade-1', orderId: 'order-1' })?.state).toBe('failed');
    expect(h.recorder.tally().fills).toBe(1);
    h.ledger.close();
  });

  it('without a venue order id: nothing booked, a warning; after close: nothing written', () => {
    const h = recorder();
    expect(h.recorder.record({ ...FILL, orderId: null })).toBe('no-order-id');
    expect(h.warnings.join('\n')).toContain('fill without a venue order id');
    h.recorder.close();
    expect(h.recorder.record(FILL)).toBe('closed');
    expect(h.ledger.getFill({ tradeEventId: 'trade-1', orderId: 'order-1' })).toBeNull();
    expect(h.recorder.tally()).toEqual({ fills: 0, volumeRaw: 0 });
    expect(h.booked).toEqual([]);
    h.ledger.close();
  });

  it('remembers at most detailCapacity details, dropping the oldest', () => {
    const ledger = memoryLedger();
    const r = new FillRecorder({ ledger, log: pino({ level: 'silent' }), detailCapacity: 1 });
    r.rememberDetail('trade-1', 'order-1', { collateralRaw: 1_800_000, feeRaw: 5, role: 'taker' });
    r.rememberDetail('trade-2', 'order-1', { collateralRaw: 1_800_000, feeRaw: 6, role: 'taker' });
    r.record(FILL);
    expect(ledger.getFill({ tradeEventId: 'trade-1', orderId: 'order-1' })).toMatchObject({ role: 'maker', feeRaw: 0 });
    ledger.close();
  });
});

describe('fill part id: format and parse', () => {
  it('round-trips every part of ids the venue sends', () => {
    for (const id of ['trade-1', '0x9f3c2a', '7d1f4e1c-8a8b-4c0e-9d2a-3b1f0e6a5c11', 'a/b']) {
      for (const part of [1, 2, 3, 10, 123]) expect(parseFillPartId(formatFillPartId(id, part))).toEqual({ tradeEventId: id, part });
    }
  });

  it('part 1 is the trade event id itself; text that is not a part id reads as part 1 of itself', () => {
    expect(formatFillPartId('t', 1)).toBe('t');
    expect(parseFillPartId('t/fee:order-1')).toEqual({ tradeEventId: 't/fee:order-1', part: 1 });
    expect(parseFillPartId('t/1')).toEqual({ tradeEventId: 't/1', part: 1 });
    expect(parseFillPartId('t/02')).toEqual({ tradeEventId: 't/02', part: 1 });
  });

  it('refuses a part below 1 or not an integer, naming the field and the value', () => {
    expect(() => formatFillPartId('t', 0)).toThrow(FillPartIdError);
    expect(() => formatFillPartId('t', 0)).toThrow(/part 0/);
    expect(() => formatFillPartId('t', 1.5)).toThrow(/part 1\.5/);
  });
});

describe('FillRecorder durability: off the path from a frame to a signed request', () => {
  it('books each fill in one process-durable transaction at once; one FULL commit per tick follows, after the handling', () => {
    const operations: string[] = [];
    const ledger = memoryLedger({ observer: { onWrite: (operation) => void operations.push(operation) } });
    const later: (() => void)[] = [];
    const r = new FillRecorder({ ledger, log: pino({ level: 'silent' }), later: (fn) => void later.push(fn) });
    expect(r.record(FILL)).toBe('inserted');
    expect(r.record({ ...FILL, tradeEventId: 'trade-2', atMs: FILL.atMs + 5 })).toBe('inserted');
    // Booked and in the position book at once (the gate's next quote sees it); no FULL commit yet; one barrier asked.
    expect(ledger.positionBook.tokenPosition('btc', 'YES').positionRaw).toBe(8_000_000);
    expect(operations).toEqual(['atomically', 'atomically']);
    expect(r.durabilityPending).toBe(true);
    expect(later).toHaveLength(1);
    // A repeat asks for nothing more.
    expect(r.record(FILL)).toBe('duplicate');
    expect(later).toHaveLength(1);
    later[0]!();
    expect(operations).toEqual(['atomically', 'atomically', 'atomically', 'setKv']);
    expect(ledger.getKv(KV_FILLS_DURABLE_AT)).toBe(String(FILL.atMs + 5));
    expect(r.durabilityPending).toBe(false);
    ledger.close();
  });

  it('close runs a pending barrier first; a failing barrier is logged and the fills stay booked', () => {
    const ledger = memoryLedger();
    const errors: string[] = [];
    const later: (() => void)[] = [];
    const r = new FillRecorder({ ledger, log: pino({ level: 'error' }, { write: (line: string) => void errors.push(line) }), later: (fn) => void later.push(fn) });
    r.record(FILL);
    r.close();
    expect(ledger.getKv(KV_FILLS_DURABLE_AT)).toBe(String(FILL.atMs));
    later[0]!();
    expect(r.record({ ...FILL, tradeEventId: 'trade-3' })).toBe('closed');
    ledger.close();
    // A barrier whose FULL commit fails (a full disk): logged, the fill stays booked.
    const base = memoryLedger();
    const full = Object.assign(Object.create(base) as typeof base, { setKv: (): void => { throw new Error('disk full'); } });
    const failing = new FillRecorder({ ledger: full, log: pino({ level: 'error' }, { write: (line: string) => void errors.push(line) }), later: (fn) => void later.push(fn) });
    expect(failing.record(FILL)).toBe('inserted');
    later.at(-1)!();
    expect(errors.join('')).toContain('durability barrier');
    expect(base.tokenPosition('btc', 'YES').positionRaw).toBe(4_000_000);
    base.close();
  });

  it('with syncToDisk (a file ledger opened FULL): the row commits process-durable and the log is fsynced off the thread, after the tick', async () => {
    const operations: string[] = [];
    const base = memoryLedger({ observer: { onWrite: (operation) => void operations.push(operation) } });
    const syncs: { resolve: () => void; reject: (error: Error) => void }[] = [];
    const ledger = Object.assign(Object.create(base) as typeof base, {
      syncToDisk: () => new Promise<void>((resolve, reject) => syncs.push({ resolve, reject })),
    });
    const later: (() => void)[] = [];
    const errors: string[] = [];
    let durable = 0;
    const r = new FillRecorder({ ledger, log: pino({ level: 'error' }, { write: (line: string) => void errors.push(line) }), later: (fn) => void later.push(fn), onDurable: () => (durable += 1) });
    expect(r.record(FILL)).toBe('inserted');
    expect(syncs).toHaveLength(0); // nothing in the frame's handling
    later[0]!();
    // The row in one process-durable transaction (no FULL setKv), then one fsync asked; durable only once it completes.
    expect(operations).toEqual(['atomically', 'atomically']);
    expect(base.getKv(KV_FILLS_DURABLE_AT)).toBe(String(FILL.atMs));
    expect(syncs).toHaveLength(1);
    expect(r.durabilityPending).toBe(true);
    syncs[0]!.resolve();
    await Promise.resolve();
    await Promise.resolve();
    expect(r.durabilityPending).toBe(false);
    expect(durable).toBe(1);
    // A failed fsync is logged; the fill stays booked; the next tick's barrier asks again.
    expect(r.record({ ...FILL, tradeEventId: 'trade-2' })).toBe('inserted');
    later[1]!();
    syncs[1]!.reject(new Error('EIO'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors.join('')).toContain('durability barrier');
    expect(r.durabilityPending).toBe(false);
    expect(durable).toBe(1);
    expect(r.record({ ...FILL, tradeEventId: 'trade-3' })).toBe('inserted');
    later[2]!();
    expect(syncs).toHaveLength(3);
    // Closing while an fsync is in flight ends with a FULL commit on this thread.
    r.close();
    expect(operations.at(-1)).toBe('setKv');
    expect(durable).toBe(2);
    base.close();
  });
});
