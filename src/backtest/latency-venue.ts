/**
 * Request latency and the account's rate limit, as a decorator around any venue port: each request waits for the
 * limiter (./request-pipe.ts: at most `maxConcurrent` in flight, `minRequestSpacingMs` between starts, the waiting
 * request that starts next chosen at the start by the bot's classes — cancels, then status lookups, then placements,
 * then reads: src/orders/request-class.ts), then acts on the inner port `oneWayMs` after it starts, and its answer
 * (or error) reaches the caller `oneWayMs` later, all on the injected clock. A request's `beforeSend` check (the
 * executor's: a placement past its market's stop before settlement, in a trading mode that refuses it, or while
 * stopping is withheld) runs when it leaves the limiter, as the bot's transport runs it; a withheld request never
 * reaches the inner port, frees its slot at once and is counted (`withheld`). A cross-market cancel-replace request
 * takes its batches then (`crossMarket`).
 *
 * Invariants: every call of the port goes through the one pipe; nothing reads wall time; at most one timer is armed
 * (for the next start the pipe allows); requests made before `begin()` act at once (the account is connected before
 * a backtest's first step: start-up reads do not delay the first quotes); an inner error reaches the caller at the
 * answer time, unchanged; a withheld request's error at its start.
 */
import type { CancelTimer, Scheduler } from '../core/clock.js';
import { chunks } from '../core/maps.js';
import { requestClass, type VenueCall } from '../orders/request-class.js';
import { CANCEL_BATCH_MAX } from '../orders/venue-port.js';
import type {
  CancelReplaceBatch,
  CancelReplaceItemResult,
  CancelOptions,
  CancelResult,
  CrossMarketCancelReplace,
  PreparedBatch,
  MaintenanceStatus,
  PlaceRequest,
  PlaceResult,
  StatusOptions,
  StatusQuery,
  StatusResult,
  ListOptions,
  VenueOrderSnapshot,
  VenuePort,
} from '../orders/venue-port.js';
import type { LatencyModel } from './options.js';
import { RequestPipe, type RequestTiming } from './request-pipe.js';

/** A request waiting in the pipe: told its start when it leaves. */
type Leave = (started: { readonly id: number; readonly timing: RequestTiming }) => void;

export class LatencyVenue implements VenuePort {
  private readonly pipe: RequestPipe<Leave>;
  private timed = false;
  /** The armed timer of the next start, and its due time. */
  private timer: { readonly atMs: number; readonly cancel: CancelTimer } | null = null;
  readonly cancelReplace?: (batch: CancelReplaceBatch) => Promise<readonly CancelReplaceItemResult[]>;
  readonly crossMarket?: CrossMarketCancelReplace;
  readonly cancelAcrossMarkets?: (byMarket: ReadonlyMap<string, readonly string[]>) => Promise<CancelResult>;
  readonly cancelByClientOrderId?: (marketSlug: string, clientOrderId: string) => Promise<CancelResult>;

  constructor(
    private readonly inner: VenuePort,
    private readonly scheduler: Scheduler,
    model: LatencyModel,
  ) {
    this.pipe = new RequestPipe<Leave>(model);
    const replace = inner.cancelReplace?.bind(inner);
    if (replace !== undefined) {
      this.cancelReplace = (batch) => {
        const { beforeSend, ...rest } = batch;
        return this.send({ operation: 'cancelReplace' }, () => replace(rest), beforeSend);
      };
    }
    const across = inner.cancelAcrossMarkets?.bind(inner);
    // One request per CANCEL_BATCH_MAX ids (whatever their markets), as the bot's batch-cancel chunks them.
    if (across !== undefined) this.cancelAcrossMarkets = (byMarket) => this.cancelInChunks(byMarket, across);
    const byClientOrderId = inner.cancelByClientOrderId?.bind(inner);
    if (byClientOrderId !== undefined) this.cancelByClientOrderId = (slug, clientOrderId) => this.send({ operation: 'cancelByClientOrderId' }, () => byClientOrderId(slug, clientOrderId));
    const cross = inner.crossMarket;
    if (cross !== undefined) {
      this.crossMarket = {
        prepare: (batch) => cross.prepare(batch),
        // The batches are taken when the request leaves the limiter, as the bot's transport takes them.
        send: (take, request) => {
          let batches: readonly PreparedBatch[] = [];
          return this.send(
            { operation: 'cancelReplace', cancels: request?.cancels ?? true },
            () => cross.send(() => batches, request),
            () => {
              batches = take();
            },
          );
        },
      };
    }
  }

  private async cancelInChunks(byMarket: ReadonlyMap<string, readonly string[]>, across: (byMarket: ReadonlyMap<string, readonly string[]>) => Promise<CancelResult>): Promise<CancelResult> {
    const ids = [...byMarket].flatMap(([slug, list]) => list.map((id) => [slug, id] as const));
    const out: { canceled: string[]; failed: CancelResult['failed'][number][] } = { canceled: [], failed: [] };
    // One after the other, as the adapter sends them (its first request tells whether the venue takes several markets).
    for (const chunk of chunks(ids, CANCEL_BATCH_MAX)) {
      const part = new Map<string, string[]>();
      for (const [slug, id] of chunk) part.set(slug, [...(part.get(slug) ?? []), id]);
      const answer = await this.send({ operation: 'cancelAcrossMarkets' }, () => across(part));
      out.canceled.push(...answer.canceled);
      out.failed.push(...answer.failed);
    }
    return out;
  }

  /** From now on every request pays the latency and waits for the limiter. */
  begin(): void {
    this.timed = true;
  }

  /** Requests that went through the pipe and acted on the venue so far (withheld ones not included). */
  get requests(): number {
    return this.pipe.count;
  }

  /** Requests withheld by their own check as they left the pipe (a placement past its market's stop, …). */
  get withheld(): number {
    return this.pipe.withheld;
  }

  /** Requests waiting in the pipe now (the cross-market batcher's `othersWaiting`). */
  queued(): number {
    return this.pipe.queued;
  }

  placeOrder(request: PlaceRequest): Promise<PlaceResult> {
    const { beforeSend, ...rest } = request;
    return this.send({ operation: 'placeOrder' }, () => this.inner.placeOrder(rest), beforeSend);
  }

  cancelOrders(marketSlug: string, orderIds: readonly string[], options?: CancelOptions): Promise<CancelResult> {
    return this.send({ operation: 'cancelOrders' }, () => this.inner.cancelOrders(marketSlug, orderIds), options?.beforeSend);
  }

  cancelAll(marketSlug: string): Promise<CancelResult> {
    return this.send({ operation: 'cancelAll' }, () => this.inner.cancelAll(marketSlug));
  }

  statusBatch(queries: readonly StatusQuery[], options?: StatusOptions): Promise<readonly StatusResult[]> {
    return this.send({ operation: 'statusBatch', sweep: options?.sweep === true }, () => this.inner.statusBatch(queries, { sweep: options?.sweep === true }), options?.beforeSend);
  }

  listLiveOrders(marketSlug: string, options?: ListOptions): Promise<readonly VenueOrderSnapshot[]> {
    return this.send({ operation: 'listLiveOrders', urgent: options?.urgent === true, beforeFirstQuote: options?.beforeFirstQuote === true, deferred: options?.deferred === true }, () => this.inner.listLiveOrders(marketSlug, options));
  }

  maintenanceStatus(): Promise<MaintenanceStatus> {
    return this.send({ operation: 'maintenanceStatus' }, () => this.inner.maintenanceStatus());
  }

  private async send<T>(call: VenueCall, act: () => Promise<T>, beforeSend?: () => void): Promise<T> {
    if (!this.timed) {
      beforeSend?.();
      return act();
    }
    const { id, timing } = await new Promise<{ readonly id: number; readonly timing: RequestTiming }>((resolve) => {
      this.pipe.enqueue(requestClass(call), resolve);
      this.pump();
    });
    try {
      beforeSend?.();
    } catch (error) {
      // Never sent (a PlacementWithheldError, as a rule): its slot is free at once and it takes its start back (the
      // spacing stays the last sent request's), as the bot's limiter does (`markNotSent`).
      this.pipe.withhold(id, this.scheduler.now());
      this.pump();
      throw error;
    }
    await this.until(timing.landMs);
    let result: T;
    try {
      result = await act();
    } catch (error) {
      await this.until(timing.answerMs);
      throw error;
    }
    await this.until(timing.answerMs);
    return result;
  }

  /** Starts every request the pipe lets go now; otherwise arms one timer for the next start it allows. */
  private pump(): void {
    const nowMs = this.scheduler.now();
    for (let started = this.pipe.start(nowMs); started !== null; started = this.pipe.start(nowMs)) started.item(started);
    const nextMs = this.pipe.nextStartMs(nowMs);
    if (nextMs === null || (this.timer !== null && this.timer.atMs <= nextMs)) return;
    this.timer?.cancel();
    this.timer = {
      atMs: nextMs,
      cancel: this.scheduler.schedule(nextMs - nowMs, () => {
        this.timer = null;
        this.pump();
      }),
    };
  }

  /** Resolves at virtual time `atMs` (at once when it is due). */
  private until(atMs: number): Promise<void> {
    const waitMs = atMs - this.scheduler.now();
    if (waitMs <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.scheduler.schedule(waitMs, resolve);
    });
  }
}
