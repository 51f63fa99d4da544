/**
 * The volatility surface of one underlying: for each expiry, the total variance from now to its settlement, blended
 * from (a) the realized estimator (src/pricing/model/volatility.ts), (b) the variance the expiry's own ladder
 * implies (./implied.ts) and (c) the intraday profile (./profile.ts), under the ladder's shape rules (./shape.ts).
 *
 *   base_r = σ²_realized / mean w(last hour)          (the realized rate, without the hour it was measured in)
 *   base_i = robust mean over the window's samples of V_sample / W(seen, T)   (each book inverted at its own time)
 *   V_r = base_r · W(now, T),  V_i = base_i · W(now, T),  V = (1 − w)·V_r + w·V_i   (V = V_r while no V_i)
 *   w = α × the evidence behind V_i (./evidence.ts: its strikes, books and their spread; one strike cannot dominate)
 *   then V non-decreasing in T across the expiries (calendar floor); gap = g·e·|√V_i − √V_r| / √V (e = w/α, the evidence)
 *
 * Owns: the ladder samples of the ticker (one per market per `sampleEveryMs`, the last `windowMs` kept, each with the
 * spot it was inverted against) and each expiry's fitted tails (refitted at most every `refitEveryMs`). Invariants:
 * nothing from the future (a sample seen after `nowMs` is not used); a book is inverted only against a spot received
 * at or before it and at most `maxSpotAgeMs` older (never against a newer one); an expiry with fewer than
 * `minSamples` usable samples has no implied part; an expiry forgotten leaves nothing behind.
 */
import { SECONDS_PER_YEAR } from '../model/volatility.js';
import type { Tails } from '../model/digital.js';
import { impliedTotalVariance, robustMean, usableMid, type LadderFilter } from './implied.js';
import { integratedSeconds, meanWeight, type IntradayProfile } from './profile.js';
import { calendarFloor, fitLadderTails, type LadderPoint, type TailFitSettings } from './shape.js';
import { impliedWeightOf, type EvidenceSettings, type ImpliedEvidence } from './evidence.js';

export interface SurfaceSettings {
  /** α: the weight of the ladder's implied variance against the realized one (0: realized only). */
  readonly impliedWeight: number;
  /** How the weight falls with the evidence behind an expiry's implied part (./evidence.ts). */
  readonly evidence: EvidenceSettings;
  readonly profile: IntradayProfile;
  /** The realized estimate is de-seasonalised by the profile's mean over this look-back. */
  readonly realizedLookbackMs: number;
  readonly filter: LadderFilter;
  /** Samples older than this are not used. */
  readonly windowMs: number;
  /** A book is inverted only against a spot at most this much older than it. */
  readonly maxSpotAgeMs: number;
  /** At most one sample per market per this long. */
  readonly sampleEveryMs: number;
  readonly minSamples: number;
  /** Trimmed fraction each side of the robust mean (0.5: the median). */
  readonly trim: number;
  /** Fit a Student-t per expiry to its ladder (null: the configured tails everywhere). */
  readonly tailFit: (TailFitSettings & { readonly refitEveryMs: number }) | null;
  /** g: weight of the realized–implied gap in the model's relative volatility error. */
  readonly gapWeight: number;
}

/** One book of the ladder as the pricer saw it: the others' mid and the spot it is inverted against. */
export interface LadderSample {
  readonly slug: string;
  readonly strike: number;
  readonly settlesAtMs: number;
  readonly atMs: number;
  readonly mid: number;
  /** The touch's bid–ask spread, price units. */
  readonly spread: number;
  readonly spot: number;
  readonly spotAtMs: number;
}

export interface ExpiryVolatility {
  readonly settlesAtMs: number;
  /** Total ln variance from now to the settlement: realized, implied (null: none), and the one priced with. */
  readonly realizedVariance: number;
  readonly impliedVariance: number | null;
  readonly totalVariance: number;
  readonly tails: Tails;
  /** Usable samples behind the implied part. */
  readonly samples: number;
  /** What the implied part was inverted from (strikes, books, their mean spread); null: no implied part. */
  readonly evidence: ImpliedEvidence | null;
  /** The weight w the implied part is blended with (α × evidenceFactor; 0 without one). */
  readonly impliedWeight: number;
  /** The evidence's own weight in [0, 1] (./evidence.ts at α = 1): scales the implied weight and the gap. */
  readonly evidenceFactor: number;
  /** The gap's contribution to the relative volatility error (0 without an implied part). */
  readonly gapRel: number;
  /** Annualized over the time left (null once settled): realized, implied, blended. */
  readonly realizedVol: number | null;
  readonly impliedVol: number | null;
  readonly blendedVol: number | null;
}

export type SampleVerdict = 'used' | 'unusable-book' | 'no-spot' | 'spot-too-old' | 'spot-newer' | 'settled' | 'too-soon';

function annualized(variance: number, fromMs: number, toMs: number): number | null {
  const seconds = (toMs - fromMs) / 1000;
  return seconds > 0 ? Math.sqrt((variance / seconds) * SECONDS_PER_YEAR) : null;
}

export class VolSurface {
  private readonly samples = new Map<number, LadderSample[]>();
  private readonly lastSampleAt = new Map<string, number>();
  private readonly fits = new Map<number, { atMs: number; tails: Tails | null }>();
  private cache: { key: string; answer: ReadonlyMap<number, ExpiryVolatility> } | null = null;
  /** Per expiry, the implied base variance of the last window seen (recomputed only when the window's samples change). */
  private readonly implied = new Map<number, { readonly key: string; readonly base: number | null; readonly count: number; readonly evidence: ImpliedEvidence | null }>();
  /** Each sample's inversion under the tails it was last inverted with (it does not depend on now). */
  private readonly inverted = new WeakMap<LadderSample, { readonly tails: string; readonly base: number | null }>();
  private version = 0;

  constructor(
    readonly settings: SurfaceSettings,
    private readonly baseTails: Tails,
  ) {}

  /** One book of a market on this ticker: kept when usable under the filter and the spot rules. */
  observe(book: { readonly slug: string; readonly strike: number; readonly settlesAtMs: number; readonly atMs: number; readonly bid: number | null; readonly ask: number | null }, spot: { readonly price: number; readonly atMs: number } | null): SampleVerdict {
    const s = this.settings;
    if (book.atMs >= book.settlesAtMs) return 'settled';
    const mid = usableMid(book, s.filter);
    if (mid === null) return 'unusable-book';
    if (spot === null) return 'no-spot';
    if (spot.atMs > book.atMs) return 'spot-newer';
    if (book.atMs - spot.atMs > s.maxSpotAgeMs) return 'spot-too-old';
    const last = this.lastSampleAt.get(book.slug);
    if (last !== undefined && book.atMs - last < s.sampleEveryMs) return 'too-soon';
    this.lastSampleAt.set(book.slug, book.atMs);
    let list = this.samples.get(book.settlesAtMs);
    if (!list) this.samples.set(book.settlesAtMs, (list = []));
    const spread = (book.ask ?? mid) - (book.bid ?? mid);
    const sample = { slug: book.slug, strike: book.strike, settlesAtMs: book.settlesAtMs, atMs: book.atMs, mid, spread, spot: spot.price, spotAtMs: spot.atMs };
    // Kept in time order (a late book of another market goes in its place), so the window is a slice.
    const at = indexFrom(list, book.atMs, true);
    list.splice(at, 0, sample);
    const horizon = book.atMs - s.windowMs;
    while (list.length > 0 && (list[0]?.atMs ?? 0) < horizon) list.shift();
    this.version += 1;
    return 'used';
  }

  /** The expiry's samples and fit are dropped (its markets left or settled). */
  forgetExpiry(settlesAtMs: number): void {
    const list = this.samples.get(settlesAtMs) ?? [];
    for (const sample of list) this.lastSampleAt.delete(sample.slug);
    this.samples.delete(settlesAtMs);
    this.fits.delete(settlesAtMs);
    this.implied.delete(settlesAtMs);
    this.version += 1;
  }

  /** Expiries holding samples. */
  sampledExpiries(): number[] {
    return [...this.samples.keys()];
  }

  /**
   * The volatility of each of `expiries` at `nowMs`, given the realized variance per second now. Cached per second,
   * samples version and realized variance.
   */
  at(nowMs: number, realizedVariancePerSecond: number, expiries: readonly number[]): ReadonlyMap<number, ExpiryVolatility> {
    const sorted = [...new Set(expiries)].sort((a, b) => a - b);
    const key = `${Math.floor(nowMs / 1000)}|${this.version}|${realizedVariancePerSecond}|${sorted.join(',')}`;
    if (this.cache?.key === key) return this.cache.answer;
    const s = this.settings;
    const base = realizedVariancePerSecond / meanWeight(s.profile, nowMs - s.realizedLookbackMs, nowMs);
    const raw = sorted.map((settlesAtMs) => this.expiry(nowMs, base, settlesAtMs));
    const floored = calendarFloor(raw);
    const answer = new Map(
      floored.map((e) => {
        const gapRel = e.impliedVariance === null || e.totalVariance <= 0 ? 0 : (s.gapWeight * e.evidenceFactor * Math.abs(Math.sqrt(e.impliedVariance) - Math.sqrt(e.realizedVariance))) / Math.sqrt(e.totalVariance);
        return [e.settlesAtMs, { ...e, gapRel, blendedVol: annualized(e.totalVariance, nowMs, e.settlesAtMs) }] as const;
      }),
    );
    this.cache = { key, answer };
    return answer;
  }

  private expiry(nowMs: number, baseRealized: number, settlesAtMs: number): ExpiryVolatility {
    const s = this.settings;
    const w = integratedSeconds(s.profile, nowMs, settlesAtMs);
    const realizedVariance = baseRealized * w;
    const list = this.samples.get(settlesAtMs) ?? [];
    // The window [now − windowMs, now]: nothing older, nothing from the future.
    const from = indexFrom(list, nowMs - s.windowMs, false);
    const to = indexFrom(list, nowMs, true);
    const usable = list.slice(from, to);
    const tails = this.tailsOf(settlesAtMs, usable, nowMs);
    const tailsKey = tails.kind === 'normal' ? 'normal' : `t${tails.dof}`;
    const first = usable[0];
    const last = usable.at(-1);
    const key = `${tailsKey}|${usable.length}|${first?.atMs ?? ''}|${first?.slug ?? ''}|${last?.atMs ?? ''}|${last?.slug ?? ''}`;
    let held = this.implied.get(settlesAtMs);
    if (held?.key !== key) {
      const used = usable.flatMap((x) => {
        const cached = this.inverted.get(x);
        if (cached?.tails === tailsKey) return cached.base === null ? [] : [{ sample: x, base: cached.base }];
        const v = impliedTotalVariance({ mid: x.mid, spot: x.spot, strike: x.strike, tails, minAbsD: s.filter.minAbsD });
        const span = integratedSeconds(s.profile, x.atMs, settlesAtMs);
        const base = v === null || span <= 0 ? null : v / span;
        this.inverted.set(x, { tails: tailsKey, base });
        return base === null ? [] : [{ sample: x, base }];
      });
      const enough = used.length >= s.minSamples;
      held = {
        key,
        base: enough ? robustMean(used.map((u) => u.base), s.trim) : null,
        count: used.length,
        evidence: enough ? { strikes: new Set(used.map((u) => u.sample.slug)).size, books: used.length, meanSpread: used.reduce((sum, u) => sum + u.sample.spread, 0) / used.length } : null,
      };
      this.implied.set(settlesAtMs, held);
    }
    const baseImplied = held.base;
    const impliedVariance = baseImplied === null ? null : baseImplied * w;
    // The evidence factor (α = 1) scales the implied weight and the gap alike: weak evidence neither moves nor widens much.
    const evidenceFactor = impliedVariance === null || held.evidence === null ? 0 : impliedWeightOf(1, held.evidence, s.evidence);
    const weight = s.impliedWeight * evidenceFactor;
    const totalVariance = impliedVariance === null ? realizedVariance : (1 - weight) * realizedVariance + weight * impliedVariance;
    return {
      settlesAtMs,
      realizedVariance,
      impliedVariance,
      totalVariance,
      tails,
      samples: held.count,
      evidence: held.evidence,
      impliedWeight: weight,
      evidenceFactor,
      gapRel: 0,
      realizedVol: annualized(realizedVariance, nowMs, settlesAtMs),
      impliedVol: impliedVariance === null ? null : annualized(impliedVariance, nowMs, settlesAtMs),
      blendedVol: null,
    };
  }

  /** The expiry's tails: the fit on the latest mid of each strike (refitted at most every refitEveryMs), else the configured ones. */
  private tailsOf(settlesAtMs: number, usable: readonly LadderSample[], nowMs: number): Tails {
    const fit = this.settings.tailFit;
    if (fit === null) return this.baseTails;
    const held = this.fits.get(settlesAtMs);
    if (held && nowMs - held.atMs < fit.refitEveryMs && nowMs >= held.atMs) return held.tails ?? this.baseTails;
    const latest = new Map<number, LadderSample>();
    for (const x of usable) latest.set(x.strike, x);
    const points: LadderPoint[] = [...latest.values()].map((x) => ({ strike: x.strike, spot: x.spot, mid: x.mid, profileSeconds: integratedSeconds(this.settings.profile, x.atMs, settlesAtMs) }));
    const result = fitLadderTails(points, fit);
    this.fits.set(settlesAtMs, { atMs: nowMs, tails: result?.tails ?? null });
    return result?.tails ?? this.baseTails;
  }
}

/** The first index whose sample was seen at or after `atMs` (`after`: strictly after); the list is in time order. */
function indexFrom(list: readonly LadderSample[], atMs: number, after: boolean): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const t = list[mid]?.atMs ?? Infinity;
    if (t < atMs || (after && t === atMs)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
