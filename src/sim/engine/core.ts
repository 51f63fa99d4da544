/**
 * The engine's shared state and plumbing: the indexes of markets, accounts and orders, the counters, and the
 * machinery every command runs through (the command bracket, the listener queue, timers, order registration and
 * retention). The commands themselves are functions over this core, one module each (place.ts, execute.ts,
 * cancel.ts, settle.ts, resolve.ts, lifecycle.ts, accounts.ts, reads.ts, invariants.ts, fair-value.ts); the
 * public `SimEngine` is the facade in engine.ts. Internal to src/sim/engine: index.ts does not export it.
 *
 * Invariants: listener notifications are queued during a command and delivered after the outermost one, when the
 * state is consistent (a listener may call back into the engine; a throwing listener is reported to
 * `observer.onListenerError`); book and positions notices are coalesced per key until delivered; no timer fires
 * after stop(); every order is registered once, and terminal orders beyond the retention limit are forgotten
 * (their clientOrderId freed).
 */
import { MAX_TICK, MIN_TICK } from '../../core/venue-rules/index.js';
import { EngineConfigError } from './errors.js';
import type { AccountState } from './ledger.js';
import { resolveFees, type ResolvedFees } from './fees.js';
import { Prng } from './prng.js';
import { RewardBook } from './rewards.js';
import type { MarketState, OrderRecord } from './state.js';
import type { UnderlyingWorld } from './underlying.js';
import { omeFrame, type OmeExtras } from './wire.js';
import type { EngineFailure, EngineListener, EngineObserver, EngineOptions, MarketCreatedFrame, MarketResolvedFrame, OmeEventType, OrderEventFrame, PriceBand } from './types.js';

const DEFAULT_PAYOUT_DELAY_MS = 5_000;

/**
 * One account's orders in one market, oldest first, how many of them are terminal, and the LIVE ones (in placement
 * order: a set kept by registerOrder and markTerminal, so a read of the live orders does not walk the up to
 * 1.25 × terminalOrdersPerBook terminal ones retained beside them).
 */
export interface OrderList {
  orders: OrderRecord[];
  terminal: number;
  readonly live: Set<OrderRecord>;
}

export type PendingEvent =
  | { readonly kind: 'book'; readonly slug: string }
  | { readonly kind: 'order'; readonly profileId: number; readonly frame: OrderEventFrame }
  | { readonly kind: 'positions'; readonly profileId: number; readonly slug: string }
  | { readonly kind: 'resolved'; readonly frame: MarketResolvedFrame }
  | { readonly kind: 'created'; readonly frame: MarketCreatedFrame }
  | { readonly kind: 'status'; readonly slug: string }
  | { readonly kind: 'mined'; readonly slug: string }
  | { readonly kind: 'listed'; readonly slug: string };

export interface GroupState {
  readonly title: string;
  readonly negRiskRequestId: string | null;
  readonly markets: MarketState[];
}

export function isFailure<T extends object>(value: T | EngineFailure): value is EngineFailure {
  return 'ok' in value && value.ok === false;
}

export class EngineCore {
  readonly clock: EngineOptions['clock'];
  readonly settlementDelayMs: number;
  readonly payoutDelayMs: number;
  readonly band: PriceBand;
  readonly observer: EngineObserver;
  readonly terminalOrdersPerBook: number;
  readonly tradesPerMarket: number;
  readonly fillsPerAccount: number;
  readonly idRng: Prng;

  readonly marketsBySlug = new Map<string, MarketState>();
  readonly marketsById = new Map<number, MarketState>();
  readonly marketsByCondition = new Map<string, MarketState>();
  readonly groupsBySlug = new Map<string, GroupState>();
  readonly accountsById = new Map<number, AccountState>();
  readonly accountsByAddress = new Map<string, AccountState>();
  readonly ordersById = new Map<string, OrderRecord>();
  readonly ordersByClientId = new Map<string, OrderRecord>();
  readonly orderLists = new Map<string, OrderList>();

  private readonly listeners = new Set<EngineListener>();
  private queue: PendingEvent[] = [];
  private readonly queuedKeys = new Set<string>();
  private depth = 0;
  private flushing = false;
  private readonly timers = new Set<() => void>();
  private stopped = false;

  private omeEventId = 0;
  feedSeq = 0;
  feesCollectedRaw = 0;
  /** USDC that entered the engine (starting balances and deposits). */
  usdcInRaw = 0;
  ordersPlaced = 0;
  tradesMatched = 0;
  tradesMined = 0;
  /** The crypto world (null: generic); set once by the engine's constructor. */
  world: UnderlyingWorld | null = null;
  readonly worldOptions: EngineOptions['world'] | null;
  readonly worldIds: { nextId: () => number; rng: Prng };
  /** Taker fees: the venue's curve (default in the crypto world) or the flat signed rate (default elsewhere). */
  readonly fees: ResolvedFees;
  /** Liquidity rewards and maker rebates (rewards.ts). */
  readonly rewards: RewardBook;

  constructor(options: EngineOptions) {
    this.clock = options.clock;
    this.settlementDelayMs = checkDelay('settlementDelayMs', options.settlementDelayMs);
    this.payoutDelayMs = checkDelay('payoutDelayMs', options.payoutDelayMs ?? DEFAULT_PAYOUT_DELAY_MS);
    this.band = checkBand(options.priceBand ?? { minTicks: MIN_TICK, maxTicks: MAX_TICK });
    this.observer = options.observer ?? {};
    this.terminalOrdersPerBook = checkLimit('retention.terminalOrdersPerBook', options.retention?.terminalOrdersPerBook ?? 5000);
    this.tradesPerMarket = checkLimit('retention.tradesPerMarket', options.retention?.tradesPerMarket ?? 10_000);
    this.fillsPerAccount = checkLimit('retention.fillsPerAccount', options.retention?.fillsPerAccount ?? Number.POSITIVE_INFINITY);
    if (!Number.isSafeInteger(options.seed)) throw new EngineConfigError('seed', options.seed, 'must be an integer');
    this.idRng = new Prng(options.seed);
    this.worldOptions = options.world ?? null;
    let worldId = 50_000 + Math.max(0, ...options.markets.map((m) => m.id));
    this.worldIds = { nextId: () => (worldId += 1), rng: new Prng(options.seed ^ 0x0c_9a77) };
    this.fees = resolveFees(options.fees, options.world ? 'curve' : 'flat');
    this.rewards = new RewardBook(this, options.rewards, options.world !== undefined);
  }

  /** Whether any listener is subscribed (frames are not built for nobody). */
  get hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  command<T>(fn: () => T): T {
    this.depth += 1;
    try {
      return fn();
    } finally {
      this.depth -= 1;
      if (this.depth === 0) this.flush();
    }
  }

  private flush(): void {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        for (const event of batch) {
          if (event.kind === 'book' || event.kind === 'positions') this.queuedKeys.delete(eventKey(event));
          for (const listener of [...this.listeners]) this.deliver(listener, event);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  private deliver(listener: EngineListener, event: PendingEvent): void {
    try {
      switch (event.kind) {
        case 'book':
          listener.bookChanged?.(event.slug);
          break;
        case 'order':
          listener.orderEvent?.(event.profileId, event.frame);
          break;
        case 'positions':
          listener.positionsChanged?.(event.profileId, event.slug);
          break;
        case 'resolved':
          listener.marketResolved?.(event.frame);
          break;
        case 'created':
          listener.marketCreated?.(event.frame);
          break;
        case 'status':
          listener.marketStatusChanged?.(event.slug);
          break;
        case 'mined':
          listener.tradeMined?.(event.slug);
          break;
        case 'listed':
          listener.marketListed?.(event.slug);
          break;
      }
    } catch (error) {
      this.observer.onListenerError?.(error);
    }
  }

  enqueue(event: PendingEvent): void {
    if (this.listeners.size === 0) return;
    if (event.kind === 'book' || event.kind === 'positions') {
      const key = eventKey(event);
      if (this.queuedKeys.has(key)) return;
      this.queuedKeys.add(key);
    }
    this.queue.push(event);
  }

  emitOme(order: OrderRecord, type: OmeEventType, extras: OmeExtras = {}): void {
    this.omeEventId += 1;
    if (this.listeners.size === 0) return;
    this.enqueue({ kind: 'order', profileId: order.profileId, frame: omeFrame(type, this.omeEventId, order.view(), this.clock.now(), extras) });
  }

  schedule(delayMs: number, fn: () => void): void {
    if (this.stopped) return;
    const holder: { cancel: (() => void) | null } = { cancel: null };
    const cancel = this.clock.schedule(delayMs, () => {
      if (holder.cancel) this.timers.delete(holder.cancel);
      if (!this.stopped) fn();
    });
    holder.cancel = cancel;
    this.timers.add(cancel);
  }

  newOrderId(): string {
    let id = this.idRng.uuid();
    while (this.ordersById.has(id)) id = this.idRng.uuid();
    return id;
  }

  registerOrder(order: OrderRecord): void {
    this.ordersById.set(order.id, order);
    if (order.clientOrderId !== null) this.ordersByClientId.set(clientKey(order.profileId, order.clientOrderId), order);
    const key = listKey(order.profileId, order.marketId);
    let list = this.orderLists.get(key);
    if (!list) {
      list = { orders: [], terminal: 0, live: new Set() };
      this.orderLists.set(key, list);
    }
    list.orders.push(order);
    if (order.status === 'LIVE') list.live.add(order);
  }

  /** Count a terminal order (it leaves the live set) and forget the oldest terminal ones beyond the retention limit. */
  markTerminal(order: OrderRecord): void {
    const list = this.orderLists.get(listKey(order.profileId, order.marketId));
    if (!list) return;
    list.live.delete(order);
    list.terminal += 1;
    if (list.terminal <= this.terminalOrdersPerBook * 1.25 + 16) return;
    let drop = list.terminal - this.terminalOrdersPerBook;
    list.orders = list.orders.filter((o) => {
      if (drop > 0 && o.status !== 'LIVE') {
        drop -= 1;
        this.ordersById.delete(o.id);
        if (o.clientOrderId !== null) this.ordersByClientId.delete(clientKey(o.profileId, o.clientOrderId));
        return false;
      }
      return true;
    });
    list.terminal = this.terminalOrdersPerBook;
  }

  stop(): void {
    this.stopped = true;
    for (const cancel of this.timers) cancel();
    this.timers.clear();
  }

  on(listener: EngineListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}

function eventKey(event: { kind: 'book'; slug: string } | { kind: 'positions'; profileId: number; slug: string }): string {
  return event.kind === 'book' ? `b:${event.slug}` : `p:${event.profileId}:${event.slug}`;
}

export function listKey(profileId: number, marketId: number): string {
  return `${profileId}:${marketId}`;
}

export function clientKey(profileId: number, clientOrderId: string): string {
  return `${profileId}:${clientOrderId}`;
}

function checkDelay(field: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new EngineConfigError(field, value, 'must be a non-negative integer (ms)');
  return value;
}

function checkLimit(field: string, value: number): number {
  if (value !== Number.POSITIVE_INFINITY && (!Number.isSafeInteger(value) || value < 1)) {
    throw new EngineConfigError(field, value, 'must be a positive integer');
  }
  return value;
}

function checkBand(band: PriceBand): PriceBand {
  const ok = Number.isInteger(band.minTicks) && Number.isInteger(band.maxTicks) && band.minTicks >= MIN_TICK && band.maxTicks <= MAX_TICK && band.minTicks <= band.maxTicks;
  if (!ok) throw new EngineConfigError('priceBand', band, `must be integer ticks with ${MIN_TICK} <= minTicks <= maxTicks <= ${MAX_TICK}`);
  return band;
}
