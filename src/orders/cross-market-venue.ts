/**
 * The cross-market batcher: a VenuePort decorator that gathers the cancel-replace batches of several markets (each
 * market's plan calls `cancelReplace` on its own, concurrently) into shared POST /orders/cancel-replace/batch requests,
 * sent by the inner port's `crossMarket` capability. Every other call passes through unchanged; an inner port without
 * `crossMarket` gets each batch as before.
 *
 * How: a batch is prepared (its orders signed) at once and waits. One request at a time waits for the rate limiter;
 * batches arriving meanwhile wait with it, and the request takes its batches at the moment it leaves the limiter (the
 * inner port's `take`), most urgent first (batch-urgency.ts), up to `maxOperations` operations. What is left waits for
 * the next request, opened as soon as one was taken — or `holdOffMs` after it while other requests of the account wait
 * for the limiter, so they get starts in between. A request opened lingers `lingerMs` before it goes to the limiter, so
 * the plans one move starts in many markets at once reach the same request.
 *
 * Per batch, when taken: its own `beforeSend` check runs (again before a retry); one that throws is answered with that
 * error and not sent. Each caller gets exactly its own items' results, index-aligned, or the error of the whole request
 * as if it had sent alone (cancel-errors.ts reads it).
 *
 * Refusals: a request naming several markets refused with MixedMarketsRefusedError: its batches go back to the queue
 * (nothing took effect) and from then on a request carries one market's batches only, for the process's life (logged
 * once, reported to `onMixedMarketsRefused`). Any other refusal of the request's content (HTTP 400, 413, 422: nothing
 * took effect) of a request carrying several batches: each goes again in a request of its own, so the refusal reaches
 * only the batch it belongs to. Every other failure (trading mode, 429, an unknown outcome) reaches every batch of the
 * request.
 *
 * Invariants: each caller's promise settles exactly once; a batch is in at most one request at a time and is sent again
 * only after a definite refusal of the whole request; once the venue refused mixing markets no request mixes them; the
 * inner port's `take` is the only moment batches leave the queue.
 */
import type { CancelTimer, Scheduler } from '../core/clock.js';
import { errorText } from '../core/errors.js';
import { selectBatches, type WaitingBatch } from './batch-urgency.js';
import type { OrderLog } from './executor-types.js';
import {
  MAX_CANCEL_REPLACE_OPERATIONS,
  MixedMarketsRefusedError,
  OutcomeUnknownError,
  VenueRequestError,
  type CancelReplaceBatch,
  type CancelReplaceItemResult,
  type CancelOptions,
  type CancelResult,
  type CrossMarketCancelReplace,
  type MaintenanceStatus,
  type PlaceRequest,
  type PlaceResult,
  type PreparedBatch,
  type StatusOptions,
  type StatusQuery,
  type StatusResult,
  type ListOptions,
  type VenueOrderSnapshot,
  type VenuePort,
} from './venue-port.js';

export interface CrossMarketVenueOptions {
  /** The most operations in one request (default and cap: MAX_CANCEL_REPLACE_OPERATIONS). */
  readonly maxOperations?: number;
  /**
   * While other requests of the account wait for the rate limiter (`othersWaiting`), the next request is opened this
   * much after the previous one left (default 0): the limiter starts requests by priority (cancel-replace first), and a
   * batcher that always had its next request waiting would starve every read and placement of the account (start-up
   * book fetches above all). (k + ½) × the limiter's spacing gives the others k starts of every k + 1.
   */
  readonly holdOffMs?: number;
  /** Whether other requests wait for the rate limiter now (default: always assumed, when `holdOffMs` is set). */
  readonly othersWaiting?: () => boolean;
  /**
   * A request is handed to the inner port this long after it is opened, on `scheduler` (absent: at once; 0: on a
   * timer of the same moment, after the work already queued — on a virtual clock, after everything of that instant):
   * the plans of several markets that one book or underlying move starts reach the batcher a few moments apart, and a
   * request an idle limiter lets go at once would carry only the first of them.
   */
  readonly lingerMs?: number;
  /** Needed with `holdOffMs`: the clock of the hold-off timer. */
  readonly scheduler?: Scheduler;
  readonly log?: Pick<OrderLog, 'warn'>;
  /** The venue refused operations of several markets in one request (once per process). */
  readonly onMixedMarketsRefused?: () => void;
}

interface Entry extends WaitingBatch {
  readonly batch: CancelReplaceBatch;
  readonly prepared: PreparedBatch;
  readonly resolve: (results: readonly CancelReplaceItemResult[]) => void;
  readonly reject: (error: unknown) => void;
}

/** HTTP statuses that refuse a request's content: nothing took effect, and another request without it may pass. */
const CONTENT_REFUSALS: ReadonlySet<number> = new Set([400, 413, 422]);

function isContentRefusal(error: unknown): boolean {
  return error instanceof VenueRequestError && error.status !== null && CONTENT_REFUSALS.has(error.status);
}

export class CrossMarketVenue implements VenuePort {
  readonly cancelReplace?: (batch: CancelReplaceBatch) => Promise<readonly CancelReplaceItemResult[]>;
  /** The inner port's, passed through (plain cancels are not gathered here). */
  readonly cancelAcrossMarkets?: (byMarket: ReadonlyMap<string, readonly string[]>) => Promise<CancelResult>;
  readonly cancelByClientOrderId?: (marketSlug: string, clientOrderId: string) => Promise<CancelResult>;
  readonly gathersAcrossMarkets: boolean;
  private readonly maxOperations: number;
  private waiting: Entry[] = [];
  /** A request waits for the rate limiter (its batches are not taken yet). */
  private open = false;
  /** False once the venue refused operations of several markets in one request. */
  private mixingAllowed = true;
  private nextKey = 1;
  /** When the next request may be opened (hold-off after the last one left), and its armed timer (hold-off or linger). */
  private holdOffUntil = Number.NEGATIVE_INFINITY;
  private holdOffTimer: CancelTimer | null = null;

  constructor(
    private readonly inner: VenuePort,
    private readonly options: CrossMarketVenueOptions = {},
  ) {
    this.maxOperations = Math.min(Math.max(1, Math.floor(options.maxOperations ?? MAX_CANCEL_REPLACE_OPERATIONS)), MAX_CANCEL_REPLACE_OPERATIONS);
    const cross = inner.crossMarket;
    const plain = inner.cancelReplace?.bind(inner);
    this.gathersAcrossMarkets = cross !== undefined;
    if (cross !== undefined) this.cancelReplace = (batch) => this.enqueue(cross, batch);
    else if (plain !== undefined) this.cancelReplace = plain;
    if (inner.cancelAcrossMarkets !== undefined) this.cancelAcrossMarkets = inner.cancelAcrossMarkets.bind(inner);
    if (inner.cancelByClientOrderId !== undefined) this.cancelByClientOrderId = inner.cancelByClientOrderId.bind(inner);
  }

  /** False once the venue refused a request naming several markets (one market per request since). */
  get mixesMarkets(): boolean {
    return this.mixingAllowed;
  }

  /** Batches prepared and waiting for a request. */
  get queued(): number {
    return this.waiting.length;
  }

  placeOrder(request: PlaceRequest): Promise<PlaceResult> {
    return this.inner.placeOrder(request);
  }

  cancelOrders(marketSlug: string, orderIds: readonly string[], options?: CancelOptions): Promise<CancelResult> {
    return this.inner.cancelOrders(marketSlug, orderIds, options);
  }

  cancelAll(marketSlug: string): Promise<CancelResult> {
    return this.inner.cancelAll(marketSlug);
  }

  statusBatch(queries: readonly StatusQuery[], options?: StatusOptions): Promise<readonly StatusResult[]> {
    return this.inner.statusBatch(queries, options);
  }

  listLiveOrders(marketSlug: string, options?: ListOptions): Promise<readonly VenueOrderSnapshot[]> {
    return this.inner.listLiveOrders(marketSlug, options);
  }

  maintenanceStatus(): Promise<MaintenanceStatus> {
    return this.inner.maintenanceStatus();
  }

  private async enqueue(cross: CrossMarketCancelReplace, batch: CancelReplaceBatch): Promise<readonly CancelReplaceItemResult[]> {
    const { beforeSend: _check, ...content } = batch;
    const prepared = await cross.prepare(content);
    return new Promise((resolve, reject) => {
      this.waiting.push({
        key: this.nextKey++,
        marketSlug: batch.marketSlug,
        operations: batch.items.length,
        urgency: batch.urgency ?? 0,
        passedOver: false,
        alone: false,
        batch,
        prepared,
        resolve,
        reject,
      });
      this.pump(cross);
    });
  }

  /** Opens a request when none waits for the limiter, a batch waits for one and the hold-off has passed. */
  private pump(cross: CrossMarketCancelReplace): void {
    if (this.open || this.waiting.length === 0 || this.holdOffTimer !== null) return;
    const scheduler = this.options.scheduler;
    const waitMs = scheduler === undefined ? 0 : this.holdOffUntil - scheduler.now();
    if (scheduler !== undefined && waitMs > 0 && (this.options.othersWaiting?.() ?? true)) {
      this.holdOffTimer = scheduler.schedule(waitMs, () => {
        this.holdOffTimer = null;
        this.pump(cross);
      });
      return;
    }
    this.open = true;
    const lingerMs = this.options.lingerMs;
    if (scheduler === undefined || lingerMs === undefined) {
      void this.dispatch(cross);
      return;
    }
    this.holdOffTimer = scheduler.schedule(Math.max(0, lingerMs), () => {
      this.holdOffTimer = null;
      void this.dispatch(cross);
    });
  }

  private async dispatch(cross: CrossMarketCancelReplace): Promise<void> {
    /** This request's batches: null until taken, then those of its latest attempt. */
    const request: { taken: Entry[] | null } = { taken: null };
    const take = (): readonly PreparedBatch[] => {
      if (request.taken === null) {
        this.open = false;
        const scheduler = this.options.scheduler;
        if (scheduler !== undefined) this.holdOffUntil = scheduler.now() + Math.max(0, this.options.holdOffMs ?? 0);
        request.taken = this.passChecks(this.choose());
        // What is left waits for the next request (opened after this attempt's own work, not inside it).
        queueMicrotask(() => this.pump(cross));
      } else {
        request.taken = this.passChecks(request.taken);
      }
      return request.taken.map((e) => e.prepared);
    };
    // Placements alone (first quotes) wait their turn with the account's other placements and first books; a request
    // with cancels (a requote) goes first. Batches arriving meanwhile ride whichever request is waiting.
    const cancels = this.waiting.some((entry) => entry.batch.items.some((item) => item.cancelOrderId !== null));
    let answers;
    try {
      answers = await cross.send(take, { cancels });
    } catch (error) {
      this.failed(cross, request.taken, error);
      return;
    }
    for (const entry of request.taken ?? []) {
      const answer = answers.find((a) => a.batch === entry.prepared);
      if (answer === undefined) entry.reject(new OutcomeUnknownError('cancelReplace', 'the cross-market answer has no result for this batch'));
      else entry.resolve(answer.results);
    }
  }

  /** The next request's batches (removed from the queue); the others are marked passed over. */
  private choose(): Entry[] {
    const selection = selectBatches(this.waiting, { maxOperations: this.maxOperations, oneMarket: !this.mixingAllowed });
    const byKey = new Map(this.waiting.map((e) => [e.key, e]));
    const chosen = selection.chosen.flatMap((key) => byKey.get(key) ?? []);
    this.waiting = selection.left.flatMap((key) => {
      const entry = byKey.get(key);
      return entry === undefined ? [] : [{ ...entry, passedOver: true }];
    });
    return chosen;
  }

  /** Each batch's own last-moment check: one that throws is answered with its error and dropped. */
  private passChecks(entries: readonly Entry[]): Entry[] {
    return entries.filter((entry) => {
      try {
        entry.batch.beforeSend?.();
        return true;
      } catch (error) {
        entry.reject(error);
        return false;
      }
    });
  }

  private failed(cross: CrossMarketCancelReplace, taken: readonly Entry[] | null, error: unknown): void {
    if (taken === null) {
      // The request failed before it left the limiter (nothing was taken): the batches waiting get the error.
      this.open = false;
      const waiting = this.waiting;
      this.waiting = [];
      for (const entry of waiting) entry.reject(error);
      return;
    }
    const markets = new Set(taken.map((e) => e.marketSlug));
    if (error instanceof MixedMarketsRefusedError && markets.size > 1) {
      if (this.mixingAllowed) {
        this.mixingAllowed = false;
        this.options.log?.warn({ markets: markets.size, err: errorText(error) }, 'the venue refused cancel-replace operations of several markets in one request: one market per request from now on');
        this.options.onMixedMarketsRefused?.();
      }
      this.requeue(cross, taken, false);
      return;
    }
    if (taken.length > 1 && isContentRefusal(error)) {
      this.requeue(cross, taken, true);
      return;
    }
    for (const entry of taken) entry.reject(error);
  }

  /** Batches of a refused request wait again (first in line); `alone`: each in a request of its own. */
  private requeue(cross: CrossMarketCancelReplace, entries: readonly Entry[], alone: boolean): void {
    this.waiting = [...entries.map((e) => ({ ...e, passedOver: true, alone: e.alone || alone })), ...this.waiting];
    this.pump(cross);
  }
}

/**
 * A cross-market cancel-replace request waits this long before it goes to the rate limiter, so the plans one book or
 * underlying move starts in many markets, a few moments apart, share it.
 */
export const CROSS_MARKET_LINGER_MS = 5;
/**
 * While other requests of the account wait for the limiter (first books and adoption listings at start-up above all),
 * the next cross-market request opens this many request spacings after the last one left: the others get two starts
 * of every three (the limiter starts cancel-replace requests first).
 */
export const CROSS_MARKET_HOLD_OFF_SPACINGS = 2.5;

/** The daemon's lingering and hold-off for a limiter of `minTimeMs` between request starts. */
export function crossMarketTiming(minTimeMs: number): { readonly lingerMs: number; readonly holdOffMs: number } {
  return { lingerMs: CROSS_MARKET_LINGER_MS, holdOffMs: Math.round(CROSS_MARKET_HOLD_OFF_SPACINGS * minTimeMs) };
}
