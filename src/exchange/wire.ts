/**
 * The REST wire format: zod schemas of every answer the client reads, and their conversion to typed domain values.
 *
 * Owns: what the client accepts from the venue. Rules: extra fields are tolerated (and dropped); numbers sent as
 * strings are accepted; wrong types are rejected with a ResponseValidationError naming the field path and value.
 * Prices become integer ticks and amounts raw 1e6 integers wherever the bot signs, books or compares them; floats
 * remain only for figures that are averages or venue metadata (weighted trade price, midpoints, PnL as reported).
 *
 * Unit choices the spec leaves open (documented in docs/exchange-client.md and docs/venue-facts.md): raw amount
 * strings with a fractional part are floored to the raw unit; the REST orderbook's `size` is raw 1e6 integers by
 * default (recorded from the live venue, see test/contract), `shares` on request; `expirationTimestamp` below 1e11 is
 * read as seconds. A size the venue left out is unknown (null), never 0. An order's `price`
 * must be a tick only for limit orders: a FOK order has no limit, and the venue prints its average fill price (or 0)
 * in that field, which is accepted and not read as a limit.
 */
import { getAddress, isAddress, type Address } from 'viem';
import { z } from 'zod';
import { toTradingMode, tradingModeRank, type TradingMode } from '../core/trading-mode.js';
import { parseScaled, priceToTicks, RAW_PER_UNIT, TICKS_PER_UNIT, UnitError, type OrderType, type Side, type Level } from '../core/venue-rules/index.js';
import {
  FrameworkError,
  MessageError,
  ResponseValidationError,
  ExchangeTradingModeError,
  UnexpectedResponseError,
  ValidationError,
  type EndpointRef,
  type HttpStatusError,
  type ResponseIssue,
} from './errors.js';
import { instantMsOf } from './wire-instant.js';

// ---------------------------------------------------------------------------------------------------------------
// Field schemas.

const NUMERIC_STRING = /^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$/;
const RAW_STRING = /^\d+(?:\.\d+)?$/;

/** A JSON number, or a string holding one. */
export const numeric = z.union([z.number(), z.string().trim().regex(NUMERIC_STRING, 'not a number').transform(Number)]);
/** A safe integer, as a number or a numeric string. */
export const integer = numeric.pipe(z.int());

/** A raw 1e6-scaled amount (decimal string or number); a fractional part below the raw unit is floored. */
export const rawAmount = z
  .union([z.number().nonnegative(), z.string().trim().regex(RAW_STRING, 'not a non-negative decimal')])
  .transform((value, ctx) => {
    const whole = typeof value === 'number' ? Math.floor(value) : Number(value.split('.')[0]);
    if (!Number.isSafeInteger(whole)) {
      ctx.addIssue({ code: 'custom', message: 'raw amount too large' });
      return z.NEVER;
    }
    return whole;
  });

/** A venue price in (0, 1) on the 0.001 tick → integer ticks; off-tick or out-of-range prices are rejected. */
export const priceTicks = z.union([z.number(), z.string()]).transform((value, ctx) => {
  try {
    return priceToTicks('price', value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: error instanceof UnitError ? error.reason : 'not a price' });
    return z.NEVER;
  }
});

/**
 * An order's `price` as sent, converted by `orderPriceTicks` once the order type is known: a limit order's (GTC,
 * FAK) price is its limit and must be a tick; a FOK order has no limit, and the venue prints its average fill
 * price there (off the tick when it swept several levels) or "0" when nothing filled.
 */
const orderPrice = z.union([z.number().nonnegative(), z.string().trim().regex(RAW_STRING, 'not a non-negative decimal')]);

/** `price` of an order of `type` → its limit in ticks, or null for a FOK (no limit); throws naming `path`. */
function orderPriceTicks(
  type: string | null | undefined,
  price: string | number,
  endpoint: EndpointRef,
  status: number,
  path: readonly PropertyKey[],
  root: unknown,
): number | null {
  if (type === 'FOK') return null;
  return parseAnswer(priceTicks, price, endpoint, status, path, root);
}

/** A size in shares (number or decimal string) → raw. Strings are exact (≤ 6 decimals); numbers round to 1 raw. */
const sharesAsRaw = z.union([z.number().nonnegative(), z.string()]).transform((value, ctx) => {
  try {
    const raw = typeof value === 'number' ? Math.round(value * RAW_PER_UNIT) : parseScaled('size', value, 6);
    if (!Number.isSafeInteger(raw)) throw new UnitError('size', value, 'too large');
    return raw;
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: error instanceof UnitError ? error.reason : 'not a size' });
    return z.NEVER;
  }
});

/** An ISO-8601 date-time → ms since epoch. */
export const isoMs = z.string().transform((value, ctx) => {
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) {
    ctx.addIssue({ code: 'custom', message: 'not a date-time' });
    return z.NEVER;
  }
  return ms;
});

/** An EVM address in any case → EIP-55 checksummed. */
export const address = z
  .string()
  .refine((value) => isAddress(value, { strict: false }), 'not an address')
  .transform((value): Address => getAddress(value));

/** A uint256 token id as a decimal string (a JSON number would have lost precision, so it is refused). */
export const tokenId = z.string().regex(/^\d{1,78}$/, 'not a decimal token id');

/** An id the venue may send as a number or a string; kept as a string. */
const idText = z.union([z.string().min(1), z.number()]).transform(String);

const sideName = z.enum(['BUY', 'SELL']);
/** 0/1, "0"/"1" or "BUY"/"SELL" → Side. */
const anySide = z.union([z.number(), z.string()]).transform((value, ctx): Side => {
  const text = String(value).toUpperCase();
  if (text === '0' || text === 'BUY') return 'BUY';
  if (text === '1' || text === 'SELL') return 'SELL';
  ctx.addIssue({ code: 'custom', message: 'not a side (0, 1, BUY, SELL)' });
  return z.NEVER;
});

function orNull<T>(value: T | null | undefined): T | null {
  return value ?? null;
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing with field-named errors.

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = data;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    const next: unknown = Reflect.get(current, key);
    current = next;
  }
  return current;
}

function describeWireValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? typeof value;
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** Parses `data` with `schema`; on failure throws ResponseValidationError naming each offending path and value. */
export function parseAnswer<S extends z.ZodType>(
  schema: S,
  data: unknown,
  endpoint: EndpointRef,
  status: number,
  pathPrefix: readonly PropertyKey[] = [],
  root: unknown = data,
): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issues: ResponseIssue[] = result.error.issues.slice(0, 10).map((issue) => {
    const path = [...pathPrefix, ...issue.path];
    return { path: formatPath(path), message: issue.message, value: describeWireValue(valueAt(root, path)) };
  });
  throw new ResponseValidationError(endpoint, status, issues);
}

// ---------------------------------------------------------------------------------------------------------------
// Error bodies (spec, Errors section).

const TradingModeBody = z.object({
  code: z.string(),
  message: z.string(),
  mode: z.string(),
  resumeAt: z.string().nullish(),
});
const ValidationBody = z.object({
  message: z.array(
    z.union([
      z.object({ field: z.string(), message: z.string() }),
      z.string().transform((message) => ({ field: '', message })),
    ]),
  ),
  error: z.string(),
  statusCode: integer,
});
const FrameworkBody = z.object({ message: z.string(), error: z.string(), statusCode: integer });
const MessageBody = z.object({ message: z.string() });

/** True when `body` has the trading-mode shape `{code, message, mode, resumeAt}`. */
export function isTradingModeBody(body: unknown): boolean {
  return TradingModeBody.safeParse(body).success;
}

/**
 * The typed error for an error status and its (already scrubbed) body text: the spec's body shapes in order
 * trading-mode, validation, framework, message-only; anything else is UnexpectedResponseError with an excerpt.
 */
export function errorFromBody(status: number, endpoint: EndpointRef, bodyText: string): HttpStatusError {
  let json: unknown;
  try {
    json = bodyText === '' ? undefined : JSON.parse(bodyText);
  } catch {
    json = undefined;
  }
  const tradingMode = TradingModeBody.safeParse(json);
  if (tradingMode.success) {
    return new ExchangeTradingModeError(status, endpoint, { ...tradingMode.data, resumeAt: orNull(tradingMode.data.resumeAt) });
  }
  const validation = ValidationBody.safeParse(json);
  if (validation.success) return new ValidationError(status, endpoint, validation.data);
  const framework = FrameworkBody.safeParse(json);
  if (framework.success) return new FrameworkError(status, endpoint, framework.data);
  const message = MessageBody.safeParse(json);
  if (message.success) return new MessageError(status, endpoint, { message: message.data.message });
  return new UnexpectedResponseError(status, endpoint, bodyText.length > 300 ? `${bodyText.slice(0, 300)}…` : bodyText);
}

// ---------------------------------------------------------------------------------------------------------------
// Market.

const RewardSettingsWire = z.object({
  minSize: numeric.nullish(),
  maxSpread: numeric.nullish(),
  dailyReward: numeric.nullish(),
  rewardsEpoch: z.union([z.string(), z.number()]).nullish(),
  c: numeric.nullish(),
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
  /** How each unit was read, for the caller to log (the venue's units are unconfirmed). */
  readonly assumptions: {
    readonly minSize: 'raw' | 'shares' | 'absent';
    readonly maxSpread: 'price' | 'cents' | 'absent';
    readonly dailyReward: 'raw' | 'usdc' | 'absent';
  };
}

/** A max spread → ticks: below 1 it is a price distance (0.035 → 35, as recorded), at or above 1 cents (3.5 → 35). */
function spreadTicks(spread: number): number {
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
    assumptions: {
      minSize: minSizeUnit === 'units' ? 'shares' : minSizeUnit,
      maxSpread: spread === null || spread < 0 ? 'absent' : spread < 1 ? 'price' : 'cents',
      dailyReward: dailyUnit === 'units' ? 'usdc' : dailyUnit,
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Orderbook.

/**
 * The unit of `size` in REST orderbook levels: raw 1e6 integers (what the live venue sends: recorded answers in
 * test/contract) or shares (an older guess; kept for a venue that sends decimals).
 */
export type BookSizeUnit = 'shares' | 'raw';

/** The REST client's default book size unit: the live venue's REST orderbook sends raw 1e6 integers. */
export const DEFAULT_BOOK_SIZE_UNIT: BookSizeUnit = 'raw';

function orderbookSchema(unit: BookSizeUnit) {
  const level = (side: Side) =>
    z.object({
      price: priceTicks,
      size: unit === 'shares' ? sharesAsRaw : rawAmount,
      // Each recorded level carries its side (BUY in bids, SELL in asks); one on the wrong list is refused.
      side: z
        .string()
        .transform((value) => value.toUpperCase())
        .pipe(z.literal(side, { error: `not ${side} (the side of this list)` }))
        .nullish(),
    });
  return z.object({
    bids: z.array(level('BUY')),
    asks: z.array(level('SELL')),
    tokenId: tokenId.nullish(),
    adjustedMidpoint: numeric.nullish(),
    // Recorded: a string in price units ("0.035"); numbers accepted too.
    maxSpread: numeric.nullish(),
    // Recorded: a string of raw units ("100000000" = 100 shares).
    minSize: rawAmount.nullish(),
    lastTradePrice: numeric.nullish(),
  });
}
const ORDERBOOK_SCHEMAS: Readonly<Record<BookSizeUnit, ReturnType<typeof orderbookSchema>>> = {
  shares: orderbookSchema('shares'),
  raw: orderbookSchema('raw'),
};

/** A full YES-book snapshot (NO orders folded in), in ticks and raw sizes. */
export interface OrderbookSnapshot {
  readonly slug: string;
  readonly tokenId: string | null;
  /** Best (highest) first; zero sizes dropped; duplicate prices merged. */
  readonly bids: readonly Level[];
  /** Best (lowest) first. */
  readonly asks: readonly Level[];
  /** The venue's adjusted midpoint in price units (0..1). */
  readonly adjustedMidpoint: number | null;
  /** `maxSpread` as sent, in price units (0.035). */
  readonly maxSpread: number | null;
  /** `maxSpread` in ticks (0.035 → 35); null when absent. */
  readonly maxSpreadTicks: number | null;
  /** `minSize` in raw units ("100000000" → 100000000 = 100 shares); null when absent. */
  readonly minSize: number | null;
  readonly lastTradePrice: number | null;
}

function aggregate(levels: readonly { price: number; size: number }[], descending: boolean): Level[] {
  const byPrice = new Map<number, number>();
  for (const { price, size } of levels) {
    if (size > 0) byPrice.set(price, (byPrice.get(price) ?? 0) + size);
  }
  return [...byPrice.entries()]
    .map(([priceTicks, sizeRaw]) => ({ priceTicks, sizeRaw }))
    .sort((a, b) => (descending ? b.priceTicks - a.priceTicks : a.priceTicks - b.priceTicks));
}

export function parseOrderbook(slug: string, data: unknown, endpoint: EndpointRef, status: number, unit: BookSizeUnit): OrderbookSnapshot {
  const wire = parseAnswer(ORDERBOOK_SCHEMAS[unit], data, endpoint, status);
  return {
    slug,
    tokenId: orNull(wire.tokenId),
    bids: aggregate(wire.bids, true),
    asks: aggregate(wire.asks, false),
    adjustedMidpoint: orNull(wire.adjustedMidpoint),
    maxSpread: orNull(wire.maxSpread),
    maxSpreadTicks: wire.maxSpread === null || wire.maxSpread === undefined ? null : spreadTicks(wire.maxSpread),
    minSize: orNull(wire.minSize),
    lastTradePrice: orNull(wire.lastTradePrice),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// User orders (spec: UserOrder).

export const ORDER_STATUSES = ['LIVE', 'MATCHED', 'CANCELED', 'UNMATCHED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

const UserOrderWire = z.object({
  id: z.string().min(1),
  ownerId: integer,
  marketId: idText,
  token: tokenId,
  type: z.enum(['GTC', 'FAK', 'FOK']),
  status: z.enum(ORDER_STATUSES),
  side: sideName,
  makerAmount: rawAmount,
  takerAmount: rawAmount,
  price: orderPrice,
  originalSize: rawAmount,
  remainingSize: rawAmount,
  createdAt: isoMs,
  clientOrderId: z.string().nullish(),
});

export interface UserOrder {
  readonly id: string;
  readonly ownerId: number;
  readonly marketId: string;
  readonly tokenId: string;
  readonly orderType: OrderType;
  readonly status: OrderStatus;
  readonly side: Side;
  readonly makerAmountRaw: number;
  readonly takerAmountRaw: number;
  /** The limit price in ticks; 0 for a FOK order, which has none (the venue prints its average fill price there). */
  readonly priceTicks: number;
  readonly originalSizeRaw: number;
  readonly remainingSizeRaw: number;
  readonly createdAtMs: number;
  readonly clientOrderId: string | null;
}

export function parseUserOrders(data: unknown, endpoint: EndpointRef, status: number): UserOrder[] {
  return parseAnswer(z.array(UserOrderWire), data, endpoint, status).map((wire, index) => ({
    id: wire.id,
    ownerId: wire.ownerId,
    marketId: wire.marketId,
    tokenId: wire.token,
    orderType: wire.type,
    status: wire.status,
    side: wire.side,
    makerAmountRaw: wire.makerAmount,
    takerAmountRaw: wire.takerAmount,
    priceTicks: orderPriceTicks(wire.type, wire.price, endpoint, status, [index, 'price'], data) ?? 0,
    originalSizeRaw: wire.originalSize,
    remainingSizeRaw: wire.remainingSize,
    createdAtMs: wire.createdAt,
    clientOrderId: orNull(wire.clientOrderId),
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Market trades (spec: MarketTrade, GET /markets/{slug}/events).

const MarketTradeWire = z.object({
  createdAt: isoMs,
  makerAmount: rawAmount,
  takerAmount: rawAmount,
  matchedSize: rawAmount,
  price: numeric,
  side: integer.pipe(z.union([z.literal(0), z.literal(1)])),
  title: z.string().nullish(),
  tokenId: tokenId,
  txHash: z.string().nullish(),
});
const EventsPageWire = z.object({
  events: z.array(MarketTradeWire),
  limit: integer.nullish(),
  page: integer.nullish(),
  totalPages: integer,
  totalRows: integer.nullish(),
});

export interface MarketTrade {
  readonly createdAtMs: number;
  /** Trade collateral, raw. */
  readonly collateralRaw: number;
  readonly takerAmountRaw: number;
  /** Taker's filled token amount, raw. */
  readonly matchedSizeRaw: number;
  /** Weighted average fill price (price units; may be off the tick). */
  readonly price: number;
  /** Taker side. */
  readonly side: Side;
  readonly tokenId: string;
  readonly txHash: string | null;
  readonly title: string | null;
}

export interface MarketTradesPage {
  readonly trades: readonly MarketTrade[];
  readonly page: number;
  readonly limit: number | null;
  readonly totalPages: number;
  readonly totalRows: number;
}

/** Handles both the full page and the empty-page shape `{events: [], totalPages: 0}`. */
export function parseMarketTrades(data: unknown, endpoint: EndpointRef, status: number, requestedPage: number): MarketTradesPage {
  const wire = parseAnswer(EventsPageWire, data, endpoint, status);
  return {
    trades: wire.events.map((event) => ({
      createdAtMs: event.createdAt,
      collateralRaw: event.makerAmount,
      takerAmountRaw: event.takerAmount,
      matchedSizeRaw: event.matchedSize,
      price: event.price,
      side: event.side === 0 ? 'BUY' : 'SELL',
      tokenId: event.tokenId,
      txHash: orNull(event.txHash),
      title: orNull(event.title),
    })),
    page: wire.page ?? requestedPage,
    limit: orNull(wire.limit),
    totalPages: wire.totalPages,
    totalRows: wire.totalRows ?? wire.events.length,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// POST /orders answer (exchange-facts §3) and order status batch.

const OrderEchoWire = z.object({
  id: idText,
  status: z.string().nullish(),
  clientOrderId: z.string().nullish(),
  side: anySide.nullish(),
  price: orderPrice.nullish(),
  makerAmount: rawAmount.nullish(),
  takerAmount: rawAmount.nullish(),
  originalSize: rawAmount.nullish(),
  remainingSize: rawAmount.nullish(),
  tokenId: z.string().nullish(),
  token: z.string().nullish(),
  orderType: z.string().nullish(),
  type: z.string().nullish(),
  createdAt: z.string().nullish(),
  marketId: idText.nullish(),
});
const MakerMatchWire = z.object({
  id: idText,
  createdAt: z.string().nullish(),
  matchedSize: rawAmount,
  orderId: idText,
});
/**
 * `execution.totalsRaw` as the official client types it (ExecutionTotalsRaw): raw integer strings; gross = before the
 * fee, fee = taken (in contracts or in USDC), net = after it. Each is optional here: an absent total is unknown.
 */
const TotalsRawWire = z.object({
  contractsGross: rawAmount.nullish(),
  contractsNet: rawAmount.nullish(),
  contractsFee: rawAmount.nullish(),
  usdGross: rawAmount.nullish(),
  usdNet: rawAmount.nullish(),
  usdFee: rawAmount.nullish(),
});

const ExecutionWire = z.object({
  matched: z.union([z.boolean(), numeric]).nullish(),
  settlementStatus: z.string().nullish(),
  tradeEventId: idText.nullish(),
  txHash: z.string().nullish(),
  clientOrderId: z.string().nullish(),
  feeRateBps: numeric.nullish(),
  effectiveFeeBps: numeric.nullish(),
  totalsRaw: TotalsRawWire.nullish(),
  eligibleAt: z.string().nullish(),
  reason: z.string().nullish(),
  stpMakerCancels: z.array(z.unknown()).nullish(),
});
const PlacementWire = z.object({
  order: OrderEchoWire,
  makerMatches: z.array(MakerMatchWire).nullish(),
  execution: ExecutionWire.nullish(),
});

/** Known settlement statuses; the venue's set is open, so any other string is kept as is. */
export type SettlementStatus = 'UNMATCHED' | 'MATCHED' | 'MINED' | 'CONFIRMED' | 'RETRYING' | 'FAILED' | 'DELAYED' | (string & {});

export interface OrderEcho {
  readonly id: string;
  readonly status: string | null;
  readonly clientOrderId: string | null;
  readonly side: Side | null;
  /** The limit price in ticks; null when not sent, and for a FOK order (no limit; see `orderPriceTicks`). */
  readonly priceTicks: number | null;
  readonly makerAmountRaw: number | null;
  readonly takerAmountRaw: number | null;
  /** As sent; null when absent (the official client's CreatedOrder has none): unknown, never 0. */
  readonly originalSizeRaw: number | null;
  /** As sent; null when absent (CreatedOrder has none): unknown, never 0. */
  readonly remainingSizeRaw: number | null;
  /**
   * The order's size in contracts: `originalSize` when sent, else derived from the signed amounts (a BUY receives
   * `takerAmount` contracts, a SELL gives `makerAmount`), checked against the price when one was sent; null when
   * neither tells.
   */
  readonly sizeRaw: number | null;
  readonly tokenId: string | null;
  readonly orderType: string | null;
  /** `createdAt`, ms since epoch; null when absent or unreadable. */
  readonly createdAtMs: number | null;
}

export interface MakerMatch {
  readonly id: string;
  readonly orderId: string;
  readonly matchedSizeRaw: number;
  readonly createdAt: string | null;
}

/** `execution.totalsRaw`, raw integers; each null when the venue left it out. */
export interface ExecutionTotals {
  readonly contractsGross: number | null;
  readonly contractsNet: number | null;
  readonly contractsFee: number | null;
  readonly usdGross: number | null;
  readonly usdNet: number | null;
  readonly usdFee: number | null;
}

export interface Execution {
  readonly matched: boolean;
  readonly settlementStatus: SettlementStatus | null;
  readonly tradeEventId: string | null;
  readonly txHash: string | null;
  readonly clientOrderId: string | null;
  readonly feeRateBps: number | null;
  readonly effectiveFeeBps: number | null;
  /** `totalsRaw` as typed by the official client; null when the venue sent none. */
  readonly totals: ExecutionTotals | null;
  readonly eligibleAt: string | null;
  /** e.g. STP_TAKER_REJECTED. */
  readonly reason: string | null;
  /** Order ids of makers cancelled by self-trade prevention (strings, or objects carrying `orderId`). */
  readonly stpMakerCancelOrderIds: readonly string[];
}

export interface PlacementResult {
  readonly orderId: string;
  readonly order: OrderEcho;
  readonly makerMatches: readonly MakerMatch[];
  /** null when the venue sent no execution object. */
  readonly execution: Execution | null;
}

/**
 * An order's contract size from its signed amounts: a BUY pays `makerAmount` USDC for `takerAmount` contracts, a SELL
 * gives `makerAmount` contracts for `takerAmount` USDC. When a limit price is known the pair must agree with it (within
 * the one raw unit a collateral amount is rounded to); otherwise the amounts are not read as a size (null: unknown).
 */
export function sizeFromAmounts(side: Side | null, makerAmountRaw: number | null, takerAmountRaw: number | null, priceTicks: number | null): number | null {
  if (side === null || makerAmountRaw === null || takerAmountRaw === null) return null;
  const contracts = side === 'BUY' ? takerAmountRaw : makerAmountRaw;
  const collateral = side === 'BUY' ? makerAmountRaw : takerAmountRaw;
  if (!Number.isSafeInteger(contracts) || contracts <= 0) return null;
  if (priceTicks !== null && Math.abs(contracts * priceTicks - collateral * TICKS_PER_UNIT) > TICKS_PER_UNIT) return null;
  return contracts;
}

function stpIds(entries: readonly unknown[]): string[] {
  const ids: string[] = [];
  const withId = z.object({ orderId: z.string() });
  for (const entry of entries) {
    if (typeof entry === 'string') ids.push(entry);
    else {
      const parsed = withId.safeParse(entry);
      if (parsed.success) ids.push(parsed.data.orderId);
    }
  }
  return ids;
}

/** `path` locates `wire` in the answer `root`, for error messages. */
function toPlacement(wire: z.output<typeof PlacementWire>, endpoint: EndpointRef, status: number, path: readonly PropertyKey[], root: unknown): PlacementResult {
  const o = wire.order;
  const e = wire.execution;
  const orderType = o.orderType ?? o.type ?? null;
  const side = orNull(o.side);
  const priceTicks = o.price === null || o.price === undefined ? null : orderPriceTicks(orderType, o.price, endpoint, status, [...path, 'order', 'price'], root);
  const makerAmountRaw = orNull(o.makerAmount);
  const takerAmountRaw = orNull(o.takerAmount);
  const createdAtMs = o.createdAt ? Date.parse(o.createdAt) : Number.NaN;
  const t = e?.totalsRaw;
  return {
    orderId: o.id,
    order: {
      id: o.id,
      status: orNull(o.status),
      clientOrderId: orNull(o.clientOrderId),
      side,
      priceTicks,
      makerAmountRaw,
      takerAmountRaw,
      originalSizeRaw: orNull(o.originalSize),
      remainingSizeRaw: orNull(o.remainingSize),
      sizeRaw: o.originalSize ?? sizeFromAmounts(side, makerAmountRaw, takerAmountRaw, priceTicks),
      tokenId: o.tokenId ?? o.token ?? null,
      orderType,
      createdAtMs: Number.isFinite(createdAtMs) ? createdAtMs : null,
    },
    makerMatches: (wire.makerMatches ?? []).map((m) => ({ id: m.id, orderId: m.orderId, matchedSizeRaw: m.matchedSize, createdAt: orNull(m.createdAt) })),
    execution: e
      ? {
          matched: typeof e.matched === 'number' ? e.matched > 0 : (e.matched ?? false),
          settlementStatus: orNull(e.settlementStatus),
          tradeEventId: orNull(e.tradeEventId),
          txHash: orNull(e.txHash),
          clientOrderId: orNull(e.clientOrderId),
          feeRateBps: orNull(e.feeRateBps),
          effectiveFeeBps: orNull(e.effectiveFeeBps),
          totals: t
            ? {
                contractsGross: orNull(t.contractsGross),
                contractsNet: orNull(t.contractsNet),
                contractsFee: orNull(t.contractsFee),
                usdGross: orNull(t.usdGross),
                usdNet: orNull(t.usdNet),
                usdFee: orNull(t.usdFee),
              }
            : null,
          eligibleAt: orNull(e.eligibleAt),
          reason: orNull(e.reason),
          stpMakerCancelOrderIds: stpIds(e.stpMakerCancels ?? []),
        }
      : null,
  };
}

export function parsePlacement(data: unknown, endpoint: EndpointRef, status: number): PlacementResult {
  return toPlacement(parseAnswer(PlacementWire, data, endpoint, status), endpoint, status, [], data);
}

const StatusBatchWire = z.object({
  results: z.array(
    z.object({
      index: integer,
      status: z.enum(['found', 'not_found', 'invalid']),
      orderId: z.string().nullish(),
      clientOrderId: z.string().nullish(),
      data: PlacementWire.nullish(),
    }),
  ),
});

export interface OrderStatusResult {
  /** Index of the item in the request. */
  readonly index: number;
  readonly status: 'found' | 'not_found' | 'invalid';
  readonly orderId: string | null;
  readonly clientOrderId: string | null;
  /** The order, its maker matches and execution when found. */
  readonly data: PlacementResult | null;
}

export function parseStatusBatch(data: unknown, endpoint: EndpointRef, status: number): OrderStatusResult[] {
  return parseAnswer(StatusBatchWire, data, endpoint, status).results.map((r, i) => ({
    index: r.index,
    status: r.status,
    orderId: r.orderId ?? r.data?.order.id ?? null,
    clientOrderId: r.clientOrderId ?? r.data?.order.clientOrderId ?? null,
    data: r.data ? toPlacement(r.data, endpoint, status, ['results', i, 'data'], data) : null,
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Cancels.

const CancelWire = z.object({ message: z.string() });

export interface CancelResult {
  readonly message: string;
  /** The venue said `Delayed order canceled successfully`. */
  readonly delayed: boolean;
}

export function parseCancel(data: unknown, endpoint: EndpointRef, status: number): CancelResult {
  const wire = parseAnswer(CancelWire, data, endpoint, status);
  return { message: wire.message, delayed: wire.message.toLowerCase().startsWith('delayed') };
}

const BatchCancelWire = z.object({
  message: z.string().nullish(),
  canceled: z.array(idText).nullish(),
  failed: z
    .array(z.object({ orderId: idText, reason: z.string().nullish(), message: z.string().nullish() }))
    .nullish(),
});

export interface CancelFailure {
  readonly orderId: string;
  readonly reason: string | null;
  readonly message: string | null;
}

export interface BatchCancelResult {
  readonly status: number;
  /** True for 207: some ids failed. */
  readonly partial: boolean;
  readonly message: string | null;
  readonly canceled: readonly string[];
  readonly failed: readonly CancelFailure[];
}

/**
 * cancel-batch / cancel-all answers. A 200 that lists no `canceled` ids for a batch means all requested ids were
 * cancelled (`requested`); cancel-all passes no requested ids and takes the list as given.
 */
export function parseBatchCancel(data: unknown, endpoint: EndpointRef, status: number, requested: readonly string[] = []): BatchCancelResult {
  const wire = data === '' || data === undefined ? {} : parseAnswer(BatchCancelWire, data, endpoint, status);
  const failed = (wire.failed ?? []).map((f) => ({ orderId: f.orderId, reason: orNull(f.reason), message: orNull(f.message) }));
  const canceled = wire.canceled ?? (status === 200 ? [...requested] : []);
  return { status, partial: status === 207 || failed.length > 0, message: orNull(wire.message), canceled, failed };
}

// ---------------------------------------------------------------------------------------------------------------
// Maintenance, profile, positions, redeem.

const MaintenanceEntryWire = z.object({
  mode: z.string().nullish(),
  tradingMode: z.string().nullish(),
  message: z.string().nullish(),
  startAt: z.string().nullish(),
  startsAt: z.string().nullish(),
  endAt: z.string().nullish(),
  endsAt: z.string().nullish(),
  resumeAt: z.string().nullish(),
});
const MaintenanceWire = z.object({
  active: z.array(MaintenanceEntryWire).nullish(),
  scheduled: z.array(MaintenanceEntryWire).nullish(),
});

export interface MaintenanceWindow {
  /** The venue's mode string (`post_only`, `cancel_only`, `disabled`, or something new). */
  readonly mode: string | null;
  readonly message: string | null;
  readonly startsAtMs: number | null;
  /** When the window ends (its resumeAt), ms since epoch. */
  readonly endsAtMs: number | null;
}

export interface MaintenanceStatus {
  readonly active: readonly MaintenanceWindow[];
  readonly scheduled: readonly MaintenanceWindow[];
  /** The most restrictive active mode; an active entry with an unknown or missing mode counts as `cancel_only`. */
  readonly mode: TradingMode;
  /** Latest end among the active windows that set `mode`, when known. */
  readonly resumeAtMs: number | null;
}

function dateMs(value: string | null | undefined): number | null {
  const ms = value ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? ms : null;
}

export function parseMaintenance(data: unknown, endpoint: EndpointRef, status: number): MaintenanceStatus {
  const wire = parseAnswer(MaintenanceWire, data, endpoint, status);
  const toWindow = (e: z.output<typeof MaintenanceEntryWire>): MaintenanceWindow => ({
    mode: e.mode ?? e.tradingMode ?? null,
    message: orNull(e.message),
    startsAtMs: dateMs(e.startsAt ?? e.startAt),
    endsAtMs: dateMs(e.resumeAt ?? e.endsAt ?? e.endAt),
  });
  const active = (wire.active ?? []).map(toWindow);
  let mode: TradingMode = 'normal';
  let resumeAtMs: number | null = null;
  for (const window of active) {
    const windowMode = toTradingMode(window.mode);
    if (tradingModeRank(windowMode) > tradingModeRank(mode)) {
      mode = windowMode;
      resumeAtMs = window.endsAtMs;
    } else if (windowMode === mode && mode !== 'normal' && window.endsAtMs !== null) {
      resumeAtMs = Math.max(resumeAtMs ?? 0, window.endsAtMs);
    }
  }
  return { active, scheduled: (wire.scheduled ?? []).map(toWindow), mode, resumeAtMs };
}

const ProfileWire = z.object({
  id: integer,
  account: address,
  rank: z.object({ feeRateBps: integer.nullish() }).nullish(),
});

export const DEFAULT_FEE_RATE_BPS = 300;

export interface Profile {
  /** The profile id: the `ownerId` of orders. */
  readonly id: number;
  readonly account: Address;
  /** `rank.feeRateBps`, or the venue default 300 when absent. */
  readonly feeRateBps: number;
}

export function parseProfile(data: unknown, endpoint: EndpointRef, status: number): Profile {
  const wire = parseAnswer(ProfileWire, data, endpoint, status);
  return { id: wire.id, account: wire.account, feeRateBps: wire.rank?.feeRateBps ?? DEFAULT_FEE_RATE_BPS };
}

const PositionSideWire = z.object({
  cost: numeric.nullish(),
  fillPrice: numeric.nullish(),
  realisedPnl: numeric.nullish(),
  unrealizedPnl: numeric.nullish(),
});
const PositionMarketWire = z.object({ slug: z.string().min(1) });
/** A CLOBPosition of the official client's types; only what the bot reads is required to be readable. */
const ClobPositionWire = z.object({
  market: PositionMarketWire,
  tokensBalance: z.object({ yes: rawAmount.nullish(), no: rawAmount.nullish() }).nullish(),
  positions: z.object({ yes: PositionSideWire.nullish(), no: PositionSideWire.nullish() }).nullish(),
  orders: z.object({ totalCollateralLocked: rawAmount.nullish() }).nullish(),
});
/** An AMMPosition: amounts are decimal strings (units unconfirmed); kept as text. */
const AmmPositionWire = z.object({
  market: PositionMarketWire,
  outcomeIndex: integer.nullish(),
  outcomeTokenAmount: z.union([z.string(), z.number()]).transform(String).nullish(),
});
/**
 * GET /portfolio/positions (PortfolioPositionsResponse): `clob`, `group` (NegRisk positions, typed `any[]` by the
 * official client) and `amm` lists, each optional here. A `group` entry is read as a CLOB position when it has that
 * shape, or as a group holding CLOB positions under `markets`/`positions`; anything else is counted, not guessed.
 */
const PositionsWire = z.object({
  clob: z.array(ClobPositionWire).nullish(),
  group: z.array(z.unknown()).nullish(),
  amm: z.array(AmmPositionWire).nullish(),
});

/** Figures as the venue reports them (units as sent). */
export interface PositionFigures {
  readonly cost: number | null;
  readonly fillPrice: number | null;
  readonly realisedPnl: number | null;
  readonly unrealizedPnl: number | null;
}

export interface ClobPosition {
  readonly marketSlug: string;
  readonly yesBalanceRaw: number;
  readonly noBalanceRaw: number;
  readonly yes: PositionFigures | null;
  readonly no: PositionFigures | null;
  readonly collateralLockedRaw: number | null;
  /** The list of the answer it came from (`clob` when absent). */
  readonly list?: 'clob' | 'group';
}

export interface AmmPosition {
  readonly marketSlug: string;
  readonly outcomeIndex: number | null;
  /** `outcomeTokenAmount` as sent (a decimal string; its unit is not confirmed). */
  readonly outcomeTokenAmount: string | null;
}

export interface PortfolioPositions {
  /**
   * Token balances per market, from `clob` and from `group` (a market in both: the `clob` entry). Entries without
   * `tokensBalance` are left out: a balance the venue did not send is unknown, never 0.
   */
  readonly clob: readonly ClobPosition[];
  readonly amm: readonly AmmPosition[];
  /** Every market slug the answer mentions, in any list (entries without balances too). */
  readonly marketSlugs: ReadonlySet<string>;
  /** `group` entries that are neither a CLOB position nor a group of them (their markets are not evidence). */
  readonly unreadableGroupEntries: number;
}

type ClobPositionWireOut = z.output<typeof ClobPositionWire>;

function toClobPosition(p: ClobPositionWireOut, list: 'clob' | 'group'): ClobPosition | null {
  const figures = (f: z.output<typeof PositionSideWire> | null | undefined): PositionFigures | null =>
    f ? { cost: orNull(f.cost), fillPrice: orNull(f.fillPrice), realisedPnl: orNull(f.realisedPnl), unrealizedPnl: orNull(f.unrealizedPnl) } : null;
  const balance = p.tokensBalance;
  if (!balance || balance.yes === null || balance.yes === undefined || balance.no === null || balance.no === undefined) return null;
  return {
    marketSlug: p.market.slug,
    yesBalanceRaw: balance.yes,
    noBalanceRaw: balance.no,
    yes: figures(p.positions?.yes),
    no: figures(p.positions?.no),
    collateralLockedRaw: p.orders?.totalCollateralLocked ?? null,
    list,
  };
}

const GroupOfPositions = z.object({ markets: z.array(z.unknown()) }).or(z.object({ positions: z.array(z.unknown()) }));

/** One `group` entry → the CLOB positions in it; null when its shape is not one of those (see PositionsWire). */
function groupEntryPositions(entry: unknown, endpoint: EndpointRef, status: number, path: readonly PropertyKey[], root: unknown): ClobPositionWireOut[] | null {
  const group = GroupOfPositions.safeParse(entry);
  if (!group.success) {
    const direct = ClobPositionWire.safeParse(entry);
    return direct.success ? [direct.data] : null;
  }
  const key = 'markets' in group.data ? 'markets' : 'positions';
  const items = 'markets' in group.data ? group.data.markets : group.data.positions;
  return items.map((item, index) => parseAnswer(ClobPositionWire, item, endpoint, status, [...path, key, index], root));
}

export function parsePortfolio(data: unknown, endpoint: EndpointRef, status: number): PortfolioPositions {
  const wire = parseAnswer(PositionsWire, data, endpoint, status);
  const marketSlugs = new Set<string>();
  const bySlug = new Map<string, ClobPosition>();
  const add = (p: ClobPositionWireOut, list: 'clob' | 'group'): void => {
    marketSlugs.add(p.market.slug);
    const position = toClobPosition(p, list);
    if (position !== null && !bySlug.has(position.marketSlug)) bySlug.set(position.marketSlug, position);
  };
  for (const p of wire.clob ?? []) add(p, 'clob');
  let unreadableGroupEntries = 0;
  (wire.group ?? []).forEach((entry, index) => {
    const positions = groupEntryPositions(entry, endpoint, status, ['group', index], data);
    if (positions === null) unreadableGroupEntries += 1;
    else for (const p of positions) add(p, 'group');
  });
  const amm = (wire.amm ?? []).map((p) => {
    marketSlugs.add(p.market.slug);
    return { marketSlug: p.market.slug, outcomeIndex: orNull(p.outcomeIndex), outcomeTokenAmount: orNull(p.outcomeTokenAmount) };
  });
  return { clob: [...bySlug.values()], amm, marketSlugs, unreadableGroupEntries };
}

/** The token balances of `parsePortfolio` (CLOB and group lists). */
export function parsePositions(data: unknown, endpoint: EndpointRef, status: number): ClobPosition[] {
  return [...parsePortfolio(data, endpoint, status).clob];
}

/** POST /portfolio/redeem: the answer's shape is not published; an object is returned as is, anything else as null. */
export function parseRedeem(data: unknown, endpoint: EndpointRef, status: number): Readonly<Record<string, unknown>> | null {
  if (data === undefined || data === '' || data === null) return null;
  return parseAnswer(z.record(z.string(), z.unknown()), data, endpoint, status);
}
