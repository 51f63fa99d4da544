/**
 * Matching maker fills to the public trades that filled them, pure: a fill's trade carries its `txHash`; where one
 * transaction holds several trades, the trade whose taker can have met the fill (src/strategy/rebates.ts
 * `matchKindOf`: the same token on the other side, or the other token on the same side) and whose size fits it is
 * taken — first the one of exactly the fill's size, else the smallest one at least as large, else none.
 *
 * Owns: that choice and how far back a read of the newest-first feed must reach. Invariants: a fill without a txHash
 * (not mined yet) is never matched; a trade never matches a fill its taker cannot have met.
 */
import type { PendingRebate } from '../ledger/index.js';
import { matchKindOf, type TakerTrade } from '../strategy/rebates.js';

/** A public trade as the match needs it (src/exchange/wire-trades.ts `MarketTrade`). */
export interface FeedTrade extends TakerTrade {
  readonly txHash: string | null;
  readonly matchedSizeRaw: number;
  readonly createdAtMs: number;
}

/** A fill is booked after its match (the venue's settlement delay, the bot's frame): the feed is read this far before the earliest fill. */
export const FEED_COVER_SLACK_MS = 60_000;

/** The trade of each fill that has one among `trades`, by fill id. */
export function matchFillsToTrades<T extends FeedTrade>(fills: readonly PendingRebate[], trades: readonly T[]): Map<number, T> {
  const byTx = new Map<string, T[]>();
  for (const trade of trades) {
    if (trade.txHash === null) continue;
    const list = byTx.get(trade.txHash);
    if (list === undefined) byTx.set(trade.txHash, [trade]);
    else list.push(trade);
  }
  const out = new Map<number, T>();
  for (const fill of fills) {
    if (fill.txHash === null) continue;
    const fitting = (byTx.get(fill.txHash) ?? []).filter((t) => matchKindOf(fill, t) !== null && t.matchedSizeRaw >= fill.sizeRaw);
    const exact = fitting.find((t) => t.matchedSizeRaw === fill.sizeRaw);
    const smallest = fitting.reduce<T | undefined>((best, t) => (best === undefined || t.matchedSizeRaw < best.matchedSizeRaw ? t : best), undefined);
    const chosen = exact ?? smallest;
    if (chosen !== undefined) out.set(fill.fillId, chosen);
  }
  return out;
}

/** True when a newest-first page whose oldest trade is `oldestMs` reaches back past every fill from `earliestFillMs` on. */
export function feedCovers(oldestMs: number, earliestFillMs: number): boolean {
  return oldestMs < earliestFillMs - FEED_COVER_SLACK_MS;
}
