/**
 * Shared set-up of the strategy integration runs (test/integration/strategies-*.test.ts): ten virtual
 * minutes on the simulator's real matching engine with synthetic flow (passive maker, noise takers and
 * INFORMED takers on, the engine's defaults), two rewardable markets, the bot's default request model
 * (50 ms one way, 320 ms between requests, 2 in flight) and the bot's default order management, with risk
 * limits tight enough to bind. Also a checker that watches inventory after every single fill.
 */
import { expect } from 'vitest';
import { RAW_PER_UNIT } from '../../src/core/venue-rules/index.js';
import type { BacktestOptions, BacktestResult } from '../../src/backtest/index.js';
import type { StrategyModule } from '../../src/strategy/contract.js';
import { generateMarkets, type AccountFill, type MarketSpec } from '../../src/sim/engine/index.js';

export const T0 = Date.UTC(2026, 0, 1);
export const SHARES = RAW_PER_UNIT;
export const VIRTUAL_MINUTES = 10;

/** Two markets from the engine's fixtures, made rewardable with the same settings. */
export function rewardableMarkets(count = 2, seed = 11): MarketSpec[] {
  return generateMarkets(count, seed, T0).map((m) => ({
    ...m,
    isRewardable: true,
    settings: { minSizeRaw: 20 * SHARES, maxSpreadTicks: 30, dailyRewardRaw: 100 * RAW_PER_UNIT, c: 3 },
  }));
}

export const LIMITS = { maxPositionPerTokenRaw: 200 * SHARES, maxNetPositionRaw: 100 * SHARES } as const;

export function scenario<P>(module: StrategyModule<P>, params: unknown, seed: number, overrides: Partial<BacktestOptions<P>> = {}): BacktestOptions<P> {
  return {
    strategy: { module, params },
    seed,
    startMs: T0,
    durationMs: VIRTUAL_MINUTES * 60_000,
    stepMs: 1000,
    markets: rewardableMarkets(),
    risk: { ...LIMITS },
    ...overrides,
  };
}

/** Records every fill that leaves a market holding beyond the limits (checked at each fill, not only at the end). */
export class InventoryWatch {
  readonly breaches: string[] = [];
  fills = 0;

  constructor(
    private readonly maxNetRaw: number,
    private readonly maxTokenRaw: number,
  ) {}

  readonly onFill = (fill: AccountFill, holdings: { readonly yesRaw: number; readonly noRaw: number }): void => {
    this.fills += 1;
    const net = Math.abs(holdings.yesRaw - holdings.noRaw);
    if (net > this.maxNetRaw) this.breaches.push(`${fill.marketSlug}: |YES − NO| = ${net} > ${this.maxNetRaw}`);
    if (Math.max(holdings.yesRaw, holdings.noRaw) > this.maxTokenRaw) {
      this.breaches.push(`${fill.marketSlug}: holding ${Math.max(holdings.yesRaw, holdings.noRaw)} > ${this.maxTokenRaw}`);
    }
  };
}

/** What every run must satisfy whatever the strategy: sound engine, consistent figures, limits held. */
export function expectSoundRun(result: BacktestResult, watch: InventoryWatch, limits: { maxNetRaw: number; maxTokenRaw: number }): void {
  expect(result.engineInvariantViolations).toEqual([]);
  expect(result.counters.strategyErrors).toBe(0);
  expect(result.counters.invalidIntents).toBe(0);
  expect(watch.breaches).toEqual([]);
  expect(watch.fills).toBe(result.fills);
  expect(result.maxAbsInventoryRaw).toBeLessThanOrEqual(limits.maxNetRaw);
  expect(result.maxTokenRaw).toBeLessThanOrEqual(limits.maxTokenRaw);
  expect(result.steps).toBe(VIRTUAL_MINUTES * 60);
  expect(result.requests.total).toBe(result.requests.placements + result.requests.cancelRequests);
  // PnL adds up: net = realized − fees + unrealized, market by market and in total.
  expect(result.pnlRaw).toBe(result.realizedRaw - result.feesRaw + result.unrealizedRaw);
  expect(result.pnlRaw).toBe(result.markets.reduce((sum, m) => sum + m.pnlRaw, 0));
}
