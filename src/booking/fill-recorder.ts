/**
 * The fill recorder: every fill the executor reports (`FillEvent`) → the ledger's rows, with the economics its
 * sources reported (a socket SETTLEMENT frame, or the REST placement / lookup answer of a taker fill).
 *
 * Owns: the mapping of executor fills to ledger rows (through src/booking/fill-booking.ts), the fill details remembered
 * until their fill arrives (keyed by the venue's trade event id and order id: a multi-part settlement's part id is
 * read back with src/orders/fill-part-id.ts, so every part finds the details of its trade event), and the tally of
 * fills and volume this run booked (the run summary reads it). Invariants: a fill reaches the ledger exactly once
 * (the ledger's (part id, order id) key makes a repeat a 'duplicate'), and `onBooked` and the tally see it only the
 * first time; nothing is written once `close()` ran; a fill without a venue order id is left to the periodic
 * reconciliation (logged, not booked).
 *
 * Durability off the path from a frame to a signed request: a fill is booked in the frame's handling in ONE
 * process-durable transaction (its rows, its fee adjustment, the position book: all or nothing; no fsync, and in WAL
 * mode it survives a kill -9 whole), and once the tick ends (`later`, default setImmediate: after the microtasks in
 * which the requests it caused are signed and sent) the barrier makes every fill of the tick durable against an OS
 * crash or power cut too: a key-value row (process-durable) then, where the ledger offers it (`syncToDisk`: a file
 * ledger opened FULL), an fsync of its write-ahead log on libuv's threadpool (src/ledger/wal-sync.ts), so the main
 * thread never waits for the disk; elsewhere one FULL commit of that row on this thread (as before). A tick's fills
 * are power-durable once that fsync completes (`onDurable`; `durabilityPending` until then): under one tick plus one
 * fsync after their booking. What a power cut takes in that window the start-up catch-up books again from the venue
 * (src/booking/ledger-sync.ts). `close()` ends with a FULL commit when a barrier is pending or its fsync in flight.
 */
import type { Logger } from 'pino';
import { collateralRaw } from '../core/venue-rules/index.js';
import type { FillEvent } from '../orders/executor-types.js';
import { parseFillPartId } from '../orders/fill-part-id.js';
import { errorText } from '../core/errors.js';
import type { LedgerStore } from '../ledger/index.js';
import { bookFill, type BookingLedger, type FillDetail } from './fill-booking.js';

/** A fill booked for the first time, with its notional (raw USDC). */
export interface BookedFill {
  readonly fill: FillEvent & { readonly orderId: string };
  readonly notionalRaw: number;
  /** A maker fill's taker fee rate as its report carried it (absent: not reported; the rebate uses the fee curve). */
  readonly takerFeeBps?: number;
}

export interface FillTally {
  readonly fills: number;
  readonly volumeRaw: number;
}

export type RecordOutcome = ReturnType<typeof bookFill> | 'no-order-id' | 'closed';

/** The key-value row whose FULL commit makes the tick's fills durable (its value: when, ms). */
export const KV_FILLS_DURABLE_AT = 'fills.durableAtMs';

export interface FillRecorderOptions {
  readonly ledger: BookingLedger & Pick<LedgerStore, 'atomically' | 'setKv'> & Partial<Pick<LedgerStore, 'syncToDisk'>>;
  /** Runs the durability barrier once the tick ends (default setImmediate). */
  readonly later?: (fn: () => void) => void;
  readonly log: Logger;
  /** Told each time the fills booked before a barrier are on the disk (its fsync completed). */
  readonly onDurable?: () => void;
  /** Called once per fill part, when the ledger first inserts it. */
  readonly onBooked?: (booked: BookedFill) => void;
  /** Fill details remembered at most (oldest dropped first). Default 10,000. */
  readonly detailCapacity?: number;
}

const detailKey = (tradeEventId: string, orderId: string): string => `${tradeEventId}|${orderId}`;

export class FillRecorder {
  private readonly details = new Map<string, FillDetail>();
  private readonly capacity: number;
  private fills = 0;
  private volumeRaw = 0;
  private closed = false;
  private barrierPending = false;
  /** Barriers whose fsync has not completed yet. */
  private syncsInFlight = 0;
  /** The last fill booked (the barrier's row records it). */
  private lastAtMs = 0;
  private readonly later: (fn: () => void) => void;

  constructor(private readonly options: FillRecorderOptions) {
    this.capacity = Math.max(1, options.detailCapacity ?? 10_000);
    this.later = options.later ?? ((fn) => void setImmediate(fn));
  }

  /** The economics of (trade event, order) as a report told them; used when that fill is booked. */
  rememberDetail(tradeEventId: string, orderId: string, detail: FillDetail): void {
    this.details.set(detailKey(tradeEventId, orderId), detail);
    if (this.details.size > this.capacity) {
      const oldest = this.details.keys().next().value;
      if (oldest !== undefined) this.details.delete(oldest);
    }
  }

  /** Books one executor fill (a failure marks the booked fill failed). Returns the ledger's outcome. */
  record(fill: FillEvent): RecordOutcome {
    if (this.closed) return 'closed';
    if (fill.orderId === null) {
      this.options.log.warn({ fill }, 'fill without a venue order id; the periodic reconciliation will record it');
      return 'no-order-id';
    }
    const withOrder = { ...fill, orderId: fill.orderId };
    const detail = this.details.get(detailKey(parseFillPartId(fill.tradeEventId).tradeEventId, fill.orderId));
    // Fee in USDC → fee; fee in contracts → fee at its value and the contracts removed (src/booking/fill-booking.ts).
    const ledger = this.options.ledger;
    const outcome = ledger.atomically(() => bookFill(ledger, withOrder, detail), 'process');
    if (outcome !== 'duplicate') {
      this.lastAtMs = Math.max(this.lastAtMs, fill.atMs);
      this.durableAtTickEnd();
    }
    if (outcome !== 'inserted') return outcome;
    const notionalRaw = collateralRaw(fill.sizeRaw, fill.priceTicks, fill.side);
    this.fills += 1;
    this.volumeRaw += notionalRaw;
    this.options.log.info(
      { market: fill.marketSlug, slot: fill.slot, token: fill.token, side: fill.side, price: fill.priceTicks / 1000, size: fill.sizeRaw / 1e6 },
      'fill',
    );
    this.options.onBooked?.({ fill: withOrder, notionalRaw, ...(detail?.takerFeeBps === undefined ? {} : { takerFeeBps: detail.takerFeeBps }) });
    return outcome;
  }

  tally(): FillTally {
    return { fills: this.fills, volumeRaw: this.volumeRaw };
  }

  /** Whether booked fills still wait to be on the disk (their barrier, or its fsync). */
  get durabilityPending(): boolean {
    return this.barrierPending || this.syncsInFlight > 0;
  }

  /** Nothing reaches the ledger after this (the ledger is about to close); what waits for the disk gets a FULL commit. */
  close(): void {
    if (this.durabilityPending) this.fullCommit();
    this.barrierPending = false;
    this.closed = true;
  }

  private durableAtTickEnd(): void {
    if (this.barrierPending) return;
    this.barrierPending = true;
    this.later(() => {
      if (this.barrierPending && !this.closed) this.barrier();
    });
  }

  /** The row, then the fsync of the log off this thread; or, without `syncToDisk`, one FULL commit here. */
  private barrier(): void {
    this.barrierPending = false;
    const ledger = this.options.ledger;
    const syncToDisk = ledger.syncToDisk ?? null;
    if (syncToDisk === null) {
      this.fullCommit();
      return;
    }
    try {
      ledger.atomically(() => ledger.setKv(KV_FILLS_DURABLE_AT, String(this.lastAtMs)), 'process');
    } catch (error) {
      this.barrierFailed(error);
      return;
    }
    this.syncsInFlight += 1;
    syncToDisk().then(
      () => {
        this.syncsInFlight -= 1;
        this.options.onDurable?.();
      },
      (error: unknown) => {
        this.syncsInFlight -= 1;
        this.barrierFailed(error);
      },
    );
  }

  /** One FULL commit: every earlier commit of the connection becomes durable with it (src/ledger/context.ts). */
  private fullCommit(): void {
    try {
      this.options.ledger.setKv(KV_FILLS_DURABLE_AT, String(this.lastAtMs));
      this.options.onDurable?.();
    } catch (error) {
      this.barrierFailed(error);
    }
  }

  /** The fills stay booked and durable against a process crash; the next fill's barrier tries again. */
  private barrierFailed(error: unknown): void {
    this.options.log.error({ err: errorText(error) }, 'fills: the durability barrier (the write-ahead log to the disk) failed');
  }
}
