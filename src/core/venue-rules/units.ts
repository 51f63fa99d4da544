/**
 * The venue's price grid and size units, exact: prices as integer ticks (1 tick = 0.001, so a price p is p/1000),
 * sizes and collateral as raw integers scaled by 1e6, the size step. Every value that is signed, booked or sent
 * is one of these integers; floats exist only inside strategy maths and are rounded once, here.
 *
 * Owns: the grid's constants and bounds, exact decimal parsing and printing of prices and sizes, average prices
 * in micro-units (a fill price that need not lie on the grid), and the one rounding boundary from floats.
 * Invariants: a tick price is an integer in [1, 999]; a raw size is a non-negative safe integer;
 * parsing never goes through a float (decimal strings are split on the point).
 */

export const TICKS_PER_UNIT = 1000;
export const MIN_TICK = 1;
export const MAX_TICK = TICKS_PER_UNIT - 1;
export const RAW_PER_UNIT = 1_000_000;
/** Size step: 0.001 share. */
export const SIZE_STEP_RAW = 1000;
/** Raw units per price tick when turning price into collateral: collateral = size * ticks / 1000. */
export const RAW_PER_TICK = RAW_PER_UNIT / TICKS_PER_UNIT;

export type Side = 'BUY' | 'SELL';
/** A side as the venue codes it: the signed order's `side` field and a public trade's `side`. */
export const SIDE_CODE: Readonly<Record<Side, 0 | 1>> = { BUY: 0, SELL: 1 };
export type Outcome = 'YES' | 'NO';
export type OrderType = 'GTC' | 'FAK' | 'FOK';

export class UnitError extends Error {
  override readonly name = 'UnitError';
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${field}: ${reason} (got ${describeValue(value)})`);
  }
}

export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) {
    return String(value);
  }
  if (typeof value === 'bigint') return `${value}n`;
  return Object.prototype.toString.call(value);
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * Exact decimal → integer scaled by 10^decimals. Rejects anything with more precision than the scale
 * (it would have to be rounded, which is the caller's decision, not the parser's).
 */
export function parseScaled(field: string, value: string | number, decimals: number): number {
  const text = typeof value === 'number' ? numberToPlainString(field, value) : value.trim();
  const match = DECIMAL.exec(text);
  if (!match) throw new UnitError(field, value, 'not a non-negative decimal number');
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) throw new UnitError(field, value, `more than ${decimals} decimal places`);
  const scaled = Number(whole + fraction.padEnd(decimals, '0'));
  if (!Number.isSafeInteger(scaled)) throw new UnitError(field, value, 'too large');
  return scaled;
}

function numberToPlainString(field: string, value: number): string {
  if (!Number.isFinite(value)) throw new UnitError(field, value, 'not a finite number');
  if (value < 0) throw new UnitError(field, value, 'negative');
  // toString gives exponent form for very small/large values; toFixed(12) is exact enough for a
  // decimal the venue printed (it never prints more than 6 places) and keeps parsing float-free.
  const plain = Math.abs(value) < 1e-6 || value >= 1e21 ? value.toFixed(12) : String(value);
  return plain.includes('e') ? value.toFixed(12) : plain;
}

/** A venue price (0.555 or "0.555") → ticks (555). Rejects off-tick prices and prices outside (0, 1). */
export function priceToTicks(field: string, value: string | number): number {
  const ticks = parseScaled(field, value, 3);
  if (ticks < MIN_TICK || ticks > MAX_TICK) throw new UnitError(field, value, 'price outside (0, 1)');
  return ticks;
}

/**
 * A price that may be an average (more decimals than the tick grid) → exact micro-units, rounded half-up
 * past the 6th decimal, no float involved. Must lie in [0, 1).
 */
export function averagePriceMicros(field: string, value: string | number): number {
  const text = typeof value === 'number' ? (Math.abs(value) < 1e-6 ? value.toFixed(12) : String(value)) : value.trim();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new UnitError(field, value, 'not a non-negative decimal price');
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  let micros = parseScaled(field, `${whole}.${fraction.slice(0, 6) || '0'}`, 6);
  if (fraction.length > 6 && fraction.charCodeAt(6) >= 53 /* '5' */) micros += 1;
  if (micros >= 1_000_000) throw new UnitError(field, value, 'price must be below 1');
  return micros;
}

/** Ticks of a micro-unit price when it lies on the tick grid inside (0, 1), else null. */
export function ticksIfOnGrid(micros: number): number | null {
  if (micros % 1_000 !== 0) return null;
  const ticks = micros / 1_000;
  return ticks >= MIN_TICK && ticks <= MAX_TICK ? ticks : null;
}

/** Ticks → the venue's decimal price string ("0.555"). */
export function ticksToPrice(ticks: number): string {
  assertTicks('price', ticks);
  return (ticks / TICKS_PER_UNIT).toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
}

/** Ticks → price as a float, for strategy maths and display only. */
export function ticksToFloat(ticks: number): number {
  return ticks / TICKS_PER_UNIT;
}

/** Shares in venue units ("7.123" or 7.123) → raw (7,123,000). Exact; rejects > 6 decimals. */
export function sharesToRaw(field: string, value: string | number): number {
  return parseScaled(field, value, 6);
}

/** Raw → decimal string in units ("7.123"). */
export function rawToDecimal(raw: number): string {
  const negative = raw < 0;
  const abs = Math.abs(raw);
  const whole = Math.floor(abs / RAW_PER_UNIT);
  const fraction = String(abs % RAW_PER_UNIT).padStart(6, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Raw → float units, for display and strategy maths only. */
export function rawToFloat(raw: number): number {
  return raw / RAW_PER_UNIT;
}

export function assertTicks(field: string, ticks: number): void {
  if (!Number.isInteger(ticks) || ticks < MIN_TICK || ticks > MAX_TICK) {
    throw new UnitError(field, ticks, `price must be an integer tick in [${MIN_TICK}, ${MAX_TICK}]`);
  }
}

export function assertRaw(field: string, raw: number): void {
  if (!Number.isSafeInteger(raw) || raw < 0) throw new UnitError(field, raw, 'must be a non-negative safe integer');
}

/** The complement price of an outcome token: a YES price p is a NO price 1 − p. */
export function complementTicks(ticks: number): number {
  return TICKS_PER_UNIT - ticks;
}

export function oppositeOutcome(outcome: Outcome): Outcome {
  return outcome === 'YES' ? 'NO' : 'YES';
}

/**
 * The one rounding boundary from strategy floats to ticks: bids (BUY) round down, asks (SELL) up,
 * so rounding never makes a quote more aggressive than the strategy asked for.
 */
export function roundPriceToTicks(price: number, side: Side): number {
  if (!Number.isFinite(price)) throw new UnitError('price', price, 'not a finite number');
  const scaled = price * TICKS_PER_UNIT;
  // Snap values within float noise of an integer tick before directional rounding (0.555*1000 = 555.0000000001).
  const nearest = Math.round(scaled);
  const exact = Math.abs(scaled - nearest) < 1e-7 ? nearest : scaled;
  return side === 'BUY' ? Math.floor(exact) : Math.ceil(exact);
}

/** Float shares → raw, rounded DOWN to the size step (never quote more than asked). */
export function roundSizeToStep(shares: number): number {
  if (!Number.isFinite(shares) || shares < 0) throw new UnitError('size', shares, 'not a finite non-negative number');
  const raw = shares * RAW_PER_UNIT;
  const nearest = Math.round(raw);
  const exact = Math.abs(raw - nearest) < 1e-3 ? nearest : raw;
  return Math.floor(exact / SIZE_STEP_RAW) * SIZE_STEP_RAW;
}
