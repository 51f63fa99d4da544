/**
 * The ladder bench's statistics (pure): the figures of a run and of a row (one market count and policy over seeds),
 * the markouts pooled over every fill with their standard errors, issue 29's targets at 36 markets, and the PAIRED
 * comparison of the 1 s and 10 s markouts on the common markets, 36 markets minus 4, seed by seed.
 *
 * The pairing: the bench's worlds draw the underlying per ticker and each market's flow per market slug
 * (`streams: 'per-ticker'` / `'per-market'`, src/sim/engine/prng.ts keyedStream), so on one seed the 4- and the
 * 36-market worlds give the common markets the same underlying path and the same taker arrivals; what differs is the
 * bot. The difference of a seed's two markouts is then one sample of the capacity's effect, free of the across-seeds
 * spread of the flow; its mean over seeds is judged with its own standard error (the differences' standard deviation
 * over √seeds) and Student's t for the seeds' count.
 */
import { markoutStandardErrorUsdc, type HorizonSummary } from '../src/markouts/markout.js';

export type Policy = 'per-market' | 'cross-market';
export const POLICIES: readonly Policy[] = ['per-market', 'cross-market'];

/** The figures of one run (one market count, policy and seed). */
export interface LadderFigures {
  readonly errorTicks: number;
  readonly staleShare: number;
  readonly moveToReplacedP50Ms: number;
  readonly moveToReplacedP99Ms: number;
  /** The same, per slot of the common markets: from a move to that slot holding a fresh order. */
  readonly commonSlotReplacedP50Ms: number;
  readonly commonSlotReplacedP99Ms: number;
  readonly markout1sUsdc: number;
  readonly markout10sUsdc: number;
  readonly markout1sCommonUsdc: number;
  readonly markout10sCommonUsdc: number;
  readonly fills: number;
  readonly fillsCommon: number;
  readonly requestsPerSecond: number;
  readonly tradingPnlUsdc: number;
  readonly rewardsUsdc: number;
  readonly rebatesUsdc: number;
}

export const FIGURES: readonly (keyof LadderFigures)[] = [
  'errorTicks',
  'staleShare',
  'moveToReplacedP50Ms',
  'moveToReplacedP99Ms',
  'commonSlotReplacedP50Ms',
  'commonSlotReplacedP99Ms',
  'markout1sUsdc',
  'markout10sUsdc',
  'markout1sCommonUsdc',
  'markout10sCommonUsdc',
  'fills',
  'fillsCommon',
  'requestsPerSecond',
  'tradingPnlUsdc',
  'rewardsUsdc',
  'rebatesUsdc',
];

/** Which fills a markout figure covers and at which horizon. */
export type MarkoutKey = 'common1s' | 'common10s' | 'all1s' | 'all10s';
export const MARKOUT_KEYS: readonly MarkoutKey[] = ['common1s', 'common10s', 'all1s', 'all10s'];

/** One run's figures and its markout summaries (kept to pool the fills of several seeds). */
export interface LadderRun extends LadderFigures {
  readonly markouts: Readonly<Record<MarkoutKey, MarkoutTally>>;
}

/** What pooling needs of a markout summary. */
export type MarkoutTally = Pick<HorizonSummary, 'fills' | 'totalUsdc' | 'sumSquaresUsdc'>;

/** A markout figure over every fill of a row's seeds. */
export interface MarkoutStat {
  readonly fills: number;
  /** Σ markouts / Σ fills over the seeds (each fill weighs the same). */
  readonly meanPerFillUsdc: number;
  /** The per-fill standard error (fills taken as independent). */
  readonly sePerFillUsdc: number;
  /** The standard deviation of the seeds' own means over √seeds (each run one sample; NaN below 2 seeds). */
  readonly seAcrossSeedsUsdc: number;
  /** mean ± 1.96 × the larger of the two standard errors. */
  readonly ci95Usdc: readonly [number, number];
}

/** One market count and policy: each figure's mean over the seeds, and its smallest and largest. */
export interface LadderRow extends LadderFigures {
  readonly markets: number;
  readonly policy: Policy;
  readonly seeds: readonly number[];
  readonly range: Readonly<Record<keyof LadderFigures, readonly [number, number]>>;
  /** The markouts pooled over every fill of the seeds, with their standard errors. */
  readonly markoutStats: Readonly<Record<MarkoutKey, MarkoutStat>>;
  /** Each seed's own markouts per fill on the common markets (NaN without fills): what the pairing reads. */
  readonly seedMarkouts: readonly SeedMarkout[];
}

/** One seed's markouts per fill on the common markets. */
export interface SeedMarkout {
  readonly seed: number;
  readonly fillsCommon: number;
  readonly common1sUsdc: number;
  readonly common10sUsdc: number;
}

export const round = (value: number, digits: number): number => (Number.isFinite(value) ? Math.round(value * 10 ** digits) / 10 ** digits : value);

/** A markout figure pooled over the runs' fills, with the per-fill and the across-seeds standard errors. */
export function poolMarkouts(tallies: readonly MarkoutTally[]): MarkoutStat {
  const pooled = tallies.reduce((a, t) => ({ fills: a.fills + t.fills, totalUsdc: a.totalUsdc + t.totalUsdc, sumSquaresUsdc: a.sumSquaresUsdc + t.sumSquaresUsdc }), { fills: 0, totalUsdc: 0, sumSquaresUsdc: 0 });
  const mean = pooled.fills === 0 ? Number.NaN : pooled.totalUsdc / pooled.fills;
  const sePerFill = markoutStandardErrorUsdc(pooled);
  const seedMeans = tallies.filter((t) => t.fills > 0).map((t) => t.totalUsdc / t.fills);
  const seedMean = seedMeans.reduce((a, b) => a + b, 0) / seedMeans.length;
  const seAcrossSeeds = seedMeans.length < 2 ? Number.NaN : Math.sqrt(seedMeans.reduce((a, m) => a + (m - seedMean) ** 2, 0) / (seedMeans.length - 1) / seedMeans.length);
  const se = Math.max(...[sePerFill, seAcrossSeeds].filter((v) => Number.isFinite(v)), 0);
  return {
    fills: pooled.fills,
    meanPerFillUsdc: round(mean, 4),
    sePerFillUsdc: round(sePerFill, 4),
    seAcrossSeedsUsdc: round(seAcrossSeeds, 4),
    ci95Usdc: [round(mean - 1.96 * se, 4), round(mean + 1.96 * se, 4)],
  };
}

/** The mean of each figure over the seeds' runs, its range, and the markouts pooled over every fill. */
export function aggregate(markets: number, policy: Policy, seeds: readonly number[], runs: readonly LadderRun[]): LadderRow {
  const mean = {} as Record<keyof LadderFigures, number>;
  const range = {} as Record<keyof LadderFigures, readonly [number, number]>;
  for (const figure of FIGURES) {
    const values = runs.map((r) => r[figure]).filter((v) => Number.isFinite(v));
    mean[figure] = values.length === 0 ? Number.NaN : round(values.reduce((a, b) => a + b, 0) / values.length, 4);
    range[figure] = values.length === 0 ? [Number.NaN, Number.NaN] : [Math.min(...values), Math.max(...values)];
  }
  const markoutStats = Object.fromEntries(MARKOUT_KEYS.map((key) => [key, poolMarkouts(runs.map((r) => r.markouts[key]))])) as Record<MarkoutKey, MarkoutStat>;
  const perFill = (t: MarkoutTally): number => (t.fills === 0 ? Number.NaN : round(t.totalUsdc / t.fills, 4));
  const seedMarkouts = runs.map((r, i) => ({ seed: seeds[i] ?? Number.NaN, fillsCommon: r.markouts.common1s.fills, common1sUsdc: perFill(r.markouts.common1s), common10sUsdc: perFill(r.markouts.common10s) }));
  return { markets, policy, seeds, ...mean, range, markoutStats, seedMarkouts };
}

export interface TargetVerdicts {
  readonly errorTicks: boolean;
  readonly moveToReplacedP99Ms: boolean;
  readonly markout1sCommon: boolean;
  /**
   * Whether the markout verdict stands out of the noise: the 36-market markout's distance to its floor is more than
   * 1.96 standard errors (the two rows' errors combined, each the larger of its per-fill and across-seeds one).
   */
  readonly markout1sCommonDecided: boolean;
}

/** The 36-market markout's floor (0.8 × the 4-market one; for a negative one: 20 % of its size worse) and its standard error. */
export function markoutFloor(at4: MarkoutStat): { readonly floorUsdc: number; readonly factor: number } {
  const factor = at4.meanPerFillUsdc >= 0 ? 0.8 : 1.2;
  return { floorUsdc: factor * at4.meanPerFillUsdc, factor };
}

export const standardError = (stat: MarkoutStat): number => Math.max(...[stat.sePerFillUsdc, stat.seAcrossSeedsUsdc].filter((v) => Number.isFinite(v)), 0);

/**
 * Issue 29's targets at 36 markets with cross-market batches: mean error ≤ 1 tick and move → replaced p99 ≤ 1.5 s on
 * the means over the seeds, and the 1 s markout per fill on the common markets, pooled over every fill of the seeds,
 * ≥ 0.8 × the one at 4 markets (for a negative markout at 4 markets: at most 20 % of its size worse), with whether
 * that verdict is outside the noise. Null when a row is missing.
 */
export function targets(all: readonly LadderRow[]): TargetVerdicts | null {
  const at36 = all.find((r) => r.markets === 36 && r.policy === 'cross-market');
  const at4 = all.find((r) => r.markets === 4 && r.policy === 'cross-market');
  if (at36 === undefined || at4 === undefined) return null;
  const m36 = at36.markoutStats.common1s;
  const m4 = at4.markoutStats.common1s;
  const { floorUsdc, factor } = markoutFloor(m4);
  const gapSe = Math.hypot(standardError(m36), factor * standardError(m4));
  const gap = m36.meanPerFillUsdc - floorUsdc;
  return {
    errorTicks: at36.errorTicks <= 1,
    moveToReplacedP99Ms: at36.moveToReplacedP99Ms <= 1500,
    markout1sCommon: gap >= 0,
    markout1sCommonDecided: Number.isFinite(gap) && Math.abs(gap) > 1.96 * gapSe,
  };
}


/** One seed of the paired comparison: the common markets' markouts per fill at 4 and at 36 markets. */
export interface PairedSeed {
  readonly seed: number;
  readonly at4: SeedMarkout;
  readonly at36: SeedMarkout;
  /** 36 minus 4, USDC per fill. */
  readonly diff1sUsdc: number;
  readonly diff10sUsdc: number;
  /** The target's margin on this seed: 1 s at 36 minus the floor (factor × 1 s at 4). */
  readonly gap1sUsdc: number;
}

/** A mean over the seeds with its standard error across them and the two-sided 95 % half-width (Student's t). */
export interface SeedMean {
  readonly meanUsdc: number;
  readonly seUsdc: number;
  readonly halfWidth95Usdc: number;
}

/** The paired comparison of the common markets' markouts, 36 markets minus 4, cross-market batches, seed by seed. */
export interface PairedComparison {
  readonly seeds: readonly number[];
  readonly perSeed: readonly PairedSeed[];
  readonly diff1s: SeedMean;
  readonly diff10s: SeedMean;
  /** Mean over the seeds of the 36-market markout over the mean of the 4-market one (the same seeds). */
  readonly ratio1s: number;
  readonly ratio10s: number;
  /** The floor's factor (0.8 for a positive 4-market mean, 1.2 for a negative one: markoutFloor). */
  readonly factor: number;
  /** The target's margin (1 s at 36 minus factor × 1 s at 4), per seed, averaged: met when ≥ 0. */
  readonly gap1s: SeedMean;
  readonly met: boolean;
  /** Whether the margin is further from 0 than its 95 % half-width. */
  readonly decided: boolean;
}

/** Two-sided 95 % quantiles of Student's t for 1…30 degrees of freedom (then 1.96). */
const T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

/** The mean of `values`, its standard error across them (NaN below 2) and the 95 % half-width. */
export function seedMean(values: readonly number[]): SeedMean {
  const n = values.length;
  const mean = n === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / n;
  const se = n < 2 ? Number.NaN : Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1) / n);
  const t = n < 2 ? Number.NaN : (T95[n - 2] ?? 1.96);
  return { meanUsdc: round(mean, 4), seUsdc: round(se, 4), halfWidth95Usdc: round(t * se, 4) };
}

/**
 * The paired comparison over the seeds both cross-market rows (4 and 36 markets) ran with fills on the common
 * markets; null when there is no such seed.
 */
export function paired(all: readonly LadderRow[]): PairedComparison | null {
  const at36 = all.find((r) => r.markets === 36 && r.policy === 'cross-market');
  const at4 = all.find((r) => r.markets === 4 && r.policy === 'cross-market');
  if (at36 === undefined || at4 === undefined) return null;
  const pairs: { seed: number; at4: SeedMarkout; at36: SeedMarkout }[] = [];
  for (const small of at4.seedMarkouts) {
    const large = at36.seedMarkouts.find((s) => s.seed === small.seed);
    if (large !== undefined && Number.isFinite(small.common1sUsdc) && Number.isFinite(large.common1sUsdc)) pairs.push({ seed: small.seed, at4: small, at36: large });
  }
  if (pairs.length === 0) return null;
  const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
  const mean4 = mean(pairs.map((p) => p.at4.common1sUsdc));
  const factor = mean4 >= 0 ? 0.8 : 1.2;
  const perSeed = pairs.map((p) => ({
    ...p,
    diff1sUsdc: round(p.at36.common1sUsdc - p.at4.common1sUsdc, 4),
    diff10sUsdc: round(p.at36.common10sUsdc - p.at4.common10sUsdc, 4),
    gap1sUsdc: round(p.at36.common1sUsdc - factor * p.at4.common1sUsdc, 4),
  }));
  const gap1s = seedMean(perSeed.map((p) => p.gap1sUsdc));
  return {
    seeds: perSeed.map((p) => p.seed),
    perSeed,
    diff1s: seedMean(perSeed.map((p) => p.diff1sUsdc)),
    diff10s: seedMean(perSeed.map((p) => p.diff10sUsdc)),
    ratio1s: round(mean(pairs.map((p) => p.at36.common1sUsdc)) / mean4, 3),
    ratio10s: round(mean(pairs.map((p) => p.at36.common10sUsdc)) / mean(pairs.map((p) => p.at4.common10sUsdc)), 3),
    factor,
    gap1s,
    met: gap1s.meanUsdc >= 0,
    decided: Number.isFinite(gap1s.halfWidth95Usdc) && Math.abs(gap1s.meanUsdc) > gap1s.halfWidth95Usdc,
  };
}
