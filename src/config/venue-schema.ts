/**
 * The `venue:` section of a bot's YAML file: the embedded simulator (`kind: sim`, its markets, flow and rewards) or
 * the live exchange (`kind: live`, its URLs, header prefix, socket units and chain). Part of the config schema
 * (schema.ts), which converts the parsed section into AppConfig's VenueConfig.
 *
 * Owns: the section's fields, defaults and bounds. Invariants: every object is strict; URLs are checked for their
 * scheme; `kind` selects exactly one shape.
 */
import { z } from 'zod';
import { LIVE_HEADER_PREFIX } from '../exchange/auth.js';
import { chainSchema } from './chain-schema.js';
import { DEFAULT_PAYOUT_TIME_UTC } from './rewards-schema.js';
import type { SimFlowConfig } from './types.js';
import { milliseconds, priceBand, shares, usdc } from './units-schema.js';

const flow = z
  .strictObject({
    enabled: z.boolean().default(true),
    stepMs: z.int().min(10).max(3_600_000).optional(),
    volatilityPerSqrtHour: z.number().min(0).max(20).optional(),
    jumpsPerHour: z.number().min(0).max(600).optional(),
    makerLevels: z.int().min(1).max(20).optional(),
    makerSpreadTicks: z.int().min(1).max(400).optional(),
    makerSize: shares.optional(),
    noiseTakersPerMinute: z.number().min(0).max(600).optional(),
    informedTakersPerMinute: z.number().min(0).max(600).optional(),
  })
  .transform(
    (f): SimFlowConfig => ({
      enabled: f.enabled,
      ...(f.stepMs === undefined ? {} : { stepMs: f.stepMs }),
      ...(f.volatilityPerSqrtHour === undefined ? {} : { volatilityPerSqrtHour: f.volatilityPerSqrtHour }),
      ...(f.jumpsPerHour === undefined ? {} : { jumpsPerHour: f.jumpsPerHour }),
      ...(f.makerLevels === undefined ? {} : { makerLevels: f.makerLevels }),
      ...(f.makerSpreadTicks === undefined ? {} : { makerSpreadTicks: f.makerSpreadTicks }),
      ...(f.makerSize === undefined ? {} : { makerSizeRaw: f.makerSize }),
      ...(f.noiseTakersPerMinute === undefined ? {} : { noiseTakersPerMinute: f.noiseTakersPerMinute }),
      ...(f.informedTakersPerMinute === undefined ? {} : { informedTakersPerMinute: f.informedTakersPerMinute }),
    }),
  );

/**
 * Units of the socket feed's sizes (no capture of the live venue's socket exists): `auto` settles them from evidence
 * (book sizes against the REST book, amounts against the bot's own order sizes; src/book/size-units.ts).
 */
const unitSetting = z.enum(['auto', 'raw', 'shares'], { error: 'expected auto, raw or shares' });
const socketUnits = z.strictObject({
  socketBookSize: unitSetting.default('auto'),
  socketAmounts: unitSetting.default('auto'),
  // GET /portfolio/history's amounts (no recorded answer): `auto` detects them from each page's shape (src/exchange/history-amounts.ts).
  historyAmounts: z.enum(['auto', 'raw', 'decimal'], { error: 'expected auto, raw or decimal' }).default('auto'),
});

/**
 * The simulator's liquidity rewards and maker rebates (src/sim/engine/rewards.ts): scoring and payout cycles (the
 * venue's: a minute and a day; paper runs shorten them so a short run sees a payout), and, for the crypto world's
 * markets, the reward minimum size and the rebate rate where they differ from the recorded / guessed defaults.
 */
const simRewards = z.strictObject({
  enabled: z.boolean().optional(),
  scoreIntervalSec: z.int().min(1).max(604_800).default(60),
  payoutIntervalSec: z.int().min(1).max(604_800).default(86_400),
  // The venue pays daily at 22:30 UTC (its user guide); payouts fall on this time of day plus whole intervals.
  payoutTimeUtc: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (UTC), e.g. "22:30"')
    .default(DEFAULT_PAYOUT_TIME_UTC),
  minSize: shares.optional(),
  rebateRate: z.number().min(0).max(1).optional(),
});

const simVenue = z.strictObject({
  kind: z.literal('sim'),
  seed: z.int().min(0).max(2 ** 32 - 1).default(1),
  markets: z.int().min(1).max(200).default(3),
  startingCollateral: usdc.prefault(1000),
  /**
   * false (default): the demo wallet is externally owned, as the going-live guide's: the API redeem is refused (403)
   * and winnings come back on-chain (docs/settlement.md). true: a server-managed wallet the API redeems for.
   */
  serverManagedWallet: z.boolean().default(false),
  /**
   * Absent: the session runs on the real clock. N: the embedded simulator and the bot share a clock that starts N
   * seconds before the next UTC hour boundary (a paper demo or a test sees an hour's settlement in seconds:
   * src/venue/session-clock.ts, docs/settlement.md).
   */
  startBeforeHourSec: z.number().min(1).max(3599).optional(),
  flow: flow.prefault({}),
  settlementDelayMs: milliseconds(500, 0, 600_000),
  /** A resolved market's payout is posted on-chain this long after its resolution (redemptions wait for it). */
  payoutDelayMs: milliseconds(5000, 0, 600_000),
  port: z.int().min(0).max(65_535).default(0),
  priceBand: priceBand(0.01, 0.99),
  units: socketUnits.prefault({}),
  /** 'crypto': the live venue's world (recurring BTC/ETH/SOL/XRP strike markets on simulated underlyings); 'generic': long-dated markets on a hidden random walk. */
  world: z.enum(['generic', 'crypto'], { error: 'expected "crypto" or "generic"' }).default('generic'),
  /** Taker fees: the venue's dynamic curve (approximated) or the flat signed rate; absent: curve in the crypto world, flat in the generic one. */
  feeModel: z.enum(['curve', 'flat'], { error: 'expected "curve" or "flat"' }).optional(),
  rewards: simRewards.prefault({}),
  underlying: z
    .strictObject({
      tickers: z.array(z.enum(['BTC', 'ETH', 'SOL', 'XRP'])).min(1).default(['BTC', 'ETH', 'SOL', 'XRP']),
      cadences: z.array(z.enum(['15m', 'hourly', 'daily', 'weekly'])).min(1).default(['hourly', 'daily']),
      strikesPerExpiry: z.int().min(1).max(9).default(3),
      /** The informed traders see the underlying this long before it is published (oraclePriceData frames). */
      informedLeadMs: milliseconds(1500, 0, 60_000),
      /** The synthetic maker follows the published underlying this much later still (the venue's slow books). */
      makerLagMs: milliseconds(20_000, 0, 600_000),
    })
    .prefault({}),
});

const httpUrl = z.string().refine((text) => /^https?:\/\/[^\s/]+/.test(text) && URL.canParse(text), 'expected an http(s) URL');
const socketUrl = z.string().refine((text) => /^(https?|wss?):\/\/[^\s/]+/.test(text) && URL.canParse(text), 'expected an http(s) or ws(s) URL');

const liveVenue = z.strictObject({
  kind: z.literal('live'),
  baseUrl: httpUrl.transform((text) => text.replace(/\/+$/, '')),
  socketUrl,
  socketNamespace: z.string().regex(/^\/[A-Za-z0-9_-]*$/, 'expected a namespace such as /markets').default('/markets'),
  // The live venue's prefix (its API reference and official clients); a live config that leaves it out gets no 401s.
  headerPrefix: z.string().regex(/^[A-Za-z][A-Za-z0-9]{0,31}$/, 'expected letters and digits, e.g. lmts').default(LIVE_HEADER_PREFIX),
  chainId: z.int().min(1).default(8453),
  eip712DomainName: z.string().min(1).max(200).default('Limitless CTF Exchange'),
  signatureType: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], { error: 'expected 0, 1, 2 or 3' }).default(0),
  priceBand: priceBand(0.01, 0.99),
  units: socketUnits.prefault({}),
  chain: chainSchema.prefault({}),
});

export const venueSchema = z.discriminatedUnion('kind', [simVenue, liveVenue], {
  error: (issue) => (issue.code === 'invalid_union' ? 'expected kind "sim" or "live"' : undefined),
});
