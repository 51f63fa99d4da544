/**
 * The replay's time-weighted |inventory| of one market: ∫ |YES − NO| dt over the time the market was TRADED (from its
 * join to its leave), divided by that time. The replay keeps sampling a market after it left (its series shows its
 * orders gone) while it still holds shares until settlement; those samples are not part of the traded time, so they
 * add nothing to the integral (counting them against the traded time alone put the mean above the max |inventory|).
 *
 * Owns: the integral's step and the mean (pure). Invariants: each interval is counted with the |net| seen at its end (a
 * sample reads the holding at that moment, never above the market's max |inventory|), only while the market is traded;
 * so the mean never exceeds the max.
 */

/** What one sample interval adds to ∫ |net| dt (raw 1e6 shares × ms): nothing once the market has left. Pure. */
export function inventoryStepRawMs(netRaw: number, dtMs: number, traded: boolean): number {
  return traded && dtMs > 0 ? Math.abs(netRaw) * dtMs : 0;
}

/** The mean |inventory| (raw) over the traded time (at least 1 ms). Pure. */
export function timeWeightedInventoryRaw(integralRawMs: number, tradedMs: number): number {
  return integralRawMs / Math.max(1, tradedMs);
}
