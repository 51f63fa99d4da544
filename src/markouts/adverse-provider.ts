/**
 * The adverse-selection provider: the markouts of past fills aggregated per market and per cadence, for the strategies
 * (`MarketView.adverseSelection`, read by reward quoting through src/strategy/adverse-selection.ts). One class for
 * every caller, each with its own source of fills: the live bot reads its ledger's markouts (against the book mid
 * without its own orders, `adverseOfJudged`), the synthetic backtest its fills against the hidden fair value, the
 * replay its fills against the recorded mid (`adverseOfSeries`).
 *
 * Owns: per market seen, its cadence, when it was first and last asked about, and its exposure (the minutes the
 * runner quoted it: consecutive asks at most `maxGapMs` apart, in minute buckets); the fills of the lookback, read
 * again at most every `refreshMs`. Invariants: a fill counts toward its market's fill rate only if it was made after
 * the provider first saw the market (fills and exposure cover the same time; fills of an earlier run still count
 * for the adverse selection per share); what is older than the lookback is forgotten (memory stays bounded over
 * days of rolling markets); the cadence figures leave the asking market out; a source that throws leaves the last
 * figures in place (reported to `onError`), never a crash in the quote cycle. With `refreshOnView: false` (the live
 * bot, whose source is SQLite) `view` never reads: the owner calls `refresh` on a timer, off the quoting path.
 */
import type { StoredJudgedFill } from '../ledger/markouts-repo.js';
import { NO_ADVERSE_STATS, type AdverseSelectionView, type AdverseStats } from '../strategy/adverse-selection.js';
import { toYesTerms, type YesSide } from '../strategy/yes-terms.js';
import { markoutUsdc, type MarkoutFill } from './markout.js';
import { ADVERSE_SELECTION_HORIZON_MS } from './schedule.js';
import { fillMarkoutRaw } from './value.js';

/** One past fill as the provider needs it. */
export interface AdverseFill {
  readonly marketSlug: string;
  readonly yesSide: YesSide;
  readonly atMs: number;
  readonly shares: number;
  /** markout at 0 − markout at the horizon, USDC (positive: adverse); null while either is unknown. */
  readonly adverseUsdc: number | null;
}

/** What the provider needs of the market asked about. */
export interface AdverseMarketRef {
  readonly slug: string;
  readonly cadence?: string | null | undefined;
}

export interface AdverseProviderOptions {
  /** The fills made at or after `sinceMs`, with their adverse selection as known at `nowMs`. */
  readonly read: (sinceMs: number, nowMs: number) => readonly AdverseFill[];
  /** The window of fills and exposure, ms (default 2 h). */
  readonly lookbackMs?: number;
  /** The fills are read again at most this often, ms (default 30 s). */
  readonly refreshMs?: number;
  /** Two asks further apart than this are not counted as quoting in between, ms (default 2 min). */
  readonly maxGapMs?: number;
  readonly horizonMs?: number;
  readonly onError?: (error: unknown) => void;
  /**
   * Whether `view` reads the fills again once `refreshMs` passed (default true: a source in memory). False: `view`
   * never reads, the owner calls `refresh` (a source on disk, read on a timer outside the quote cycle).
   */
  readonly refreshOnView?: boolean;
}

export const DEFAULT_ADVERSE_LOOKBACK_MS = 2 * 3_600_000;
const MINUTE_MS = 60_000;

interface Seen {
  cadence: string | null;
  readonly firstSeenMs: number;
  lastSeenMs: number;
  /** Exposure ms per minute bucket (bucket start → ms). */
  readonly minutes: Map<number, number>;
  /** Σ of `minutes` (integer ms: exact), so a view does not sum the buckets of every market. */
  exposureMs: number;
  /** The earliest bucket in `minutes` (+∞ when none). */
  oldestBucket: number;
}

type SideSums = Record<YesSide, { fills: number; judgedFills: number; judgedShares: number; adverseUsdc: number }>;

export class AdverseSelectionProvider {
  private readonly lookbackMs: number;
  private readonly refreshMs: number;
  private readonly maxGapMs: number;
  private readonly horizonMs: number;
  private readonly seen = new Map<string, Seen>();
  /** Per market, the sums of its fills in the window (as of the last read). */
  private sums = new Map<string, SideSums>();
  private readAtMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: AdverseProviderOptions) {
    this.lookbackMs = options.lookbackMs ?? DEFAULT_ADVERSE_LOOKBACK_MS;
    this.refreshMs = options.refreshMs ?? 30_000;
    this.maxGapMs = options.maxGapMs ?? 120_000;
    this.horizonMs = options.horizonMs ?? ADVERSE_SELECTION_HORIZON_MS;
  }

  /** The market's figures now; counts this ask as quoting since the last one (when close enough). */
  view(market: AdverseMarketRef, nowMs: number): AdverseSelectionView {
    this.observe(market, nowMs);
    if (this.options.refreshOnView !== false && (nowMs - this.readAtMs >= this.refreshMs || nowMs < this.readAtMs)) this.refresh(nowMs);
    const since = nowMs - this.lookbackMs;
    const cadenceName = this.seen.get(market.slug)?.cadence ?? null;
    const own = this.statsOf(market.slug, since);
    let cadence: Record<YesSide, AdverseStats> = { bid: NO_ADVERSE_STATS, ask: NO_ADVERSE_STATS };
    if (cadenceName !== null) {
      // The other markets of the cadence, summed field by field in the order they were seen (no object per market).
      const bid = { ...NO_ADVERSE_STATS };
      const ask = { ...NO_ADVERSE_STATS };
      for (const [slug, seen] of this.seen) {
        if (slug === market.slug || seen.cadence !== cadenceName) continue;
        const exposureMinutes = this.exposureMsOf(seen, since) / MINUTE_MS;
        const sums = this.sums.get(slug);
        addInto(bid, sums?.bid, exposureMinutes);
        addInto(ask, sums?.ask, exposureMinutes);
      }
      cadence = { bid, ask };
    }
    return { horizonMs: this.horizonMs, cadenceName, market: own, cadence };
  }

  /** Markets the provider remembers (bounded by the lookback). */
  get size(): number {
    return this.seen.size;
  }

  private observe(market: AdverseMarketRef, nowMs: number): void {
    const seen = this.seen.get(market.slug);
    if (seen === undefined) {
      this.seen.set(market.slug, { cadence: market.cadence ?? null, firstSeenMs: nowMs, lastSeenMs: nowMs, minutes: new Map(), exposureMs: 0, oldestBucket: Number.POSITIVE_INFINITY });
      return;
    }
    if (market.cadence !== undefined && market.cadence !== null) seen.cadence = market.cadence;
    const gap = nowMs - seen.lastSeenMs;
    if (gap > 0 && gap <= this.maxGapMs) {
      const bucket = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
      seen.minutes.set(bucket, (seen.minutes.get(bucket) ?? 0) + gap);
      seen.exposureMs += gap;
      if (bucket < seen.oldestBucket) seen.oldestBucket = bucket;
    }
    if (nowMs > seen.lastSeenMs) seen.lastSeenMs = nowMs;
  }

  /** Reads the fills of the lookback again (at most every `refreshMs` from `view`, or when the owner says). */
  refresh(nowMs: number): void {
    const since = nowMs - this.lookbackMs;
    for (const [slug, seen] of this.seen) {
      this.exposureMsOf(seen, since);
      if (seen.minutes.size === 0 && seen.lastSeenMs < since) this.seen.delete(slug);
    }
    let fills: readonly AdverseFill[];
    try {
      fills = this.options.read(since, nowMs);
    } catch (error) {
      this.options.onError?.(error);
      this.readAtMs = nowMs;
      return;
    }
    const sums = new Map<string, SideSums>();
    for (const fill of fills) {
      if (fill.atMs < since || !(fill.shares > 0)) continue;
      let entry = sums.get(fill.marketSlug);
      if (entry === undefined) {
        entry = { bid: { fills: 0, judgedFills: 0, judgedShares: 0, adverseUsdc: 0 }, ask: { fills: 0, judgedFills: 0, judgedShares: 0, adverseUsdc: 0 } };
        sums.set(fill.marketSlug, entry);
      }
      const side = entry[fill.yesSide];
      const firstSeen = this.seen.get(fill.marketSlug)?.firstSeenMs ?? Number.POSITIVE_INFINITY;
      if (fill.atMs >= firstSeen) side.fills += 1;
      if (fill.adverseUsdc !== null && Number.isFinite(fill.adverseUsdc)) {
        side.judgedFills += 1;
        side.judgedShares += fill.shares;
        side.adverseUsdc += fill.adverseUsdc;
      }
    }
    this.sums = sums;
    this.readAtMs = nowMs;
  }

  /**
   * The market's exposure ms in the window from `sinceMs` (buckets from the minute before it on): the buckets before
   * that are dropped first (they never count again: time only moves on), so this is the kept sum.
   */
  private exposureMsOf(seen: Seen, sinceMs: number): number {
    const cutoff = sinceMs - MINUTE_MS;
    if (seen.oldestBucket >= cutoff) return seen.exposureMs;
    let oldest = Number.POSITIVE_INFINITY;
    for (const [bucket, ms] of seen.minutes) {
      if (bucket < cutoff) {
        seen.minutes.delete(bucket);
        seen.exposureMs -= ms;
      } else if (bucket < oldest) oldest = bucket;
    }
    seen.oldestBucket = oldest;
    return seen.exposureMs;
  }

  private statsOf(slug: string, sinceMs: number): Record<YesSide, AdverseStats> {
    const seen = this.seen.get(slug);
    const exposureMs = seen === undefined ? 0 : this.exposureMsOf(seen, sinceMs);
    // Both sides are quoted over the same minutes (a side's exposure is the market's).
    const exposureMinutes = exposureMs / MINUTE_MS;
    const sums = this.sums.get(slug);
    const of = (side: YesSide): AdverseStats => ({ ...(sums?.[side] ?? NO_ADVERSE_STATS), exposureMinutes });
    return { bid: of('bid'), ask: of('ask') };
  }
}

/** Adds one market's side (its sums, 0 without any) and exposure into `into`, field by field. */
function addInto(into: { -readonly [K in keyof AdverseStats]: number }, side: Omit<AdverseStats, 'exposureMinutes'> | undefined, exposureMinutes: number): void {
  into.fills += side?.fills ?? 0;
  into.exposureMinutes += exposureMinutes;
  into.judgedFills += side?.judgedFills ?? 0;
  into.judgedShares += side?.judgedShares ?? 0;
  into.adverseUsdc += side?.adverseUsdc ?? 0;
}

/** A ledger fill judged by the live sampler: its adverse selection against the book mid (markout at 0 − at the horizon). */
export function adverseOfJudged(fill: StoredJudgedFill, horizonMs: number = ADVERSE_SELECTION_HORIZON_MS): AdverseFill {
  const ref = (h: number): number | null => fill.samples.find((s) => s.reference === 'mid' && s.horizonMs === h)?.refMicros ?? null;
  const at0 = ref(0);
  const later = ref(horizonMs);
  const adverseRaw = at0 === null || later === null ? null : fillMarkoutRaw(fill, at0) - fillMarkoutRaw(fill, later);
  return {
    marketSlug: fill.marketSlug,
    yesSide: toYesTerms(fill.token, fill.side, fill.priceTicks).side,
    atMs: fill.atMs,
    shares: fill.sizeRaw / 1e6,
    adverseUsdc: adverseRaw === null ? null : adverseRaw / 1e6,
  };
}

/**
 * A backtest's fill (YES terms) against a reference series (the hidden fair value, the recorded mid): its adverse
 * selection is known once the series reaches the horizon and no later than `nowMs`.
 */
export function adverseOfSeries(slug: string, fill: MarkoutFill, at: (atMs: number) => number | null, nowMs: number, horizonMs: number = ADVERSE_SELECTION_HORIZON_MS): AdverseFill {
  const due = fill.atMs + horizonMs;
  const at0 = at(fill.atMs);
  const later = due <= nowMs ? at(due) : null;
  const adverseUsdc = at0 === null || later === null ? null : markoutUsdc(fill, at0) - markoutUsdc(fill, later);
  return { marketSlug: slug, yesSide: fill.yesSide, atMs: fill.atMs, shares: fill.shares, adverseUsdc };
}
