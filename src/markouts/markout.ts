/**
 * Markouts: what a fill was worth some time after it happened, measured against a fair price at that later instant.
 * A maker's first question about a fill is whether the price ran through it: a positive markout is spread captured,
 * a negative one adverse selection.
 *
 * Owns: the markout of one fill at one horizon, and the per-horizon summary of many fills (pure; floats in USDC and
 * price units, for reports only, never booked). Invariants: a fill is always seen in YES terms (a bid fill bought YES
 * exposure at `price`, an ask fill sold it), so BUY NO at q counts as an ask at 1 − q; a fill whose later fair price
 * is unknown (the series ends before the horizon) is left out of that horizon's figures, never guessed.
 */

/** The horizons every report uses: 1 s, 10 s, 60 s and 5 min. */
export const MARKOUT_HORIZONS_MS: readonly number[] = [1_000, 10_000, 60_000, 300_000];

export interface MarkoutFill {
  readonly atMs: number;
  /** 'bid': the fill bought YES exposure (BUY YES or SELL NO); 'ask': it sold YES exposure. */
  readonly yesSide: 'bid' | 'ask';
  /** The fill's price in YES terms, price units (0..1). */
  readonly yesPrice: number;
  /** Shares filled (> 0). */
  readonly shares: number;
}

/** Markout of one fill against `fairLater`, in USDC: the value gained (positive) or lost (negative) by the fill. */
export function markoutUsdc(fill: MarkoutFill, fairLater: number): number {
  const edge = fill.yesSide === 'bid' ? fairLater - fill.yesPrice : fill.yesPrice - fairLater;
  return edge * fill.shares;
}

export interface HorizonSummary {
  readonly horizonMs: number;
  /** Fills whose fair price at the horizon was known. */
  readonly fills: number;
  readonly shares: number;
  /** Σ markouts, USDC. */
  readonly totalUsdc: number;
  /** Σ markouts², USDC² (with fills and totalUsdc: the spread of the markouts, for a standard error of the mean). */
  readonly sumSquaresUsdc: number;
  /** Mean markout per fill, USDC (0 when no fill counted). */
  readonly meanPerFillUsdc: number;
  /** Share-weighted mean markout, price units per share (0 when no share counted). */
  readonly meanPerShare: number;
}

/**
 * Summaries at each horizon. `fairAt(t)` is the fair price at instant t (price units), or null when unknown.
 */
export function summarizeMarkouts(
  fills: readonly MarkoutFill[],
  fairAt: (atMs: number) => number | null,
  horizonsMs: readonly number[] = MARKOUT_HORIZONS_MS,
): HorizonSummary[] {
  return horizonsMs.map((horizonMs) => {
    let count = 0;
    let shares = 0;
    let total = 0;
    let squares = 0;
    for (const fill of fills) {
      const fair = fairAt(fill.atMs + horizonMs);
      if (fair === null || !Number.isFinite(fair)) continue;
      const markout = markoutUsdc(fill, fair);
      count += 1;
      shares += fill.shares;
      total += markout;
      squares += markout * markout;
    }
    return {
      horizonMs,
      fills: count,
      shares,
      totalUsdc: total,
      sumSquaresUsdc: squares,
      meanPerFillUsdc: count === 0 ? 0 : total / count,
      meanPerShare: shares === 0 ? 0 : total / shares,
    };
  });
}

/** The summaries of several sets of fills (e.g. one per market) at the same horizons, as one. */
export function mergeMarkoutSummaries(sets: readonly (readonly HorizonSummary[])[], horizonsMs: readonly number[] = MARKOUT_HORIZONS_MS): HorizonSummary[] {
  return horizonsMs.map((horizonMs) => {
    let fills = 0;
    let shares = 0;
    let total = 0;
    let squares = 0;
    for (const set of sets) {
      const h = set.find((x) => x.horizonMs === horizonMs);
      if (!h) continue;
      fills += h.fills;
      shares += h.shares;
      total += h.totalUsdc;
      squares += h.sumSquaresUsdc;
    }
    return { horizonMs, fills, shares, totalUsdc: total, sumSquaresUsdc: squares, meanPerFillUsdc: fills === 0 ? 0 : total / fills, meanPerShare: shares === 0 ? 0 : total / shares };
  });
}

/**
 * The standard error of a summary's mean markout per fill, USDC: the fills' sample standard deviation over √fills
 * (NaN below 2 fills). It treats fills as independent; fills picked off by one move are not, so read it as a floor.
 */
export function markoutStandardErrorUsdc(summary: Pick<HorizonSummary, 'fills' | 'totalUsdc' | 'sumSquaresUsdc'>): number {
  const n = summary.fills;
  if (n < 2) return Number.NaN;
  const mean = summary.totalUsdc / n;
  const variance = Math.max(0, (summary.sumSquaresUsdc - n * mean * mean) / (n - 1));
  return Math.sqrt(variance / n);
}

/**
 * A fair-price series sampled at increasing times, read as a step function: the value at t is the last sample at or
 * before t; null before the first sample and after `endMs` (a horizon past the series' end is unknown, not the last
 * value). Samples must be appended in non-decreasing time.
 */
export class FairSeries {
  private readonly times: number[] = [];
  private readonly values: number[] = [];
  private endMs = Number.NEGATIVE_INFINITY;

  /** Appends a sample; a sample older than the last is an error (the series is a timeline). */
  record(atMs: number, value: number): void {
    const last = this.times[this.times.length - 1];
    if (last !== undefined && atMs < last) throw new RangeError(`FairSeries.record: atMs ${atMs} is before the last sample ${last}`);
    if (!Number.isFinite(value)) throw new RangeError(`FairSeries.record: value must be finite (got ${value})`);
    if (last === atMs) this.values[this.values.length - 1] = value;
    else {
      this.times.push(atMs);
      this.values.push(value);
    }
    this.endMs = Math.max(this.endMs, atMs);
  }

  /** The series is known up to `atMs` (e.g. the end of a run) even without a sample there. */
  extendTo(atMs: number): void {
    this.endMs = Math.max(this.endMs, atMs);
  }

  at(atMs: number): number | null {
    if (atMs > this.endMs) return null;
    let lo = 0;
    let hi = this.times.length - 1;
    if (hi < 0 || atMs < (this.times[0] ?? Number.POSITIVE_INFINITY)) return null;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.times[mid] ?? Number.POSITIVE_INFINITY) <= atMs) lo = mid;
      else hi = mid - 1;
    }
    return this.values[lo] ?? null;
  }

  get size(): number {
    return this.times.length;
  }
}
