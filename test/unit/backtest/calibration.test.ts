/**
 * Calibration in the backtest: the in-memory store the sampler writes to (one prediction per market and offset, scored
 * only once resolved, once), and through `runBacktest`'s `calibration` option on a short crypto-world run: every offset
 * of the settled market scored against the engine's resolution, the mid `no-book` once the bot has left, the model
 * still predicted then (the pricer's value, no quoting halt), and the option's errors.
 */
import { describe, expect, it } from 'vitest';
import { BacktestConfigError, runBacktest, type BacktestOptions } from '../../../src/backtest/index.js';
import { MemoryCalibrationStore } from '../../../src/backtest/calibration.js';
import type { NewPrediction } from '../../../src/ledger/calibration-repo.js';
import { DEFAULT_PRICER_SETTINGS } from '../../../src/pricing/market-pricer.js';
import { DEFAULT_CRYPTO_MARKETS, DEFAULT_UNDERLYINGS } from '../../../src/sim/engine/index.js';
import fixedSpread from '../../../strategies/fixed-spread.js';

const SETTLES = Date.UTC(2026, 0, 1, 13, 0);

function prediction(slug: string, offsetMs: number, model: number | null, mid: number | null): NewPrediction {
  return {
    marketSlug: slug,
    offsetMs,
    underlying: 'BTC',
    cadence: 'hourly',
    settlesAtMs: SETTLES,
    modelMicros: model,
    modelMissing: model === null ? 'stale-underlying' : null,
    midMicros: mid,
    midMissing: mid === null ? 'no-book' : null,
    takenAtMs: SETTLES - offsetMs,
  };
}

describe('MemoryCalibrationStore', () => {
  it('keeps the first prediction of a (market, offset), scores resolved ones once, and sums them by source', () => {
    const outcomes = new Map<string, 0 | 1>();
    const store = new MemoryCalibrationStore((slug) => outcomes.get(slug) ?? null);
    expect(store.recordPrediction(prediction('a', 600_000, 800_000, 700_000))).toBe(true);
    expect(store.recordPrediction(prediction('a', 600_000, 100_000, 100_000))).toBe(false);
    expect(store.recordPrediction(prediction('a', 60_000, 900_000, null))).toBe(true);
    expect(store.recordPrediction(prediction('b', 600_000, 300_000, 400_000))).toBe(true);
    expect(store.recordPrediction(prediction('b', 60_000, null, null))).toBe(true);
    expect(store.takenOffsetsOf('a').sort()).toEqual([60_000, 600_000]);
    // Nothing resolved yet: nothing to score.
    expect(store.resolvedUnscored()).toEqual([]);
    outcomes.set('a', 1);
    expect(store.resolvedUnscored().map((r) => [r.marketSlug, r.offsetMs, r.outcome, r.modelMicros])).toEqual([
      ['a', 600_000, 1, 800_000],
      ['a', 60_000, 1, 900_000],
    ]);
    outcomes.set('b', 0);
    const summary = store.finish(SETTLES + 5_000);
    // b at 60 s had no prediction at all: never scored.
    expect(summary.rows.map((r) => `${r.marketSlug}@${r.offsetMs}`)).toEqual(['a@600000', 'a@60000', 'b@600000']);
    expect(store.resolvedUnscored()).toEqual([]);
    expect(store.writeScores(summary.rows)).toEqual([]);
    const ll = (p: number): number => -Math.log(p);
    expect(summary.model.n).toBe(3);
    expect(summary.model.logLoss).toBeCloseTo((ll(0.8) + ll(0.9) + ll(0.7)) / 3, 5);
    expect(summary.model.brier).toBeCloseTo((0.04 + 0.01 + 0.09) / 3, 5);
    expect(summary.mid.n).toBe(2);
    expect(summary.mid.logLoss).toBeCloseTo((ll(0.7) + ll(0.6)) / 2, 5);
    expect(summary.missing).toEqual({ 'mid:no-book': 2, 'model:stale-underlying': 1 });
  });

  it('an empty run has no scores (NaN means, n 0)', () => {
    const summary = new MemoryCalibrationStore(() => null).finish(SETTLES);
    expect(summary.rows).toEqual([]);
    expect(summary.model.n).toBe(0);
    expect(Number.isNaN(summary.model.logLoss)).toBe(true);
  });
});

/**
 * One BTC strike settling at 13:00, traded from 12:55 on coarse steps, left 60 s before its settlement; no synthetic
 * takers (the book is the makers' ladder and ours, so the others' touch is two-sided while the bot is in).
 */
function run(overrides: Partial<BacktestOptions> = {}): BacktestOptions {
  return {
    strategy: { module: fixedSpread, params: { bidSpread: 0.01, askSpread: 0.01, levels: 1, orderSize: 10, inventoryRange: 50 } },
    seed: 4,
    startMs: SETTLES - 5 * 60_000,
    durationMs: 5 * 60_000 + 10_000,
    stepMs: 5_000,
    requoteIntervalMs: 20_000,
    quoteOnBookChange: false,
    synthetic: { informed: { ratePerMinute: 0 }, noise: { ratePerMinute: 0 } },
    world: {
      underlying: { underlyings: DEFAULT_UNDERLYINGS.filter((u) => u.ticker === 'BTC'), leadMs: 1500 },
      markets: { ...DEFAULT_CRYPTO_MARKETS, cadences: ['hourly'], strikesPerExpiry: 1, recurring: false },
    },
    pricing: DEFAULT_PRICER_SETTINGS,
    risk: { stopBeforeExpiryMs: DEFAULT_PRICER_SETTINGS.stopBeforeSettlementMs },
    ...overrides,
  };
}

describe('runBacktest({calibration})', () => {
  it('scores the model and the mid at each offset against the engine’s resolution; after the leave the mid is no-book, the model still predicts', async () => {
    const result = await runBacktest(run({ calibration: { offsetsMs: [240_000, 60_000, 30_000] } }));
    const calibration = result.calibration;
    if (calibration === null) throw new Error('expected calibration');
    const market = result.markets[0]!;
    expect(result.markets).toHaveLength(1);
    // Resolved: its final fair is the payout (1000 ticks: YES won; 0: NO).
    expect([0, 1000]).toContain(market.finalFairTicks);
    expect(calibration.rows.map((r) => r.offsetMs)).toEqual([240_000, 60_000, 30_000]);
    for (const row of calibration.rows) {
      expect(row.marketSlug).toBe(market.slug);
      expect(row.outcome).toBe(market.finalFairTicks === 1000 ? 1 : 0);
      expect(row.modelMicros).not.toBeNull();
      const p = (row.modelMicros ?? 0) / 1e6;
      expect(row.modelLogLossMicro).toBe(Math.round(-Math.log(row.outcome === 1 ? p : 1 - p) * 1e6));
    }
    expect(calibration.rows.map((r) => r.midMicros === null)).toEqual([false, false, true]);
    expect(calibration.missing).toEqual({ 'mid:no-book': 1 });
    expect([calibration.model.n, calibration.mid.n]).toEqual([3, 2]);
    // Off unless asked for.
    expect((await runBacktest(run({ durationMs: 60_000 }))).calibration).toBeNull();
  });

  it('needs pricing, and positive offsets: a BacktestConfigError naming the field', () => {
    const error = (options: BacktestOptions): BacktestConfigError => {
      try {
        void runBacktest(options);
      } catch (e) {
        if (e instanceof BacktestConfigError) return e;
        throw e;
      }
      throw new Error('expected a BacktestConfigError');
    };
    const { pricing: _pricing, ...unpriced } = run({ calibration: {} });
    expect(error(unpriced).field).toBe('calibration');
    const bad = error(run({ calibration: { offsetsMs: [60_000, -5] } }));
    expect([bad.field, bad.value]).toEqual(['calibration.offsetsMs[1]', -5]);
  });
});
