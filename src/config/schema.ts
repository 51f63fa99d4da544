/**
 * The zod schema of a bot's YAML file, from the human units an operator writes to the exact integers the
 * bot uses (`AppConfig`, see types.ts).
 *
 * Owns: every field, its default and its bounds. Invariants: every object is strict (unknown keys are
 * errors); every default is safe for real money (post-only, loopback metrics, the venue's own rate limits);
 * prices, sizes and amounts are parsed as exact decimals (never through float arithmetic) into ticks and raw
 * integers; cross-field rules (bands that overlap, live needs markets, rate limits within the venue's) are
 * checked here so nothing downstream re-validates them. Durations are written in seconds (`…Sec` keys) and leave
 * here in milliseconds (`…Ms` fields): no other module converts them.
 */
import { rewardsSchema, toRewardsConfig, utcTimeOfDayMs } from './rewards-schema.js';
import { z } from 'zod';
import { pricingSchema, toPricingConfig } from './pricing-schema.js';
import { sharesToRaw, UnitError } from '../core/venue-rules/index.js';
import { band, milliseconds, positiveSeconds, priceBand, seconds, shares, usdc } from './units-schema.js';
import { venueSchema } from './venue-schema.js';
import { everyMarketConfig, marketsSchema, slug } from './markets-schema.js';
import { BOT_TAG_PATTERN, BOT_TAG_RULE } from '../orders/client-order-id.js';
import { RETRY_DEFAULTS } from '../exchange/retry-table.js';
import { looksLikePath } from '../strategy/registry.js';
import { looksLikeCredentialLiteral } from './issues.js';
import { defaultShutdownBudgetMs, marketBound } from './shutdown-budget.js';
import type {
  AppConfig,
  CredentialsConfig,
  MarketRiskOverride,
  OrdersConfig,
  PriceBand,
  SharedRateLimitConfig,
  SizeTolerance,
  VenueConfig,
} from './types.js';

export const DEFAULT_CREDENTIAL_ENV = {
  apiTokenId: 'OM_API_TOKEN_ID',
  apiSecret: 'OM_API_SECRET',
  privateKey: 'OM_PRIVATE_KEY',
} as const;

/** The venue's documented limits (exchange-api.md, Limits). */
export const VENUE_MAX_CONCURRENT = 2;
export const VENUE_MIN_TIME_MS = 300;

/** How often the strategy runner requotes a market with no event (a named default: no YAML key sets it). */
export const REQUOTE_INTERVAL_MS = 5_000;
/**
 * The default of `maintenance.ledgerCheckSec`: the ledger is compared with the venue this often (src/booking/ledger-sync.ts),
 * which rereads the account's balances; a backtest rereads them as often (src/trading/core.ts).
 */
export const LEDGER_CHECK_EVERY_MS = 60_000;

// ---------------------------------------------------------------------------------------------- units

/** The one conversion of the file's `…Sec` durations into AppConfig's milliseconds (used only by the transforms here). */
const ms = (sec: number): number => Math.round(sec * 1000);

// ---------------------------------------------------------------------------------------------- credentials

const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;

/** An environment variable NAME. A value that looks like a secret gets its own message. */
const envName = z.string().superRefine((text, ctx) => {
  if (ENV_NAME.test(text)) return;
  ctx.addIssue({
    code: 'custom',
    input: text,
    params: { secretLiteral: looksLikeCredentialLiteral(text) },
    message: looksLikeCredentialLiteral(text)
      ? 'looks like a secret value: put the secret in an environment variable and write the variable NAME here'
      : 'expected the NAME of an environment variable (A-Z, 0-9, _), e.g. OM_API_SECRET',
  });
});

const credentials = z
  .strictObject({
    apiTokenId: envName.default(DEFAULT_CREDENTIAL_ENV.apiTokenId),
    apiSecret: envName.default(DEFAULT_CREDENTIAL_ENV.apiSecret),
    privateKey: envName.default(DEFAULT_CREDENTIAL_ENV.privateKey),
    onBehalfOf: z.union([z.int().min(1).max(2_147_483_647), envName], { error: 'expected a profile id (integer) or an environment variable NAME' }).optional(),
  })
  .transform(
    (c): CredentialsConfig => ({
      apiTokenId: c.apiTokenId,
      apiSecret: c.apiSecret,
      privateKey: c.privateKey,
      ...(c.onBehalfOf === undefined
        ? {}
        : { onBehalfOf: typeof c.onBehalfOf === 'number' ? { kind: 'id', id: c.onBehalfOf } : { kind: 'env', env: c.onBehalfOf } }),
    }),
  );

// ---------------------------------------------------------------------------------------------- markets

// ---------------------------------------------------------------------------------------------- strategy

const strategy = z.strictObject({
  name: z.string().min(1).max(1000),
  params: z.record(z.string(), z.unknown()).default({}),
});

// ---------------------------------------------------------------------------------------------- orders

const sizeTolerance = z
  .union([z.number(), z.string()], { error: 'expected shares (e.g. 5) or a percentage (e.g. "10%")' })
  .transform((value, ctx): SizeTolerance => {
    if (typeof value === 'string' && value.trim().endsWith('%')) {
      const percent = Number(value.trim().slice(0, -1));
      if (value.trim().length > 1 && Number.isFinite(percent) && percent >= 0 && percent <= 100) return { kind: 'percent', percent };
      ctx.addIssue({ code: 'custom', message: 'expected a percentage between 0% and 100%', input: value });
      return z.NEVER;
    }
    try {
      return { kind: 'raw', raw: sharesToRaw('size', value) };
    } catch (error) {
      if (!(error instanceof UnitError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.reason, input: value });
      return z.NEVER;
    }
  });

const orders = z.strictObject({
  botTag: z.string().regex(BOT_TAG_PATTERN, `expected ${BOT_TAG_RULE}`).default('om'),
  refreshTolerance: z
    .strictObject({
      priceTicks: z.int().min(0).max(998).default(0),
      size: sizeTolerance.prefault('0%'),
    })
    .prefault({}),
  maxOrderAgeSec: seconds(1800),
  filledOrderDelaySec: seconds(10, 86_400),
  postOnly: z.boolean().default(true),
  foreignOrders: z.enum(['ignore', 'cancel'], { error: 'expected "ignore" (leave other bots\' orders alone) or "cancel"' }).default('ignore'),
  /** Removed (several bots may share one account): present only to name its replacement. */
  cancelUnknownOrdersOnStart: z.unknown().optional(),
  recvWindowMs: z.int().min(1).max(10_000).nullable().default(null),
  cancelReplace: z
    .strictObject({
      enabled: z.boolean().default(true),
      batchSize: z.int().min(1).max(50).default(50),
    })
    .prefault({}),
  batchPlacements: z.enum(['auto', 'off'], { error: 'expected "auto" (placements into empty slots as cancel-replace operations, several markets per request) or "off" (one POST /orders each)' }).default('auto'),
  startupListing: z
    .enum(['deferred', 'first'], { error: 'expected "deferred" (a market whose ledger holds no open order of the bot quotes first, its own-order listing follows) or "first" (every market listed before it quotes)' })
    .default('deferred'),
})
  .superRefine((o, ctx) => {
    if (o.cancelUnknownOrdersOnStart === undefined) return;
    ctx.addIssue({
      code: 'custom',
      path: ['cancelUnknownOrdersOnStart'],
      message:
        'removed: use orders.foreignOrders: ignore | cancel (orders of other bot tags in the traded markets; default ignore), and markets.exclusive: true where this bot alone trades its markets',
      input: o.cancelUnknownOrdersOnStart,
    });
  })
  .transform(
    ({ cancelUnknownOrdersOnStart: _removed, maxOrderAgeSec, filledOrderDelaySec, ...rest }): OrdersConfig => ({
      ...rest,
      maxOrderAgeMs: ms(maxOrderAgeSec),
      filledOrderDelayMs: ms(filledOrderDelaySec),
    }),
  );

// ---------------------------------------------------------------------------------------------- risk

const perMarketFields = {
  maxPositionPerToken: shares,
  maxNetPosition: shares,
  maxOpenOrders: z.int().min(1).max(200),
  priceBand: band,
  stopBeforeExpirySec: z.number().min(0).max(86_400 * 365),
};

const marketOverride = z
  .strictObject({
    maxPositionPerToken: perMarketFields.maxPositionPerToken.optional(),
    maxNetPosition: perMarketFields.maxNetPosition.optional(),
    maxOpenOrders: perMarketFields.maxOpenOrders.optional(),
    priceBand: perMarketFields.priceBand.optional(),
    stopBeforeExpirySec: perMarketFields.stopBeforeExpirySec.optional(),
  })
  .transform((o): MarketRiskOverride => ({
    ...(o.maxPositionPerToken === undefined ? {} : { maxPositionPerTokenRaw: o.maxPositionPerToken }),
    ...(o.maxNetPosition === undefined ? {} : { maxNetPositionRaw: o.maxNetPosition }),
    ...(o.maxOpenOrders === undefined ? {} : { maxOpenOrders: o.maxOpenOrders }),
    ...(o.priceBand === undefined ? {} : { priceBand: o.priceBand }),
    ...(o.stopBeforeExpirySec === undefined ? {} : { stopBeforeExpiryMs: ms(o.stopBeforeExpirySec) }),
  }));

const risk = z.strictObject({
  maxPositionPerToken: perMarketFields.maxPositionPerToken.prefault(500),
  maxNetPosition: perMarketFields.maxNetPosition.prefault(250),
  maxOpenOrders: perMarketFields.maxOpenOrders.default(6),
  priceBand: priceBand(0.02, 0.98),
  stopBeforeExpirySec: perMarketFields.stopBeforeExpirySec.default(3600),
  maxNotional: usdc.prefault(1000),
  dailyLossLimit: usdc.prefault(100),
  staleGraceSec: seconds(5, 3600),
  socketDownGraceSec: seconds(10, 3600),
  /** 401/403 answers (REST) or feed refusals in a row, mid-run, after which placements stop (the kill switch trips). */
  maxAuthRefusals: z.number().int().min(1).max(1000).default(5),
  perMarket: z.record(slug, marketOverride).default({}),
});

// ---------------------------------------------------------------------------------------------- the rest

/**
 * rateLimits.shared: one limit per API token across processes through Redis (src/exchange/shared-limiter.ts). `redis`
 * is a redis:// or rediss:// URL without a password, or the NAME of an environment variable holding the URL.
 */
const sharedRateLimit = z
  .strictObject({
    redis: z.string().superRefine((text, ctx) => {
      if (ENV_NAME.test(text)) return;
      if (!/^rediss?:\/\/[^\s/]+/.test(text) || !URL.canParse(text)) {
        ctx.addIssue({ code: 'custom', input: text, message: 'expected a redis:// or rediss:// URL (e.g. redis://127.0.0.1:6379), or the NAME of an environment variable holding it' });
        return;
      }
      if (new URL(text).password !== '') {
        ctx.addIssue({ code: 'custom', input: '[redacted]', params: { secretLiteral: true }, message: 'a URL with a password is a secret: put it in an environment variable and write the variable NAME here' });
      }
    }),
    fallbackShare: z.number().gt(0).max(1).default(1 / 3),
  })
  .transform(
    (s): SharedRateLimitConfig => ({
      redis: ENV_NAME.test(s.redis) ? { kind: 'env', env: s.redis } : { kind: 'url', url: s.redis },
      fallbackShare: s.fallbackShare,
    }),
  );

const rateLimits = z.strictObject({
  shared: sharedRateLimit.nullable().default(null),
  maxConcurrent: z.int().min(1).max(16).default(VENUE_MAX_CONCURRENT),
  // Default above the venue minimum: the venue spaces by ARRIVAL, and network jitter shortens gaps in flight.
  minTimeMs: milliseconds(VENUE_MIN_TIME_MS + 20, 0, 60_000),
  timeoutMs: milliseconds(10_000, 100, 120_000),
  // Defaults from the retry table (src/exchange/retry-table.ts), the one place they are written; the table's 429
  // and 5xx numbers are equal, as the config has one count and one backoff for both.
  retry: z
    .strictObject({
      maxRetries: z.int().min(0).max(10).default(RETRY_DEFAULTS.maxServerErrorRetries),
      initialBackoffMs: milliseconds(RETRY_DEFAULTS.serverErrorBaseMs, 1, 60_000),
      maxBackoffMs: milliseconds(RETRY_DEFAULTS.serverErrorMaxMs, 1, 600_000),
      maxRetryAfterSec: seconds(RETRY_DEFAULTS.maxRetryAfterMs / 1000, 3600),
    })
    .superRefine((r, ctx) => {
      if (r.maxBackoffMs < r.initialBackoffMs) {
        ctx.addIssue({ code: 'custom', path: ['maxBackoffMs'], message: 'must be at least initialBackoffMs', input: r.maxBackoffMs });
      }
    })
    .prefault({}),
});

const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

const rootShape = z.strictObject({
  version: z.literal(1, { error: 'expected 1 (the only config version)' }).default(1),
  venue: venueSchema.prefault({ kind: 'sim' }),
  credentials: credentials.optional(),
  markets: marketsSchema.optional(),
  strategy,
  orders: orders.prefault({}),
  risk: risk.prefault({}),
  rateLimits: rateLimits.prefault({}),
  maintenance: z
    .strictObject({
      pollIntervalSec: positiveSeconds(30, 3600),
      ledgerCheckSec: positiveSeconds(LEDGER_CHECK_EVERY_MS / 1000, 3600),
      // GET /portfolio/history is read this often for changes made outside the bot (src/capital/account-history.ts); 0: never.
      historyPollSec: z.number().min(0).max(86_400).default(600),
    })
    .prefault({}),
  redemption: z
    .strictObject({
      mode: z.enum(['auto', 'off'], { error: 'expected "auto" (redeem through the API; a 403 turns it off) or "off"' }).default('auto'),
      retryInitialSec: positiveSeconds(30, 3600),
      retryMaxSec: positiveSeconds(600, 86_400),
    })
    .superRefine((r, ctx) => {
      if (r.retryMaxSec < r.retryInitialSec) ctx.addIssue({ code: 'custom', path: ['retryMaxSec'], message: 'must be at least retryInitialSec', input: r.retryMaxSec });
    })
    .prefault({}),
  /** On-chain redemption and complete-set merges (src/capital/, docs/settlement.md "Capital"). */
  capital: z
    .strictObject({
      mode: z.enum(['auto', 'off'], { error: 'expected "auto" (redeem and merge on-chain where the API does not redeem) or "off"' }).default('auto'),
      mergeMinSets: shares.prefault(5),
      mergeMinTimeToSettleSec: z.number().min(0).max(86_400).default(120),
      intervalSec: positiveSeconds(5, 3600),
      chainCheckSec: z.number().min(0).max(86_400).default(300),
      ethPriceUsdc: usdc.prefault(3000),
      // The wallet's USDC against the ledger's cash account (docs/settlement.md): a difference at or below this is none.
      chainUsdcTolerance: usdc.prefault(0.01),
      // Flows booked this long before a chain read may not show on the chain yet (matched, not mined; a lagging node).
      chainUsdcInFlightSec: z.number().min(0).max(3600).default(10),
    })
    .prefault({}),
  metrics: z
    .strictObject({
      enabled: z.boolean().default(true),
      host: z.string().regex(/^[A-Za-z0-9.:-]+$/, 'expected an IP address or host name').default('127.0.0.1'),
      port: z.int().min(0).max(65_535).default(9464),
    })
    .prefault({}),
  database: z.strictObject({ path: z.string().min(1).optional() }).prefault({}),
  log: z
    .strictObject({
      level: logLevel.default('info'),
      pretty: z.union([z.boolean(), z.literal('auto')], { error: 'expected true, false or "auto"' }).default('auto'),
      // The status line's period (src/operator/status-line.ts); 0 turns it off.
      statusIntervalSec: z
        .number()
        .min(0)
        .max(86_400)
        .default(60)
        .refine((sec) => sec === 0 || sec >= 1, { error: 'expected 0 (no status line) or at least 1 second' }),
    })
    .prefault({}),
  // budgetMs unset: derived from the markets the config can quote (./shutdown-budget.ts).
  shutdown: z.strictObject({ budgetMs: z.int().min(500).max(300_000).optional(), leaveOrdersResting: z.boolean().default(false) }).prefault({}),
  startup: z.strictObject({ venueTimeoutSec: positiveSeconds(60, 3600) }).prefault({}),
  pricing: pricingSchema.prefault({}),
  // Calibration in the ledger (src/calibration/): offsets before settlement, seconds (50, 30, 10, 5, 1 minutes by default).
  calibration: z
    .strictObject({
      enabled: z.boolean().default(true),
      offsetsSec: z
        .array(z.number().min(1).max(86_400 * 30))
        .min(1)
        .max(20)
        .default([3000, 1800, 600, 300, 60])
        .refine((list) => new Set(list).size === list.length, { error: 'offsets must be distinct' }),
    })
    .prefault({}),
  feed: z
    .strictObject({
      watchdogIntervalSec: positiveSeconds(1, 60),
      quietThresholdSec: positiveSeconds(20, 3600),
      staleAfterSec: positiveSeconds(30, 3600),
      // A market without a book waits this long for the feed's first frame before a REST read (0: REST at once).
      firstBookWaitSec: z.number().min(0).max(60).default(2),
    })
    .prefault({}),
  rewards: rewardsSchema,
});

type RootInput = z.output<typeof rootShape>;

function crossFieldRules(c: RootInput, ctx: z.RefinementCtx): void {
  if (c.venue.kind === 'live') {
    if (c.markets === undefined) {
      ctx.addIssue({ code: 'custom', path: ['markets'], message: 'required for a live venue: slugs, groups or select', input: undefined });
    }
    if (c.rateLimits.maxConcurrent > VENUE_MAX_CONCURRENT) {
      ctx.addIssue({ code: 'custom', path: ['rateLimits', 'maxConcurrent'], message: `the venue allows at most ${VENUE_MAX_CONCURRENT} requests in flight`, input: c.rateLimits.maxConcurrent });
    }
    if (c.rateLimits.minTimeMs < VENUE_MIN_TIME_MS) {
      ctx.addIssue({ code: 'custom', path: ['rateLimits', 'minTimeMs'], message: `the venue requires at least ${VENUE_MIN_TIME_MS} ms between requests`, input: c.rateLimits.minTimeMs });
    }
  }
  const venueBand = c.venue.priceBand;
  const bands: { path: PropertyKey[]; band: PriceBand }[] = [{ path: ['risk', 'priceBand'], band: c.risk.priceBand }];
  for (const [market, override] of Object.entries(c.risk.perMarket)) {
    if (override.priceBand) bands.push({ path: ['risk', 'perMarket', market, 'priceBand'], band: override.priceBand });
  }
  for (const { path, band } of bands) {
    if (Math.max(band.minTicks, venueBand.minTicks) >= Math.min(band.maxTicks, venueBand.maxTicks)) {
      ctx.addIssue({
        code: 'custom',
        path,
        message: `does not overlap the venue's band ${venueBand.minTicks / 1000}–${venueBand.maxTicks / 1000}`,
        input: { min: band.minTicks / 1000, max: band.maxTicks / 1000 },
      });
    }
  }
  if (c.feed.watchdogIntervalSec > c.feed.quietThresholdSec) {
    ctx.addIssue({ code: 'custom', path: ['feed', 'watchdogIntervalSec'], message: 'must not exceed feed.quietThresholdSec', input: c.feed.watchdogIntervalSec });
  }
}

/** How many markets the simulator lists, all of which a sim config without a `markets:` section trades. */
function simMarketCount(v: Extract<RootInput['venue'], { kind: 'sim' }>): number {
  return v.world === 'crypto' ? v.underlying.tickers.length * v.underlying.cadences.length * v.underlying.strikesPerExpiry : v.markets;
}

/** The file's shape → AppConfig: renamed to the unit-named fields, and every `…Sec` duration converted to ms here, once. */
function toAppConfig(c: RootInput, databasePath: string): AppConfig {
  const v = c.venue;
  const venueConfig: VenueConfig =
    v.kind === 'sim'
      ? {
          kind: 'sim',
          seed: v.seed,
          markets: v.markets,
          startingCollateralRaw: v.startingCollateral,
          serverManagedWallet: v.serverManagedWallet,
          ...(v.startBeforeHourSec === undefined ? {} : { startBeforeHourMs: Math.round(v.startBeforeHourSec * 1000) }),
          flow: v.flow,
          settlementDelayMs: v.settlementDelayMs,
          payoutDelayMs: v.payoutDelayMs,
          port: v.port,
          priceBand: v.priceBand,
          units: v.units,
          world: v.world,
          underlying: v.underlying,
          ...(v.feeModel === undefined ? {} : { feeModel: v.feeModel }),
          rewards: {
            ...(v.rewards.enabled === undefined ? {} : { enabled: v.rewards.enabled }),
            scoreIntervalMs: v.rewards.scoreIntervalSec * 1000,
            payoutIntervalMs: v.rewards.payoutIntervalSec * 1000,
            payoutAtUtcMs: utcTimeOfDayMs(v.rewards.payoutTimeUtc),
            ...(v.rewards.minSize === undefined ? {} : { minSizeRaw: v.rewards.minSize }),
            ...(v.rewards.rebateRate === undefined ? {} : { rebateRate: v.rewards.rebateRate }),
          },
        }
      : v;
  const defaultCredentials: CredentialsConfig = { ...DEFAULT_CREDENTIAL_ENV };
  const r = c.risk;
  const { maxRetries, initialBackoffMs, maxBackoffMs, maxRetryAfterSec } = c.rateLimits.retry;
  const markets = c.markets ?? everyMarketConfig(v.kind === 'sim' ? simMarketCount(v) : 1);
  return {
    version: 1,
    venue: venueConfig,
    credentials: c.credentials ?? (v.kind === 'live' ? defaultCredentials : null),
    markets,
    strategy: c.strategy,
    orders: c.orders,
    risk: {
      maxPositionPerTokenRaw: r.maxPositionPerToken,
      maxNetPositionRaw: r.maxNetPosition,
      maxOpenOrders: r.maxOpenOrders,
      priceBand: r.priceBand,
      stopBeforeExpiryMs: ms(r.stopBeforeExpirySec),
      maxNotionalRaw: r.maxNotional,
      dailyLossLimitRaw: r.dailyLossLimit,
      staleGraceMs: ms(r.staleGraceSec),
      socketDownGraceMs: ms(r.socketDownGraceSec),
      maxAuthRefusals: r.maxAuthRefusals,
      perMarket: r.perMarket,
    },
    rateLimits: { ...c.rateLimits, retry: { maxRetries, initialBackoffMs, maxBackoffMs, maxRetryAfterMs: ms(maxRetryAfterSec) } },
    maintenance: { pollIntervalMs: ms(c.maintenance.pollIntervalSec), ledgerCheckMs: ms(c.maintenance.ledgerCheckSec), historyPollMs: Math.round(c.maintenance.historyPollSec * 1000) },
    redemption: { mode: c.redemption.mode, retryInitialMs: ms(c.redemption.retryInitialSec), retryMaxMs: ms(c.redemption.retryMaxSec) },
    capital: {
      mode: c.capital.mode,
      mergeMinSetsRaw: c.capital.mergeMinSets,
      mergeMinTimeToSettleMs: ms(c.capital.mergeMinTimeToSettleSec),
      intervalMs: ms(c.capital.intervalSec),
      chainCheckMs: ms(c.capital.chainCheckSec),
      ethPriceUsdcRaw: c.capital.ethPriceUsdc,
      chainUsdcToleranceRaw: c.capital.chainUsdcTolerance,
      chainUsdcInFlightMs: ms(c.capital.chainUsdcInFlightSec),
    },
    metrics: c.metrics,
    database: { path: databasePath },
    log: { level: c.log.level, pretty: c.log.pretty, statusIntervalMs: ms(c.log.statusIntervalSec) },
    shutdown: { budgetMs: c.shutdown.budgetMs ?? defaultShutdownBudgetMs(marketBound(markets), c.rateLimits.minTimeMs), leaveOrdersResting: c.shutdown.leaveOrdersResting },
    startup: { venueTimeoutMs: ms(c.startup.venueTimeoutSec) },
    pricing: toPricingConfig(c.pricing),
    rewards: toRewardsConfig(c.rewards),
    calibration: { enabled: c.calibration.enabled, offsetsMs: [...c.calibration.offsetsSec].map(ms).sort((a, b) => b - a) },
    feed: { watchdogIntervalMs: ms(c.feed.watchdogIntervalSec), quietThresholdMs: ms(c.feed.quietThresholdSec), staleAfterMs: ms(c.feed.staleAfterSec), firstBookWaitMs: ms(c.feed.firstBookWaitSec) },
  };
}

/**
 * The whole file's schema. `resolvePath` turns the file's relative paths (database, strategy module) into
 * absolute ones; `defaultDatabasePath` is used when the file names none.
 */
export function appConfigSchema(options: { resolvePath: (path: string) => string; defaultDatabasePath: string }) {
  return rootShape.superRefine(crossFieldRules).transform((c): AppConfig => {
    const written = c.database.path;
    const databasePath = written === undefined ? options.defaultDatabasePath : written === ':memory:' ? written : options.resolvePath(written);
    const config = toAppConfig(c, databasePath);
    return isStrategyPath(config.strategy.name)
      ? { ...config, strategy: { ...config.strategy, name: options.resolvePath(config.strategy.name) } }
      : config;
  });
}

/** A strategy given as a module path rather than a registered name (the registry's own rule). */
export function isStrategyPath(name: string): boolean {
  return looksLikePath(name);
}

/** Issue params marking a secret written into the file (see `envName`). */
export function isSecretLiteralParams(params: unknown): boolean {
  return typeof params === 'object' && params !== null && Reflect.get(params, 'secretLiteral') === true;
}
