/**
 * The config's exact units as zod types: prices → ticks, shares → raw, USDC → raw, each parsed as an exact decimal
 * (a YAML number or a decimal string, never through float arithmetic). Shared by the sections' schemas (schema.ts,
 * markets-schema.ts).
 *
 * Also the bounded durations (`…Sec` seconds, `…Ms` milliseconds, with their defaults) and the `{min, max}` price band.
 *
 * Owns: these conversions' zod wrappers. Invariants: a UnitError becomes a zod issue at the field's path, with the
 * value found; nothing is rounded.
 */
import { z } from 'zod';
import { priceToTicks, sharesToRaw, parseScaled, UnitError } from '../core/venue-rules/index.js';
import type { PriceBand } from './types.js';

const decimalInput = z.union([z.number(), z.string()], {
  error: (issue) => (issue.input === undefined ? 'required' : 'expected a number (or a decimal string)'),
});

/** Exact decimal conversion; a UnitError becomes a zod issue at the field's path. */
export function exact<T>(convert: (value: string | number) => T) {
  return decimalInput.transform((value, ctx): T => {
    try {
      return convert(value);
    } catch (error) {
      if (!(error instanceof UnitError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.reason, input: value });
      return z.NEVER;
    }
  });
}

/** A price in (0, 1) with at most 3 decimals → ticks. */
export const price = exact((value) => priceToTicks('price', value));
/** Shares (up to 6 decimals) → raw. */
export const shares = exact((value) => sharesToRaw('size', value));
/** USDC (up to 6 decimals) → raw. */
export const usdc = exact((value) => parseScaled('amount', value, 6));

/** `{min, max}` prices → a band in ticks, min below max. */
export const band = z
  .strictObject({ min: price, max: price })
  .superRefine((b, ctx) => {
    if (b.min >= b.max) ctx.addIssue({ code: 'custom', path: ['max'], message: 'max must be above min', input: b.max / 1000 });
  })
  .transform((b): PriceBand => ({ minTicks: b.min, maxTicks: b.max }));

export const priceBand = (min: number, max: number) => band.prefault({ min, max });

export const seconds = (fallback: number, max = 86_400 * 30) => z.number().min(0).max(max).default(fallback);
export const positiveSeconds = (fallback: number, max = 86_400) => z.number().positive().max(max).default(fallback);
export const milliseconds = (fallback: number, min = 0, max = 3_600_000) => z.int().min(min).max(max).default(fallback);
