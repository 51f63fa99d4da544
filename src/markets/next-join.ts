/**
 * The next market the bot expects to join, for the status line and `outcome-maker status` between two ladders: among
 * the listed candidates not joined, the one whose join window (`markets.select.joinBeforeSettlementSec` before its
 * settlement) opens first, and when.
 *
 * Owns: that reading (pure). Invariants: only a market still open when its window opens counts (its stop before
 * settlement after the join time); without a join window (no `joinBeforeSettlementSec`) nothing is expected by time,
 * so the answer is null; it names what the listing shows, never a market not yet listed.
 */
import type { Market } from '../exchange/wire.js';

export interface ExpectedJoin {
  readonly slug: string;
  /** When its join window opens, ms since the epoch. */
  readonly atMs: number;
}

export interface NextJoinInput {
  readonly candidates: readonly Pick<Market, 'slug' | 'expirationMs' | 'resolved' | 'expired'>[];
  /** Markets joined now. */
  readonly joined: ReadonlySet<string>;
  readonly nowMs: number;
  /** `markets.select.joinBeforeSettlementSec` in ms, or null (no join window). */
  readonly joinBeforeSettlementMs: number | null;
  /** When a market stops being quoted (its stop before settlement), or null (unknown). */
  readonly leaveAtMs: (slug: string) => number | null;
}

/** The candidate whose join window opens first after now (the slug breaks ties), or null. Pure. */
export function nextExpectedJoin(input: NextJoinInput): ExpectedJoin | null {
  const join = input.joinBeforeSettlementMs;
  if (join === null) return null;
  let best: ExpectedJoin | null = null;
  for (const market of input.candidates) {
    if (input.joined.has(market.slug) || market.resolved || market.expired || market.expirationMs === null) continue;
    const atMs = market.expirationMs - join;
    if (atMs <= input.nowMs) continue;
    const leaveAt = input.leaveAtMs(market.slug);
    if (leaveAt !== null && leaveAt <= atMs) continue;
    if (best === null || atMs < best.atMs || (atMs === best.atMs && market.slug < best.slug)) best = { slug: market.slug, atMs };
  }
  return best;
}

/** "in 3 min 20 s (19:00:00 UTC)". Pure. */
export function describeExpectedJoin(join: ExpectedJoin, nowMs: number): string {
  const totalSec = Math.max(0, Math.round((join.atMs - nowMs) / 1000));
  const min = Math.floor(totalSec / 60);
  const sec = totalSec % 60;
  const inText = min === 0 ? `${sec} s` : `${min} min ${sec} s`;
  return `${join.slug} in ${inText} (${new Date(join.atMs).toISOString().slice(11, 19)} UTC)`;
}
