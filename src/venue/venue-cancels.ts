/**
 * How the bot cancels at the venue: through the venue's current endpoints (its API reference) — `POST
 * /orders/batch-cancel` (up to 50 order ids OR clientOrderIds) and `POST /orders/cancel` (one order id or clientOrderId)
 * — with what is unknown about them detected and remembered for the process, never guessed:
 * - whether the venue serves batch-cancel at all: a 404 for the route (the framework's `Cannot POST ...`) sends this
 *   process back to the older `POST /orders/cancel-batch` (order ids of one market), said once;
 * - whether one batch-cancel may name orders of several markets (the reference sets no rule): the first request that
 *   does tells — accepted: batches span markets from then on; refused with a 400 naming the id list: one request per
 *   market from then on, the refused ids sent again that way; said once either way.
 *
 * Owns: those two facts and the chunking (≤ 50 ids a request). Invariants: a refusal that proves nothing was canceled
 * (a 400 of the whole request) is the only one retried, and only in the per-market form; every other failure is
 * thrown to the caller (the adapter maps it); no id is sent twice in one call.
 */
import { chunks } from '../core/maps.js';
import { FrameworkError, ValidationError } from '../exchange/errors.js';
import type { ExchangeApi } from '../exchange/api.js';
import { MAX_BATCH_CANCEL } from '../exchange/api.js';
import type { TargetCancelResult } from '../exchange/wire.js';
import type { RequestPriority } from '../core/request-priority.js';
import { requestClass } from '../orders/request-class.js';

/** The limiter class of the cancels across markets (the shutdown sweep's: first of all). */
const ACROSS_MARKETS = requestClass({ operation: 'cancelAcrossMarkets' });

/** What was learnt about the venue's cancel endpoints (for the log, once each). */
export type CancelFact = { readonly batchCancel: 'absent' } | { readonly spansMarkets: boolean };

/** The answer of one call: ids canceled, and the ids refused with the venue's reason and message. */
export interface CancelOutcome {
  readonly canceled: readonly string[];
  readonly failed: readonly { readonly id: string; readonly reason: string | null; readonly message: string | null }[];
}

type Api = Pick<ExchangeApi, 'batchCancel' | 'cancelTarget' | 'cancelOrders'>;

/**
 * A 404 for the route itself, not for an order: the web framework's own answer to an unknown route
 * (`{message: 'Cannot POST /orders/batch-cancel', error: 'Not Found', statusCode: 404}`), the only evidence a venue
 * without the endpoint gives. Any other 404 is a refusal of the request, passed on.
 */
function routeMissing(error: unknown): boolean {
  return error instanceof FrameworkError && error.status === 404 && /^Cannot POST /.test(error.body.message);
}

/** A 400 naming the id list of a request that named several markets: the venue wants one market a request. */
function refusedMixedMarkets(error: unknown): boolean {
  return error instanceof ValidationError && error.status === 400 && error.body.message.some((m) => /orderIds|clientOrderIds/.test(m.field ?? ''));
}

function merge(into: { canceled: string[]; failed: CancelOutcome['failed'][number][] }, result: Pick<TargetCancelResult, 'canceled' | 'failed'> | CancelOutcome): void {
  into.canceled.push(...result.canceled);
  into.failed.push(...result.failed.map((f) => ({ id: f.id, reason: f.reason, message: f.message })));
}

export class VenueCancels {
  private batchCancelServed: boolean | null = null;
  private spansMarkets: boolean | null = null;

  constructor(
    private readonly api: Api,
    private readonly onFact: (fact: CancelFact) => void = () => undefined,
  ) {}

  /** What is known so far (null: not yet told by the venue). */
  get facts(): { readonly batchCancelServed: boolean | null; readonly spansMarkets: boolean | null } {
    return { batchCancelServed: this.batchCancelServed, spansMarkets: this.spansMarkets };
  }

  /**
   * Orders of one market, by id. `beforeSend` is checked before the call's FIRST request leaves (and before that
   * request's retries): what it throws withholds the whole call unsent; once a request has left, the call completes.
   */
  async cancelInMarket(orderIds: readonly string[], beforeSend?: () => void, priority: RequestPriority = 'cancel'): Promise<CancelOutcome> {
    const out = { canceled: [] as string[], failed: [] as CancelOutcome['failed'][number][] };
    let check = beforeSend;
    for (const chunk of chunks([...new Set(orderIds)], MAX_BATCH_CANCEL)) {
      merge(out, await this.batchOfOneMarket(chunk, { priority, ...(check === undefined ? {} : { beforeSend: check }) }));
      check = undefined;
    }
    return out;
  }

  /**
   * Orders of several markets (a stop, a halt of many markets), by id: as few requests as the venue allows. Until the
   * venue has said whether a batch may span markets, the first request that does asks it.
   */
  async cancelAcrossMarkets(byMarket: ReadonlyMap<string, readonly string[]>): Promise<CancelOutcome> {
    const out = { canceled: [] as string[], failed: [] as CancelOutcome['failed'][number][] };
    const markets = [...byMarket.entries()].filter(([, ids]) => ids.length > 0);
    if (markets.length === 0) return out;
    if (markets.length === 1 || this.spansMarkets === false || this.batchCancelServed === false) {
      for (const [, ids] of markets) merge(out, await this.cancelInMarket(ids, undefined, ACROSS_MARKETS));
      return out;
    }
    const all = [...new Set(markets.flatMap(([, ids]) => ids))];
    let index = 0;
    for (const chunk of chunks(all, MAX_BATCH_CANCEL)) {
      const spans = new Set(markets.filter(([, ids]) => ids.some((id) => chunk.includes(id))).map(([slug]) => slug)).size > 1;
      try {
        merge(out, await this.api.batchCancel({ orderIds: chunk }, { priority: ACROSS_MARKETS }));
        if (spans) this.learnSpans(true);
      } catch (error) {
        if (routeMissing(error)) this.learnServed(false);
        else if (!(spans && refusedMixedMarkets(error))) throw error;
        else this.learnSpans(false);
        // Nothing of this request was canceled: the rest goes per market.
        const rest = new Set(all.slice(index));
        for (const [, ids] of markets) {
          const left = ids.filter((id) => rest.has(id));
          if (left.length > 0) merge(out, await this.cancelInMarket(left, undefined, ACROSS_MARKETS));
        }
        return out;
      }
      index += chunk.length;
    }
    return out;
  }

  /** One order by its clientOrderId: an order whose placement answer was lost has no known order id. */
  async cancelByClientOrderId(clientOrderId: string): Promise<CancelOutcome> {
    const result = await this.api.cancelTarget({ clientOrderId });
    return { canceled: result.canceled, failed: result.failed.map((f) => ({ id: f.id, reason: f.reason, message: f.message })) };
  }

  private async batchOfOneMarket(ids: readonly string[], options: { readonly beforeSend?: () => void; readonly priority: RequestPriority }): Promise<TargetCancelResult> {
    if (this.batchCancelServed !== false) {
      try {
        const result = await this.api.batchCancel({ orderIds: ids }, options);
        this.learnServed(true);
        return result;
      } catch (error) {
        if (!routeMissing(error)) throw error;
        this.learnServed(false);
      }
    }
    const old = await this.api.cancelOrders(ids, options);
    return { status: old.status, canceled: old.canceled, failed: old.failed.map((f) => ({ id: f.orderId, by: 'orderId', reason: f.reason, message: f.message })), message: old.message };
  }

  private learnServed(served: boolean): void {
    if (this.batchCancelServed === served) return;
    const first = this.batchCancelServed === null;
    this.batchCancelServed = served;
    if (!served && first) this.onFact({ batchCancel: 'absent' });
  }

  private learnSpans(spans: boolean): void {
    if (this.spansMarkets !== null) return;
    this.spansMarkets = spans;
    this.onFact({ spansMarkets: spans });
  }
}
