/**
 * The validated, resolved configuration of one bot instance (`AppConfig`): what every other module reads.
 *
 * Owns: the shape and units of the parsed config. The YAML file is written in human units (prices like
 * 0.02, sizes in shares, USDC amounts); the parsed config holds exact integers whose field names carry the
 * unit: `…Ticks` (1 tick = 0.001), `…Raw` (1e6 = one share or one USDC). Every duration is in milliseconds
 * (`…Ms`): the file's `…Sec` keys are converted once, where the config is loaded (src/config/schema.ts
 * `toAppConfig`), and nowhere else. Relative paths are already absolute. The object is deeply frozen.
 *
 * Invariants: no secret value is ever part of the config (credentials are environment-variable NAMES);
 * every band has minTicks < maxTicks; a live venue always has credentials and explicit markets.
 */
import type { RewardsConfig } from './rewards-schema.js';
import type { ChainConfig } from './chain-schema.js';
import type { PricingConfig } from './pricing-schema.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** An inclusive band of prices in integer ticks, minTicks < maxTicks, both in [1, 999]. */
export interface PriceBand {
  readonly minTicks: number;
  readonly maxTicks: number;
}

/**
 * Synthetic traders of the simulator. Fields left out of the file are undefined here and take the
 * simulator's own defaults (docs/sim-engine.md), which live in the simulator and nowhere else.
 */
export interface SimFlowConfig {
  /** Synthetic traders on/off. Off: the books hold only the bot's own orders. */
  readonly enabled: boolean;
  /** Interval between synthetic steps. */
  readonly stepMs?: number;
  /** Log-odds volatility per sqrt(hour) of the hidden fair value. */
  readonly volatilityPerSqrtHour?: number;
  /** Expected fair-value jumps per hour. */
  readonly jumpsPerHour?: number;
  /** Levels the passive synthetic makers quote on each side. */
  readonly makerLevels?: number;
  /** Distance of the synthetic makers' first level from the fair value, ticks. */
  readonly makerSpreadTicks?: number;
  /** Size of each synthetic maker level, raw. */
  readonly makerSizeRaw?: number;
  /** Expected noise (uninformed) taker orders per minute per market. */
  readonly noiseTakersPerMinute?: number;
  /** Expected looks at the book per minute per market by the informed taker. */
  readonly informedTakersPerMinute?: number;
}

/** The embedded exchange simulator (paper trading). It listens on 127.0.0.1 only. */
export interface SimVenueConfig {
  readonly kind: 'sim';
  /** Seed of every random choice of the simulator: the same seed replays the same session. */
  readonly seed: number;
  /** How many synthetic markets the simulator lists. */
  readonly markets: number;
  /** USDC balance of the bot's generated wallet at start, raw (1e6 = 1 USDC). */
  readonly startingCollateralRaw: number;
  /** The demo wallet is server-managed (the API redeems for it); false (default): externally owned, redeemed on-chain. */
  readonly serverManagedWallet: boolean;
  /** Absent: real time. Else the session's clock (simulator and bot) starts this long before the next UTC hour (src/venue/session-clock.ts). */
  readonly startBeforeHourMs?: number;
  readonly flow: SimFlowConfig;
  /** Delay between a match (MATCHED) and its settlement (MINED). */
  readonly settlementDelayMs: number;
  /** Delay between a market's resolution and its payout posted on-chain (redemptions wait for it). */
  readonly payoutDelayMs: number;
  /** Port of the simulator's HTTP + Socket.IO server on 127.0.0.1 (0 = any free port). */
  readonly port: number;
  /** Prices the simulated venue accepts. */
  readonly priceBand: PriceBand;
  /** 'crypto': recurring strike markets on simulated underlyings, like the live venue; 'generic': long-dated markets. */
  readonly world: 'generic' | 'crypto';
  readonly underlying: {
    readonly tickers: readonly ('BTC' | 'ETH' | 'SOL' | 'XRP')[];
    readonly cadences: readonly ('15m' | 'hourly' | 'daily' | 'weekly')[];
    readonly strikesPerExpiry: number;
    readonly informedLeadMs: number;
    readonly makerLagMs: number;
  };
  /** Units of the socket feed's sizes (see SocketUnitsConfig). */
  readonly units: SocketUnitsConfig;
  /** Taker fees: the venue's dynamic curve or the flat signed rate; absent: the simulator's default (curve in the crypto world). */
  readonly feeModel?: 'curve' | 'flat';
  readonly rewards: SimRewardsConfig;
}

/** The simulator's liquidity rewards and maker rebates (src/sim/engine/rewards.ts). */
export interface SimRewardsConfig {
  /** Absent: the simulator's default (on in the crypto world). */
  readonly enabled?: boolean;
  /** Between scoring rounds (the venue: a minute). */
  readonly scoreIntervalMs: number;
  /** Between payouts into the account's USDC (the venue: a day). */
  readonly payoutIntervalMs: number;
  /** The time of day (ms after 00:00 UTC) the payouts fall on (the venue: 22:30 UTC). */
  readonly payoutAtUtcMs: number;
  /** Crypto world: the markets' reward minimum size, raw (recorded: 100 shares). */
  readonly minSizeRaw?: number;
  /** Crypto world: the markets' maker rebate rate, a fraction of the taker fee (the simulator's guess: 0.2). */
  readonly rebateRate?: number;
}

/** `auto` (default): settled from evidence (src/book/size-units.ts); `raw`: 1e6 integers; `shares`: whole units. */
export interface SocketUnitsConfig {
  readonly socketBookSize: 'auto' | 'raw' | 'shares';
  readonly socketAmounts: 'auto' | 'raw' | 'shares';
  /** GET /portfolio/history amounts: `auto` (default) detected from each page's shape; `raw` 1e6 integers; `decimal` human units. */
  readonly historyAmounts: 'auto' | 'raw' | 'decimal';
}

/** The real exchange. */
export interface LiveVenueConfig {
  readonly kind: 'live';
  /** REST base URL, no trailing slash. */
  readonly baseUrl: string;
  /** Socket.IO URL (the `/markets` namespace is appended by the client). */
  readonly socketUrl: string;
  /** Socket.IO namespace of the market feed. */
  readonly socketNamespace: string;
  /** Prefix of the three HMAC headers: `{prefix}-api-key`, `{prefix}-timestamp`, `{prefix}-signature`. */
  readonly headerPrefix: string;
  /** EIP-712 domain chainId. */
  readonly chainId: number;
  /** EIP-712 domain name. */
  readonly eip712DomainName: string;
  /** Order `signatureType`: 0 EOA, 1 POLY_PROXY, 2 POLY_GNOSIS_SAFE, 3 (accepted by the API, meaning unconfirmed). */
  readonly signatureType: 0 | 1 | 2 | 3;
  /** Prices the venue accepts for GTC orders. */
  readonly priceBand: PriceBand;
  /** Units of the socket feed's sizes (see SocketUnitsConfig). */
  readonly units: SocketUnitsConfig;
  /** The chain side: RPC endpoint, USDC and conditional-token contracts, the contracts to approve (`approve`, `doctor`). */
  readonly chain: ChainConfig;
}

export type VenueConfig = SimVenueConfig | LiveVenueConfig;

/** Names of environment variables (never values). Resolve with `resolveSecrets`. */
export interface CredentialsConfig {
  readonly apiTokenId: string;
  readonly apiSecret: string;
  readonly privateKey: string;
  /** Managed sub-account profile id: a literal id, or the name of an environment variable holding it. */
  readonly onBehalfOf?: { readonly kind: 'id'; readonly id: number } | { readonly kind: 'env'; readonly env: string };
}

/**
 * How newcomers of `markets.select` are ranked: `dailyReward` (the largest reward pool first, then nearest the money)
 * or `nearestTheMoney` (the model's fair value closest to 0.5 first, then the largest reward). Either way, then the
 * soonest settlement, then the slug (src/markets/market-selection.ts).
 */
export type MarketRanking = 'dailyReward' | 'nearestTheMoney';

/** How often a recurring market is listed anew, i.e. its lifetime (src/markets/market-selection.ts `cadenceOf`). */
export type MarketCadence = '15m' | 'hourly' | 'daily' | 'weekly';

/** The rules of `markets.select`: which listed markets a process joins, and how many (src/markets/market-selection.ts). */
export interface MarketSelector {
  /** At most this many markets added by the rules (named slugs and group members not counted); null: no count of its own. */
  readonly top: number | null;
  /** The most markets one process quotes, named ones included, in the stated priority; null: no cap but `top`. */
  readonly max: number | null;
  readonly by: MarketRanking;
  readonly rewardableOnly: boolean;
  /** Skip markets whose daily reward pool is below this, raw USDC. */
  readonly minDailyRewardRaw: number;
  /** Underlyings (upper case) of markets the model prices; null: any market. */
  readonly tickers: readonly string[] | null;
  /** Cadences to join; null: any (an unknown cadence included). */
  readonly cadences: readonly MarketCadence[] | null;
  /** Join a market only once it settles within this; null: as soon as it is listed. */
  readonly joinBeforeSettlementMs: number | null;
  /** The band of the model's fair value a market joins in (ticks, inclusive); null: no bound on that side. */
  readonly minFairTicks: number | null;
  readonly maxFairTicks: number | null;
  /** A joined market leaves the fair band only once it is beyond it by more than this (ticks). */
  readonly fairHysteresisTicks: number;
}

/** How the run-time discovery loop learns about new markets (src/markets/market-discovery.ts). */
export interface MarketDiscoveryConfig {
  /** The slow poll of GET /markets/active. */
  readonly pollIntervalMs: number;
  /** Subscribe to the venue's market lifecycle channel (marketCreated, marketResolved). */
  readonly lifecycleEvents: boolean;
  /**
   * How far the venue's clock may run ahead of ours: a market listed at least this long after the run started (and with
   * no open order in the ledger) is joined without listing its orders (src/markets/join-evidence.ts).
   */
  readonly clockMarginMs: number;
}

export interface MarketsConfig {
  /** Exact market slugs. */
  readonly slugs: readonly string[];
  /** Group slugs, expanded to their submarkets. */
  readonly groups: readonly string[];
  /** Markets chosen from the venue's active list by rules; null when not used. */
  readonly select: MarketSelector | null;
  /** Slugs never traded, whatever the lines above select. */
  readonly exclude: readonly string[];
  /**
   * True when this bot alone trades its markets on this account (no other bot or person): shutdown may then use
   * `DELETE /orders/all/{slug}` and the ledger check repairs positions from the account's balances. Default false:
   * cancels go by the bot's own order ids and account balances are only reported.
   */
  readonly exclusive: boolean;
  readonly discovery: MarketDiscoveryConfig;
}

export interface StrategyConfig {
  /** A registered strategy name (`fixed-spread`, …) or an absolute path to a strategy module. */
  readonly name: string;
  /** Parameters, validated by the strategy's own schema (`validateStrategy`). */
  readonly params: Readonly<Record<string, unknown>>;
}

export type SizeTolerance = { readonly kind: 'raw'; readonly raw: number } | { readonly kind: 'percent'; readonly percent: number };

export interface OrdersConfig {
  /** Prefix of every clientOrderId (`<botTag>-<market key>-<slot>-<seq>`): [a-z0-9], 1–12 characters. */
  readonly botTag: string;
  /** A live order is kept (not replaced) while its price and size stay within these of the new quote. */
  readonly refreshTolerance: { readonly priceTicks: number; readonly size: SizeTolerance };
  /** Replace an order older than this even if unchanged (0 = never). */
  readonly maxOrderAgeMs: number;
  /** After a fill in a market, wait this long before quoting that market again. */
  readonly filledOrderDelayMs: number;
  /** Default of `postOnly` for intents that do not say. */
  readonly postOnly: boolean;
  /**
   * Orders in the traded markets that are not this bot's (another bot tag, or no clientOrderId): 'ignore' leaves
   * them alone (counted and logged), 'cancel' cancels them at start-up and resync. Never adopted or booked.
   */
  readonly foreignOrders: 'ignore' | 'cancel';
  /** Receive window sent with placements (1–10,000 ms); null = not sent. */
  readonly recvWindowMs: number | null;
  /**
   * Requote a changed slot with one cancel-replace operation; `batchSize` operations at most per request (several
   * markets' operations share a request: src/orders/cross-market-venue.ts).
   */
  readonly cancelReplace: { readonly enabled: boolean; readonly batchSize: number };
  /**
   * `auto`: placements into empty slots go as cancel-replace operations too (cancel target: the new order's own
   * clientOrderId, ALLOW_FAILURE), gathered across markets; a venue refusing that turns it off for good. `off`: one
   * POST /orders per placement.
   */
  readonly batchPlacements: 'auto' | 'off';
  /**
   * When a market's own orders are listed (`GET /markets/{slug}/user-orders`, one request per market: the venue has
   * no account-wide listing) at start-up and when it is joined. `deferred`: a market whose ledger holds no open
   * (live, pending or unknown) order of the bot quotes at once and is listed afterwards at the lowest priority; what
   * the listing finds of the bot's is adopted or canceled as at start-up. Markets with such orders are listed first.
   * `first`: every market is listed before it quotes. See docs/order-manager.md "Start-up listing".
   */
  readonly startupListing: 'deferred' | 'first';
}

/** Per-market limits, after applying `risk.perMarket` overrides (see `riskLimitsFor`). */
export interface MarketRiskLimits {
  /** Largest holding of either token (YES or NO), raw shares, counting open BUYs and unknown orders. */
  readonly maxPositionPerTokenRaw: number;
  /** Largest |YES − NO| holding, raw shares. */
  readonly maxNetPositionRaw: number;
  /** Most open orders at once in the market. */
  readonly maxOpenOrders: number;
  /** Where the bot is willing to quote, in ticks (intersected with the venue's band by `effectivePriceBand`). */
  readonly priceBand: PriceBand;
  /** Stop quoting (and cancel) this long before the market's expiry. */
  readonly stopBeforeExpiryMs: number;
}

export type MarketRiskOverride = Partial<MarketRiskLimits>;

export interface RiskConfig extends MarketRiskLimits {
  /** Total USDC at risk across markets (position cost + collateral of open and unknown BUYs), raw. */
  readonly maxNotionalRaw: number;
  /** Realized + unrealized loss since 00:00 UTC that engages the kill switch, raw USDC (positive). */
  readonly dailyLossLimitRaw: number;
  /** A market whose book is stale keeps its orders this long, then they are canceled. */
  readonly staleGraceMs: number;
  /** After the socket drops, orders stay this long; then everything is canceled until it is back. */
  readonly socketDownGraceMs: number;
  /** 401/403 answers or feed refusals in a row, mid-run, after which placements stop (the kill switch trips). */
  readonly maxAuthRefusals: number;
  /** Per-market overrides of the per-market limits, by exact slug. */
  readonly perMarket: Readonly<Record<string, MarketRiskOverride>>;
}

export interface RetryConfig {
  /** Retries after the first attempt (only 425 receive-window, 429, 5xx; never a placement of unknown outcome). */
  readonly maxRetries: number;
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  /** Longest Retry-After the client honours before giving up on the request. */
  readonly maxRetryAfterMs: number;
}

/** One rate limit per API token across processes, through Redis (docs/rate-limits.md). */
export interface SharedRateLimitConfig {
  /** The Redis URL, or the environment variable holding it. */
  readonly redis: { readonly kind: 'url'; readonly url: string } | { readonly kind: 'env'; readonly env: string };
  /** Share of the budget one process uses while Redis is unreachable, in (0, 1]. */
  readonly fallbackShare: number;
}

export interface RateLimitsConfig {
  /** Cross-process limiter; null = this process limits only itself. */
  readonly shared: SharedRateLimitConfig | null;
  /** Requests in flight at once, per credentials (venue limit: 2). */
  readonly maxConcurrent: number;
  /** Minimum time between request starts (venue limit: 300 ms). */
  readonly minTimeMs: number;
  /** Per-request timeout. */
  readonly timeoutMs: number;
  readonly retry: RetryConfig;
}

export interface MaintenanceConfig {
  /** How often `GET /maintenance/status` is polled. */
  readonly pollIntervalMs: number;
  /**
   * How often the ledger is compared with the venue's account (src/booking/ledger-sync.ts), which also rereads the
   * balances: a side the wallet could not fund stays out of quoting until then (src/risk/balance-shortfall.ts).
   */
  readonly ledgerCheckMs: number;
  /** How often GET /portfolio/history is read for outside changes (src/capital/account-history.ts); 0: never. */
  readonly historyPollMs: number;
}

export interface RedemptionConfig {
  /** 'auto': redeem resolved markets' winnings through the API (server-managed wallets; a 403 turns it off); 'off': never. */
  readonly mode: 'auto' | 'off';
  /** First wait before retrying a redemption the venue cannot do yet (payout not posted); doubles up to retryMaxMs. */
  readonly retryInitialMs: number;
  readonly retryMaxMs: number;
}

/** On-chain capital (src/capital/): redemption for a wallet the API does not redeem for, complete-set merges, the chain check. */
export interface CapitalConfig {
  /** 'auto': redeem on-chain when the API does not (an externally owned wallet) and merge complete sets; 'off': never. */
  readonly mode: 'auto' | 'off';
  /** Complete sets (raw) below which a merge is not worth a transaction. */
  readonly mergeMinSetsRaw: number;
  /** No merge closer than this to the market's settlement (the redemption frees the sets soon after). */
  readonly mergeMinTimeToSettleMs: number;
  /** How often the capital core looks for work. */
  readonly intervalMs: number;
  /** How often the ledger's holdings are checked against the chain; 0: never. */
  readonly chainCheckMs: number;
  /** Raw USDC per ETH: the gas's USDC figure in the ledger. */
  readonly ethPriceUsdcRaw: number;
  /** The wallet's USDC against the ledger's cash account: a difference at or below this is none (raw). */
  readonly chainUsdcToleranceRaw: number;
  /** Flows booked this long before a chain read may not show on the chain yet (ms). */
  readonly chainUsdcInFlightMs: number;
}

export interface MetricsConfig {
  /** Serve /metrics, /healthz, /readyz and the resume control endpoint. */
  readonly enabled: boolean;
  readonly host: string;
  /** 0 = any free port (the control file records the real one). */
  readonly port: number;
}

export interface DatabaseConfig {
  /** Absolute path of the SQLite ledger, or `:memory:`. */
  readonly path: string;
}

export interface LogConfig {
  readonly level: LogLevel;
  /** Human-readable output: 'auto' = when stdout is a terminal. */
  readonly pretty: boolean | 'auto';
  /** How often the status line is logged (src/operator/status-line.ts); 0 = never. From `log.statusIntervalSec`. */
  readonly statusIntervalMs: number;
}

export interface ShutdownConfig {
  /** Time allowed for stop → cancel → flush before the process exits anyway. */
  readonly budgetMs: number;
  /** On shutdown, leave orders on the book instead of canceling them. */
  readonly leaveOrdersResting: boolean;
}

export interface StartupConfig {
  /** How long start-up waits for a venue that gives no answer at all (refused, DNS, timeouts) before failing. */
  readonly venueTimeoutMs: number;
}

export interface FeedConfig {
  /** How often the feed watchdog looks at the books. */
  readonly watchdogIntervalMs: number;
  /** No frame at all for this long while connected = frozen feed: resubscribe and refetch snapshots. */
  readonly quietThresholdMs: number;
  /** A market's book not refreshed for this long is stale (risk.staleGraceMs then applies). */
  readonly staleAfterMs: number;
  /** A market without a book waits this long for the feed's first frame (a full book) before a REST read; 0: at once. */
  readonly firstBookWaitMs: number;
}

/** Calibration in the ledger (src/calibration/, docs/ledger.md#calibration). */
export interface CalibrationConfig {
  /** Take the model's and the book mid's predictions before each priced market's settlement, and score them. */
  readonly enabled: boolean;
  /** How long before the settlement instant each prediction is taken, ms, longest first. */
  readonly offsetsMs: readonly number[];
}

export interface AppConfig {
  readonly version: 1;
  readonly venue: VenueConfig;
  /** null on the simulator without credentials: a wallet and API token are generated for the session. */
  readonly credentials: CredentialsConfig | null;
  readonly markets: MarketsConfig;
  readonly strategy: StrategyConfig;
  readonly orders: OrdersConfig;
  readonly risk: RiskConfig;
  readonly rateLimits: RateLimitsConfig;
  readonly maintenance: MaintenanceConfig;
  readonly redemption: RedemptionConfig;
  readonly capital: CapitalConfig;
  readonly metrics: MetricsConfig;
  readonly database: DatabaseConfig;
  readonly log: LogConfig;
  readonly shutdown: ShutdownConfig;
  readonly startup: StartupConfig;
  readonly feed: FeedConfig;
  /** Pricing crypto strike markets from their underlying (src/config/pricing-schema.ts, docs/pricing.md). */
  readonly pricing: PricingConfig;
  /** Estimated rewards and rebates, and the venue's own figures (src/config/rewards-schema.ts, docs/rewards.md). */
  readonly rewards: RewardsConfig;
  readonly calibration: CalibrationConfig;
}
