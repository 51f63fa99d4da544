/**
 * The REST wire format's field schemas (numbers as strings, raw 1e6 amounts floored to the raw unit, prices on the
 * tick grid, order prices that may be a FOK's average, sizes in shares, ISO times, addresses, token ids, sides) and
 * `parseAnswer`, which parses an answer with a schema and names each offending field path and value.
 *
 * Owns: how one field of an answer is read. Invariants: a value is accepted only in its exact unit (a tick, a raw
 * integer) or rejected with its path and value; a size the venue left out is null, never 0.
 *
 * Part of the REST wire format (wire.ts re-exports every part; callers import wire.ts). Rules of every part: extra
 * fields are tolerated (and dropped); numbers sent as strings are accepted; wrong types are rejected with a
 * ResponseValidationError naming the field path and value (parseAnswer); prices become integer ticks and amounts raw
 * 1e6 integers wherever the bot signs, books or compares them.
 */
import { getAddress, isAddress, type Address } from 'viem';
import { z } from 'zod';
import { parseScaled, priceToTicks, RAW_PER_UNIT, UnitError, type Side } from '../core/venue-rules/index.js';
import { ResponseValidationError, type EndpointRef, type ResponseIssue } from './errors.js';

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
export const orderPrice = z.union([z.number().nonnegative(), z.string().trim().regex(RAW_STRING, 'not a non-negative decimal')]);

/** `price` of an order of `type` → its limit in ticks, or null for a FOK (no limit); throws naming `path`. */
export function orderPriceTicks(
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
export const sharesAsRaw = z.union([z.number().nonnegative(), z.string()]).transform((value, ctx) => {
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
export const idText = z.union([z.string().min(1), z.number()]).transform(String);

export const sideName = z.enum(['BUY', 'SELL']);
/** 0/1, "0"/"1" or "BUY"/"SELL" → Side. */
export const anySide = z.union([z.number(), z.string()]).transform((value, ctx): Side => {
  const text = String(value).toUpperCase();
  if (text === '0' || text === 'BUY') return 'BUY';
  if (text === '1' || text === 'SELL') return 'SELL';
  ctx.addIssue({ code: 'custom', message: 'not a side (0, 1, BUY, SELL)' });
  return z.NEVER;
});

export function orNull<T>(value: T | null | undefined): T | null {
  return value ?? null;
}

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
