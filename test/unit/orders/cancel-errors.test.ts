/**
 * The cancel error table (src/orders/cancel-errors.ts): written out case by case, every row hit; then every case
 * walked through the executor's public entry (`submit`) on both of its callers — a plain cancel (plan-requests.ts)
 * and a cancel-replace (replacements.ts) — checking what the verdict states: the plan's abort reason, whether the
 * request was reported, the old orders restored or looked up, the replacement never sent, the gate taught, and
 * cancel-replace turned off.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { CANCEL_ERROR_TABLE, classifyCancelError, type CancelVerdict } from '../../../src/orders/cancel-errors.js';
import { ClientOrderIdFactory } from '../../../src/orders/client-order-id.js';
import { OrderExecutor } from '../../../src/orders/executor.js';
import { TradingModeGate } from '../../../src/orders/trading-mode.js';
import {
  CancelReplaceUnsupportedError,
  DuplicateClientOrderIdError,
  MaintenanceBlockError,
  OrderRejectedError,
  OutcomeUnknownError,
  PlacementWithheldError,
  RateLimitedError,
  TradingModeError,
  VenueRequestError,
  type CancelReplaceBatch,
  type CancelResult,
  type CancelReplaceItemResult,
} from '../../../src/orders/venue-port.js';
import type { QuoteIntent } from '../../../src/strategy/contract.js';
import { FakeReplaceVenue, settle, until } from '../../support/fake-venue.js';

/** A restoring verdict's usual fields; each case names what differs. */
const RESTORED = { orders: 'restore', sent: true, modeRefusal: false, cancelReplaceOff: false } as const;
const LOOK_UP: CancelVerdict = { kind: 'outcome-unknown', orders: 'look-up', abort: null, sent: true, modeRefusal: false, cancelReplaceOff: false };

/** The ladder written out case by case: error → (orders, abort, reported, gate, cancel-replace). */
const CASES: readonly (readonly [string, unknown, CancelVerdict])[] = [
  ['withheld while stopping: never sent, no abort', new PlacementWithheldError('stopping'), { ...RESTORED, kind: 'withheld', abort: null, sent: false }],
  ['withheld past the market\'s stop: never sent, no abort', new PlacementWithheldError('past its stop', { abortsPlan: false }), { ...RESTORED, kind: 'withheld', abort: null, sent: false }],
  ['withheld by the trading mode: never sent, the plan stops', new PlacementWithheldError('trading mode cancel_only'), { ...RESTORED, kind: 'withheld', abort: 'trading-mode', sent: false }],
  ['425 trading mode: restored, the gate learns it', new TradingModeError('cancelOrders', 'disabled', null), { ...RESTORED, kind: 'trading-mode', abort: 'trading-mode', modeRefusal: true }],
  ['425 without a mode body: restored, maintenance refreshed', new MaintenanceBlockError('cancelOrders', 'Too Early'), { ...RESTORED, kind: 'maintenance-block', abort: 'trading-mode', modeRefusal: true }],
  ['404 cancel-replace not offered: restored, cancel-replace off', new CancelReplaceUnsupportedError('404'), { ...RESTORED, kind: 'unsupported', abort: 'request-failed', cancelReplaceOff: true }],
  ['429 rate limited: restored, the plan stops', new RateLimitedError('cancelOrders', 1000), { ...RESTORED, kind: 'rate-limited', abort: 'rate-limited' }],
  ['another definite venue failure: restored, the plan stops', new VenueRequestError('cancelOrders', 400, 'bad'), { ...RESTORED, kind: 'request-failed', abort: 'request-failed' }],
  ['a placement error kind on a cancel: a definite failure', new OrderRejectedError('validation', 'bad', 400), { ...RESTORED, kind: 'request-failed', abort: 'request-failed' }],
  ['a duplicate clientOrderId: a definite failure', new DuplicateClientOrderIdError('mm1-x-bid-0-1'), { ...RESTORED, kind: 'request-failed', abort: 'request-failed' }],
  ['timeout / 5xx / dropped connection: looked up, the plan goes on', new OutcomeUnknownError('cancelOrders', 'timeout'), LOOK_UP],
  ['anything unexpected: looked up, never restored', new TypeError('boom'), LOOK_UP],
];

describe('cancel error table', () => {
  it.each(CASES)('%s', (_name, error, expected) => {
    expect(classifyCancelError(error)).toEqual(expected);
  });

  it('every row is some case’s first match, and the last row (looked up) catches the rest', () => {
    const firstRow = (error: unknown): number => CANCEL_ERROR_TABLE.findIndex((r) => r.verdictOf(error) !== null);
    expect(new Set(CASES.map(([, error]) => firstRow(error)))).toEqual(new Set(CANCEL_ERROR_TABLE.keys()));
    expect(CANCEL_ERROR_TABLE.at(-1)?.verdictOf(Symbol('x'))).toEqual(LOOK_UP);
  });
});

const SLUG = 'will-it-rain';
const T0 = 1_700_000_000_000;
const bid = (slot: string, priceTicks: number): QuoteIntent => ({ slot, token: 'YES', side: 'BUY', priceTicks, sizeRaw: 10_000_000, postOnly: true });
const ladder = (base: number): QuoteIntent[] => [bid('bid-0', base), bid('bid-1', base - 10)];

/** The fake venue, throwing `next` (once) from the next cancel or cancel-replace. */
class ThrowingVenue extends FakeReplaceVenue {
  next: { readonly error: unknown } | null = null;
  /** The replacements of the cancel-replace that threw. */
  thrownReplacements: string[] = [];
  override async cancelOrders(slug: string, ids: readonly string[]): Promise<CancelResult> {
    this.throwNext('cancelOrders');
    return super.cancelOrders(slug, ids);
  }
  override async cancelReplace(batch: CancelReplaceBatch): Promise<readonly CancelReplaceItemResult[]> {
    if (this.next !== null) this.thrownReplacements = batch.items.map((i) => i.place.clientOrderId);
    this.throwNext('cancelReplace');
    return super.cancelReplace(batch);
  }
  private throwNext(op: 'cancelOrders' | 'cancelReplace'): void {
    const next = this.next;
    if (next === null) return;
    this.next = null;
    this.calls.push({ op, atMs: 0, detail: 'thrown' });
    throw next.error;
  }
}

async function quoting(cancelReplace: boolean) {
  const scheduler = new ManualClock(T0);
  const venue = new ThrowingVenue(() => scheduler.now());
  const gate = new TradingModeGate({ scheduler, pollIntervalMs: 30_000, fetchStatus: () => venue.maintenanceStatus() });
  const reported: string[] = [];
  const executor = new OrderExecutor({
    venue,
    scheduler,
    modeGate: gate,
    ids: new ClientOrderIdFactory('mm1', () => scheduler.now()),
    markets: [{ slug: SLUG, tokens: { yes: '111', no: '222' } }],
    onFill: () => undefined,
    observer: { onRequestError: (operation) => reported.push(operation) },
    cancelReplace: { enabled: cancelReplace },
  });
  await settle(scheduler, executor.start());
  await settle(scheduler, executor.submit(SLUG, ladder(500)));
  return { scheduler, venue, gate, executor, reported };
}

describe('cancel errors through the executor: plain cancels and cancel-replaces apply the same verdict', () => {
  const walks = CASES.flatMap(([name, error, verdict]) => [
    ['cancel', name, error, verdict] as const,
    ['cancel-replace', name, error, verdict] as const,
  ]).filter(([caller, , error]) => caller === 'cancel-replace' || !(error instanceof PlacementWithheldError)); // a plain cancel has no beforeSend

  it.each(walks)('%s: %s', async (caller, _name, error, verdict) => {
    const ctx = await quoting(caller === 'cancel-replace');
    const old = ctx.executor.openOrders(SLUG).map((o) => o.clientOrderId);
    const from = ctx.venue.calls.length;
    ctx.venue.next = { error };
    // The first run meets the error; its outcome is what the verdict says.
    const submitting = ctx.executor.submit(SLUG, ladder(505));
    const outcome = await settle(ctx.scheduler, submitting);
    const operation = caller === 'cancel' ? 'cancelOrders' : 'cancelReplace';
    expect(ctx.venue.calls[from]?.op).toBe(operation);
    expect(ctx.reported.includes(operation)).toBe(verdict.sent);
    const lookedUp = (): boolean => ctx.venue.calls.slice(from).some((c) => c.op === 'statusBatch' || c.op === 'listLiveOrders');
    if (verdict.orders === 'restore') {
      if (verdict.cancelReplaceOff && caller === 'cancel-replace') {
        // Off for good: the pairs went again as plain cancels, then placements; the plan went on.
        expect(ctx.venue.calls.slice(from + 1).map((c) => c.op)).toContain('cancelOrders');
        expect(outcome).toMatchObject({ status: 'executed', aborted: null });
      } else {
        expect(outcome).toMatchObject({ status: 'executed', aborted: verdict.abort });
        // Nothing took effect: the old orders rest again, untouched, without a lookup.
        for (const id of old) expect(ctx.executor.order(id)?.state).toBe('live');
        expect(lookedUp()).toBe(false);
      }
      if (caller === 'cancel-replace') {
        // The replacements of the failed request were never sent: rejected as such, never live.
        expect(ctx.venue.thrownReplacements).toHaveLength(2);
        for (const id of ctx.venue.thrownReplacements) expect(ctx.executor.order(id)).toMatchObject({ state: 'rejected', reason: expect.stringMatching(/^not sent: /) as string });
      }
    } else {
      // Unknown: the plan went on; the old orders stay pending-cancel until looked up (the fake venue still holds them:
      // canceled again after the lookup).
      expect(outcome).toMatchObject({ status: 'executed', aborted: null });
      for (const id of old) expect(ctx.executor.order(id)?.state).toBe('pending-cancel');
      await until(ctx.scheduler, lookedUp);
      await until(ctx.scheduler, () => old.every((id) => ctx.executor.order(id)?.state === 'canceled'));
    }
    if (verdict.modeRefusal && error instanceof TradingModeError) expect(ctx.gate.mode).toBe('disabled');
    if (!verdict.modeRefusal) expect(ctx.gate.mode).toBe('normal');
  });
});
