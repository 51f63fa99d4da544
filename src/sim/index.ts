/**
 * The embedded exchange simulator's entry: `startSimulator(options)` builds the engine (markets, accounts,
 * synthetic traders) and the HTTP + Socket.IO server on 127.0.0.1, registers a deterministic demo account,
 * and returns the URLs, the demo credentials, the engine and the control surface.
 *
 * Used by the bot's paper mode, by tests and by the standalone `sim` command (src/sim/cli.ts).
 * Invariants: one clock (injected or real) drives both engine and server; the same seed gives the same
 * markets and demo credentials; `close()` stops the server, the feed and every engine timer.
 */
import type { EngineObserver, EngineOptions, FeeOptions, MarketSpec, PriceBand, RewardOptions, SimClock, SimEngine, SyntheticOptions } from './engine/index.js';
import { createEngine, generateMarkets } from './engine/index.js';
import { HERMES_BASE_PATH, type HermesOptions, type HermesStandIn } from './server/hermes.js';
import { systemScheduler } from '../core/clock.js';
import { DEFAULT_HEADER_PREFIX } from '../exchange/auth.js';
import { accountSpecOf, apiTokensOf, parseAccountConfig, type AccountConfigInput } from './server/accounts-config.js';
import type { SimControl } from './server/control.js';
import { demoAccount, DEMO_PROFILE_ID, type DemoAccount } from './server/demo-account.js';
import { ApiTokenRegistry } from './server/hmac-verify.js';
import { SPEC_RATE_LIMITS, type RateLimitOptions } from './server/rate-limiter.js';
import { SimHttpServer, type SimServerHooks } from './server/server.js';
import { parseScaled } from '../core/venue-rules/index.js';
import type { SocketBookSizeUnit } from './server/wire-format.js';
import { SettingsInputError, SimSettingsStore, type SimSettings } from './server/settings.js';

export type { DemoAccount } from './server/demo-account.js';
export type { SimControl, SimStateSummary, TradingModeInput } from './server/control.js';
export { ControlError } from './server/control.js';
export type { SimServerHooks } from './server/server.js';
export type { RateLimitOptions } from './server/rate-limiter.js';
export type { AccountConfigInput } from './server/accounts-config.js';
export type { InjectedFrame, FreezeScope, DropKind } from './server/socket-feed.js';
export type { FailureRuleInput, FailureRule } from './server/faults.js';
export type { CancelReplaceFaultInput, CancelReplaceFaultRule } from './server/cancel-replace-faults.js';
export type { SocketBookSizeUnit } from './server/wire-format.js';
export { DEFAULT_SIM_SETTINGS, SettingsInputError, type SimSettings } from './server/settings.js';
export type { RequestLogEntry, TokenRequestStats } from './server/request-log.js';
export { deriveAccountCredentials } from './server/demo-account.js';

export const DEFAULT_SEED = 1;
export const DEFAULT_MARKET_COUNT = 6;
export const DEFAULT_SETTLEMENT_DELAY_MS = 1_000;
export const DEFAULT_DEMO_USDC = '10000';

export interface StartSimulatorOptions {
  /** 0 (default) = a free port. The server binds 127.0.0.1 only. */
  readonly port?: number;
  readonly seed?: number;
  /** Real time by default; tests inject a ManualClock. */
  readonly clock?: SimClock;
  /** A count of generated markets (default 6, the last ones a NegRisk group) or explicit specs. */
  readonly markets?: number | readonly MarketSpec[];
  /** Accounts besides the demo account. */
  readonly accounts?: readonly AccountConfigInput[];
  /** The demo account: profile id (default 1) and starting USDC in units (default 10000). */
  /** The demo account; `serverManagedWallet` (default false: externally owned, as the going-live guide's wallet) decides whether POST /portfolio/redeem accepts it (else 403). */
  readonly demo?: { readonly profileId?: number; readonly usdc?: string | number; readonly feeRateBps?: number; readonly serverManagedWallet?: boolean };
  /** HMAC header prefix (default the live venue's `lmts`, so a live config is rehearsed unchanged; `svc` is the specification's). */
  readonly headerPrefix?: string;
  /** Partial overrides of the spec's limits (2 concurrent, 300 ms); `false` turns them off. */
  readonly rateLimit?: Partial<RateLimitOptions> | false;
  /**
   * The rate limit allows for this process's own event-loop stalls (src/sim/server/loop-lateness.ts): for the simulator
   * embedded in the bot, which shares the bot's loop. Wall clock only; default off.
   */
  readonly forgiveOwnStalls?: boolean;
  /** MATCHED → MINED delay (default 1000 ms). */
  readonly settlementDelayMs?: number;
  /** Resolution → payout posted delay (engine default 5000 ms). */
  readonly payoutDelayMs?: number;
  /** Synthetic traders; off when absent or false. */
  readonly synthetic?: SyntheticOptions | false;
  /** Taker fees: `{model: 'curve' | 'flat', curve?}` (engine fees.ts); the curve by default in the crypto world, flat elsewhere. */
  readonly fees?: FeeOptions;
  /** Liquidity rewards and maker rebates: `{enabled, scoreIntervalSec (60), payoutIntervalSec (86400), rules}` (engine rewards.ts). */
  readonly rewards?: RewardOptions;
  /**
   * The crypto world (src/sim/engine/underlying.ts): simulated underlyings and recurring strike markets on them, listed
   * beside `markets` (which then default to none), resolved by the Pyth rule, priced in `oraclePriceData` frames.
   */
  readonly world?: EngineOptions['world'];
  /** The Pyth Hermes stand-in under `/hermes` (API key, rate limit, stream length): src/sim/server/hermes.ts. */
  readonly hermes?: Partial<HermesOptions>;
  readonly priceBand?: PriceBand;
  /** EIP-712 domain name (default 'Limitless CTF Exchange') and chain id (8453). */
  readonly domainName?: string;
  readonly chainId?: number;
  readonly bodyLimitBytes?: number;
  readonly feedCoalesceMs?: number;
  /**
   * Unit of socket `orderbookUpdate` level sizes: `shares` (default: the only source describing the live socket says
   * shares) or `raw` (1e6 integers, as the live REST book). Switchable at run time (`PUT /_sim/socket/book-size-unit`).
   */
  readonly socketBookSizeUnit?: SocketBookSizeUnit;
  /**
   * Venue behaviours the live venue has not confirmed (lifecycle auth, who gets marketResolved, mixed-market
   * cancel-replace batches, an unknown cancel target): src/sim/server/settings.ts. Changeable at run time.
   */
  readonly settings?: Partial<SimSettings>;
  readonly hooks?: SimServerHooks;
  readonly engineObserver?: EngineObserver;
}

export interface RunningSimulator {
  readonly port: number;
  readonly baseUrl: string;
  /** Connect Socket.IO to `${socketUrl}/markets` (transport websocket). */
  readonly socketUrl: string;
  readonly headerPrefix: string;
  /** Base URL of the Pyth Hermes stand-in (`<baseUrl>/hermes`): give it to a HermesClient. */
  readonly hermesUrl: string;
  readonly hermes: HermesStandIn;
  readonly demoAccount: DemoAccount;
  readonly engine: SimEngine;
  readonly control: SimControl;
  readonly clock: SimClock;
  close(): Promise<void>;
}

export class SimulatorConfigError extends Error {
  override readonly name = 'SimulatorConfigError';
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${field}: ${reason} (got ${JSON.stringify(value)})`);
  }
}

function rateLimitOf(option: StartSimulatorOptions['rateLimit']): RateLimitOptions {
  if (option === false) return { ...SPEC_RATE_LIMITS, enabled: false };
  return { ...SPEC_RATE_LIMITS, ...option };
}

export async function startSimulator(options: StartSimulatorOptions = {}): Promise<RunningSimulator> {
  const seed = options.seed ?? DEFAULT_SEED;
  if (!Number.isSafeInteger(seed)) throw new SimulatorConfigError('seed', seed, 'must be an integer');
  const clock = options.clock ?? systemScheduler;
  const markets =
    options.markets === undefined && options.world !== undefined
      ? []
      : typeof options.markets === 'number' || options.markets === undefined
        ? generateMarkets(options.markets ?? DEFAULT_MARKET_COUNT, seed, clock.now())
        : [...options.markets];

  if (options.settings !== undefined) {
    try {
      new SimSettingsStore(options.settings);
    } catch (error) {
      if (error instanceof SettingsInputError) throw new SimulatorConfigError(`settings.${error.field}`, error.value, error.reason);
      throw error;
    }
  }

  const demo = demoAccount(seed, options.demo?.profileId ?? DEMO_PROFILE_ID);
  const demoUsdc = options.demo?.usdc ?? DEFAULT_DEMO_USDC;
  const configs = (options.accounts ?? []).map((input, i) => parseAccountConfig(input, `accounts[${i}]`));
  for (const config of configs) {
    if (config.profileId === demo.profileId) throw new SimulatorConfigError('accounts.profileId', config.profileId, 'is the demo account profile id; choose another or move the demo with demo.profileId');
  }
  const tokens = new ApiTokenRegistry([
    { tokenId: demo.tokenId, secret: demo.secret, scopes: demo.scopes, profileId: demo.profileId },
    ...configs.flatMap(apiTokensOf),
  ]);
  const engine = createEngine({
    seed,
    clock,
    settlementDelayMs: options.settlementDelayMs ?? DEFAULT_SETTLEMENT_DELAY_MS,
    ...(options.payoutDelayMs === undefined ? {} : { payoutDelayMs: options.payoutDelayMs }),
    markets,
    accounts: [
      {
        profileId: demo.profileId,
        address: demo.address,
        usdcRaw: parseScaled('demo.usdc', demoUsdc, 6),
        serverManagedWallet: options.demo?.serverManagedWallet ?? false,
        ...(options.demo?.feeRateBps === undefined ? {} : { feeRateBps: options.demo.feeRateBps }),
      },
      ...configs.map(accountSpecOf),
    ],
    ...(options.synthetic === undefined || options.synthetic === false ? {} : { synthetic: options.synthetic }),
    ...(options.world === undefined ? {} : { world: options.world }),
    ...(options.fees === undefined ? {} : { fees: options.fees }),
    ...(options.rewards === undefined ? {} : { rewards: options.rewards }),
    ...(options.priceBand === undefined ? {} : { priceBand: options.priceBand }),
    ...(options.engineObserver === undefined ? {} : { observer: options.engineObserver }),
  });

  const headerPrefix = options.headerPrefix ?? DEFAULT_HEADER_PREFIX;
  const server = new SimHttpServer({
    engine,
    clock,
    tokens,
    headerPrefix,
    rateLimit: rateLimitOf(options.rateLimit),
    signing: { ...(options.domainName === undefined ? {} : { domainName: options.domainName }), ...(options.chainId === undefined ? {} : { chainId: options.chainId }) },
    ...(options.bodyLimitBytes === undefined ? {} : { bodyLimitBytes: options.bodyLimitBytes }),
    ...(options.feedCoalesceMs === undefined ? {} : { feedCoalesceMs: options.feedCoalesceMs }),
    ...(options.socketBookSizeUnit === undefined ? {} : { socketBookSizeUnit: options.socketBookSizeUnit }),
    ...(options.hooks === undefined ? {} : { hooks: options.hooks }),
    ...(options.hermes === undefined ? {} : { hermes: options.hermes }),
    ...(options.settings === undefined ? {} : { settings: options.settings }),
    ...(options.forgiveOwnStalls === undefined ? {} : { forgiveOwnStalls: options.forgiveOwnStalls }),
  });
  let running;
  try {
    running = await server.listen(options.port ?? 0);
  } catch (error) {
    engine.stop();
    throw error;
  }
  let closed = false;
  return {
    port: running.port,
    baseUrl: running.baseUrl,
    socketUrl: running.socketUrl,
    headerPrefix,
    hermesUrl: `${running.baseUrl}${HERMES_BASE_PATH}`,
    hermes: server.hermes,
    demoAccount: demo,
    engine,
    control: running.control,
    clock,
    async close() {
      if (closed) return;
      closed = true;
      await running.close();
      engine.stop();
    },
  };
}
