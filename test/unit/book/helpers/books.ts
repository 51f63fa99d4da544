/** Test builders for book snapshots: `snap([[500, 10]], [[510, 5]])` = bids/asks as [ticks, shares]. */
import type { BookSnapshot } from '../../../../src/book/snapshot.js';
import type { Level } from '../../../../src/core/venue-rules/index.js';

export function levels(pairs: ReadonlyArray<readonly [number, number]>): Level[] {
  return pairs.map(([priceTicks, shares]) => ({ priceTicks, sizeRaw: Math.round(shares * 1_000_000) }));
}

export function snap(
  bids: ReadonlyArray<readonly [number, number]>,
  asks: ReadonlyArray<readonly [number, number]>,
  adjustedMidpoint: number | null = null,
): BookSnapshot {
  return { bids: levels(bids), asks: levels(asks), adjustedMidpoint };
}

/** A valid book with `n` levels per side around `mid` ticks (1-tick gaps), sizes 1..n shares. */
export function ladder(n: number, midTicks = 500, sizeShares = 1): BookSnapshot {
  const bids: Level[] = [];
  const asks: Level[] = [];
  for (let i = 0; i < n; i++) {
    bids.push({ priceTicks: midTicks - 1 - i, sizeRaw: (i + 1) * sizeShares * 1_000_000 });
    asks.push({ priceTicks: midTicks + 1 + i, sizeRaw: (i + 1) * sizeShares * 1_000_000 });
  }
  return { bids, asks, adjustedMidpoint: midTicks / 1000 };
}
