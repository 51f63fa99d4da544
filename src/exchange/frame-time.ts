/**
 * The instant of a socket frame, as the venue writes it: an ISO-8601 string, a Date, or a number / numeric string
 * of ms since the epoch; absent or null → null. Shared by every frame schema (socket-wire.ts, lifecycle-wire.ts).
 *
 * Invariant: a value that is none of these, or before the epoch, is a parse failure (never a guessed instant).
 */
import { z } from 'zod';

export const timestampMs = z
  .union([z.number(), z.string(), z.date(), z.null()])
  .optional()
  .transform((value, ctx): number | null => {
    if (value === undefined || value === null) return null;
    const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : /^\d+(?:\.\d+)?$/.test(value.trim()) ? Number(value) : Date.parse(value);
    if (!Number.isFinite(ms) || ms < 0) {
      ctx.addIssue({ code: 'custom', message: 'not an ISO-8601 date or a ms timestamp' });
      return z.NEVER;
    }
    return Math.trunc(ms);
  });
