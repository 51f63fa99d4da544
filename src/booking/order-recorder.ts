/**
 * The order recorder: every change of a tracked order (the executor's `onOrderChange`) → the ledger's order row.
 *
 * Owns: the mapping of `TrackedOrder` to ledger order rows, and the changes not yet written. The changes made in one
 * synchronous burst (a quote cycle inserts its new orders pending-new, a batch answer updates several) are written
 * together in ONE transaction (one commit, not one fsync per order). A new order is write-ahead: its burst is flushed
 * from a microtask (`defer`, default queueMicrotask); the executor sends a request only after an `await` (the rate
 * limiter, src/orders/plan-requests.ts), whose continuation is queued after this flush, so a new order's row is
 * written before its request can leave, and a restart after a crash finds it (src/booking/ledger-sync.ts looks up an
 * order whose answer was lost by its clientOrderId). Updates only (the venue's answers, which it can tell again) wait
 * for the end of the tick (`later`, default setImmediate), off the path from a book frame to a signed request, and are
 * written at most `updateChunk` (16) per turn of the loop, one transaction per chunk: the answer to a cross-market batch
 * updates every order of a requote wave (≈ 0.1 ms each: a read, a zod parse, an update and its event), which written
 * whole held the loop for one long stretch the soak's event-loop p99 counted.
 *
 * Invariants: changes are written in the order they came; a new order is recorded once; an order adopted after a
 * restart that the ledger already holds (with details the venue's listing does not carry: postOnly, order type) is
 * brought up to date instead of recorded anew (which would be a conflict); a batch that fails is written again change
 * by change, and a change that still fails is reported to `onError` (never thrown into the executor); `flush` writes
 * what is pending at once; `close()` flushes, then nothing is written.
 */
import type { LedgerStore } from '../ledger/index.js';
import type { TrackedOrder } from '../orders/order-record.js';

export type OrderLedger = Pick<LedgerStore, 'getOrder' | 'recordOrder' | 'updateOrder' | 'atomically'>;

export interface OrderRecorderOptions {
  /** Runs the flush once the current synchronous burst ends, before any request it created leaves (default queueMicrotask). */
  readonly defer?: (fn: () => void) => void;
  /** Runs the flush of updates only once the tick ends (default setImmediate). */
  readonly later?: (fn: () => void) => void;
  /** Updates written per turn of the loop at most (default 16); a flush for a new order writes everything pending. */
  readonly updateChunk?: number;
  /** A change the ledger refused even alone (a conflict, a closed ledger). */
  readonly onError?: (error: unknown, order: TrackedOrder) => void;
}

interface Change {
  readonly order: TrackedOrder;
  readonly previous: TrackedOrder | null;
}

export const DEFAULT_UPDATE_CHUNK = 16;

export class OrderRecorder {
  private closed = false;
  private pending: Change[] = [];
  private scheduled = false;
  private scheduledLater = false;
  private readonly defer: (fn: () => void) => void;
  private readonly later: (fn: () => void) => void;
  private readonly updateChunk: number;

  constructor(
    private readonly ledger: OrderLedger,
    private readonly options: OrderRecorderOptions = {},
  ) {
    this.defer = options.defer ?? queueMicrotask;
    this.later = options.later ?? ((fn) => void setImmediate(fn));
    this.updateChunk = Math.max(1, Math.trunc(options.updateChunk ?? DEFAULT_UPDATE_CHUNK));
  }

  /** Queues the change; written with the rest of its burst (see the header). */
  record(order: TrackedOrder, previous: TrackedOrder | null): void {
    if (this.closed) return;
    this.pending.push({ order, previous });
    if (previous === null) {
      // A new (or adopted) order: write-ahead, before its request can leave.
      if (this.scheduled) return;
      this.scheduled = true;
      this.defer(() => this.flush());
      return;
    }
    if (this.scheduled || this.scheduledLater) return;
    this.writeLater();
  }

  /** Writes every pending change now, in one transaction. */
  flush(): void {
    this.scheduled = false;
    this.writeHead(Number.POSITIVE_INFINITY);
  }

  /** The oldest `updateChunk` changes at the end of this tick, the rest at the end of the next ones. */
  private writeLater(): void {
    this.scheduledLater = true;
    this.later(() => {
      this.scheduledLater = false;
      this.writeHead(this.updateChunk);
      if (this.pending.length > 0 && !this.scheduled && !this.closed) this.writeLater();
    });
  }

  /** Writes the oldest `limit` pending changes in one transaction. */
  private writeHead(limit: number): void {
    if (this.closed) return;
    const batch = this.pending.length <= limit ? this.pending : this.pending.slice(0, limit);
    this.pending = this.pending.length <= limit ? [] : this.pending.slice(limit);
    if (batch.length === 0) return;
    try {
      this.ledger.atomically(() => {
        for (const change of batch) this.write(change);
      }, 'process');
    } catch {
      for (const change of batch) {
        try {
          this.write(change);
        } catch (error) {
          this.options.onError?.(error, change.order);
        }
      }
    }
  }

  /** Writes what is pending, then nothing reaches the ledger (it is about to close). */
  close(): void {
    this.flush();
    this.closed = true;
  }

  private write({ order, previous }: Change): void {
    const ledger = this.ledger;
    const adoptedKnown = previous === null && ledger.getOrder({ clientOrderId: order.clientOrderId }) !== null;
    if (previous === null && !adoptedKnown) {
      ledger.recordOrder({
        clientOrderId: order.clientOrderId,
        ...(order.orderId === null ? {} : { venueOrderId: order.orderId }),
        marketSlug: order.marketSlug,
        slot: order.slot,
        token: order.token,
        tokenId: order.tokenId,
        side: order.side,
        orderType: order.orderType,
        postOnly: order.postOnly,
        priceTicks: order.priceTicks,
        sizeRaw: order.sizeRaw,
        remainingRaw: order.remainingRaw,
        status: order.state,
        atMs: order.createdAtMs,
      });
      return;
    }
    ledger.updateOrder(
      { clientOrderId: order.clientOrderId },
      { status: order.state, remainingRaw: order.remainingRaw, ...(order.orderId === null ? {} : { venueOrderId: order.orderId }), atMs: order.updatedAtMs },
    );
  }
}
