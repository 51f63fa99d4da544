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
 */
import type { Logger } from 'pino';
import { collateralRaw } from '../core/venue-rules/index.js';
import type { FillEvent } from '../orders/executor-types.js';
import { parseFillPartId } from '../orders/fill-part-id.js';
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

export interface FillRecorderOptions {
  readonly ledger: BookingLedger;
  readonly log: Logger;
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

  constructor(private readonly options: FillRecorderOptions) {
    this.capacity = Math.max(1, options.detailCapacity ?? 10_000);
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
    const outcome = bookFill(this.options.ledger, withOrder, detail);
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

  /** Nothing reaches the ledger after this (the ledger is about to close). */
  close(): void {
    this.closed = true;
  }
}
