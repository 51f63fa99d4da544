import { describe, expect, it } from 'vitest';
import { dueHorizons, lastSampleMs, lateToleranceMs, LEDGER_MARKOUT_HORIZONS_MS } from '../../../src/markouts/schedule.js';
import { fairMicros, fillMarkoutRaw, othersMidMicros } from '../../../src/markouts/value.js';
import { summarizeJudgedFills, type JudgedFill, type MarkoutSample } from '../../../src/markouts/summary.js';
import type { BookView } from '../../../src/strategy/contract.js';
import { bookFromLevels } from '../../support/views.js';

function book(bids: [number, number][], asks: [number, number][]): BookView {
  return bookFromLevels(
    bids.map(([priceTicks, sizeRaw]) => ({ priceTicks, sizeRaw })),
    asks.map(([priceTicks, sizeRaw]) => ({ priceTicks, sizeRaw })),
    null,
  );
}

describe('markout schedule', () => {
  it('tolerates two sampler periods or a tenth of the horizon', () => {
    expect(LEDGER_MARKOUT_HORIZONS_MS).toEqual([0, 1_000, 10_000, 60_000, 300_000]);
    expect(lateToleranceMs(0, 250)).toBe(500);
    expect(lateToleranceMs(1_000, 250)).toBe(500);
    expect(lateToleranceMs(10_000, 250)).toBe(1_000);
    expect(lateToleranceMs(300_000, 250)).toBe(30_000);
    expect(lastSampleMs(1_000, LEDGER_MARKOUT_HORIZONS_MS, 250)).toBe(1_000 + 300_000 + 30_000);
  });

  it('samples a horizon at or after its due instant and within tolerance; gives up after', () => {
    const open = [0, 1_000, 10_000, 60_000, 300_000];
    expect(dueHorizons(5_000, open, 4_999, 250)).toEqual({ sample: [], missed: [], waiting: open });
    expect(dueHorizons(5_000, open, 5_000, 250)).toEqual({ sample: [0], missed: [], waiting: [1_000, 10_000, 60_000, 300_000] });
    // 0 s is 600 ms late (tolerance 500): missed; 1 s is due and on time.
    expect(dueHorizons(5_000, open, 6_100, 250)).toEqual({ sample: [1_000], missed: [0], waiting: [10_000, 60_000, 300_000] });
    // 66 s after the fill: 60 s is 6 s late, its tolerance exactly.
    expect(dueHorizons(5_000, [60_000, 300_000], 71_000, 250)).toEqual({ sample: [60_000], missed: [], waiting: [300_000] });
    expect(dueHorizons(5_000, [60_000, 300_000], 71_001, 250)).toEqual({ sample: [], missed: [60_000], waiting: [300_000] });
  });
});

describe('markout value', () => {
  it('is exact in raw USDC for each side and token', () => {
    // BUY YES 10 at 0.450, mid later 0.480: +0.03 × 10 = 0.3 USDC.
    expect(fillMarkoutRaw({ token: 'YES', side: 'BUY', priceTicks: 450, sizeRaw: 10_000_000 }, 480_000)).toBe(300_000);
    // SELL YES 10 at 0.450, mid later 0.480: −0.3.
    expect(fillMarkoutRaw({ token: 'YES', side: 'SELL', priceTicks: 450, sizeRaw: 10_000_000 }, 480_000)).toBe(-300_000);
    // BUY NO at 0.520 is an ask (sold YES) at 0.480: mid 0.470 → +0.01 × 5 = 0.05.
    expect(fillMarkoutRaw({ token: 'NO', side: 'BUY', priceTicks: 520, sizeRaw: 5_000_000 }, 470_000)).toBe(50_000);
    // SELL NO at 0.520 is a bid at 0.480: mid 0.470 → −0.05.
    expect(fillMarkoutRaw({ token: 'NO', side: 'SELL', priceTicks: 520, sizeRaw: 5_000_000 }, 470_000)).toBe(-50_000);
    // Rounded half away from zero, once: 1,000 raw shares × 0.0005 = 0.5 raw → 1; the mirror → −1; 0.4 raw → 0.
    expect(fillMarkoutRaw({ token: 'YES', side: 'BUY', priceTicks: 450, sizeRaw: 1_000 }, 450_500)).toBe(1);
    expect(fillMarkoutRaw({ token: 'YES', side: 'SELL', priceTicks: 450, sizeRaw: 1_000 }, 450_500)).toBe(-1);
    expect(fillMarkoutRaw({ token: 'YES', side: 'BUY', priceTicks: 450, sizeRaw: 800 }, 450_500)).toBe(0);
    // A million shares (beyond 2^53 before dividing) stays exact.
    expect(fillMarkoutRaw({ token: 'YES', side: 'BUY', priceTicks: 1, sizeRaw: 1_000_000_000_000 }, 999_999)).toBe(998_999_000_000);
  });

  it('reads the book mid without the bot\'s own orders, in millionths, or null', () => {
    const yes = book([[480, 5_000_000], [470, 20_000_000]], [[520, 5_000_000], [540, 20_000_000]]);
    expect(othersMidMicros(yes, [])).toBe(500_000);
    // Our bid at 0.480 (BUY YES) and ask at 0.520 (BUY NO at 0.480) are the whole touch: the others' mid is 0.505.
    const own = [
      { token: 'YES' as const, side: 'BUY' as const, priceTicks: 480, sizeRaw: 5_000_000 },
      { token: 'NO' as const, side: 'BUY' as const, priceTicks: 480, sizeRaw: 5_000_000 },
    ];
    expect(othersMidMicros(yes, own)).toBe(505_000);
    expect(othersMidMicros(book([[471, 1]], [[474, 1]]), [])).toBe(472_500);
    expect(othersMidMicros(book([[480, 1]], []), [])).toBeNull();
    expect(othersMidMicros(book([[500, 1]], [[500, 1]]), [])).toBeNull();
  });

  it('turns a fair value into millionths strictly inside (0, 1)', () => {
    expect(fairMicros(0.4321234)).toBe(432_123);
    expect(fairMicros(0)).toBeNull();
    expect(fairMicros(0.0000004)).toBeNull();
    expect(fairMicros(0.9999996)).toBeNull();
    expect(fairMicros(Number.NaN)).toBeNull();
  });
});

function judged(marketSlug: string, strategy: string, side: 'BUY' | 'SELL', samples: MarkoutSample[], feeRaw = 0): JudgedFill {
  return { marketSlug, strategy, terms: { token: 'YES', side, priceTicks: 500, sizeRaw: 10_000_000 }, feeRaw, references: ['mid', 'model'], samples };
}

const mid = (horizonMs: number, refMicros: number | null): MarkoutSample => ({ horizonMs, reference: 'mid', refMicros });

describe('markout summary', () => {
  it('realized spread, means per horizon, adverse selection and its share, missing and pending', () => {
    const fills = [
      // Bought at 0.500 with the mid at 0.510 (edge 0.1), mid 0.505 at 1 s, 0.490 at 60 s (−0.1).
      judged('a', 'fixed-spread', 'BUY', [mid(0, 510_000), mid(1_000, 505_000), mid(10_000, 500_000), mid(60_000, 490_000)], 1_000),
      // Sold at 0.500 with the mid at 0.490 (edge 0.1), the 60 s sample missing (bot down).
      judged('a', 'fixed-spread', 'SELL', [mid(0, 490_000), mid(1_000, 495_000), mid(10_000, null), mid(60_000, null)], 2_000),
      judged('b', 'glft', 'BUY', [mid(0, 520_000)]),
    ];
    const byMarket = summarizeJudgedFills(fills, (f) => f.marketSlug);
    expect(byMarket.map((g) => [g.key, g.fills, g.feesRaw])).toEqual([
      ['a', 2, 3_000],
      ['b', 1, 0],
    ]);
    const a = byMarket[0]!;
    // The model reference was expected but nothing is written yet: all pending.
    expect(a.references.map((r) => r.reference)).toEqual(['mid', 'model']);
    const aMid = a.references[0]!;
    expect(aMid.realizedSpreadRaw).toBe(200_000);
    expect(aMid.horizons.map((h) => [h.horizonMs, h.known, h.missing, h.pending, h.totalRaw, h.meanRaw])).toEqual([
      [0, 2, 0, 0, 200_000, 100_000],
      [1_000, 2, 0, 0, 100_000, 50_000],
      [10_000, 1, 1, 0, 0, 0],
      [60_000, 1, 1, 0, -100_000, -100_000],
      [300_000, 0, 0, 2, 0, null],
    ]);
    // Only the first fill has both 0 s and 60 s: it captured 0.1 and lost 0.2 by 60 s: 200 % of its spread.
    expect(aMid.adverseSelectionRaw).toBe(200_000);
    expect(aMid.adverseSelectionShare).toBe(2);
    expect(a.references[1]!.horizons.every((h) => h.pending === 2 && h.known === 0)).toBe(true);
    expect(a.references[1]!.adverseSelectionShare).toBeNull();
    const byStrategy = summarizeJudgedFills(fills, (f) => f.strategy);
    expect(byStrategy.map((g) => g.key)).toEqual(['fixed-spread', 'glft']);
    expect(byStrategy[1]!.references[0]!.realizedSpreadRaw).toBe(200_000);
  });

  it('leaves a fill judged against the mid only out of the model figures', () => {
    const fill: JudgedFill = { ...judged('a', 's', 'BUY', [mid(0, 510_000)]), references: ['mid'] };
    const [group] = summarizeJudgedFills([fill], (f) => f.marketSlug);
    expect(group!.references.map((r) => r.reference)).toEqual(['mid']);
  });
});
