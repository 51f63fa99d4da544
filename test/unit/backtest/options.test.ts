import { describe, expect, it } from 'vitest';
import { BacktestConfigError, resolveOptions, runBacktest, type BacktestOptions } from '../../../src/backtest/index.js';
import fixedSpread from '../../../strategies/fixed-spread.js';
import { generateMarkets } from '../../../src/sim/engine/index.js';

const T0 = Date.UTC(2026, 0, 1);
const valid: BacktestOptions = { strategy: { module: fixedSpread }, seed: 1, durationMs: 60_000 };

/** Runs with `overrides` on top of valid options (any shape: what a caller reading JSON or YAML might pass). */
function failure(overrides: object): BacktestConfigError {
  try {
    void runBacktest(Object.assign({}, valid, overrides));
  } catch (error) {
    if (error instanceof BacktestConfigError) return error;
    throw error;
  }
  throw new Error('expected a BacktestConfigError');
}

describe('backtest options', () => {
  it('fills in the bot defaults', () => {
    const o = resolveOptions(valid);
    expect(o.stepMs).toBe(1000);
    expect(o.requoteIntervalMs).toBe(5000);
    expect(o.latency).toEqual({ oneWayMs: 50, minRequestSpacingMs: 320, maxConcurrent: 2 });
    expect(o.orders).toMatchObject({ priceToleranceTicks: 0, maxOrderAgeMs: 1_800_000, coolOffMs: 10_000, postOnly: true });
    expect(o.risk).toMatchObject({ maxPositionPerTokenRaw: 500e6, maxNetPositionRaw: 250e6, maxOpenOrders: 6, maxNotionalRaw: 1000e6, priceBand: { minTicks: 20, maxTicks: 980 } });
    expect(o.strategyName).toBe('fixed-spread');
  });

  it('charges gas per redeem or merge: 0.005 USDC by default (docs/backtest.md), at a positive ETH price', () => {
    expect(resolveOptions(valid).capital).toMatchObject({ enabled: true, gasUsdcRaw: 5_000, ethPriceUsdcRaw: 3_000e6 });
    expect(resolveOptions({ ...valid, capital: { gasUsdcRaw: 0 } }).capital.gasUsdcRaw).toBe(0);
    expect(failure({ capital: { ethPriceUsdcRaw: 0 } }).field).toBe('capital.ethPriceUsdcRaw');
    expect(failure({ capital: { gasWei: '1' } }).field).toBe('capital.gasWei');
  });

  it('names the field and the value of a bad option', () => {
    const seed = failure({ seed: 1.5 });
    expect(seed.field).toBe('seed');
    expect(seed.value).toBe(1.5);
    expect(failure({ durationMs: 0 }).field).toBe('durationMs');
    expect(failure({ latency: { oneWayMs: -1 } }).field).toBe('latency.oneWayMs');
    expect(failure({ risk: { priceBand: { minTicks: 500, maxTicks: 400 } } }).field).toBe('risk.priceBand.maxTicks');
    const unknown = failure({ latencyMs: 5 });
    expect(unknown.field).toBe('latencyMs');
    expect(unknown.message).toContain('unknown option');
    expect(failure({ synthetic: { stepMs: 1000 } }).field).toBe('synthetic.stepMs');
  });

  it('checks the strategy parameters against the module schema, naming the parameter', () => {
    const error = failure({ strategy: { module: fixedSpread, params: { bidSpread: -1 } } });
    expect(error.field).toBe('strategy.params.bidSpread');
    expect(error.value).toBe(-1);
    expect(failure({ strategy: { module: fixedSpread, params: { bidSpred: 0.01 } } }).field).toBe('strategy.params.bidSpred');
    expect(failure({ strategy: { module: { name: 'x' } } }).field).toBe('strategy.module');
  });

  it('reports engine-level problems (markets, bands) as config errors too', () => {
    const [m] = generateMarkets(1, 1, T0);
    const duplicate = failure({ markets: [m, m] });
    expect(duplicate.field).toMatch(/^markets\[1]/);
    const band = failure({ venuePriceBand: { minTicks: 10, maxTicks: 15 }, risk: { priceBand: { minTicks: 20, maxTicks: 980 } } });
    expect(band.field).toBe('risk.priceBand');
  });
});

describe('backtest options: market specs', () => {
  it('names the field of a market spec the backtest cannot read', () => {
    const [m] = generateMarkets(1, 1, T0);
    const broken = { ...m!, settings: { ...m!.settings, minSizeRaw: -5 } };
    let caught: unknown;
    try {
      void runBacktest({ ...valid, markets: [broken] });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(BacktestConfigError);
    expect(caught instanceof BacktestConfigError ? caught.field : '').toBe('markets[0].settings.minSizeRaw');
  });
});
