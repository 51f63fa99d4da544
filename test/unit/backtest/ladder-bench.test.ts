/**
 * The ladder benchmark's pure parts (bench/ladder.ts): which markets every row has in common (each ticker's
 * at-the-money hourly strike), the mean and range of a row over its seeds, the markouts pooled over every fill of the
 * seeds with their standard errors, the verdict on issue 29's targets (with whether it stands out of the noise), and the
 * paired comparison of the common markets' markouts, 36 markets minus 4, seed by seed.
 */
import { describe, expect, it } from 'vitest';
import { aggregate, commonMarkets, FIGURES, MARKOUT_KEYS, paired, poolMarkouts, seedMean, targets, type LadderFigures, type LadderMarket, type LadderRow, type LadderRun, type MarkoutTally } from '../../../bench/ladder.js';

const market = (ticker: string, strike: string, cadence: 'hourly' | 'daily'): LadderMarket => ({ slug: `${ticker}-${strike}-${cadence}`, oracle: { ticker, strike, cadence } });

const NO_FILLS: MarkoutTally = { fills: 0, totalUsdc: 0, sumSquaresUsdc: 0 };

/** A run's figures; its pooled 1 s markout on the common markets is `common1s` when given. */
const figures = (values: Partial<LadderFigures>, common1s: MarkoutTally = NO_FILLS): LadderRun => ({
  ...(Object.fromEntries(FIGURES.map((f) => [f, 0])) as Record<keyof LadderFigures, number>),
  ...values,
  markouts: { ...(Object.fromEntries(MARKOUT_KEYS.map((k) => [k, NO_FILLS])) as Record<(typeof MARKOUT_KEYS)[number], MarkoutTally>), common1s },
});

/** The tally of fills marking out these values, USDC each. */
const tally = (values: readonly number[]): MarkoutTally => ({ fills: values.length, totalUsdc: values.reduce((a, b) => a + b, 0), sumSquaresUsdc: values.reduce((a, b) => a + b * b, 0) });

const row = (markets: number, policy: LadderRow['policy'], values: Partial<LadderFigures>): LadderRow => aggregate(markets, policy, [17], [figures(values)]);

describe('ladder bench: common markets', () => {
  it("each ticker's middle hourly strike, compared as numbers; daily strikes and even hourly ladders never", () => {
    const markets = [
      market('BTC', '9', 'hourly'),
      market('BTC', '10', 'hourly'),
      market('BTC', '11', 'hourly'),
      market('BTC', '10', 'daily'),
      market('ETH', '3000', 'hourly'),
      market('ETH', '2900', 'daily'),
      market('SOL', '140', 'hourly'),
      market('SOL', '141', 'hourly'),
      { slug: 'no-oracle' },
    ];
    expect([...commonMarkets(markets)].sort()).toEqual(['BTC-10-hourly', 'ETH-3000-hourly']);
  });
});

describe('ladder bench: a row over its seeds', () => {
  it('the mean of each figure and its smallest and largest', () => {
    const r = aggregate(36, 'cross-market', [17, 18, 19], [figures({ errorTicks: 0.9, moveToReplacedP99Ms: 1000 }), figures({ errorTicks: 1.2, moveToReplacedP99Ms: 1400 }), figures({ errorTicks: 0.6, moveToReplacedP99Ms: 900 })]);
    expect(r.errorTicks).toBe(0.9);
    expect(r.moveToReplacedP99Ms).toBe(1100);
    expect(r.range.errorTicks).toEqual([0.6, 1.2]);
    expect(r.range.moveToReplacedP99Ms).toEqual([900, 1400]);
    expect(r.seeds).toEqual([17, 18, 19]);
  });

  it('a figure missing in one seed (NaN) is averaged over the others', () => {
    const r = aggregate(4, 'per-market', [17, 18], [figures({ markout1sCommonUsdc: Number.NaN }), figures({ markout1sCommonUsdc: 0.25 })]);
    expect(r.markout1sCommonUsdc).toBe(0.25);
    expect(r.range.markout1sCommonUsdc).toEqual([0.25, 0.25]);
  });
});

describe('ladder bench: markouts pooled over the seeds', () => {
  it('every fill weighs the same; the per-fill and across-seeds standard errors; the interval uses the larger', () => {
    // Seed 17: +1, −1, +3 (mean 1); seed 18: +2 (mean 2). Pooled: 5 / 4 = 1.25, sample variance 8.75 / 3.
    const stat = poolMarkouts([tally([1, -1, 3]), tally([2])]);
    expect(stat.fills).toBe(4);
    expect(stat.meanPerFillUsdc).toBe(1.25);
    expect(stat.sePerFillUsdc).toBeCloseTo(Math.sqrt(8.75 / 3 / 4), 4);
    // Seed means 1 and 2: standard deviation √0.5, over √2 → 0.5.
    expect(stat.seAcrossSeedsUsdc).toBe(0.5);
    expect(stat.ci95Usdc[0]).toBeCloseTo(1.25 - 1.96 * Math.max(0.5, Math.sqrt(8.75 / 12)), 4);
    expect(stat.ci95Usdc[1]).toBeCloseTo(1.25 + 1.96 * Math.max(0.5, Math.sqrt(8.75 / 12)), 4);
  });

  it('a run without fills adds nothing; one seed has no across-seeds error', () => {
    const stat = poolMarkouts([tally([0.5, 1.5]), NO_FILLS]);
    expect(stat.meanPerFillUsdc).toBe(1);
    expect(stat.seAcrossSeedsUsdc).toBeNaN();
    expect(stat.sePerFillUsdc).toBe(0.5);
  });

  it('aggregate pools each markout figure of its runs', () => {
    const r = aggregate(4, 'cross-market', [17, 18], [figures({}, tally([1, -1, 3])), figures({}, tally([2]))]);
    expect(r.markoutStats.common1s.meanPerFillUsdc).toBe(1.25);
    expect(r.markoutStats.all1s.fills).toBe(0);
  });
});

/** A row of one seed whose 1 s common markouts are `values`. */
const marked = (markets: number, values: readonly number[], extra: Partial<LadderFigures> = {}): LadderRow => aggregate(markets, 'cross-market', [17], [figures(extra, tally(values))]);

/** n fills (n even) alternating mean + spread and mean − spread: their mean is exactly `mean`, their standard error ≈ spread / √n. */
const spreadAround = (mean: number, spread: number, n: number): number[] => Array.from({ length: n }, (_, i) => mean + (i % 2 === 0 ? spread : -spread));

describe('ladder bench: targets at 36 markets', () => {
  it('met and not met, each judged on its own', () => {
    const at4 = marked(4, spreadAround(0.3, 0.01, 100));
    expect(targets([at4, marked(36, spreadAround(0.24, 0.01, 100), { errorTicks: 1, moveToReplacedP99Ms: 1500 })])).toEqual({ errorTicks: true, moveToReplacedP99Ms: true, markout1sCommon: true, markout1sCommonDecided: false });
    expect(targets([at4, marked(36, spreadAround(0.2, 0.01, 100), { errorTicks: 1.01, moveToReplacedP99Ms: 1510 })])).toEqual({ errorTicks: false, moveToReplacedP99Ms: false, markout1sCommon: false, markout1sCommonDecided: true });
  });

  it('a negative markout at 4 markets: at most 20 % of its size worse', () => {
    const at4 = marked(4, spreadAround(-0.1, 0.001, 100));
    expect(targets([at4, marked(36, spreadAround(-0.11, 0.001, 100))])?.markout1sCommon).toBe(true);
    expect(targets([at4, marked(36, spreadAround(-0.13, 0.001, 100))])?.markout1sCommon).toBe(false);
  });

  it('a gap inside the noise is not decided, one well outside it is', () => {
    const at4 = marked(4, spreadAround(0.2, 1, 100));
    // Floor 0.16; the gap 0.04 against standard errors of about 0.1 each.
    expect(targets([at4, marked(36, spreadAround(0.12, 1, 100))])).toMatchObject({ markout1sCommon: false, markout1sCommonDecided: false });
    expect(targets([at4, marked(36, spreadAround(-0.5, 1, 100))])).toMatchObject({ markout1sCommon: false, markout1sCommonDecided: true });
    expect(targets([at4, marked(36, spreadAround(0.7, 1, 100))])).toMatchObject({ markout1sCommon: true, markout1sCommonDecided: true });
  });

  it('only the cross-market rows count; without both rows there is no verdict', () => {
    expect(targets([row(4, 'cross-market', {}), row(36, 'per-market', {})])).toBeNull();
    expect(targets([row(36, 'cross-market', {})])).toBeNull();
  });
});

/** A cross-market row over seeds 17… whose runs' common markouts are given per seed (1 s, 10 s: one fill each). */
const perSeed = (markets: number, oneSecond: readonly number[], tenSeconds: readonly number[] = oneSecond): LadderRow =>
  aggregate(
    markets,
    'cross-market',
    oneSecond.map((_, i) => 17 + i),
    oneSecond.map((v, i) => ({ ...figures({}, tally([v])), markouts: { ...figures({}).markouts, common1s: tally([v]), common10s: tally([tenSeconds[i] ?? 0]) } })),
  );

describe('ladder bench: the paired comparison (36 markets minus 4, seed by seed)', () => {
  it("differences per seed, their mean and standard error across seeds, the ratio and the target's margin", () => {
    const at4 = perSeed(4, [0.2, 0.5, -0.1], [0.3, 0.3, 0.3]);
    const at36 = perSeed(36, [0.1, 0.45, -0.2], [0.2, 0.4, 0.3]);
    const p = paired([at4, at36]);
    expect(p?.seeds).toEqual([17, 18, 19]);
    expect(p?.perSeed.map((s) => s.diff1sUsdc)).toEqual([-0.1, -0.05, -0.1]);
    expect(p?.perSeed.map((s) => s.diff10sUsdc)).toEqual([-0.1, 0.1, 0]);
    // The differences' mean −0.0833, standard deviation 0.0289, over √3: 0.0167; t(2) = 4.303.
    expect(p?.diff1s.meanUsdc).toBeCloseTo(-0.0833, 4);
    expect(p?.diff1s.seUsdc).toBeCloseTo(0.0167, 4);
    expect(p?.diff1s.halfWidth95Usdc).toBeCloseTo(4.303 * 0.0167, 3);
    // Means over the seeds: 0.2 at 4, 0.1167 at 36.
    expect(p?.ratio1s).toBeCloseTo(0.583, 3);
    expect(p?.factor).toBe(0.8);
    // Margins 0.1 − 0.16, 0.45 − 0.4, −0.2 + 0.08: mean −0.0433.
    expect(p?.perSeed.map((s) => s.gap1sUsdc)).toEqual([-0.06, 0.05, -0.12]);
    expect(p?.gap1s.meanUsdc).toBeCloseTo(-0.0433, 4);
    expect(p?.met).toBe(false);
    expect(p?.decided).toBe(false);
  });

  it('a consistent margin is decided even when the seeds themselves spread widely', () => {
    // Each seed's 36-market markout is 0.85 × its 4-market one + 0.1: a margin of 0.1–0.2, the same sign on every seed.
    const fours = [0.1, 0.9, 0.4, 1.5];
    const p = paired([perSeed(4, fours), perSeed(36, fours.map((v) => v * 0.85 + 0.1))]);
    expect(p?.met).toBe(true);
    expect(p?.decided).toBe(true);
    // Unpaired, the same rows are within the noise: the seeds' spread swamps the gap.
    expect(targets([perSeed(4, fours), perSeed(36, fours.map((v) => v * 0.85 + 0.1))])?.markout1sCommonDecided).toBe(false);
  });

  it('pairs only seeds both rows ran with fills; none: no comparison', () => {
    const p = paired([perSeed(4, [0.2, 0.3, 0.4]), aggregate(36, 'cross-market', [18, 19], [figures({}, tally([0.1])), figures({})])]);
    expect(p?.seeds).toEqual([18]);
    expect(p?.diff1s.seUsdc).toBeNaN();
    expect(p?.decided).toBe(false);
    expect(paired([perSeed(4, [0.2]), row(36, 'per-market', {})])).toBeNull();
  });

  it('seedMean: one value has no standard error', () => {
    expect(seedMean([0.5])).toEqual({ meanUsdc: 0.5, seUsdc: Number.NaN, halfWidth95Usdc: Number.NaN });
  });
});
