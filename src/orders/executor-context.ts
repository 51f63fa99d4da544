/**
 * What the executor shares with its collaborators (plan-runner, plan-requests, replacements, outcome-resolver,
 * event-router, market-sync, shutdown-sweep): its settings, its ports, a read-only view of the tracked orders and the
 * one way to change them.
 *
 * Owns: the settings with their defaults, the commit origins and which of them are news from outside a plan, and
 * the reading of a trading-mode refusal (shared by every venue request).
 *
 * Invariants: collaborators read orders through `OrderReader` and change them only through `OrderWriter` (the
 * executor's commit path: the single writer of order state); every commit names its origin; a change from outside
 * a plan (venue event, background lookup, start-up or resync listing) may re-run the market's intents, a change made
 * by a plan's own requests never does (the plan is still running).
 */
import type { RequestsOut } from './requests-out.js';
import type { CancelTimer, Scheduler } from '../core/clock.js';
import type { ClientOrderIdFactory } from './client-order-id.js';
import type { ExecutorObserver, ExecutorOptions, OrderLog } from './executor-types.js';
import type { MarketRegistry } from './market-state.js';
import type { Applied, TrackedOrder } from './order-record.js';
import type { OrderStore } from './order-store.js';
import type { ForeignPolicy } from './startup.js';
import type { TradingModeGate } from './trading-mode.js';
import { MAX_CANCEL_REPLACE_OPERATIONS, MaintenanceBlockError, ServiceUnavailableError, TradingModeError, type VenuePort } from './venue-port.js';

export type Lifecycle = 'created' | 'starting' | 'running' | 'stopping' | 'stopped';

/** Plans and placements run only while starting or running. */
export function isActive(lifecycle: Lifecycle): boolean {
  return lifecycle === 'running' || lifecycle === 'starting';
}

/**
 * Where a change of order state came from:
 * - `plan`: a plan's own request and its answer (cancel, placement, cancel-replace);
 * - `plan-lookup`: a status lookup a plan makes at once to settle its own uncertain request (refused cancel, 409);
 * - `venue-event`: a socket order event (OME or settlement frame, or one replayed from the orphans);
 * - `lookup`: the background status lookup of unknown outcomes and uncertain cancels (with backoff);
 * - `startup` / `resync`: the market's live-order listing (and, at resync, lookups of the orders it no longer lists);
 * - `sync-cancel`: the cancels start-up or resync send (foreign, other-market or unknown-token orders);
 * - `shutdown`: the cancels and confirmation listings of shutdown.
 */
export const COMMIT_ORIGINS = ['plan', 'plan-lookup', 'venue-event', 'lookup', 'startup', 'resync', 'sync-cancel', 'shutdown'] as const;
export type CommitOrigin = (typeof COMMIT_ORIGINS)[number];

/** True for news from outside a plan: a slot it frees or unfreezes re-runs the market's intents. */
const FROM_OUTSIDE: Readonly<Record<CommitOrigin, boolean>> = {
  plan: false,
  'plan-lookup': false,
  'venue-event': true,
  lookup: true,
  startup: true,
  resync: true,
  'sync-cancel': false,
  shutdown: false,
};

export function isFromOutside(origin: CommitOrigin): boolean {
  return FROM_OUTSIDE[origin];
}

export interface ExecutorSettings {
  readonly defaultPostOnly: boolean;
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  readonly notFoundLimit: number;
  readonly notFoundGraceMs: number;
  readonly foreignPolicy: ForeignPolicy;
  readonly exclusiveMarkets: boolean;
  readonly cancelBatchSize: number;
  readonly cancelReplace: boolean;
  readonly replaceBatchSize: number;
  readonly batchPlacements: 'auto' | 'off';
  readonly startupAttempts: number;
  readonly retainTerminalMs: number;
  readonly reconcile: NonNullable<ExecutorOptions['reconcile']>;
}

/** The options the settings are read from. */
export type SettingsOptions = Pick<
  ExecutorOptions,
  'defaultPostOnly' | 'unknownOrders' | 'foreignPolicy' | 'exclusiveMarkets' | 'cancelBatchSize' | 'cancelReplace' | 'batchPlacements' | 'startupAttempts' | 'retainTerminalMs' | 'reconcile'
>;

export function executorSettings(options: SettingsOptions): ExecutorSettings {
  const unknown = options.unknownOrders ?? {};
  return {
    defaultPostOnly: options.defaultPostOnly ?? false,
    initialBackoffMs: unknown.initialBackoffMs ?? 500,
    maxBackoffMs: unknown.maxBackoffMs ?? 10_000,
    notFoundLimit: unknown.notFoundLimit ?? 3,
    notFoundGraceMs: unknown.notFoundGraceMs ?? 10_000,
    foreignPolicy: options.foreignPolicy ?? 'leave',
    exclusiveMarkets: options.exclusiveMarkets ?? false,
    cancelBatchSize: Math.min(Math.max(1, options.cancelBatchSize ?? 50), 500),
    cancelReplace: options.cancelReplace?.enabled ?? true,
    replaceBatchSize: Math.min(Math.max(1, options.cancelReplace?.batchSize ?? MAX_CANCEL_REPLACE_OPERATIONS), MAX_CANCEL_REPLACE_OPERATIONS),
    batchPlacements: options.batchPlacements ?? 'auto',
    startupAttempts: Math.max(1, options.startupAttempts ?? 3),
    retainTerminalMs: options.retainTerminalMs ?? 3_600_000,
    reconcile: options.reconcile ?? {},
  };
}

/** Reads of the tracked orders. */
export type OrderReader = Pick<OrderStore, 'get' | 'find' | 'getByOrderId' | 'openInMarket' | 'inMarket'>;

/** The executor's single write path for order state. */
export interface OrderWriter {
  /** Stores an applied change, reports it, emits its fills and reacts to it (see executor.ts). Returns the order now. */
  commit(order: TrackedOrder, applied: Applied, origin: CommitOrigin): TrackedOrder;
  /** Tracks a new order (a placement about to be sent, an adopted one). */
  insert(order: TrackedOrder): void;
  /** Links a venue id learned from a frame before the placement answer (no state change). Returns the order now. */
  linkOrderId(order: TrackedOrder, orderId: string): TrackedOrder;
  /** Stores an order whose lookup answered not_found (no state change, nothing reported). */
  noteLookupMiss(order: TrackedOrder): void;
  /** Forgets the market's terminal orders unchanged since `olderThanMs`. */
  pruneTerminal(marketSlug: string, olderThanMs: number): void;
}

export interface ExecutorContext {
  readonly venue: VenuePort;
  readonly scheduler: Scheduler;
  readonly gate: TradingModeGate;
  readonly ids: ClientOrderIdFactory;
  readonly log: OrderLog;
  readonly observer: Required<ExecutorObserver>;
  readonly settings: ExecutorSettings;
  readonly markets: MarketRegistry;
  readonly orders: OrderReader;
  readonly writer: OrderWriter;
  lifecycle(): Lifecycle;
  /** Stopping, and the shutdown cancels every order of the bot (not `leaveOrdersResting`): a plan's cancels are moot. */
  sweeping(): boolean;
  /** The plans' requests that left the rate limiter and are not answered yet, per market (the shutdown waits for these). */
  readonly requestsOut: RequestsOut;
  /** The market's stop before settlement (ExecutorOptions.stopAtMs); null: none. */
  stopAtMs(marketSlug: string): number | null;
  /** Whether the market may quote before its own-order listing (ExecutorOptions.deferListing); false when absent. */
  deferListing(marketSlug: string): boolean;
}

/**
 * A refusal by the venue's trading mode (425 with its body) or an unexplained 425 (maintenance block): the gate
 * learns it and holds `action`; the latter also refreshes the maintenance status. True when it was one of them.
 */
export function refusedByMode(ctx: Pick<ExecutorContext, 'gate' | 'log'>, error: unknown, action: 'cancel' | 'place', placement?: { readonly postOnly: boolean }): boolean {
  if (error instanceof TradingModeError) {
    ctx.gate.fromError(error, action, placement === undefined ? undefined : { postOnly: placement.postOnly, orderType: 'GTC' });
    return true;
  }
  if (error instanceof MaintenanceBlockError) {
    ctx.log.warn({ operation: error.operation, err: error.detail }, '425 without a trading-mode body: maintenance status refreshed, not retried');
    void ctx.gate.fromUnexplainedBlock(action);
    return true;
  }
  return false;
}

/**
 * A bare 503 of a placement that the refreshed maintenance status did not explain (ServiceUnavailableError: outcome
 * unknown, looked up): placements are held one poll interval and the status asked again, so a venue answering 503 gets
 * one placement per poll interval, never a loop. True when it was one.
 */
export function heldAfterUnavailable(ctx: Pick<ExecutorContext, 'gate' | 'log'>, error: unknown): boolean {
  if (!(error instanceof ServiceUnavailableError)) return false;
  ctx.log.warn({ operation: error.operation, err: error.detail }, '503 the trading mode does not explain: outcome looked up, placements held one poll interval');
  void ctx.gate.fromUnexplainedBlock('place', 'unavailable-503');
  return true;
}

/** Resolves after `ms` on the scheduler's clock. */
export function sleep(scheduler: Scheduler, ms: number): Promise<void> {
  return new Promise((resolve) => scheduler.schedule(ms, resolve));
}

/** Resolves to the promise's value, or false when the deadline (scheduler time) passes first. */
export function untilDeadline<T>(scheduler: Scheduler, promise: Promise<T>, deadline: number): Promise<T | false> {
  const remaining = deadline - scheduler.now();
  if (remaining <= 0) {
    promise.catch(() => undefined);
    return Promise.resolve(false);
  }
  let cancel: CancelTimer = () => undefined;
  const timeout = new Promise<false>((resolve) => {
    cancel = scheduler.schedule(remaining, () => resolve(false));
  });
  return Promise.race([promise, timeout]).finally(() => cancel());
}
