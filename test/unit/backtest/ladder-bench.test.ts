/**
 * The ladder benchmark's pure parts (bench/ladder.ts): which markets every row has in common (each ticker's
 * at-the-money hourly strike), the mean and range of a row over its seeds, and the verdict on issue 29's targets.
 */
import { describe, expect, it } from 'vitest';
import { aggregate, commonMarkets, FIGURES, targets, type LadderFigures, type LadderMarket, type LadderRow } from '../../../bench/ladder.js';

const market = (ticker: string, strike: string, cadence: 'hourly' | 'daily'): LadderMarket => ({ slug: `${ticker}-${strike}-${cadence}`, oracle: { ticker, strike, cadence } });

const figures = (values: Partial<LadderFigures>): LadderFigures => ({ ...(Object.fromEntries(FIGURES.map((f) => [f, 0])) as Record<keyof LadderFigures, number>), ...values });

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

describe('ladder bench: targets at 36 markets', () => {
  it('met and not met, each judged on its own', () => {
    const at4 = row(4, 'cross-market', { markout1sCommonUsdc: 0.3 });
    expect(targets([at4, row(36, 'cross-market', { errorTicks: 1, moveToReplacedP99Ms: 1500, markout1sCommonUsdc: 0.24 })])).toEqual({ errorTicks: true, moveToReplacedP99Ms: true, markout1sCommon: true });
    expect(targets([at4, row(36, 'cross-market', { errorTicks: 1.01, moveToReplacedP99Ms: 1510, markout1sCommonUsdc: 0.2 })])).toEqual({ errorTicks: false, moveToReplacedP99Ms: false, markout1sCommon: false });
  });

  it('a negative markout at 4 markets: at most 20 % of its size worse', () => {
    const at4 = row(4, 'cross-market', { markout1sCommonUsdc: -0.1 });
    expect(targets([at4, row(36, 'cross-market', { markout1sCommonUsdc: -0.12 })])?.markout1sCommon).toBe(true);
    expect(targets([at4, row(36, 'cross-market', { markout1sCommonUsdc: -0.13 })])?.markout1sCommon).toBe(false);
  });

  it('only the cross-market rows count; without both rows there is no verdict', () => {
    expect(targets([row(4, 'cross-market', {}), row(36, 'per-market', {})])).toBeNull();
    expect(targets([row(36, 'cross-market', {})])).toBeNull();
  });
});
