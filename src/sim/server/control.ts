/**
 * The simulator's control and fault surface, used in-process (`startSimulator(...).control`) and over the
 * loopback admin API (`/_sim/...`): read any account's orders, fills and balances; move fair values;
 * resolve markets; set and clear trading modes; drop, freeze and poison the socket feed; delay or fail
 * HTTP answers; change rate limits; read the request log.
 *
 * Owns: nothing of its own: it delegates to the engine and the server's fault, mode, limiter and log
 * objects. Invariants: every failure is a ControlError with a status (400 bad input, 404 unknown) and a
 * message naming the field and value; a failed control call changes nothing.
 */
import type {
  AccountFill,
  Balances,
  DepositInput,
  EngineFailure,
  OrderStatus,
  PositionSummary,
  ResolveInput,
  SimAccount,
  SimClock,
  SimEngine,
  SimMarket,
  UserOrder,
} from '../engine/index.js';
import { ORDER_STATUSES } from './routes-trading.js';
import { FaultInputError, type FailureRule, type FailureRuleInput, type FaultInjector } from './faults.js';
import type { CancelReplaceFaultInput, CancelReplaceFaultRule, CancelReplaceFaults } from './cancel-replace-faults.js';
import type { SocketBookSizeUnit } from './wire-format.js';
import type { ApiToken, ApiTokenRegistry } from './hmac-verify.js';
import { TokenRegistryError } from './hmac-verify.js';
import { accountSpecOf, apiTokensOf, AccountConfigError, parseAccountConfig, type AccountConfigInput } from './accounts-config.js';
import type { RateLimitOptions, TokenRateLimiter } from './rate-limiter.js';
import type { RequestLog, RequestLogEntry, TokenRequestStats } from './request-log.js';
import type { DropKind, FreezeScope, InjectedFrame, SocketFeed } from './socket-feed.js';
import type { RestrictionMode } from '../../core/trading-mode.js';
import { TradingModeInputError, type MaintenanceStatus, type TradingModeSchedule, type TradingModeWindow } from './trading-mode.js';
import { SettingsInputError, type SimSettings, type SimSettingsStore } from './settings.js';

export class ControlError extends Error {
  override readonly name = 'ControlError';
  constructor(
    readonly status: 400 | 404 | 409,
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${field}: ${reason} (got ${JSON.stringify(value) ?? String(value)})`);
  }
}


export interface TradingModeInput {
  readonly mode: RestrictionMode;
  /** ms since epoch. */
  readonly resumeAtMs: number;
  /** ms since epoch; default now (a later time schedules the mode). */
  readonly startsAtMs?: number;
}

export interface SimStateSummary {
  readonly nowMs: number;
  readonly feedFrozen: FreezeScope | null;
  readonly socketConnections: number;
  readonly maintenance: MaintenanceStatus;
  readonly responseDelayMs: number;
  readonly pendingFaults: readonly FailureRule[];
  readonly pendingCancelReplaceFaults: readonly CancelReplaceFaultRule[];
  readonly rateLimits: RateLimitOptions;
  /** Unit of socket `orderbookUpdate` level sizes. */
  readonly socketBookSizeUnit: SocketBookSizeUnit;
  /** Venue behaviours the live venue has not confirmed (settings.ts). */
  readonly settings: SimSettings;
}

/** A strike market to list at run time (`POST /_sim/markets`). */
export interface ListMarketInput {
  readonly ticker: string;
  /** ms since epoch, a whole minute in the future. */
  readonly settlesAt: number;
  /** USD; a decimal string or a number, at most the ticker's decimals. Absent: at the money. */
  readonly strike?: string | number;
}

export interface SimControl {
  readonly engine: SimEngine;
  state(): SimStateSummary;

  accounts(): readonly SimAccount[];
  /** Adds an account (and its API tokens) at run time. */
  addAccount(input: AccountConfigInput): { readonly account: SimAccount; readonly tokens: readonly ApiToken[] };
  deposit(profileId: number, input: DepositInput): Balances;
  /** Orders of an account across markets (or one market), newest first; every status unless given. */
  accountOrders(profileId: number, options?: { readonly marketSlug?: string; readonly statuses?: readonly OrderStatus[] }): UserOrder[];
  accountTrades(profileId: number): AccountFill[];
  balances(profileId: number): Balances;
  positions(profileId: number): PositionSummary[];

  /** Lists a crypto strike market (crypto world only); 400 naming ticker, settlesAt or strike; 409 a slug taken. */
  listMarket(input: ListMarketInput): SimMarket;
  setFairValue(marketSlug: string, ticks: number): number;
  resolveMarket(marketSlug: string, input: ResolveInput): SimMarket;
  syntheticStep(): void;
  invariants(): string[];

  setTradingMode(input: TradingModeInput): TradingModeWindow;
  /** Clears one window by id, or all. Returns how many were removed. */
  clearTradingMode(id?: number): number;
  maintenanceStatus(): MaintenanceStatus;

  /** Drops every socket connection (`transport` close by default, or a `server` disconnect). Returns how many were open. */
  dropConnections(kind?: DropKind): number;
  /** Stops orderbookUpdate frames (`books`, default) or every push (`all`); connections stay open. */
  freezeFeed(scope?: FreezeScope): void;
  unfreezeFeed(): void;
  /** Sends a malformed, crossed or custom frame to one market's subscribers. Returns sockets reached. */
  injectFrame(frame: InjectedFrame): number;
  /** Switches the unit of socket `orderbookUpdate` level sizes (`raw` 1e6 integers or `shares`). */
  setSocketBookSizeUnit(unit: SocketBookSizeUnit): SocketBookSizeUnit;

  setResponseDelay(ms: number): void;
  failNextRequests(rule: FailureRuleInput): FailureRule;
  pendingFaults(): readonly FailureRule[];
  /** Forces the outcome of the next cancel-replace operation(s) (see cancel-replace-faults.ts). */
  failCancelReplace(rule: CancelReplaceFaultInput): CancelReplaceFaultRule;
  pendingCancelReplaceFaults(): readonly CancelReplaceFaultRule[];
  /** Clears failure rules, cancel-replace rules and the response delay. */
  clearFaults(): void;

  setRateLimits(options: Partial<RateLimitOptions>): RateLimitOptions;

  settings(): SimSettings;
  /** Changes some settings (all or nothing); returns the settings now in force. */
  updateSettings(partial: Partial<SimSettings>): SimSettings;

  requestLog(options?: { readonly limit?: number; readonly sinceSeq?: number }): RequestLogEntry[];
  /** Per API token: requests, 429s from the rate limiter, injected faults, errors. */
  requestStats(): Record<string, TokenRequestStats>;
  clearRequestLog(): void;
}

export interface ControlDeps {
  readonly engine: SimEngine;
  readonly clock: SimClock;
  readonly tokens: ApiTokenRegistry;
  readonly modes: TradingModeSchedule;
  readonly faults: FaultInjector;
  readonly cancelReplaceFaults: CancelReplaceFaults;
  readonly limiter: TokenRateLimiter;
  readonly log: RequestLog;
  readonly feed: SocketFeed;
  readonly settings: SimSettingsStore;
}

function engineError(failure: EngineFailure, field: string, value: unknown): ControlError {
  const message = typeof failure.body.message === 'string' ? failure.body.message : failure.body.message.map((m) => m.message).join('; ');
  const status = failure.status === 404 ? 404 : failure.status === 409 ? 409 : 400;
  return new ControlError(status, field, value, message);
}

function rethrowTyped(error: unknown): never {
  if (
    error instanceof FaultInputError ||
    error instanceof TradingModeInputError ||
    error instanceof AccountConfigError ||
    error instanceof TokenRegistryError ||
    error instanceof SettingsInputError
  ) {
    throw new ControlError(400, error.field, error.value, error.reason);
  }
  throw error;
}

export function createControl(deps: ControlDeps): SimControl {
  const { engine, clock, tokens, modes, faults, cancelReplaceFaults, limiter, log, feed, settings } = deps;

  const requireAccount = (profileId: number): SimAccount => {
    const account = engine.account(profileId);
    if (!account) throw new ControlError(404, 'profileId', profileId, 'no such profile');
    return account;
  };
  const requireMarket = (slug: string): SimMarket => {
    const market = engine.market(slug);
    if (!market) throw new ControlError(404, 'marketSlug', slug, 'no such market');
    return market;
  };

  return {
    engine,
    state: () => ({
      nowMs: clock.now(),
      feedFrozen: feed.frozen,
      socketConnections: feed.connectionCount(),
      maintenance: modes.status(clock.now()),
      responseDelayMs: faults.delayMs,
      pendingFaults: faults.pending(),
      pendingCancelReplaceFaults: cancelReplaceFaults.pending(),
      rateLimits: limiter.config,
      socketBookSizeUnit: feed.bookSizeUnit,
      settings: settings.current,
    }),

    accounts: () => engine.accounts(),
    addAccount(input) {
      try {
        const config = parseAccountConfig(input);
        const tokenSpecs = apiTokensOf(config);
        for (const spec of tokenSpecs) {
          if (tokens.has(spec.tokenId)) throw new ControlError(409, 'apiTokens.tokenId', spec.tokenId, 'token id already registered');
        }
        const added = engine.addAccount(accountSpecOf(config));
        if (!added.ok) throw engineError(added, 'profileId', config.profileId);
        return { account: added.account, tokens: tokenSpecs.map((spec) => tokens.add(spec)) };
      } catch (error) {
        return rethrowTyped(error);
      }
    },
    deposit(profileId, input) {
      requireAccount(profileId);
      const outcome = engine.deposit(profileId, input);
      if (!outcome.ok) throw engineError(outcome, 'deposit', input);
      return outcome.balances;
    },
    accountOrders(profileId, options = {}) {
      requireAccount(profileId);
      const statuses = options.statuses ?? ORDER_STATUSES;
      const slugs = options.marketSlug === undefined ? engine.markets().map((m) => m.slug) : [requireMarket(options.marketSlug).slug];
      const orders = slugs.flatMap((slug) => engine.orders(profileId, slug, statuses));
      orders.sort((a, b) => b.createdAtMs - a.createdAtMs);
      return orders.map((o) => engine.userOrder(o));
    },
    accountTrades(profileId) {
      requireAccount(profileId);
      return engine.accountTrades(profileId);
    },
    balances(profileId) {
      requireAccount(profileId);
      const balances = engine.balances(profileId);
      if (!balances) throw new ControlError(404, 'profileId', profileId, 'no such profile');
      return balances;
    },
    positions(profileId) {
      requireAccount(profileId);
      return engine.positions(profileId);
    },

    listMarket(input) {
      const strike = input.strike === undefined ? undefined : typeof input.strike === 'number' ? String(input.strike) : input.strike;
      const outcome = engine.listStrikeMarket({ ticker: input.ticker, settlesAt: input.settlesAt, ...(strike === undefined ? {} : { strike }) });
      if (!outcome.ok) {
        const issue = typeof outcome.body.message === 'string' ? undefined : outcome.body.message[0];
        if (issue === undefined) throw engineError(outcome, 'slug', input);
        const value = issue.field === 'ticker' ? input.ticker : issue.field === 'settlesAt' ? input.settlesAt : input.strike;
        throw new ControlError(400, issue.field, value, issue.message.startsWith(`${issue.field} `) ? issue.message.slice(issue.field.length + 1) : issue.message);
      }
      return outcome.market;
    },
    setFairValue(marketSlug, ticks) {
      requireMarket(marketSlug);
      if (!Number.isInteger(ticks) || ticks < 1 || ticks > 999) throw new ControlError(400, 'priceTicks', ticks, 'must be an integer tick in [1, 999]');
      const outcome = engine.setFairValue(marketSlug, ticks);
      if (!outcome.ok) throw engineError(outcome, 'marketSlug', marketSlug);
      return outcome.fairValueTicks;
    },
    resolveMarket(marketSlug, input) {
      requireMarket(marketSlug);
      const outcome = engine.resolve(marketSlug, input);
      if (!outcome.ok) throw engineError(outcome, 'marketSlug', marketSlug);
      return outcome.market;
    },
    syntheticStep: () => engine.syntheticStep(),
    invariants: () => engine.checkInvariants(),

    setTradingMode(input) {
      try {
        return modes.set(input.mode, input.resumeAtMs, clock.now(), input.startsAtMs);
      } catch (error) {
        return rethrowTyped(error);
      }
    },
    clearTradingMode: (id) => modes.clear(id),
    maintenanceStatus: () => modes.status(clock.now()),

    dropConnections: (kind) => feed.dropAll(kind),
    freezeFeed: (scope) => feed.freeze(scope),
    unfreezeFeed: () => feed.unfreeze(),
    injectFrame(frame) {
      requireMarket(frame.marketSlug);
      return feed.inject(frame);
    },
    setSocketBookSizeUnit(unit) {
      if (unit !== 'raw' && unit !== 'shares') throw new ControlError(400, 'unit', unit, "must be 'raw' or 'shares'");
      feed.setBookSizeUnit(unit);
      return feed.bookSizeUnit;
    },

    setResponseDelay(ms) {
      try {
        faults.setDelay(ms);
      } catch (error) {
        rethrowTyped(error);
      }
    },
    failNextRequests(rule) {
      try {
        return faults.addFailures(rule);
      } catch (error) {
        return rethrowTyped(error);
      }
    },
    pendingFaults: () => faults.pending(),
    failCancelReplace(rule) {
      try {
        return cancelReplaceFaults.add(rule);
      } catch (error) {
        return rethrowTyped(error);
      }
    },
    pendingCancelReplaceFaults: () => cancelReplaceFaults.pending(),
    clearFaults: () => {
      faults.clear();
      cancelReplaceFaults.clear();
    },

    setRateLimits(options) {
      const next = { ...limiter.config, ...options };
      try {
        limiter.configure(next);
      } catch (error) {
        if (error instanceof RangeError) throw new ControlError(400, 'rateLimits', options, error.message);
        throw error;
      }
      return limiter.config;
    },

    settings: () => settings.current,
    updateSettings(partial) {
      try {
        return settings.update(partial);
      } catch (error) {
        return rethrowTyped(error);
      }
    },

    requestLog: (options) => log.entries(options),
    requestStats: () => log.tokenStats(),
    clearRequestLog: () => log.clear(),
  };
}
