/**
 * The executor's public types: options, observer hooks, callbacks and outcomes, and the guard that makes every
 * observer hook safe to call.
 *
 * Invariant: nothing here holds state; `guardObserver` returns hooks that never throw (a failing hook is
 * reported to `onError` instead).
 */
import { describeValue } from '../core/venue-rules/index.js';
import type { Scheduler } from '../core/clock.js';
import type { ClientOrderIdFactory } from './client-order-id.js';
import type { TrackedOrder, Transition } from './order-record.js';
import type { IllegalTransitionError } from './order-state.js';
import type { InvalidIntent, PlannedWait, SizeTolerance } from './reconcile.js';
import type { ForeignPolicy } from './startup.js';
import type { TradingModeGate } from './trading-mode.js';
import type { SettlementState, VenueOperation, VenuePort } from './venue-port.js';

export interface MarketRef {
  readonly slug: string;
  readonly tokens: { readonly yes: string; readonly no: string };
  /**
   * Why no order of the bot can rest in this market (the caller's evidence, logged): a market joined while running is
   * then made ready without listing its orders. Absent: listed and adopted as at start-up. Ignored before `start()`.
   */
  readonly noOwnOrders?: string;
}

/** A fill of one of the bot's orders, for the ledger: the order's identity and the fill's own figures. */
export type FillEvent = Pick<TrackedOrder, 'orderId' | 'clientOrderId' | 'marketSlug' | 'slot' | 'token' | 'tokenId' | 'side'> & {
  readonly tradeEventId: string;
  readonly priceTicks: number;
  readonly sizeRaw: number;
  readonly state: SettlementState;
  /** True when this only moves the settlement state of a fill emitted before. */
  readonly update: boolean;
  /** Venue time of the fill. */
  readonly atMs: number;
};

/** pino-compatible subset. */
export interface OrderLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export type AbortReason = 'trading-mode' | 'rate-limited' | 'request-failed';

export interface PlanReport {
  readonly marketSlug: string;
  readonly durationMs: number;
  readonly placed: number;
  readonly canceled: number;
  readonly kept: number;
  readonly waiting: number;
  readonly rejected: number;
  readonly unknown: number;
  readonly invalid: number;
  readonly blockedPlaces: number;
  readonly blockedCancels: number;
  readonly convertedToPostOnly: number;
  readonly aborted: AbortReason | null;
}

export type UntrackedReason = 'foreign' | 'expired' | 'invalid';

export interface ExecutorObserver {
  onPlan?(report: PlanReport): void;
  onSuperseded?(marketSlug: string): void;
  onTransition?(marketSlug: string, clientOrderId: string, transition: Transition): void;
  onIllegalTransition?(error: IllegalTransitionError): void;
  onRequestError?(operation: VenueOperation, marketSlug: string, error: unknown): void;
  onDuplicateEvent?(key: string): void;
  onUntrackedEvent?(reason: UntrackedReason, detail: string): void;
  onLookup?(marketSlug: string, found: number, notFound: number): void;
  onStrayOrder?(marketSlug: string, orderId: string, reason: string): void;
  /** The venue answered 404 for cancel-replace: the executor uses cancels and placements from now on (once). */
  onCancelReplaceUnsupported?(marketSlug: string): void;
  /** The venue refused placements sent as cancel-replace operations: POST /orders from now on (once). */
  onBatchPlacementsRefused?(marketSlug: string): void;
  /**
   * A deferred own-order listing (deferred-listing.ts): applied (`report`: what it adopted, canceled and saw of others;
   * `delayMs`: since the market was made ready), or one attempt failed (`failedAttempt`, from 1: it is tried again).
   */
  onDeferredListing?(marketSlug: string, result: DeferredListingResult): void;
}

/** See ExecutorObserver.onDeferredListing. */
export type DeferredListingResult = { readonly report: MarketSyncReport; readonly delayMs: number } | { readonly failedAttempt: number };

export interface ExecutorOptions {
  readonly venue: VenuePort;
  readonly scheduler: Scheduler;
  readonly modeGate: TradingModeGate;
  readonly ids: ClientOrderIdFactory;
  readonly markets: readonly MarketRef[];
  readonly onFill: (fill: FillEvent) => void;
  readonly onOrderChange?: (order: TrackedOrder, previous: TrackedOrder | null) => void;
  readonly observer?: ExecutorObserver;
  readonly log?: OrderLog;
  readonly reconcile?: {
    readonly priceToleranceTicks?: number;
    readonly sizeTolerance?: SizeTolerance;
    readonly maxOrderAgeMs?: number;
    readonly coolOffMs?: number;
    readonly coolOffScope?: 'slot' | 'market';
  };
  /** `postOnly` for intents that do not say (default false). */
  readonly defaultPostOnly?: boolean;
  readonly unknownOrders?: {
    readonly initialBackoffMs?: number;
    readonly maxBackoffMs?: number;
    readonly notFoundLimit?: number;
    readonly notFoundGraceMs?: number;
  };
  readonly dedupeCapacity?: number;
  readonly orphanEvents?: { readonly capacity?: number; readonly ttlMs?: number };
  /** Live orders of the account that are not the bot's: left alone (default) or canceled at start-up/resync. */
  readonly foreignPolicy?: ForeignPolicy;
  /**
   * The bot alone trades these markets on this account: shutdown may cancel with `DELETE /orders/all/{slug}`.
   * Default false: shutdown cancels by the bot's own order ids only (other bots of the account keep theirs).
   */
  readonly exclusiveMarkets?: boolean;
  readonly cancelBatchSize?: number;
  /**
   * Replace a changed quote with one cancel-replace operation (cancel old + place new, STOP_ON_FAILURE), the slots of a
   * market in batches of at most `batchSize` operations (default on, 50: the most one request carries; the cross-market
   * batcher fills its requests up to the same number). Needs `venue.cancelReplace`.
   */
  readonly cancelReplace?: { readonly enabled?: boolean; readonly batchSize?: number };
  /**
   * `auto` (default): when the venue port gathers cancel-replace batches across markets (`venue.gathersAcrossMarkets`),
   * placements into empty slots go as cancel-replace operations too (cancel target: the new order's own clientOrderId,
   * ALLOW_FAILURE), so many markets' first quotes share requests; a venue refusing that (a 400, or NOT_ATTEMPTED) turns
   * it off for good. `off`: one POST /orders per placement.
   */
  readonly batchPlacements?: 'auto' | 'off';
  /** Attempts to list a market's live orders at start-up before the market is left blocked. */
  readonly startupAttempts?: number;
  /**
   * Whether a market may quote before its own-order listing (at `start()`, and when joined without `noOwnOrders`):
   * the caller's evidence that no order of the bot unknown to it can be there (the bot: its ledger knows no open order
   * of the market, src/markets/startup-listing.ts). True: made ready at once, listed afterwards at the lowest priority and
   * what it finds adopted or canceled as at start-up (deferred-listing.ts). Absent or false: listed first.
   */
  readonly deferListing?: (marketSlug: string) => boolean;
  /** Terminal orders are forgotten this long after their last change (default 1 h). */
  readonly retainTerminalMs?: number;
  /**
   * The moment from which no placement or replacement of a market may leave (its stop before settlement; null or
   * absent: none). Checked when the request leaves the rate limiter, so one planned before it but sent later is
   * withheld unsent (src/orders/plan-requests.ts `withholdUnlessAllowed`).
   */
  readonly stopAtMs?: (marketSlug: string) => number | null;
}

export type PlanOutcome =
  | {
      readonly status: 'executed';
      readonly marketSlug: string;
      readonly placed: readonly string[];
      readonly canceled: readonly string[];
      readonly kept: number;
      readonly waits: readonly PlannedWait[];
      readonly rejected: readonly string[];
      readonly unknown: readonly string[];
      readonly invalid: readonly InvalidIntent[];
      readonly aborted: AbortReason | null;
    }
  | { readonly status: 'superseded' }
  | { readonly status: 'not-ready' }
  | { readonly status: 'stopped' }
  | { readonly status: 'failed'; readonly error: string };

export interface MarketSyncReport {
  readonly marketSlug: string;
  readonly ok: boolean;
  readonly adopted: number;
  readonly canceled: number;
  readonly foreign: number;
  readonly error: string | null;
  /**
   * The market quotes before its own-order listing, which runs afterwards (deferred-listing.ts): on the report of a
   * start or join, nothing was listed yet; on the report of that listing (`onDeferredListing`), what it found.
   */
  readonly deferred?: boolean;
}

export interface ShutdownOptions {
  /** Leave the orders resting instead of canceling them (default false). */
  readonly leaveOrdersResting?: boolean;
  /** Time allowed for everything (default 10 s). */
  readonly budgetMs?: number;
}

export interface ShutdownReport {
  /** True when every market was confirmed empty of the bot's live orders (or orders were left resting on purpose). */
  readonly clean: boolean;
  readonly timedOut: boolean;
  /** Markets where the venue still listed live orders of the bot at the end. */
  readonly marketsWithLiveOrders: readonly string[];
  /** Orders whose outcome was still unknown at the end. */
  readonly unresolved: readonly string[];
  readonly durationMs: number;
}

export class ExecutorError extends Error {
  override readonly name = 'ExecutorError';
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${field}: ${reason} (got ${describeValue(value)})`);
  }
}

/** The observer with every method present and guarded: a failing metrics hook never breaks order handling. */
export function guardObserver(observer: ExecutorObserver, onError: (hook: string, error: unknown) => void): Required<ExecutorObserver> {
  const guard = (hook: string, call: () => void): void => {
    try {
      call();
    } catch (error) {
      onError(hook, error);
    }
  };
  return {
    onPlan: (report) => guard('onPlan', () => observer.onPlan?.(report)),
    onSuperseded: (slug) => guard('onSuperseded', () => observer.onSuperseded?.(slug)),
    onTransition: (slug, cid, transition) => guard('onTransition', () => observer.onTransition?.(slug, cid, transition)),
    onIllegalTransition: (error) => guard('onIllegalTransition', () => observer.onIllegalTransition?.(error)),
    onRequestError: (operation, slug, error) => guard('onRequestError', () => observer.onRequestError?.(operation, slug, error)),
    onDuplicateEvent: (key) => guard('onDuplicateEvent', () => observer.onDuplicateEvent?.(key)),
    onUntrackedEvent: (reason, detail) => guard('onUntrackedEvent', () => observer.onUntrackedEvent?.(reason, detail)),
    onLookup: (slug, found, notFound) => guard('onLookup', () => observer.onLookup?.(slug, found, notFound)),
    onStrayOrder: (slug, orderId, reason) => guard('onStrayOrder', () => observer.onStrayOrder?.(slug, orderId, reason)),
    onCancelReplaceUnsupported: (slug) => guard('onCancelReplaceUnsupported', () => observer.onCancelReplaceUnsupported?.(slug)),
    onBatchPlacementsRefused: (slug) => guard('onBatchPlacementsRefused', () => observer.onBatchPlacementsRefused?.(slug)),
    onDeferredListing: (slug, result) => guard('onDeferredListing', () => observer.onDeferredListing?.(slug, result)),
  };
}
