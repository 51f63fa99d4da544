/**
 * An instant as the venue writes it in a market object, read leniently: an ISO 8601 string (`createdAt` in the
 * recorded `/markets/active` items: "2025-12-17T00:02:09.571Z"), or a number of milliseconds (or seconds, below 1e11,
 * as `expirationTimestamp` may be).
 *
 * Owns: this one reading. Invariant: never throws; anything it cannot read is null (an informational field must not
 * make a market unparseable).
 */
export function instantMsOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? (value < 1e11 ? value * 1000 : value) : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}
