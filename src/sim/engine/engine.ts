/**
 * The simulator engine: markets, accounts, matching, settlement, lifecycle and synthetic flow, in memory
 * and deterministic for a seed and a clock.
 *
 * Every command validates first and then commits (a failure changes nothing); listener notifications are
 * queued during a command and delivered after it, when the state is consistent again (a listener may call
 * back into the engine). Taker fees are charged in USDC on top of a BUY and out of the proceeds of a SELL;
 * makers pay none. Balances move at match time; MINED (after settlementDelayMs) only publishes the trade.
 *
 * Invariants (see checkInvariants): no negative or over-locked balance; locks equal what resting orders
 * need; no crossed book at rest; Σ USDC + fees + Σ pair collateral is constant apart from deposits; per
 * market YES and NO supplies differ only by grants and redemption burns.
 */
import { getAddress, isAddress } from 'viem';
import { rawToDecimal, ticksToPrice, MAX_TICK, MIN_TICK, TICKS_PER_UNIT, type Outcome, SIDE_CODE } from '../../core/venue-rules/index.js';
import { EngineConfigError, EngineInvariantError, failure, fieldFailure, MESSAGES } from './errors.js';
import { AccountState, credit, debitFree, debitLocked, lock, unlock, type FillRecord } from './ledger.js';
import { planExecution, stepCollateral, type ExecutionPlan, type PlannedFill } from './matching.js';
import { Prng } from './prng.js';
import { MarketState, OrderRecord } from './state.js';
import { cryptoMarketSet, successorSpecs, worldFair } from './crypto-markets.js';
import { UnderlyingWorld } from './underlying.js';
import { SyntheticTraders } from './synthetic.js';
import { resolveSynthetic } from './synthetic-config.js';
import { validatePlacement, type ValidPlacement } from './validation.js';
import { averagePrice, executionTotals, isoTime, omeFrame, toUserOrder, type OmeExtras } from './wire.js';
import type {
  AccountFill,
  AccountSpec,
  Balances,
  BatchCancelFailure,
  BatchCancelOutcome,
  BookSnapshot,
  CancelOutcome,
  CancelReason,
  DepositInput,
  DepositOutcome,
  EngineFailure,
  EngineListener,
  EngineObserver,
  EngineOptions,
  EngineStats,
  FairValueOutcome,
  MakerMatch,
  MarketResolvedFrame,
  MarketSpec,
  MarketTrade,
  OmeEventType,
  OrderEventFrame,
  OrderStatus,
  PlaceInput,
  PlaceOutcome,
  PositionSummary,
  PriceBand,
  RedeemOutcome,
  ResolveInput,
  ResolveOutcome,
  SettlementFrame,
  SimAccount,
  SimEngine,
  SimGroup,
  SimMarket,
  SimOrder,
  UserOrder,
} from './types.js';

const DEFAULT_FEE_RATE_BPS = 300;
const MAX_FEE_RATE_BPS = 10_000;
const DEFAULT_PAYOUT_DELAY_MS = 5_000;
const ORDER_STATUSES: readonly OrderStatus[] = ['LIVE', 'MATCHED', 'CANCELED', 'UNMATCHED'];

export function createEngine(options: EngineOptions): SimEngine {
  return new Engine(options);
}

/** Taker fee on `notionalRaw` at `bps`, rounded up. */
export function takerFee(notionalRaw: number, bps: number): number {
  return Number((BigInt(notionalRaw) * BigInt(bps) + 9_999n) / 10_000n);
}

interface OrderList {
  orders: OrderRecord[];
  terminal: number;
}

interface TradeFill {
  readonly plan: PlannedFill;
  readonly matchId: string;
  readonly makerAccount: AccountState;
  readonly takerFill: FillRecord;
  readonly makerFill: FillRecord;
}

interface TradeRecord {
  readonly tradeEventId: string;
  readonly market: MarketState;
  readonly taker: OrderRecord;
  readonly takerAccount: AccountState;
  readonly fills: readonly TradeFill[];
  readonly contractsRaw: number;
  readonly collateralRaw: number;
  readonly feeRaw: number;
  readonly matchedAtMs: number;
  txHash: string | null;
}

type PendingEvent =
  | { readonly kind: 'book'; readonly slug: string }
  | { readonly kind: 'order'; readonly profileId: number; readonly frame: OrderEventFrame }
  | { readonly kind: 'positions'; readonly profileId: number; readonly slug: string }
  | { readonly kind: 'resolved'; readonly frame: MarketResolvedFrame }
  | { readonly kind: 'status'; readonly slug: string }
  | { readonly kind: 'mined'; readonly slug: string };

function isFailure<T extends object>(value: T | EngineFailure): value is EngineFailure {
  return 'ok' in value && value.ok === false;
}

class Engine implements SimEngine {
  private readonly clock: EngineOptions['clock'];
  private readonly settlementDelayMs: number;
  private readonly payoutDelayMs: number;
  private readonly band: PriceBand;
  private readonly observer: EngineObserver;
  private readonly terminalOrdersPerBook: number;
  private readonly tradesPerMarket: number;
  private readonly fillsPerAccount: number;
  private readonly idRng: Prng;

  private readonly marketsBySlug = new Map<string, MarketState>();
  private readonly marketsById = new Map<number, MarketState>();
  private readonly marketsByCondition = new Map<string, MarketState>();
  private readonly groupsBySlug = new Map<string, { title: string; negRiskRequestId: string | null; markets: MarketState[] }>();
  private readonly accountsById = new Map<number, AccountState>();
  private readonly accountsByAddress = new Map<string, AccountState>();
  private readonly ordersById = new Map<string, OrderRecord>();
  private readonly ordersByClientId = new Map<string, OrderRecord>();
  private readonly orderLists = new Map<string, OrderList>();

  private readonly listeners = new Set<EngineListener>();
  private queue: PendingEvent[] = [];
  private readonly queuedKeys = new Set<string>();
  private depth = 0;
  private flushing = false;
  private readonly timers = new Set<() => void>();
  private stopped = false;

  private omeEventId = 0;
  private feedSeq = 0;
  private feesCollectedRaw = 0;
  /** USDC that entered the engine (starting balances and deposits). */
  private usdcInRaw = 0;
  private ordersPlaced = 0;
  private tradesMatched = 0;
  private tradesMined = 0;
  private readonly synthetic: SyntheticTraders | null;
  /** The crypto world (null: generic). */
  private readonly world: UnderlyingWorld | null;
  private readonly worldOptions: EngineOptions['world'] | null;
  private readonly worldIds: { nextId: () => number; rng: Prng };

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

    options.markets.forEach((spec, i) => this.addMarket(spec, `markets[${i}]`));
    this.worldOptions = options.world ?? null;
    let worldId = 50_000 + Math.max(0, ...options.markets.map((m) => m.id));
    this.worldIds = { nextId: () => (worldId += 1), rng: new Prng(options.seed ^ 0x0c_9a77) };
    if (options.world) {
      try {
        this.world = new UnderlyingWorld(options.world.underlying, new Prng(options.seed ^ 0x5e_7d1e), this.clock.now());
      } catch (error) {
        throw new EngineConfigError('world.underlying', options.world.underlying, error instanceof Error ? error.message : String(error));
      }
      cryptoMarketSet(this.world, this.clock.now(), options.world.markets, this.worldIds).forEach((spec, i) => this.addMarket(spec, `world.markets[${i}]`));
    } else {
      this.world = null;
    }
    options.accounts.forEach((spec, i) => {
      const result = this.createAccount(spec, false);
      if (typeof result === 'string') throw new EngineConfigError(`accounts[${i}]`, spec.profileId, result);
    });

    if (options.synthetic) {
      const config = resolveSynthetic(options.synthetic);
      for (const slug of config.markets ?? []) {
        if (!this.marketsBySlug.has(slug)) throw new EngineConfigError('synthetic.markets', slug, 'unknown market slug');
      }
      const addressRng = new Prng(options.seed ^ 0x51a7_1c);
      const ids = [config.profileIdBase, config.profileIdBase + 1, config.profileIdBase + 2];
      for (const profileId of ids) {
        const result = this.createAccount(
          { profileId, address: getAddress(`0x${addressRng.hex(20)}`), usdcRaw: config.usdcPerAccountRaw, feeRateBps: 0 },
          true,
        );
        if (typeof result === 'string') throw new EngineConfigError('synthetic.profileIdBase', profileId, result);
      }
      this.synthetic = new SyntheticTraders(
        config,
        new Prng(options.seed ^ 0x7a3d_9e11),
        {
          now: () => this.clock.now(),
          world: () => this.world,
          markets: () => (config.markets ?? [...this.marketsBySlug.keys()]).flatMap((slug) => {
            const m = this.marketsBySlug.get(slug);
            return m ? [m] : [];
          }),
          account: (profileId) => this.accountsById.get(profileId),
          place: (input) => this.place(input),
          cancel: (profileId, orderId) => this.cancel(profileId, orderId),
          band: this.band,
          isLive: (orderId) => this.ordersById.get(orderId)?.status === 'LIVE',
        },
        { maker: ids[0] ?? 0, noise: ids[1] ?? 0, informed: ids[2] ?? 0 },
        this.observer,
      );
      if (config.autoStep) this.scheduleSynthetic(config.stepMs);
    } else {
      this.synthetic = null;
    }
  }

  // ───────────────────────── setup ─────────────────────────

  private addMarket(spec: MarketSpec, field: string): void {
    if (!Number.isSafeInteger(spec.id) || spec.id <= 0) throw new EngineConfigError(`${field}.id`, spec.id, 'must be a positive integer');
    if (!/^[a-z0-9][a-z0-9-]*$/.test(spec.slug)) throw new EngineConfigError(`${field}.slug`, spec.slug, 'must be lowercase [a-z0-9-]');
    if (this.marketsBySlug.has(spec.slug) || this.groupsBySlug.has(spec.slug)) {
      throw new EngineConfigError(`${field}.slug`, spec.slug, 'duplicate slug');
    }
    if (this.marketsById.has(spec.id)) throw new EngineConfigError(`${field}.id`, spec.id, 'duplicate market id');
    if (!/^0x[0-9a-fA-F]{64}$/.test(spec.conditionId)) throw new EngineConfigError(`${field}.conditionId`, spec.conditionId, 'must be 0x + 64 hex');
    if (this.marketsByCondition.has(spec.conditionId.toLowerCase())) {
      throw new EngineConfigError(`${field}.conditionId`, spec.conditionId, 'duplicate condition id');
    }
    for (const [key, token] of [['yesTokenId', spec.yesTokenId], ['noTokenId', spec.noTokenId]] as const) {
      if (!/^[0-9]{1,78}$/.test(token)) throw new EngineConfigError(`${field}.${key}`, token, 'must be a decimal uint256');
    }
    if (spec.yesTokenId === spec.noTokenId) throw new EngineConfigError(`${field}.noTokenId`, spec.noTokenId, 'equals yesTokenId');
    for (const existing of this.marketsBySlug.values()) {
      const tokens = [existing.spec.yesTokenId, existing.spec.noTokenId];
      if (tokens.includes(spec.yesTokenId) || tokens.includes(spec.noTokenId)) {
        throw new EngineConfigError(`${field}.yesTokenId`, spec.yesTokenId, `token id already used by ${existing.spec.slug}`);
      }
    }
    for (const key of ['exchange', 'adapter'] as const) {
      if (!isAddress(spec.venue[key], { strict: false })) throw new EngineConfigError(`${field}.venue.${key}`, spec.venue[key], 'not an address');
    }
    if (!Number.isSafeInteger(spec.expirationMs)) throw new EngineConfigError(`${field}.expirationMs`, spec.expirationMs, 'must be ms since epoch');
    const fv = spec.initialFairValueTicks;
    if (fv !== undefined && (!Number.isInteger(fv) || fv < MIN_TICK || fv > MAX_TICK)) {
      throw new EngineConfigError(`${field}.initialFairValueTicks`, fv, 'must be an integer tick in [1, 999]');
    }
    const normalised: MarketSpec = {
      ...spec,
      venue: { exchange: getAddress(spec.venue.exchange), adapter: getAddress(spec.venue.adapter) },
    };
    const market = new MarketState(normalised, spec.createdAtMs ?? this.clock.now());
    this.marketsBySlug.set(spec.slug, market);
    this.marketsById.set(spec.id, market);
    this.marketsByCondition.set(spec.conditionId.toLowerCase(), market);
    if (spec.groupSlug !== undefined) {
      if (this.marketsBySlug.has(spec.groupSlug)) throw new EngineConfigError(`${field}.groupSlug`, spec.groupSlug, 'collides with a market slug');
      let group = this.groupsBySlug.get(spec.groupSlug);
      if (!group) {
        group = { title: spec.groupTitle ?? spec.groupSlug, negRiskRequestId: spec.negRiskRequestId ?? null, markets: [] };
        this.groupsBySlug.set(spec.groupSlug, group);
      }
      group.markets.push(market);
    }
    const delay = spec.expirationMs - this.clock.now();
    if (delay <= 0) market.expired = true;
    else this.schedule(delay, () => this.command(() => this.refreshExpiry(market)));
  }

  /** Returns an error text, or the new account. */
  private createAccount(spec: AccountSpec, synthetic: boolean): AccountState | string {
    if (!Number.isSafeInteger(spec.profileId) || spec.profileId < 1 || spec.profileId > 2_147_483_647) {
      return 'profileId must be an integer in [1, 2147483647]';
    }
    if (this.accountsById.has(spec.profileId)) return `duplicate profileId ${spec.profileId}`;
    if (!isAddress(spec.address, { strict: false })) return `address ${spec.address} is not an address`;
    const address = getAddress(spec.address);
    if (this.accountsByAddress.has(address.toLowerCase())) return `duplicate address ${address}`;
    if (!Number.isSafeInteger(spec.usdcRaw) || spec.usdcRaw < 0) return 'usdcRaw must be a non-negative integer';
    const fee = spec.feeRateBps ?? DEFAULT_FEE_RATE_BPS;
    if (!Number.isInteger(fee) || fee < 0 || fee > MAX_FEE_RATE_BPS) return `feeRateBps must be an integer in [0, ${MAX_FEE_RATE_BPS}]`;
    const grants: [MarketState, Outcome, string, number][] = [];
    for (const [tokenId, raw] of Object.entries(spec.tokens ?? {})) {
      const market = this.marketOfToken(tokenId);
      if (!market) return `token ${tokenId} belongs to no market`;
      if (!Number.isSafeInteger(raw) || raw < 0) return `token ${tokenId}: amount must be a non-negative integer`;
      grants.push([market, market.outcomeOf(tokenId) ?? 'YES', tokenId, raw]);
    }
    if (spec.partnerProfileId !== undefined && !Number.isSafeInteger(spec.partnerProfileId)) return 'partnerProfileId must be an integer';
    const account = new AccountState(
      spec.profileId,
      address,
      fee,
      spec.partnerProfileId ?? null,
      spec.serverManagedWallet ?? false,
      synthetic,
      spec.usdcRaw,
      synthetic ? Math.min(this.fillsPerAccount, 2000) : this.fillsPerAccount,
    );
    this.usdcInRaw += spec.usdcRaw;
    for (const [market, outcome, tokenId, raw] of grants) this.grantTokens(account, market, outcome, tokenId, raw);
    this.accountsById.set(spec.profileId, account);
    this.accountsByAddress.set(address.toLowerCase(), account);
    return account;
  }

  private grantTokens(account: AccountState, market: MarketState, outcome: Outcome, tokenId: string, raw: number): void {
    credit(account.token(tokenId), raw, 'grant');
    if (outcome === 'YES') market.yesGrantedRaw += raw;
    else market.noGrantedRaw += raw;
  }

  private marketOfToken(tokenId: string): MarketState | undefined {
    for (const m of this.marketsBySlug.values()) if (m.outcomeOf(tokenId) !== null) return m;
    return undefined;
  }

  // ───────────────────────── command plumbing ─────────────────────────

  private command<T>(fn: () => T): T {
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
        case 'status':
          listener.marketStatusChanged?.(event.slug);
          break;
        case 'mined':
          listener.tradeMined?.(event.slug);
          break;
      }
    } catch (error) {
      this.observer.onListenerError?.(error);
    }
  }

  private enqueue(event: PendingEvent): void {
    if (this.listeners.size === 0) return;
    if (event.kind === 'book' || event.kind === 'positions') {
      const key = eventKey(event);
      if (this.queuedKeys.has(key)) return;
      this.queuedKeys.add(key);
    }
    this.queue.push(event);
  }

  private emitOme(order: OrderRecord, type: OmeEventType, extras: OmeExtras = {}): void {
    this.omeEventId += 1;
    if (this.listeners.size === 0) return;
    this.enqueue({ kind: 'order', profileId: order.profileId, frame: omeFrame(type, this.omeEventId, order.view(), this.clock.now(), extras) });
  }

  private schedule(delayMs: number, fn: () => void): void {
    if (this.stopped) return;
    const holder: { cancel: (() => void) | null } = { cancel: null };
    const cancel = this.clock.schedule(delayMs, () => {
      if (holder.cancel) this.timers.delete(holder.cancel);
      if (!this.stopped) fn();
    });
    holder.cancel = cancel;
    this.timers.add(cancel);
  }

  private scheduleSynthetic(stepMs: number): void {
    this.schedule(stepMs, () => {
      this.syntheticStep();
      this.scheduleSynthetic(stepMs);
    });
  }

  // ───────────────────────── lifecycle ─────────────────────────

  private refreshExpiry(market: MarketState): void {
    if (market.expired || this.clock.now() < market.spec.expirationMs) return;
    market.expired = true;
    this.cancelAllResting(market, 'MARKET_EXPIRED');
    this.enqueue({ kind: 'status', slug: market.spec.slug });
    if (market.spec.oracle && this.world) this.settleByOracle(market, market.spec.oracle);
  }

  /**
   * The crypto world's rule: YES iff the price at the settlement instant (the open of the 1-minute candle that opens
   * then) is strictly above the strike; then, for a recurring market, the next set of its ticker opens.
   */
  private settleByOracle(market: MarketState, oracle: NonNullable<MarketState['spec']['oracle']>): void {
    const world = this.world;
    if (!world) return;
    world.advanceTo(market.spec.expirationMs);
    const price = world.priceAt(oracle.ticker, market.spec.expirationMs);
    if (price === null) throw new EngineInvariantError(`no ${oracle.ticker} price at the settlement of ${market.spec.slug}`);
    market.settlementPrice = price;
    if (market.status !== 'RESOLVED') this.resolve(market.spec.slug, { winningOutcomeIndex: price > Number(oracle.strike) ? 0 : 1 });
    const options = this.worldOptions?.markets;
    if (!options?.recurring) return;
    // All of a ladder settle at the same instant: the first of them to settle opens the next ladder.
    const opened = [...this.marketsBySlug.values()].some(
      (m) => m !== market && m.expired && m.spec.expirationMs === market.spec.expirationMs && m.spec.oracle?.ticker === oracle.ticker && m.spec.oracle.cadence === oracle.cadence,
    );
    if (opened) return;
    const period = oracle.cadence === 'hourly' ? 3_600_000 : 86_400_000;
    const next = market.spec.expirationMs + period;
    successorSpecs(world, oracle.ticker, oracle.cadence, next, market.spec.expirationMs, options, this.worldIds).forEach((spec) => this.addMarket(spec, `world.successor.${spec.slug}`));
  }

  underlying(): UnderlyingWorld | null {
    return this.world;
  }

  private cancelAllResting(market: MarketState, reason: CancelReason): void {
    for (const order of [...market.book.entries()]) this.cancelResting(order, reason);
  }

  // ───────────────────────── reads ─────────────────────────

  markets(): readonly SimMarket[] {
    return this.command(() => [...this.marketsBySlug.values()].map((m) => this.freshView(m)));
  }

  market(slug: string): SimMarket | undefined {
    const m = this.marketsBySlug.get(slug);
    return m ? this.command(() => this.freshView(m)) : undefined;
  }

  marketById(id: number): SimMarket | undefined {
    const m = this.marketsById.get(id);
    return m ? this.command(() => this.freshView(m)) : undefined;
  }

  marketByConditionId(conditionId: string): SimMarket | undefined {
    const m = this.marketsByCondition.get(conditionId.toLowerCase());
    return m ? this.command(() => this.freshView(m)) : undefined;
  }

  groups(): readonly SimGroup[] {
    return [...this.groupsBySlug.keys()].flatMap((slug) => {
      const g = this.group(slug);
      return g ? [g] : [];
    });
  }

  group(slug: string): SimGroup | undefined {
    const g = this.groupsBySlug.get(slug);
    if (!g) return undefined;
    return this.command(() => ({
      slug,
      title: g.title,
      negRiskRequestId: g.negRiskRequestId,
      markets: g.markets.map((m) => this.freshView(m)),
    }));
  }

  private freshView(market: MarketState): SimMarket {
    this.refreshExpiry(market);
    return market.view();
  }

  accounts(): readonly SimAccount[] {
    return [...this.accountsById.values()].map((a) => a.view());
  }

  account(profileId: number): SimAccount | undefined {
    return this.accountsById.get(profileId)?.view();
  }

  accountByAddress(address: string): SimAccount | undefined {
    return this.accountsByAddress.get(address.toLowerCase())?.view();
  }

  addAccount(spec: AccountSpec): { readonly ok: true; readonly account: SimAccount } | EngineFailure {
    const result = this.createAccount(spec, false);
    if (typeof result === 'string') return fieldFailure('INVALID_ARGUMENT', 'account', result);
    return { ok: true, account: result.view() };
  }

  deposit(profileId: number, input: DepositInput): DepositOutcome {
    return this.command(() => {
      const account = this.accountsById.get(profileId);
      if (!account) return failure(404, 'PROFILE_NOT_FOUND', MESSAGES.profileNotFound);
      const usdc = input.usdcRaw ?? 0;
      if (!Number.isSafeInteger(usdc) || usdc < 0 || !Number.isSafeInteger(account.usdc.total + usdc + this.usdcInRaw)) {
        return fieldFailure('INVALID_ARGUMENT', 'usdcRaw', `must be a non-negative integer within safe range (got ${usdc})`);
      }
      const grants: [MarketState, Outcome, string, number][] = [];
      for (const [tokenId, raw] of Object.entries(input.tokens ?? {})) {
        const market = this.marketOfToken(tokenId);
        if (!market) return fieldFailure('TOKEN_NOT_IN_MARKET', `tokens.${tokenId}`, `token ${tokenId} belongs to no market`);
        if (!Number.isSafeInteger(raw) || raw < 0 || !Number.isSafeInteger(account.tokenTotal(tokenId) + raw)) {
          return fieldFailure('INVALID_ARGUMENT', `tokens.${tokenId}`, `must be a non-negative integer within safe range (got ${raw})`);
        }
        grants.push([market, market.outcomeOf(tokenId) ?? 'YES', tokenId, raw]);
      }
      credit(account.usdc, usdc, 'deposit');
      this.usdcInRaw += usdc;
      for (const [market, outcome, tokenId, raw] of grants) {
        this.grantTokens(account, market, outcome, tokenId, raw);
        this.enqueue({ kind: 'positions', profileId, slug: market.spec.slug });
      }
      return { ok: true, balances: account.balances() };
    });
  }

  balances(profileId: number): Balances | undefined {
    return this.accountsById.get(profileId)?.balances();
  }

  book(slug: string): BookSnapshot | undefined {
    const m = this.marketsBySlug.get(slug);
    if (!m) return undefined;
    return this.command(() => {
      this.refreshExpiry(m);
      return m.book.snapshot();
    });
  }

  lastTradeTicks(slug: string): number | null {
    return this.marketsBySlug.get(slug)?.lastTradeTicks ?? null;
  }

  orders(profileId: number, slug: string, statuses: readonly OrderStatus[], limit?: number): SimOrder[] {
    const market = this.marketsBySlug.get(slug);
    if (!market) return [];
    return this.command(() => {
      this.refreshExpiry(market);
      const list = this.orderLists.get(listKey(profileId, market.spec.id));
      if (!list) return [];
      const wanted = new Set(statuses.filter((s) => ORDER_STATUSES.includes(s)));
      const max = limit === undefined ? Number.POSITIVE_INFINITY : Math.max(0, Math.floor(limit));
      const out: SimOrder[] = [];
      for (let i = list.orders.length - 1; i >= 0 && out.length < max; i -= 1) {
        const order = list.orders[i];
        if (order && wanted.has(order.status)) out.push(order.view());
      }
      return out;
    });
  }

  orderById(id: string): SimOrder | undefined {
    return this.ordersById.get(id)?.view();
  }

  orderByClientOrderId(profileId: number, clientOrderId: string): SimOrder | undefined {
    return this.ordersByClientId.get(clientKey(profileId, clientOrderId))?.view();
  }

  userOrder(order: SimOrder): UserOrder {
    return toUserOrder(order);
  }

  trades(slugs: readonly string[]): MarketTrade[] {
    const markets = new Set<MarketState>();
    for (const slug of slugs) {
      const m = this.marketsBySlug.get(slug);
      if (m) markets.add(m);
      for (const gm of this.groupsBySlug.get(slug)?.markets ?? []) markets.add(gm);
    }
    // Each feed is already in sequence order; only a multi-market feed needs a merge.
    const entries = [...markets].flatMap((m) => m.feed);
    if (markets.size > 1) entries.sort((a, b) => a.seq - b.seq);
    const out: MarketTrade[] = new Array<MarketTrade>(entries.length);
    for (let i = 0; i < entries.length; i += 1) {
      const entry = entries[entries.length - 1 - i];
      if (entry) out[i] = entry.trade;
    }
    return out;
  }

  accountTrades(profileId: number): AccountFill[] {
    const account = this.accountsById.get(profileId);
    if (!account) return [];
    const fills = account.fills();
    const out: AccountFill[] = [];
    for (let i = fills.length - 1; i >= 0; i -= 1) {
      const f = fills[i];
      if (f) out.push({ ...f });
    }
    return out;
  }

  positions(profileId: number): PositionSummary[] {
    const account = this.accountsById.get(profileId);
    if (!account) return [];
    const out: PositionSummary[] = [];
    for (const market of this.marketsById.values()) {
      const { yesTokenId, noTokenId, id } = market.spec;
      const list = this.orderLists.get(listKey(profileId, id));
      const live = list ? list.orders.filter((o) => o.status === 'LIVE') : [];
      if (!account.hasPosition(id) && account.tokenTotal(yesTokenId) === 0 && account.tokenTotal(noTokenId) === 0 && live.length === 0) {
        continue;
      }
      out.push({
        marketSlug: market.spec.slug,
        marketId: id,
        conditionId: market.spec.conditionId,
        yes: account.tokenPosition(id, 'YES', yesTokenId),
        no: account.tokenPosition(id, 'NO', noTokenId),
        liveOrders: live.length,
        collateralLockedRaw: live.reduce((sum, o) => sum + (o.side === 'BUY' ? o.lockedRaw : 0), 0),
        feesPaidRaw: account.position(id).feesPaidRaw,
      });
    }
    return out;
  }

  stats(): EngineStats {
    let resting = 0;
    for (const m of this.marketsBySlug.values()) resting += m.book.size;
    return {
      restingOrders: resting,
      tradesMatched: this.tradesMatched,
      tradesMined: this.tradesMined,
      feesCollectedRaw: this.feesCollectedRaw,
      ordersPlaced: this.ordersPlaced,
    };
  }

  on(listener: EngineListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  stop(): void {
    this.stopped = true;
    for (const cancel of this.timers) cancel();
    this.timers.clear();
  }

  // ───────────────────────── placement ─────────────────────────

  place(input: PlaceInput): PlaceOutcome {
    return this.command(() => {
      const synthetic = this.accountsById.get(input.profileId)?.synthetic ?? false;
      const outcome = this.placeChecked(input);
      if (outcome.ok) {
        this.ordersPlaced += 1;
        this.observer.onPlaceAccepted?.(outcome.order.type, outcome.order.status, synthetic);
      } else {
        this.observer.onPlaceRejected?.(outcome.code, synthetic);
      }
      return outcome;
    });
  }

  private placeChecked(input: PlaceInput): PlaceOutcome {
    const account = this.accountsById.get(input.profileId);
    if (!account) return failure(404, 'PROFILE_NOT_FOUND', MESSAGES.profileNotFound);
    const market = this.marketsBySlug.get(input.marketSlug);
    if (!market) return failure(404, 'MARKET_NOT_FOUND', MESSAGES.marketNotFound);
    this.refreshExpiry(market);
    if (market.status === 'RESOLVED') return failure(400, 'MARKET_RESOLVED', MESSAGES.marketResolved);
    if (market.expired) return failure(400, 'MARKET_EXPIRED', MESSAGES.marketExpired);
    const valid = validatePlacement(input, account, market, this.band);
    if (isFailure(valid)) return valid;
    const expiration = input.expirationSec ?? 0;
    if (!Number.isSafeInteger(expiration) || expiration < 0) {
      return fieldFailure('INVALID_ORDER', 'order.expiration', `order.expiration must be unix seconds or 0 (got ${expiration})`);
    }
    if (expiration !== 0 && expiration * 1000 <= this.clock.now()) {
      return fieldFailure(
        'INVALID_ORDER',
        'order.expiration',
        `order.expiration ${expiration} (${isoTime(expiration * 1000)}) is not in the future (server time ${isoTime(this.clock.now())}); it is unix seconds, 0 = no expiry`,
      );
    }
    if (valid.clientOrderId !== null && this.ordersByClientId.has(clientKey(account.profileId, valid.clientOrderId))) {
      return failure(409, 'DUPLICATE_CLIENT_ORDER_ID', `Order with clientOrderId ${valid.clientOrderId} already exists`);
    }
    if (input.postOnly && valid.yesLimit !== null && market.book.wouldCross(valid.bookSide, valid.yesLimit)) {
      return failure(400, 'POST_ONLY_WOULD_CROSS', 'Post-only order would cross the book');
    }
    if (valid.side === 'SELL') {
      const size = valid.sizeRaw ?? 0;
      const free = account.freeToken(valid.tokenId);
      if (free < size) return insufficient(`${valid.outcome} tokens`, size, free);
    } else if (account.freeUsdc() < input.makerAmount) {
      return insufficient('USDC', input.makerAmount, account.freeUsdc());
    }
    const plan = planExecution(market.book, {
      profileId: account.profileId,
      outcome: valid.outcome,
      side: valid.side,
      type: valid.type,
      bookSide: valid.bookSide,
      yesLimit: valid.yesLimit,
      sizeRaw: valid.sizeRaw,
      budgetRaw: valid.budgetRaw,
      stpPolicy: valid.stpPolicy,
    });
    // A FOK executes only when it fills in full (fokComplete is false when STP rejected it).
    const executes = valid.type !== 'FOK' || plan.fokComplete;
    const fee = executes && plan.filledRaw > 0 ? takerFee(plan.takerCollateralRaw, account.feeRateBps) : 0;
    if (valid.side === 'BUY' && account.freeUsdc() < input.makerAmount + fee) {
      return insufficient('USDC (incl. taker fee)', input.makerAmount + fee, account.freeUsdc());
    }
    return this.commitPlacement(input, account, market, valid, plan, executes, fee);
  }

  private commitPlacement(
    input: PlaceInput,
    account: AccountState,
    market: MarketState,
    valid: ValidPlacement,
    plan: ExecutionPlan,
    executes: boolean,
    fee: number,
  ): PlaceOutcome {
    const now = this.clock.now();
    const isFokBuy = valid.type === 'FOK' && valid.side === 'BUY';
    const order = new OrderRecord({
      id: this.newOrderId(),
      profileId: account.profileId,
      market,
      tokenId: valid.tokenId,
      outcome: valid.outcome,
      type: valid.type,
      side: valid.side,
      priceTicks: valid.priceTicks,
      makerAmount: input.makerAmount,
      takerAmount: input.takerAmount,
      originalSizeRaw: isFokBuy ? (executes ? plan.filledRaw : 0) : (valid.sizeRaw ?? 0),
      createdAtMs: now,
      clientOrderId: valid.clientOrderId,
      feeRateBps: input.feeRateBps,
      postOnly: input.postOnly,
      stpPolicy: valid.stpPolicy,
      salt: input.salt,
      signature: input.signature,
      signedOrderEcho: input.signedOrderEcho,
      bookSide: valid.bookSide,
      yesTicks: valid.yesLimit ?? 0,
      expiresAtMs: input.expirationSec !== undefined && input.expirationSec > 0 ? input.expirationSec * 1000 : null,
    });
    this.registerOrder(order);
    this.emitOme(order, 'PLACEMENT');

    // A FOK that cannot fill in full changes nothing, unless STP rejected it (then its STP cancels apply).
    const stpCancels = executes || plan.takerRejected ? plan.stpMakerCancels : [];
    for (const maker of stpCancels) this.cancelResting(maker, 'STP_MAKER_CANCELLED');

    const makerMatches: MakerMatch[] = [];
    const trade = executes && plan.fills.length > 0 ? this.executeFills(order, account, market, plan, fee, now, makerMatches) : null;

    if (plan.takerRejected) {
      // STP stops the taker only while it still has size left, so the remainder is canceled.
      this.finish(order, 'CANCELED', 'STP_TAKER_REJECTED');
    } else if (order.remainingSizeRaw === 0 && order.filledSizeRaw > 0) {
      this.finish(order, 'MATCHED', null);
    } else if (order.type === 'GTC') {
      this.rest(order, account, market);
    } else {
      this.finish(order, order.filledSizeRaw > 0 ? 'CANCELED' : 'UNMATCHED', 'UNFILLED_REMAINDER');
    }
    if (trade) this.emitSettlement(trade, 'MATCHED');

    const contracts = order.filledSizeRaw;
    const collateral = order.filledCollateralRaw;
    return {
      ok: true,
      order: order.view(),
      makerMatches,
      execution: {
        matched: contracts > 0,
        settlementStatus: contracts > 0 ? 'MATCHED' : 'UNMATCHED',
        ...(trade ? { tradeEventId: trade.tradeEventId } : {}),
        ...(order.clientOrderId !== null ? { clientOrderId: order.clientOrderId } : {}),
        feeRateBps: order.feeRateBps,
        effectiveFeeBps: collateral > 0 ? Math.round((fee * 10_000) / collateral) : 0,
        totalsRaw: executionTotals(order.side, contracts, collateral, fee),
        ...(plan.takerRejected ? { reason: 'STP_TAKER_REJECTED' } : {}),
        ...(stpCancels.length > 0 ? { stpMakerCancels: stpCancels.map((o) => o.id) } : {}),
      },
    };
  }

  private executeFills(
    order: OrderRecord,
    taker: AccountState,
    market: MarketState,
    plan: ExecutionPlan,
    fee: number,
    now: number,
    makerMatches: MakerMatch[],
  ): TradeRecord {
    const tradeEventId = this.idRng.uuid();
    const marketId = market.spec.id;
    const fills: TradeFill[] = [];
    let feeLeft = fee;
    plan.fills.forEach((planned, index) => {
      const maker = planned.maker;
      const makerAccount = this.accountsById.get(maker.profileId);
      if (!makerAccount) throw new EngineInvariantError(`maker account ${maker.profileId} missing`);
      const n = planned.sizeRaw;
      const makerToken = makerAccount.token(maker.tokenId);

      // maker side: consume its lock exactly (its price is the execution price)
      market.book.fill(maker, n);
      if (maker.side === 'BUY') {
        debitLocked(makerAccount.usdc, planned.makerCollateralRaw, 'maker buy');
        maker.lockedRaw -= planned.makerCollateralRaw;
        credit(makerToken, n, 'maker buy tokens');
        makerAccount.recordAcquire(marketId, maker.outcome, planned.makerCollateralRaw);
      } else {
        const held = makerToken.total;
        debitLocked(makerToken, n, 'maker sell tokens');
        maker.lockedRaw -= n;
        credit(makerAccount.usdc, planned.makerCollateralRaw, 'maker sell');
        makerAccount.recordDispose(marketId, maker.outcome, n, held, planned.makerCollateralRaw);
      }
      maker.filledSizeRaw += n;
      maker.filledCollateralRaw += planned.makerCollateralRaw;
      maker.updatedAtMs = now;

      // taker side: free funds (checked before commit)
      const takerToken = taker.token(order.tokenId);
      if (order.side === 'BUY') {
        debitFree(taker.usdc, planned.takerCollateralRaw, 'taker buy');
        credit(takerToken, n, 'taker buy tokens');
        taker.recordAcquire(marketId, order.outcome, planned.takerCollateralRaw);
      } else {
        const held = takerToken.total;
        debitFree(takerToken, n, 'taker sell tokens');
        credit(taker.usdc, planned.takerCollateralRaw, 'taker sell');
        taker.recordDispose(marketId, order.outcome, n, held, planned.takerCollateralRaw);
      }
      order.remainingSizeRaw -= n;
      order.filledSizeRaw += n;
      order.filledCollateralRaw += planned.takerCollateralRaw;

      // pair accounting
      if (planned.kind === 'MINT') {
        if (planned.takerCollateralRaw + planned.makerCollateralRaw !== n) throw new EngineInvariantError('mint does not sum to one pair');
        market.poolRaw += n;
        market.mintedNetRaw += n;
      } else if (planned.kind === 'MERGE') {
        if (planned.takerCollateralRaw + planned.makerCollateralRaw !== n) throw new EngineInvariantError('merge does not sum to one pair');
        market.poolRaw -= n;
        market.mintedNetRaw -= n;
      } else if (planned.takerCollateralRaw !== planned.makerCollateralRaw) {
        throw new EngineInvariantError('transfer amounts differ');
      }

      const isLast = index === plan.fills.length - 1;
      const fillFee = isLast ? feeLeft : Number((BigInt(fee) * BigInt(planned.takerCollateralRaw)) / BigInt(Math.max(1, plan.takerCollateralRaw)));
      feeLeft -= fillFee;
      const matchId = this.idRng.uuid();
      const base = { tradeEventId, matchId, marketSlug: market.spec.slug, kind: planned.kind, settlementStatus: 'MATCHED' as const, matchedAtMs: now, minedAtMs: null, txHash: null, sizeRaw: n };
      const takerFill: FillRecord = {
        ...base,
        role: 'TAKER',
        orderId: order.id,
        clientOrderId: order.clientOrderId,
        tokenId: order.tokenId,
        outcome: order.outcome,
        side: order.side,
        priceTicks: planned.takerTicks,
        collateralRaw: planned.takerCollateralRaw,
        feeRaw: fillFee,
        counterpartyProfileId: maker.profileId,
      };
      const makerFill: FillRecord = {
        ...base,
        role: 'MAKER',
        orderId: maker.id,
        clientOrderId: maker.clientOrderId,
        tokenId: maker.tokenId,
        outcome: maker.outcome,
        side: maker.side,
        priceTicks: maker.priceTicks ?? 0,
        collateralRaw: planned.makerCollateralRaw,
        feeRaw: 0,
        counterpartyProfileId: taker.profileId,
      };
      taker.addFill(takerFill);
      makerAccount.addFill(makerFill);
      fills.push({ plan: planned, matchId, makerAccount, takerFill, makerFill });
      makerMatches.push({ id: matchId, createdAt: isoTime(now), matchedSize: String(n), orderId: maker.id });

      this.emitOme(maker, 'EXECUTION', { status: maker.remainingSizeRaw === 0 ? 'FILLED' : 'PARTIALLY_FILLED', matchedSizeRaw: n });
      if (maker.remainingSizeRaw === 0) this.finish(maker, 'MATCHED', null, false);
      this.emitOme(order, 'EXECUTION', { status: order.remainingSizeRaw === 0 ? 'FILLED' : 'PARTIALLY_FILLED', matchedSizeRaw: n });
      this.enqueue({ kind: 'positions', profileId: maker.profileId, slug: market.spec.slug });
      market.lastTradeTicks = planned.yesTicks;
    });

    if (fee > 0) {
      debitFree(taker.usdc, fee, 'taker fee');
      this.feesCollectedRaw += fee;
      order.feePaidRaw = fee;
      taker.recordFee(marketId, fee);
    }
    market.volumeRaw += plan.takerCollateralRaw;
    this.tradesMatched += 1;
    this.enqueue({ kind: 'positions', profileId: taker.profileId, slug: market.spec.slug });
    this.enqueue({ kind: 'book', slug: market.spec.slug });
    this.observer.onTrade?.(market.spec.slug, plan.filledRaw, plan.takerCollateralRaw, fee, taker.synthetic);

    const trade: TradeRecord = {
      tradeEventId,
      market,
      taker: order,
      takerAccount: taker,
      fills,
      contractsRaw: plan.filledRaw,
      collateralRaw: plan.takerCollateralRaw,
      feeRaw: fee,
      matchedAtMs: now,
      txHash: null,
    };
    this.schedule(this.settlementDelayMs, () => this.command(() => this.mine(trade)));
    return trade;
  }

  private rest(order: OrderRecord, account: AccountState, market: MarketState): void {
    const price = order.priceTicks;
    if (price === null) throw new EngineInvariantError(`order ${order.id} rests without a price`);
    if (order.side === 'BUY') {
      const need = stepCollateral(order.remainingSizeRaw, price);
      lock(account.usdc, need, 'rest buy');
      order.lockedRaw = need;
    } else {
      lock(account.token(order.tokenId), order.remainingSizeRaw, 'rest sell');
      order.lockedRaw = order.remainingSizeRaw;
    }
    market.book.add(order);
    if (order.filledSizeRaw > 0) this.emitOme(order, 'UPDATE');
    this.enqueue({ kind: 'book', slug: market.spec.slug });
    const expiresAtMs = order.expiresAtMs;
    if (expiresAtMs !== null) {
      this.schedule(Math.max(0, expiresAtMs - this.clock.now()), () => this.command(() => this.expireOrder(order)));
    }
  }

  /** The order's signed expiration passed: a still-resting order leaves the book and its lock is released. */
  private expireOrder(order: OrderRecord): void {
    if (order.status !== 'LIVE' || order.expiresAtMs === null || this.clock.now() < order.expiresAtMs) return;
    this.cancelResting(order, 'ORDER_EXPIRED');
  }

  /** Move an order that is off the book to a terminal status. */
  private finish(order: OrderRecord, status: OrderStatus, reason: CancelReason | null, emit = true): void {
    order.status = status;
    order.cancelReason = status === 'MATCHED' ? null : reason;
    order.updatedAtMs = this.clock.now();
    if (emit && status !== 'MATCHED') {
      if (reason === 'STP_TAKER_REJECTED') this.emitOme(order, 'CANCELLATION', { reason });
      else this.emitOme(order, 'EXECUTION', { status: 'KILLED' });
    }
    this.markTerminal(order);
  }

  private cancelResting(order: OrderRecord, reason: CancelReason): void {
    const market = this.marketsById.get(order.marketId);
    const account = this.accountsById.get(order.profileId);
    if (!market || !account) throw new EngineInvariantError(`order ${order.id} lost its market or account`);
    market.book.remove(order);
    unlock(order.side === 'BUY' ? account.usdc : account.token(order.tokenId), order.lockedRaw, 'cancel');
    order.lockedRaw = 0;
    order.status = 'CANCELED';
    order.cancelReason = reason;
    order.updatedAtMs = this.clock.now();
    this.emitOme(order, 'CANCELLATION', reason === 'USER_CANCELED' ? {} : { reason });
    this.markTerminal(order);
    this.enqueue({ kind: 'book', slug: market.spec.slug });
    this.observer.onCancel?.(reason);
  }

  private newOrderId(): string {
    let id = this.idRng.uuid();
    while (this.ordersById.has(id)) id = this.idRng.uuid();
    return id;
  }

  private registerOrder(order: OrderRecord): void {
    this.ordersById.set(order.id, order);
    if (order.clientOrderId !== null) this.ordersByClientId.set(clientKey(order.profileId, order.clientOrderId), order);
    const key = listKey(order.profileId, order.marketId);
    let list = this.orderLists.get(key);
    if (!list) {
      list = { orders: [], terminal: 0 };
      this.orderLists.set(key, list);
    }
    list.orders.push(order);
  }

  /** Count a terminal order and forget the oldest terminal ones beyond the retention limit. */
  private markTerminal(order: OrderRecord): void {
    const list = this.orderLists.get(listKey(order.profileId, order.marketId));
    if (!list) return;
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

  // ───────────────────────── settlement ─────────────────────────

  private mine(trade: TradeRecord): void {
    const now = this.clock.now();
    trade.txHash = `0x${this.idRng.hex(32)}`;
    for (const f of trade.fills) {
      for (const rec of [f.takerFill, f.makerFill]) {
        rec.settlementStatus = 'MINED';
        rec.minedAtMs = now;
        rec.txHash = trade.txHash;
      }
    }
    const market = trade.market;
    market.feed.push({
      seq: ++this.feedSeq,
      trade: {
        createdAt: isoTime(trade.matchedAtMs),
        makerAmount: String(trade.collateralRaw),
        takerAmount: String(trade.collateralRaw),
        matchedSize: String(trade.contractsRaw),
        price: Number(averagePrice(trade.collateralRaw, trade.contractsRaw)),
        side: SIDE_CODE[trade.taker.side],
        title: market.spec.title,
        tokenId: trade.taker.tokenId,
        txHash: trade.txHash,
      },
    });
    if (market.feed.length > this.tradesPerMarket * 1.25 + 16) market.feed = market.feed.slice(market.feed.length - this.tradesPerMarket);
    this.tradesMined += 1;
    this.emitSettlement(trade, 'MINED');
    this.enqueue({ kind: 'mined', slug: market.spec.slug });
    this.observer.onSettlement?.('MINED');
  }

  private emitSettlement(trade: TradeRecord, type: 'MATCHED' | 'MINED'): void {
    if (type === 'MATCHED') this.observer.onSettlement?.('MATCHED');
    if (this.listeners.size === 0) return;
    const taker = trade.taker;
    const base: Omit<SettlementFrame, 'orderId' | 'clientOrderId'> = {
      source: 'SETTLEMENT',
      type,
      eventId: `settlement:${trade.tradeEventId}`,
      takerOrderId: taker.id,
      takerAccount: trade.takerAccount.address,
      makerMatches: trade.fills.map((f) => ({
        account: f.makerAccount.address,
        orderId: f.plan.maker.id,
        matchedSize: String(f.plan.sizeRaw),
        price: ticksToPrice(f.plan.maker.priceTicks ?? f.plan.yesTicks),
      })),
      marketSlug: trade.market.spec.slug,
      ...(trade.txHash !== null ? { txHash: trade.txHash } : {}),
      tokenId: taker.tokenId,
      token: taker.outcome,
      side: taker.side,
      price: averagePrice(trade.collateralRaw, trade.contractsRaw),
      amountContracts: String(trade.contractsRaw),
      amountCollateral: String(trade.collateralRaw),
      configuredFeeRateBps: taker.feeRateBps,
      effectiveFeeBps: trade.collateralRaw > 0 ? Math.round((trade.feeRaw * 10_000) / trade.collateralRaw) : 0,
      feeAmountCollateral: String(trade.feeRaw),
      feeAmountContracts: '0',
      isEstimate: type === 'MATCHED',
      tradeEventId: trade.tradeEventId,
      timestamp: this.clock.now(),
    };
    const takerFrame: SettlementFrame = {
      ...base,
      orderId: taker.id,
      ...(taker.clientOrderId !== null ? { clientOrderId: taker.clientOrderId } : {}),
    };
    this.enqueue({ kind: 'order', profileId: trade.takerAccount.profileId, frame: takerFrame });
    const makers = new Set(trade.fills.map((f) => f.makerAccount.profileId));
    makers.delete(trade.takerAccount.profileId);
    for (const profileId of makers) this.enqueue({ kind: 'order', profileId, frame: base });
  }

  // ───────────────────────── cancels ─────────────────────────

  cancel(profileId: number, orderId: string): CancelOutcome {
    return this.command(() => {
      const order = this.ordersById.get(orderId);
      const checked = this.checkCancellable(profileId, order);
      if (checked !== null) return checked;
      if (!order) return failure(404, 'ORDER_NOT_FOUND', MESSAGES.orderNotFound);
      this.cancelResting(order, 'USER_CANCELED');
      return { ok: true, message: 'Order canceled successfully', order: order.view() };
    });
  }

  /** The spec's cancel failure cases, in the spec's order; null when the order can be canceled. */
  private checkCancellable(profileId: number, order: OrderRecord | undefined): EngineFailure | null {
    if (!order) return failure(404, 'ORDER_NOT_FOUND', MESSAGES.orderNotFound);
    if (order.profileId !== profileId) return failure(401, 'NOT_ORDER_OWNER', MESSAGES.unauthorized);
    const market = this.marketsById.get(order.marketId);
    if (!market) return failure(404, 'ORDER_NOT_FOUND', MESSAGES.orderNotFound);
    this.refreshExpiry(market);
    if (market.status === 'RESOLVED') return failure(400, 'MARKET_RESOLVED', MESSAGES.marketResolved);
    if (order.status !== 'LIVE') return failure(400, 'NOT_CANCELLABLE', MESSAGES.notCancellable);
    return null;
  }

  cancelBatch(profileId: number, orderIds: readonly string[]): BatchCancelOutcome {
    return this.command(() => {
      if (orderIds.length === 0) return fieldFailure('INVALID_ARGUMENT', 'orderIds', 'orderIds must not be empty');
      const marketIds = new Set<number>();
      for (const id of orderIds) {
        const order = this.ordersById.get(id);
        if (order) marketIds.add(order.marketId);
      }
      if (marketIds.size > 1) return failure(400, 'MIXED_MARKETS', 'All orders must belong to the same market');
      const canceled: string[] = [];
      const failed: BatchCancelFailure[] = [];
      for (const id of new Set(orderIds)) {
        const order = this.ordersById.get(id);
        const problem = this.checkCancellable(profileId, order);
        if (problem !== null || !order) {
          const message = problem && typeof problem.body.message === 'string' ? problem.body.message : MESSAGES.orderNotFound;
          failed.push({ orderId: id, reason: problem?.code ?? 'ORDER_NOT_FOUND', message });
          continue;
        }
        this.cancelResting(order, 'USER_CANCELED');
        canceled.push(id);
      }
      return { ok: true, canceled, failed };
    });
  }

  cancelAll(profileId: number, slug: string): BatchCancelOutcome {
    return this.command(() => {
      const market = this.marketsBySlug.get(slug);
      if (!market) return failure(404, 'MARKET_NOT_FOUND', MESSAGES.marketNotFound);
      if (!this.accountsById.has(profileId)) return failure(404, 'PROFILE_NOT_FOUND', MESSAGES.profileNotFound);
      this.refreshExpiry(market);
      if (market.status === 'RESOLVED') return failure(400, 'MARKET_RESOLVED', MESSAGES.marketResolved);
      const list = this.orderLists.get(listKey(profileId, market.spec.id));
      const live = list ? list.orders.filter((o) => o.status === 'LIVE') : [];
      for (const order of live) this.cancelResting(order, 'USER_CANCELED');
      return { ok: true, canceled: live.map((o) => o.id), failed: [] };
    });
  }

  // ───────────────────────── resolution and redemption ─────────────────────────

  resolve(slug: string, input: ResolveInput): ResolveOutcome {
    return this.command(() => {
      const market = this.marketsBySlug.get(slug);
      if (!market) return failure(404, 'MARKET_NOT_FOUND', MESSAGES.marketNotFound);
      if (market.status === 'RESOLVED') return failure(400, 'ALREADY_RESOLVED', MESSAGES.marketResolved);
      let winningOutcomeIndex: 0 | 1 | null = null;
      let payoutNumerators: readonly [number, number] | null = null;
      if ('winningOutcomeIndex' in input) {
        if (input.winningOutcomeIndex !== 0 && input.winningOutcomeIndex !== 1) {
          return fieldFailure('INVALID_ARGUMENT', 'winningOutcomeIndex', 'winningOutcomeIndex must be 0 (YES) or 1 (NO)');
        }
        winningOutcomeIndex = input.winningOutcomeIndex;
      } else {
        const [yes, no] = input.payoutNumerators;
        const valid = input.payoutNumerators.length === 2 && [yes, no].every((n) => Number.isSafeInteger(n) && (n ?? -1) >= 0);
        if (!valid || yes + no <= 0 || yes + no > 1_000_000_000) {
          return fieldFailure('INVALID_ARGUMENT', 'payoutNumerators', 'payoutNumerators must be two non-negative integers with a positive sum');
        }
        payoutNumerators = [yes, no];
      }
      this.cancelAllResting(market, 'MARKET_RESOLVED');
      market.status = 'RESOLVED';
      market.winningOutcomeIndex = winningOutcomeIndex;
      market.payoutNumerators = payoutNumerators;
      market.resolvedAtMs = this.clock.now();
      this.enqueue({
        kind: 'resolved',
        frame: {
          slug,
          winningOutcome: winningOutcomeIndex === null ? null : winningOutcomeIndex === 0 ? 'YES' : 'NO',
          winningIndex: winningOutcomeIndex,
          payoutNumerators,
          resolutionDate: isoTime(market.resolvedAtMs),
        },
      });
      this.enqueue({ kind: 'status', slug });
      this.schedule(this.payoutDelayMs, () =>
        this.command(() => {
          market.payoutPosted = true;
          this.enqueue({ kind: 'status', slug });
        }),
      );
      return { ok: true, market: market.view() };
    });
  }

  payoutPosted(slug: string): boolean {
    return this.marketsBySlug.get(slug)?.payoutPosted ?? false;
  }

  redeem(profileId: number, conditionId: string): RedeemOutcome {
    return this.command(() => {
      const account = this.accountsById.get(profileId);
      if (!account) return failure(404, 'PROFILE_NOT_FOUND', MESSAGES.profileNotFound);
      if (!account.serverManagedWallet) {
        return failure(403, 'REDEEM_NOT_ALLOWED', 'Redemption through the API is only available for server-managed wallets');
      }
      if (!/^0x[0-9a-fA-F]{64}$/.test(conditionId)) return fieldFailure('INVALID_ARGUMENT', 'conditionId', 'conditionId must be 0x + 64 hex');
      const market = this.marketsByCondition.get(conditionId.toLowerCase());
      if (!market) return failure(404, 'MARKET_NOT_FOUND', MESSAGES.marketNotFound);
      if (market.status !== 'RESOLVED') return failure(400, 'MARKET_NOT_RESOLVED', 'Market is not resolved');
      if (!market.payoutPosted) return failure(400, 'PAYOUT_NOT_POSTED', 'Payout has not been posted on-chain yet');
      const { yesTokenId, noTokenId, id } = market.spec;
      const yesBurned = account.tokenTotal(yesTokenId);
      const noBurned = account.tokenTotal(noTokenId);
      const [numYes, numNo] = market.payoutNumerators ?? (market.winningOutcomeIndex === 0 ? [1, 0] : [0, 1]);
      const denominator = BigInt(numYes + numNo);
      const yesPay = Number((BigInt(yesBurned) * BigInt(numYes)) / denominator);
      const noPay = Number((BigInt(noBurned) * BigInt(numNo)) / denominator);
      if (yesPay + noPay === 0) return failure(400, 'NOTHING_TO_REDEEM', 'No redeemable balance for this condition');
      const yes = account.token(yesTokenId);
      const no = account.token(noTokenId);
      if (yes.locked !== 0 || no.locked !== 0) throw new EngineInvariantError('tokens locked in a resolved market');
      if (yesBurned > 0) account.recordDispose(id, 'YES', yesBurned, yesBurned, yesPay);
      if (noBurned > 0) account.recordDispose(id, 'NO', noBurned, noBurned, noPay);
      debitFree(yes, yesBurned, 'redeem yes');
      debitFree(no, noBurned, 'redeem no');
      credit(account.usdc, yesPay + noPay, 'redeem payout');
      market.poolRaw -= yesPay + noPay;
      market.yesBurnedRaw += yesBurned;
      market.noBurnedRaw += noBurned;
      this.enqueue({ kind: 'positions', profileId, slug: market.spec.slug });
      return { ok: true, conditionId: market.spec.conditionId, marketSlug: market.spec.slug, payoutRaw: yesPay + noPay, yesBurnedRaw: yesBurned, noBurnedRaw: noBurned };
    });
  }

  // ───────────────────────── fair value and synthetic flow ─────────────────────────

  fairValueTicks(slug: string): number | null {
    const m = this.marketsBySlug.get(slug);
    if (!m) return null;
    if (m.spec.oracle && this.world && !m.expired) {
      this.world.advanceTo(this.clock.now());
      const fair = worldFair(this.world, m.spec.oracle, m.spec.expirationMs, this.clock.now(), 'true');
      if (fair !== null) return Math.min(MAX_TICK, Math.max(MIN_TICK, Math.round(fair * TICKS_PER_UNIT)));
    }
    return logOddsToTicks(m.fairLogOdds);
  }

  setFairValue(slug: string, ticks: number): FairValueOutcome {
    const m = this.marketsBySlug.get(slug);
    if (!m) return failure(404, 'MARKET_NOT_FOUND', MESSAGES.marketNotFound);
    if (!Number.isInteger(ticks) || ticks < MIN_TICK || ticks > MAX_TICK) {
      return fieldFailure('INVALID_ARGUMENT', 'fairValueTicks', `must be an integer tick in [${MIN_TICK}, ${MAX_TICK}] (got ${ticks})`);
    }
    const p = ticks / TICKS_PER_UNIT;
    m.fairLogOdds = Math.log(p / (1 - p));
    return { ok: true, fairValueTicks: ticks };
  }

  syntheticStep(): void {
    this.world?.advanceTo(this.clock.now());
    if (this.synthetic) this.command(() => this.synthetic?.step());
  }

  // ───────────────────────── invariants ─────────────────────────

  checkInvariants(): string[] {
    const problems: string[] = [];
    const usdcLocks = new Map<number, number>();
    const tokenLocks = new Map<string, number>();
    let liveCount = 0;
    for (const list of this.orderLists.values()) {
      for (const o of list.orders) {
        if (o.status !== 'LIVE') {
          if (o.lockedRaw !== 0) problems.push(`terminal order ${o.id} still locks ${o.lockedRaw}`);
          continue;
        }
        liveCount += 1;
        const expected = o.side === 'BUY' ? stepCollateral(o.remainingSizeRaw, o.priceTicks ?? 0) : o.remainingSizeRaw;
        if (o.lockedRaw !== expected) problems.push(`order ${o.id} locks ${o.lockedRaw}, needs ${expected}`);
        if (o.side === 'BUY') usdcLocks.set(o.profileId, (usdcLocks.get(o.profileId) ?? 0) + o.lockedRaw);
        else {
          const key = `${o.profileId}:${o.tokenId}`;
          tokenLocks.set(key, (tokenLocks.get(key) ?? 0) + o.lockedRaw);
        }
      }
    }
    let usdcTotal = 0;
    for (const a of this.accountsById.values()) {
      usdcTotal += a.usdc.total;
      if (a.usdc.total < 0 || a.usdc.locked < 0 || a.usdc.locked > a.usdc.total) {
        problems.push(`account ${a.profileId} USDC total ${a.usdc.total} locked ${a.usdc.locked}`);
      }
      if (a.usdc.locked !== (usdcLocks.get(a.profileId) ?? 0)) {
        problems.push(`account ${a.profileId} USDC locked ${a.usdc.locked} != resting needs ${usdcLocks.get(a.profileId) ?? 0}`);
      }
      for (const tokenId of a.tokenIds()) {
        const b = a.token(tokenId);
        if (b.total < 0 || b.locked < 0 || b.locked > b.total) problems.push(`account ${a.profileId} token ${tokenId} total ${b.total} locked ${b.locked}`);
        const need = tokenLocks.get(`${a.profileId}:${tokenId}`) ?? 0;
        if (b.locked !== need) problems.push(`account ${a.profileId} token ${tokenId} locked ${b.locked} != resting needs ${need}`);
      }
    }
    let restingCount = 0;
    let poolTotal = 0;
    for (const m of this.marketsBySlug.values()) {
      restingCount += m.book.size;
      poolTotal += m.poolRaw;
      for (const p of m.book.audit()) problems.push(`${m.spec.slug}: ${p}`);
      for (const o of m.book.entries()) if (o.status !== 'LIVE') problems.push(`${m.spec.slug}: non-live order ${o.id} on the book`);
      let yesSupply = 0;
      let noSupply = 0;
      for (const a of this.accountsById.values()) {
        yesSupply += a.tokenTotal(m.spec.yesTokenId);
        noSupply += a.tokenTotal(m.spec.noTokenId);
      }
      if (yesSupply !== m.yesGrantedRaw + m.mintedNetRaw - m.yesBurnedRaw) {
        problems.push(`${m.spec.slug}: YES supply ${yesSupply} != granted ${m.yesGrantedRaw} + minted ${m.mintedNetRaw} - burned ${m.yesBurnedRaw}`);
      }
      if (noSupply !== m.noGrantedRaw + m.mintedNetRaw - m.noBurnedRaw) {
        problems.push(`${m.spec.slug}: NO supply ${noSupply} != granted ${m.noGrantedRaw} + minted ${m.mintedNetRaw} - burned ${m.noBurnedRaw}`);
      }
      if (m.status !== 'RESOLVED' && m.poolRaw !== m.mintedNetRaw) problems.push(`${m.spec.slug}: pair collateral ${m.poolRaw} != minted ${m.mintedNetRaw}`);
    }
    if (restingCount !== liveCount) problems.push(`${liveCount} LIVE orders but ${restingCount} on books`);
    if (usdcTotal + this.feesCollectedRaw + poolTotal !== this.usdcInRaw) {
      problems.push(`collateral not conserved: USDC ${usdcTotal} + fees ${this.feesCollectedRaw} + pairs ${poolTotal} != ${this.usdcInRaw}`);
    }
    return problems;
  }
}

function insufficient(what: string, need: number, free: number): EngineFailure {
  return failure(400, 'INSUFFICIENT_BALANCE', `Insufficient balance: order needs ${rawToDecimal(need)} ${what}, ${rawToDecimal(free)} available`);
}

function eventKey(event: { kind: 'book'; slug: string } | { kind: 'positions'; profileId: number; slug: string }): string {
  return event.kind === 'book' ? `b:${event.slug}` : `p:${event.profileId}:${event.slug}`;
}

function listKey(profileId: number, marketId: number): string {
  return `${profileId}:${marketId}`;
}

function clientKey(profileId: number, clientOrderId: string): string {
  return `${profileId}:${clientOrderId}`;
}

export function logOddsToTicks(logOdds: number): number {
  const p = 1 / (1 + Math.exp(-logOdds));
  return Math.min(MAX_TICK, Math.max(MIN_TICK, Math.round(p * TICKS_PER_UNIT)));
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
