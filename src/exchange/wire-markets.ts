/**
 * The REST market (GET /markets/{slug}, the active listing with its groups) → `Market`, and the reward settings read
 * in exact units (`normalizeRewardSettings`, exchange-facts §8: the sources disagree on units, so the reading used is
 * returned with the figures).
 *
 * Owns: the market's wire shape and its domain value. Invariants: `expirationTimestamp` below 1e11 is seconds; a
 * listing entry that is a group yields its submarkets, each with the group's slug.
 *
 * Part of the REST wire format (wire.ts re-exports every part; callers import wire.ts). Rules of every part: extra
 * fields are tolerated (and dropped); numbers sent as strings are accepted; wrong types are rejected with a
 * ResponseValidationError naming the field path and value (parseAnswer); prices become integer ticks and amounts raw
 * 1e6 integers wherever the bot signs, books or compares them.
 */
import type { Address } from 'viem';
import { z } from 'zod';
import { RAW_PER_UNIT } from '../core/venue-rules/index.js';
import type { EndpointRef } from './errors.js';
import { address, integer, numeric, orNull, parseAnswer, tokenId } from './wire-fields.js';
import { instantMsOf } from './wire-instant.js';

const RewardSettingsWire = z.object({
  minSize: numeric.nullish(),
  maxSpread: numeric.nullish(),
  dailyReward: numeric.nullish(),
  rewardsEpoch: z.union([z.string(), z.number()]).nullish(),
  c: numeric.nullish(),
  // The official client's MarketSettings.rebateRate ("Market maker rebate rate", a number); not in the recorded items.
  rebateRate: numeric.pipe(z.number().nonnegative()).nullish(),
});

const MarketWire = z.object({
  id: integer,
  slug: z.string().min(1),
  title: z.string(),
  conditionId: z.string().nullish(),
  negRiskRequestId: z.string().nullish(),
  collateralToken: z.object({ address: address, decimals: integer, symbol: z.string() }).nullish(),
  expirationDate: z.string().nullish(),
  expirationTimestamp: integer.nullish(),
  createdAt: z.unknown().optional(),
  categories: z.array(z.string()).nullish(),
  status: z.string().nullish(),
  expired: z.boolean().nullish(),
  tokens: z.object({ yes: tokenId, no: tokenId }).nullish(),
  venue: z.object({ exchange: address, adapter: address.nullish() }).nullish(),
  isRewardable: z.boolean().nullish(),
  settings: RewardSettingsWire.nullish(),
  tradeType: z.string().nullish(),
  marketType: z.string().nullish(),
  winningOutcomeIndex: integer.nullish(),
  payoutNumerators: z.array(numeric).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  description: z.string().nullish(),
  tags: z.array(z.unknown()).nullish(),
  // The official client's types (1.1.0): on oracle markets only. Read leniently: a malformed block must not make a
  // listing unparseable; the terms parser (src/pricing/terms.ts) explains what it cannot use.
  priceOracleMetadata: z.unknown().optional(),
  // Who made the market (the spec: `creator {name, imageURI, link, address}`; recorded: "Limitless") and its `source`
  // (the spec: "a namespaced value for user-generated markets"): read leniently, they only tell a Community market.
  creator: z.unknown().optional(),
  source: z.unknown().optional(),
});

/** `priceOracleMetadata` as far as it could be read: every field a string or absent. */
export interface PriceOracleMetadata {
  readonly ticker?: string;
  readonly assetType?: string;
  readonly pythAddress?: string;
  readonly symbol?: string;
  readonly name?: string;
}

function readOracleMetadata(value: unknown): PriceOracleMetadata | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const out: Record<string, string> = {};
  for (const key of ['ticker', 'assetType', 'pythAddress', 'symbol', 'name'] as const) {
    const field: unknown = Reflect.get(value, key);
    if (typeof field === 'string') out[key] = field;
  }
  return out;
}

/** Reward settings exactly as the venue sent them (units unconfirmed: see normalizeRewardSettings). */
export interface RewardSettings {
  readonly minSize: number | null;
  readonly maxSpread: number | null;
  readonly dailyReward: number | null;
  readonly rewardsEpoch: string | null;
  readonly c: number | null;
  /** Maker rebate rate as sent (read as a fraction of the taker fee: unconfirmed); absent when the venue sent none. */
  readonly rebateRate?: number;
}

export interface Venue {
  /** The EIP-712 verifyingContract of this market's orders. */
  readonly exchange: Address;
  readonly adapter: Address | null;
}

export interface Market {
  readonly id: number;
  readonly slug: string;
  readonly title: string;
  readonly conditionId: string | null;
  readonly negRiskRequestId: string | null;
  readonly status: string | null;
  readonly expired: boolean;
  /** Expiry, ms since epoch; null when the venue gave none. */
  readonly expirationMs: number | null;
  /** When the venue listed it (`createdAt`: ISO string or ms), ms since epoch; null when absent or unreadable. */
  readonly createdAtMs: number | null;
  readonly tokens: { readonly yes: string; readonly no: string } | null;
  readonly venue: Venue | null;
  readonly isRewardable: boolean;
  readonly settings: RewardSettings | null;
  readonly tradeType: string | null;
  readonly marketType: string | null;
  readonly winningOutcomeIndex: number | null;
  readonly payoutNumerators: readonly number[] | null;
  /** Resolved: a winning index, or payout numerators for a split. */
  readonly resolved: boolean;
  readonly categories: readonly string[];
  readonly collateral: { readonly address: Address; readonly decimals: number; readonly symbol: string } | null;
  /** The group (NegRisk/ladder) slug when the market came from a group in a listing. */
  readonly groupSlug: string | null;
  readonly metadata: Readonly<Record<string, unknown>>;
  /** The market's rules in words (for oracle markets: the settlement rule); null when absent. */
  readonly description: string | null;
  /** Tags as the venue sent them (strings only), e.g. Hourly, Recurring. */
  readonly tags: readonly string[];
  /** The oracle block of a crypto market (official client 1.1.0); null when absent or not an object. */
  readonly priceOracleMetadata: PriceOracleMetadata | null;
  /** `creator.name` (recorded: "Limitless" on the venue's own markets); null when absent or not a string. */
  readonly creatorName?: string | null;
  /** `source` (the spec: a namespaced value for user-generated markets); null when absent or not a string. */
  readonly source?: string | null;
}

/** A string field of an object sent as `unknown`; null when either is not what it should be. */
function stringField(value: unknown, key: string): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const field: unknown = Reflect.get(value, key);
  return typeof field === 'string' && field.trim() !== '' ? field : null;
}

function expirationMs(wire: z.output<typeof MarketWire>): number | null {
  if (wire.expirationTimestamp !== null && wire.expirationTimestamp !== undefined) {
    return wire.expirationTimestamp < 1e11 ? wire.expirationTimestamp * 1000 : wire.expirationTimestamp;
  }
  const parsed = wire.expirationDate ? Date.parse(wire.expirationDate) : Number.NaN;
  return Number.isFinite(parsed) ? parsed : null;
}

function toMarket(wire: z.output<typeof MarketWire>, groupSlug: string | null): Market {
  const winningOutcomeIndex = orNull(wire.winningOutcomeIndex);
  const payoutNumerators = orNull(wire.payoutNumerators);
  return {
    id: wire.id,
    slug: wire.slug,
    title: wire.title,
    conditionId: orNull(wire.conditionId),
    negRiskRequestId: orNull(wire.negRiskRequestId),
    status: orNull(wire.status),
    expired: wire.expired ?? false,
    expirationMs: expirationMs(wire),
    createdAtMs: instantMsOf(wire.createdAt),
    tokens: wire.tokens ?? null,
    venue: wire.venue ? { exchange: wire.venue.exchange, adapter: orNull(wire.venue.adapter) } : null,
    isRewardable: wire.isRewardable ?? false,
    settings: wire.settings
      ? {
          minSize: orNull(wire.settings.minSize),
          maxSpread: orNull(wire.settings.maxSpread),
          dailyReward: orNull(wire.settings.dailyReward),
          rewardsEpoch: wire.settings.rewardsEpoch === null || wire.settings.rewardsEpoch === undefined ? null : String(wire.settings.rewardsEpoch),
          c: orNull(wire.settings.c),
          ...(wire.settings.rebateRate === null || wire.settings.rebateRate === undefined ? {} : { rebateRate: wire.settings.rebateRate }),
        }
      : null,
    tradeType: orNull(wire.tradeType),
    marketType: orNull(wire.marketType),
    winningOutcomeIndex,
    payoutNumerators,
    resolved: winningOutcomeIndex !== null || payoutNumerators !== null,
    categories: wire.categories ?? [],
    collateral: wire.collateralToken ?? null,
    groupSlug,
    metadata: wire.metadata ?? {},
    description: orNull(wire.description),
    tags: (wire.tags ?? []).filter((t): t is string => typeof t === 'string'),
    creatorName: stringField(wire.creator, 'name'),
    source: typeof wire.source === 'string' && wire.source.trim() !== '' ? wire.source : null,
    priceOracleMetadata: readOracleMetadata(wire.priceOracleMetadata),
  };
}

export function parseMarket(data: unknown, endpoint: EndpointRef, status: number): Market {
  return toMarket(parseAnswer(MarketWire, data, endpoint, status), null);
}

export interface ActiveMarketsPage {
  /** Every market of the page; a group's submarkets are flattened in, with `groupSlug` set. */
  readonly markets: readonly Market[];
  /** The venue's total count when it sent one. */
  readonly total: number | null;
}

const ListingEnvelope = z.union([
  z.array(z.unknown()),
  z.object({ data: z.array(z.unknown()), totalMarketsCount: integer.nullish(), total: integer.nullish() }),
]);
const GroupProbe = z.object({ slug: z.string().min(1), markets: z.array(z.unknown()) });

/** GET /markets/active: a bare array or `{data, totalMarketsCount}`; elements are markets or groups of markets. */
export function parseActiveMarkets(data: unknown, endpoint: EndpointRef, status: number): ActiveMarketsPage {
  const envelope = parseAnswer(ListingEnvelope, data, endpoint, status);
  const elements = Array.isArray(envelope) ? envelope : envelope.data;
  const prefix: PropertyKey[] = Array.isArray(envelope) ? [] : ['data'];
  const markets: Market[] = [];
  elements.forEach((element, index) => {
    const group = GroupProbe.safeParse(element);
    if (group.success) {
      group.data.markets.forEach((sub, subIndex) => {
        const wire = parseAnswer(MarketWire, sub, endpoint, status, [...prefix, index, 'markets', subIndex], data);
        markets.push(toMarket(wire, group.data.slug));
      });
      return;
    }
    markets.push(toMarket(parseAnswer(MarketWire, element, endpoint, status, [...prefix, index], data), null));
  });
  const total = Array.isArray(envelope) ? null : (envelope.totalMarketsCount ?? envelope.total ?? null);
  return { markets, total };
}

export interface NormalizedRewardSettings {
  readonly minSizeRaw: number;
  readonly maxSpreadTicks: number;
  readonly dailyRewardRaw: number;
  readonly c: number;
  /** Maker rebate rate, a fraction of the taker fee (the reading used: unconfirmed); 0 when the venue sent none. */
  readonly rebateRate: number;
  /** How each unit was read, for the caller to log (the venue's units are unconfirmed). */
  readonly assumptions: {
    readonly minSize: 'raw' | 'shares' | 'absent';
    readonly maxSpread: 'price' | 'cents' | 'absent';
    readonly dailyReward: 'raw' | 'usdc' | 'absent';
  };
}

/** A max spread → ticks: below 1 it is a price distance (0.035 → 35, as recorded), at or above 1 cents (3.5 → 35). */
export function spreadTicks(spread: number): number {
  return spread < 1 ? Math.round(spread * 1000) : Math.round(spread * 10);
}

/** Integers at or above this are read as raw 1e6 units; below it, as whole units (shares / USDC). */
const RAW_THRESHOLD = 100_000;

/**
 * Reward settings → exact units. The sources disagree on units (exchange-facts §8), so: minSize and dailyReward
 * that are integers ≥ 100,000 are raw, otherwise whole units; maxSpread < 1 is a price distance, ≥ 1 is cents.
 * `c` defaults to 3. The returned `assumptions` say which reading was used.
 */
export function normalizeRewardSettings(settings: RewardSettings | null): NormalizedRewardSettings {
  const toRaw = (value: number | null): [number, 'raw' | 'units' | 'absent'] => {
    if (value === null || value < 0) return [0, 'absent'];
    if (Number.isInteger(value) && value >= RAW_THRESHOLD) return [value, 'raw'];
    return [Math.round(value * RAW_PER_UNIT), 'units'];
  };
  const [minSizeRaw, minSizeUnit] = toRaw(settings?.minSize ?? null);
  const [dailyRewardRaw, dailyUnit] = toRaw(settings?.dailyReward ?? null);
  const spread = settings?.maxSpread ?? null;
  const maxSpreadTicks = spread === null || spread < 0 ? 0 : spreadTicks(spread);
  return {
    minSizeRaw,
    maxSpreadTicks,
    dailyRewardRaw,
    c: settings?.c ?? 3,
    rebateRate: settings?.rebateRate ?? 0,
    assumptions: {
      minSize: minSizeUnit === 'units' ? 'shares' : minSizeUnit,
      maxSpread: spread === null || spread < 0 ? 'absent' : spread < 1 ? 'price' : 'cents',
      dailyReward: dailyUnit === 'units' ? 'usdc' : dailyUnit,
    },
  };
}
