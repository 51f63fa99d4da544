/**
 * Request latency and the account's rate limit, as a decorator around any venue port: each request waits for the
 * limiter (./request-pipe.ts: at most `maxConcurrent` in flight, `minRequestSpacingMs` between starts, FIFO), then
 * acts on the inner port `oneWayMs` after it starts, and its answer (or error) reaches the caller `oneWayMs` later,
 * all on the injected clock. A placement's `beforeSend` check runs when the request leaves the limiter, and a
 * cross-market cancel-replace request takes its batches then (`crossMarket`).
 *
 * Invariants: every call of the port goes through the one pipe in call order; nothing reads wall time; requests
 * made before `begin()` act at once (the account is connected before a backtest's first step: start-up reads do
 * not delay the first quotes); an inner error reaches the caller at the answer time, unchanged.
 */
import type { Scheduler } from '../core/clock.js';
import type {
  CancelReplaceBatch,
  CancelReplaceItemResult,
  CancelResult,
  CrossMarketCancelReplace,
  PreparedBatch,
  MaintenanceStatus,
  PlaceRequest,
  PlaceResult,
  StatusQuery,
  StatusResult,
  ListOptions,
  VenueOrderSnapshot,
  VenuePort,
} from '../orders/venue-port.js';
import type { LatencyModel } from './options.js';
import { RequestPipe } from './request-pipe.js';

export class LatencyVenue implements VenuePort {
  private readonly pipe: RequestPipe;
  private timed = false;
  readonly cancelReplace?: (batch: CancelReplaceBatch) => Promise<readonly CancelReplaceItemResult[]>;
  readonly crossMarket?: CrossMarketCancelReplace;

  constructor(
    private readonly inner: VenuePort,
    private readonly scheduler: Scheduler,
    model: LatencyModel,
  ) {
    this.pipe = new RequestPipe(model);
    const replace = inner.cancelReplace?.bind(inner);
    if (replace !== undefined) {
      this.cancelReplace = (batch) => {
        const { beforeSend, ...rest } = batch;
        return this.send(() => replace(rest), beforeSend);
      };
    }
    const cross = inner.crossMarket;
    if (cross !== undefined) {
      this.crossMarket = {
        prepare: (batch) => cross.prepare(batch),
        // The batches are taken when the request leaves the limiter, as the bot's transport takes them.
        send: (take) => {
          let batches: readonly PreparedBatch[] = [];
          return this.send(
            () => cross.send(() => batches),
            () => {
              batches = take();
            },
          );
        },
      };
    }
  }

  /** From now on every request pays the latency and waits for the limiter. */
  begin(): void {
    this.timed = true;
  }

  /** Requests sent through the pipe so far. */
  get requests(): number {
    return this.pipe.count;
  }

  placeOrder(request: PlaceRequest): Promise<PlaceResult> {
    const { beforeSend, ...rest } = request;
    return this.send(() => this.inner.placeOrder(rest), beforeSend);
  }

  cancelOrders(marketSlug: string, orderIds: readonly string[]): Promise<CancelResult> {
    return this.send(() => this.inner.cancelOrders(marketSlug, orderIds));
  }

  cancelAll(marketSlug: string): Promise<CancelResult> {
    return this.send(() => this.inner.cancelAll(marketSlug));
  }

  statusBatch(queries: readonly StatusQuery[]): Promise<readonly StatusResult[]> {
    return this.send(() => this.inner.statusBatch(queries));
  }

  listLiveOrders(marketSlug: string, options?: ListOptions): Promise<readonly VenueOrderSnapshot[]> {
    return this.send(() => this.inner.listLiveOrders(marketSlug, options));
  }

  maintenanceStatus(): Promise<MaintenanceStatus> {
    return this.send(() => this.inner.maintenanceStatus());
  }

  private async send<T>(act: () => Promise<T>, beforeSend?: () => void): Promise<T> {
    if (!this.timed) {
      beforeSend?.();
      return act();
    }
    const timing = this.pipe.send(this.scheduler.now());
    await this.until(timing.startMs);
    beforeSend?.();
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

  /** Resolves at virtual time `atMs` (at once when it is due). */
  private until(atMs: number): Promise<void> {
    const waitMs = atMs - this.scheduler.now();
    if (waitMs <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.scheduler.schedule(waitMs, resolve);
    });
  }
}
