/**
 * Zod schemas of every Socket.IO frame the market feed receives (exchange-facts §5), and their typed,
 * venue-neutral outputs: integer price ticks, raw (1e6) integer amounts, string ids, ms timestamps.
 *
 * Owns: the wire format of `orderbookUpdate`, `orderEvent` (OME | SETTLEMENT, discriminated by `source`),
 * `positions`, `marketResolved`, `system`, `exception` and `oraclePriceData` (`marketCreated`: lifecycle-wire.ts). Consumers (book store, order manager, ledger)
 * import the output types from here (declared in socket-frames.ts, re-exported) and never see a wire field.
 *
 * Units, decided here once:
 * - Book and limit prices are decimals in (0, 1) on the 0.001 grid ("0.555" or 0.555) → ticks (555);
 *   off-grid → malformed. Order-event prices may be AVERAGE fill prices (a FOK execution, a taker's
 *   settlement over several makers) and need not be on the grid: they are kept exactly as micro-units
 *   (`priceMicros` = price × 1e6, rounded half-up past 6 decimals) with `priceTicks` set only when on-grid.
 * - Book level sizes are shares (exchange-facts §5: "size in shares") → raw via exact decimal parsing;
 *   `BookSizeUnit` 'raw' switches to integer raw sizes, matching the REST client's option.
 * - Order-event and position AMOUNTS (OME remainingSize, SETTLEMENT matchedSize / amountContracts /
 *   amountCollateral / fee amounts, positions ctfBalance) follow `AmountUnit`. Default 'raw': the
 *   specification writes the same order fields (UserOrder.remainingSize, MarketTrade.matchedSize, …) as
 *   "raw 6-decimal units, decimal string", so "5000000" is 5 shares; a fractional raw value must have only
 *   zeros after the point. 'shares' reads them as whole units with up to 6 decimals ("5" → 5,000,000).
 *   The venue's choice is not documented for the socket: the feed takes it from src/book/size-units.ts
 *   (configured, or settled from evidence) and logs it.
 * - SETTLEMENT frames: only `eventId`, `source`, `type`, `timestamp` are required (the official client types every
 *   other field optional); `tradeEventId` falls back to `settlement:<id>` in the event id, else the event id itself.
 * - Numbers may arrive as strings; ids may arrive as numbers (kept as decimal strings; an unsafe integer id
 *   is rejected, since it already lost digits in JSON).
 * - Timestamps: ISO-8601 strings, Date objects, or numbers / numeric strings in ms since the epoch; absent → null.
 *
 * Invariant: a parse either returns a fully typed frame or a failure naming the first offending field path
 * and the value found there; it never throws. Unknown extra fields are ignored (the venue adds fields).
 */
import { z } from 'zod';
import {
  averagePriceMicros,
  parseScaled,
  pickFee,
  priceToTicks,
  sharesToRaw,
  ticksIfOnGrid,
  UnitError,
  type Level,
  type OmeOrderEvent,
  type SettlementMakerMatch,
  type SettlementOrderEvent,
  type Side,
} from '../core/venue-rules/index.js';
import { timestampMs } from './frame-time.js';
import { marketCreatedSchema } from './lifecycle-wire.js';
import type {
  AmountUnit,
  BookSizeUnit,
  FeedEventName,
  FeedFrameMap,
  MarketResolvedFrame,
  NoticeFrame,
  OraclePriceFrame,
  OrderbookFrame,
  ParseResult,
  PositionsFrame,
} from './socket-frames.js';

export {
  FEED_EVENTS,
  isFeedEventName,
  type AmountUnit,
  type BookSizeUnit,
  type FeedEventName,
  type FeedFrameMap,
  type MarketResolvedFrame,
  type NoticeFrame,
  type OraclePriceFrame,
  type OrderbookFrame,
  type ParseResult,
  type PositionEntry,
  type PositionsFrame,
  type SizeUnit,
} from './socket-frames.js';

// ---------------------------------------------------------------------------------------------------------
// Field schemas

const numeric = z.union([z.number(), z.string()]);

function converted<T>(convert: (value: string | number) => T): z.ZodType<T> {
  return numeric.transform((value, ctx) => {
    try {
      return convert(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: error instanceof UnitError ? error.reason : String(error) });
      return z.NEVER;
    }
  });
}

const priceTicks = converted((v) => priceToTicks('price', v));
const averagePrice = converted((v) => averagePriceMicros('price', v));
const optionalAveragePrice = z
  .union([averagePrice, z.null()])
  .optional()
  .transform((v) => v ?? null);

const sharesRaw = converted((v) => sharesToRaw('size', v));

function amountRaw(unit: AmountUnit): z.ZodType<number> {
  return unit === 'raw' ? converted((v) => parseScaled('amount', v, 0)) : sharesRaw;
}

const finiteFloat = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((value, ctx): number | null => {
    if (value === undefined || value === null || value === '') return null;
    const n = typeof value === 'number' ? value : Number(value);
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: 'custom', message: 'not a finite number' });
      return z.NEVER;
    }
    return n;
  });

/** Ids: non-empty strings, or safe integers kept as decimal text. */
const id = z.union([
  z.string().min(1),
  z
    .number()
    .refine((n) => Number.isSafeInteger(n) && n >= 0, 'numeric id must be a non-negative safe integer')
    .transform((n) => String(n)),
]);
const optionalId = z
  .union([id, z.null()])
  .optional()
  .transform((value) => value ?? undefined);

const side = z.union([z.string(), z.number()]).transform((value, ctx): Side => {
  if (value === 0) return 'BUY';
  if (value === 1) return 'SELL';
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (upper === 'BUY' || upper === 'SELL') return upper;
  ctx.addIssue({ code: 'custom', message: 'side must be BUY or SELL' });
  return z.NEVER;
});

function upperEnum<const T extends readonly [string, ...string[]]>(values: T): z.ZodType<T[number]> {
  return z.string().transform((value, ctx): T[number] => {
    const upper = value.trim().toUpperCase();
    const match = values.find((v) => v === upper);
    if (match === undefined) {
      ctx.addIssue({ code: 'custom', message: `must be one of ${values.join(', ')}` });
      return z.NEVER;
    }
    return match;
  });
}

const optionalText = z
  .union([z.string(), z.null()])
  .optional()
  .transform((value) => (value === null || value === undefined || value === '' ? undefined : value));

// ---------------------------------------------------------------------------------------------------------
// Frame schemas

/**
 * Book levels, parsed by hand rather than with a schema per level: a 100-level frame is the hottest thing
 * the feed parses, and this loop is several times cheaper than a zod object per level. Same rules: an
 * array of `{price, size}` objects (numbers or strings), price → ticks, size → raw (per `BookSizeUnit`); the first
 * bad field is reported with its path (`[3].price`, relative to the side).
 */
function levelsSchema(sizeUnit: BookSizeUnit) {
  const toRaw =
    sizeUnit === 'shares' ? (v: string | number) => sharesToRaw('size', v) : (v: string | number) => parseScaled('size', v, 0);
  return z.array(z.unknown()).transform((items, ctx): Level[] => {
    const out = new Array<Level>(items.length);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (item === null || typeof item !== 'object') {
        ctx.addIssue({ code: 'custom', path: [i], message: 'level must be an object {price, size}' });
        return z.NEVER;
      }
      const price: unknown = Reflect.get(item, 'price');
      const size: unknown = Reflect.get(item, 'size');
      let priceTicks: number;
      try {
        priceTicks = priceToTicks('price', numericInput(price));
      } catch (error) {
        ctx.addIssue({ code: 'custom', path: [i, 'price'], message: unitMessage(error) });
        return z.NEVER;
      }
      let sizeRaw: number;
      try {
        sizeRaw = toRaw(numericInput(size));
      } catch (error) {
        ctx.addIssue({ code: 'custom', path: [i, 'size'], message: unitMessage(error) });
        return z.NEVER;
      }
      out[i] = { priceTicks, sizeRaw };
    }
    return out;
  });
}

function numericInput(value: unknown): string | number {
  if (typeof value === 'string' || typeof value === 'number') return value;
  throw new UnitError('value', value, 'not a number or numeric string');
}

function unitMessage(error: unknown): string {
  return error instanceof UnitError ? error.reason : String(error);
}

const adjustedMidpoint = finiteFloat.transform((value, ctx): number | null => {
  if (value === null) return null;
  if (value < 0 || value > 1) {
    ctx.addIssue({ code: 'custom', message: 'adjusted midpoint must be in [0, 1]' });
    return z.NEVER;
  }
  return value;
});

function orderbookUpdateSchema(sizeUnit: BookSizeUnit) {
  const levels = levelsSchema(sizeUnit);
  return z
    .object({
      marketSlug: z.string().min(1),
      orderbook: z.object({
        bids: levels,
        asks: levels,
        tokenId: optionalId,
        adjustedMidpoint,
      }),
      timestamp: timestampMs,
    })
    .transform(
      (frame): OrderbookFrame => ({
        slug: frame.marketSlug,
        snapshot: {
          bids: frame.orderbook.bids,
          asks: frame.orderbook.asks,
          adjustedMidpoint: frame.orderbook.adjustedMidpoint,
          tokenId: frame.orderbook.tokenId ?? null,
        },
        tokenId: frame.orderbook.tokenId ?? null,
        venueTimestampMs: frame.timestamp,
      }),
    );
}

function omeSchema(unit: AmountUnit) {
  return z
    .object({
      source: z.literal('OME'),
      type: upperEnum(['PLACEMENT', 'UPDATE', 'CANCELLATION', 'EXECUTION'] as const),
      eventId: id,
      orderId: id,
      clientOrderId: optionalId,
      marketId: id,
      token: id,
      side,
      price: optionalAveragePrice,
      remainingSize: amountRaw(unit),
      matchedSize: z
        .union([amountRaw(unit), z.null()])
        .optional()
        .transform((v) => v ?? undefined),
      marketSlug: optionalText,
      status: upperEnum(['FILLED', 'PARTIALLY_FILLED', 'KILLED'] as const)
        .nullable()
        .optional()
        .transform((v) => v ?? undefined),
      reason: optionalText,
      timestamp: timestampMs,
    })
    .transform(
      (f): OmeOrderEvent => ({
        source: 'OME',
        type: f.type,
        eventId: f.eventId,
        orderId: f.orderId,
        ...(f.clientOrderId === undefined ? {} : { clientOrderId: f.clientOrderId }),
        marketId: f.marketId,
        token: f.token,
        side: f.side,
        priceTicks: f.price === null ? null : ticksIfOnGrid(f.price),
        priceMicros: f.price,
        remainingRaw: f.remainingSize,
        ...(f.matchedSize === undefined ? {} : { matchedRaw: f.matchedSize }),
        ...(f.marketSlug === undefined ? {} : { marketSlug: f.marketSlug }),
        ...(f.status === undefined ? {} : { status: f.status }),
        ...(f.reason === undefined ? {} : { reason: f.reason }),
        timestampMs: f.timestamp,
      }),
    );
}

const SETTLEMENT_PREFIX = 'settlement:';

function settlementSchema(unit: AmountUnit) {
  const amount = amountRaw(unit);
  const optionalAmount = z
    .union([amount, z.null()])
    .optional()
    .transform((v) => v ?? undefined);
  const optionalSide = z
    .union([side, z.null()])
    .optional()
    .transform((v) => v ?? undefined);
  return z
    .object({
      source: z.literal('SETTLEMENT'),
      type: upperEnum(['MATCHED', 'MINED', 'FAILED'] as const),
      eventId: id,
      tradeEventId: optionalId,
      orderId: optionalId,
      takerOrderId: optionalId,
      takerAccount: optionalText,
      clientOrderId: optionalId,
      makerMatches: z
        .array(
          z.object({ account: z.string().min(1), orderId: id, matchedSize: amount, price: priceTicks }).transform(
            (m): SettlementMakerMatch => ({
              account: m.account,
              orderId: m.orderId,
              matchedSizeRaw: m.matchedSize,
              priceTicks: m.price,
            }),
          ),
        )
        .nullable()
        .optional()
        .transform((v) => v ?? []),
      marketSlug: optionalText,
      tokenId: optionalId,
      token: upperEnum(['YES', 'NO'] as const)
        .nullable()
        .optional()
        .transform((v) => v ?? undefined),
      side: optionalSide,
      price: optionalAveragePrice,
      amountContracts: optionalAmount,
      amountCollateral: optionalAmount,
      feeAmountContracts: optionalAmount,
      feeAmountCollateral: optionalAmount,
      feeAmount: optionalAmount,
      fee: optionalAmount,
      effectiveFeeBps: finiteFloat,
      isEstimate: z
        .boolean()
        .nullable()
        .optional()
        .transform((v) => v ?? undefined),
      txHash: optionalText,
      timestamp: timestampMs,
    })
    .transform((f): SettlementOrderEvent => {
      // The trade's id: sent, else the event id's `settlement:<tradeEventId>`, else the event id itself (it is
      // shared by the MATCHED and the MINED/FAILED of one trade either way).
      const fromEventId = f.eventId.startsWith(SETTLEMENT_PREFIX) ? f.eventId.slice(SETTLEMENT_PREFIX.length) : '';
      const tradeEventId = f.tradeEventId ?? (fromEventId === '' ? f.eventId : fromEventId);
      const fee = pickFee(f.side, f.feeAmountContracts, f.feeAmountCollateral ?? f.feeAmount ?? f.fee);
      return {
        source: 'SETTLEMENT',
        type: f.type,
        eventId: f.eventId,
        tradeEventId,
        ...(f.orderId === undefined ? {} : { orderId: f.orderId }),
        ...(f.takerOrderId === undefined ? {} : { takerOrderId: f.takerOrderId }),
        ...(f.takerAccount === undefined ? {} : { takerAccount: f.takerAccount }),
        ...(f.clientOrderId === undefined ? {} : { clientOrderId: f.clientOrderId }),
        makerMatches: f.makerMatches,
        ...(f.marketSlug === undefined ? {} : { marketSlug: f.marketSlug }),
        ...(f.tokenId === undefined ? {} : { tokenId: f.tokenId }),
        ...(f.token === undefined ? {} : { token: f.token }),
        ...(f.side === undefined ? {} : { side: f.side }),
        priceMicros: f.price,
        priceTicks: f.price === null ? null : ticksIfOnGrid(f.price),
        ...(f.amountContracts === undefined ? {} : { amountContractsRaw: f.amountContracts }),
        ...(f.amountCollateral === undefined ? {} : { amountCollateralRaw: f.amountCollateral }),
        ...(fee === null ? {} : { feeRaw: fee.raw, feeUnit: fee.unit }),
        ...(f.effectiveFeeBps === null ? {} : { effectiveFeeBps: f.effectiveFeeBps }),
        isEstimate: f.isEstimate ?? f.type === 'MATCHED',
        ...(f.txHash === undefined ? {} : { txHash: f.txHash }),
        timestampMs: f.timestamp,
      };
    });
}

function orderEventSchema(unit: AmountUnit) {
  return z.discriminatedUnion('source', [omeSchema(unit), settlementSchema(unit)]);
}

function positionsSchema(unit: AmountUnit) {
  return z
    .object({
      account: z.string().min(1),
      marketSlug: z.string().min(1),
      positions: z.array(
        z.object({
          tokenId: id,
          ctfBalance: amountRaw(unit),
          averageFillPrice: finiteFloat,
          costBasis: finiteFloat,
          marketValue: finiteFloat,
          marketId: optionalId,
        }),
      ),
      type: optionalText,
    })
    .transform(
      (f): PositionsFrame => ({
        account: f.account,
        marketSlug: f.marketSlug,
        positions: f.positions.map((p) => ({
          tokenId: p.tokenId,
          balanceRaw: p.ctfBalance,
          averageFillPrice: p.averageFillPrice,
          costBasis: p.costBasis,
          marketValue: p.marketValue,
          marketId: p.marketId ?? null,
        })),
        type: f.type ?? null,
      }),
    );
}

const oraclePriceSchema = z
  .object({
    marketAddress: z.string().nullable().optional(),
    marketSlug: z.string().min(1),
    timestamp: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]),
    value: z.union([z.number(), z.string().regex(/^-?\d+(?:\.\d+)?$/).transform(Number)]),
  })
  .transform((f): OraclePriceFrame => ({ slug: f.marketSlug, marketAddress: f.marketAddress ?? null, timestampMs: f.timestamp, value: f.value }));

const marketResolvedSchema = z
  .object({
    slug: z.string().min(1),
    winningOutcome: upperEnum(['YES', 'NO'] as const)
      .nullable()
      .optional(),
    winningIndex: z
      .union([z.number().int().min(0), z.string().regex(/^\d+$/).transform(Number), z.null()])
      .optional(),
    resolutionDate: timestampMs,
  })
  .transform(
    (f): MarketResolvedFrame => ({
      slug: f.slug,
      winningOutcome: f.winningOutcome ?? null,
      winningIndex: f.winningIndex ?? null,
      resolutionDateMs: f.resolutionDate,
    }),
  );

const noticeSchema = z.unknown().transform((payload): NoticeFrame => ({ message: noticeMessage(payload), payload }));

function noticeMessage(payload: unknown): string | null {
  if (typeof payload === 'string') return payload;
  if (payload !== null && typeof payload === 'object') {
    for (const key of ['message', 'error', 'msg'] as const) {
      const value: unknown = Reflect.get(payload, key);
      if (typeof value === 'string') return value;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// Parsers

/** A validated frame, tagged with its event name (switch on `event` to narrow `frame`). */
export type ParsedFrame = { [E in FeedEventName]: { readonly event: E; readonly frame: FeedFrameMap[E] } }[FeedEventName];

export interface FrameParsers {
  parse(event: FeedEventName, payload: unknown): ParseResult<ParsedFrame>;
}

export interface FrameUnits {
  /** Default 'raw' (see the header). */
  readonly amountUnit?: AmountUnit;
  /** Default 'shares'. */
  readonly bookSizeUnit?: BookSizeUnit;
}

const parserCache = new Map<string, FrameParsers>();

/** Parsers for every feed event, for one choice of units (cached). */
export function frameParsers(units: FrameUnits = {}): FrameParsers {
  const amountUnit = units.amountUnit ?? 'raw';
  const bookSizeUnit = units.bookSizeUnit ?? 'shares';
  const key = `${amountUnit}/${bookSizeUnit}`;
  const cached = parserCache.get(key);
  if (cached !== undefined) return cached;
  const orderbookUpdate = orderbookUpdateSchema(bookSizeUnit);
  const orderEvent = orderEventSchema(amountUnit);
  const positions = positionsSchema(amountUnit);
  const parsers: FrameParsers = {
    parse(event, payload) {
      switch (event) {
        case 'orderbookUpdate':
          return run(orderbookUpdate, payload, (frame) => ({ event, frame }));
        case 'orderEvent':
          return run(orderEvent, payload, (frame) => ({ event, frame }));
        case 'positions':
          return run(positions, payload, (frame) => ({ event, frame }));
        case 'marketResolved':
          return run(marketResolvedSchema, payload, (frame) => ({ event, frame }));
        case 'marketCreated':
          return run(marketCreatedSchema, payload, (frame) => ({ event, frame }));
        case 'system':
        case 'exception':
          return run(noticeSchema, payload, (frame) => ({ event, frame }));
        case 'oraclePriceData':
          return run(oraclePriceSchema, payload, (frame) => ({ event, frame }));
      }
    },
  };
  parserCache.set(key, parsers);
  return parsers;
}

function run<T>(schema: z.ZodType<T>, payload: unknown, tag: (value: T) => ParsedFrame): ParseResult<ParsedFrame> {
  const result = schema.safeParse(payload);
  if (result.success) return { ok: true, value: tag(result.data) };
  const issue = result.error.issues[0];
  const path = issue?.path ?? [];
  return { ok: false, path: formatPath(path), value: valueAt(payload, path), message: issue?.message ?? 'invalid' };
}

/** `orderbook.bids[3].price` style. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(frame)' : out;
}

/** The value found at `path` inside `payload` (undefined when the path leads nowhere). */
export function valueAt(payload: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = payload;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = Reflect.get(current, key);
  }
  return current;
}
