/**
 * The config → backtest options mapping of `backtest --synthetic` (src/backtest/synthetic-command.ts, pure): the
 * config's strategy, risk limits, order management and rate limits reach the backtest; the world and seed follow the
 * config unless the command says; virtual durations are parsed with their unit, and bad ones are refused by value.
 */
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../../src/config/index.js';
import { joinsAndLeaves, parseVirtualDuration, SyntheticUsageError, syntheticOptions, type SyntheticCommandOptions } from '../../../src/backtest/synthetic-command.js';
import fixedSpread from '../../../strategies/fixed-spread.js';

const command: SyntheticCommandOptions = { configPath: 'bot.yaml', durationMs: 2 * 3_600_000, latencyMs: 80, feeRateBps: 150, json: false };
const config = (yaml: string) => parseConfigText(`strategy: {name: fixed-spread, params: {bidSpread: 0.01}}\n${yaml}`, { source: '<test>', baseDir: '/srv' });

describe('syntheticOptions', () => {
  it('carries the config’s risk, orders and rate limits; a crypto simulator config runs its world, recurring, priced, stopping at the pricer’s stop', () => {
    const c = config(
      [
        'venue: {kind: sim, seed: 9, world: crypto, underlying: {tickers: [ETH], cadences: [hourly], strikesPerExpiry: 2, informedLeadMs: 800, makerLagMs: 5000}}',
        'risk: {maxPositionPerToken: 40, maxNetPosition: 20, maxOpenOrders: 4, maxNotional: 300, priceBand: {min: 0.1, max: 0.9}}',
        'orders: {botTag: synth, refreshTolerance: {priceTicks: 2, size: "5%"}, filledOrderDelaySec: 3, postOnly: false}',
        'rateLimits: {minTimeMs: 500, maxConcurrent: 1}',
        '',
      ].join('\n'),
    );
    const { options, setup } = syntheticOptions(c, fixedSpread, command);
    expect(options.seed).toBe(9);
    expect(options.durationMs).toBe(7_200_000);
    expect(options.risk).toEqual({ maxPositionPerTokenRaw: 40_000_000, maxNetPositionRaw: 20_000_000, maxOpenOrders: 4, priceBand: { minTicks: 100, maxTicks: 900 }, stopBeforeExpiryMs: c.pricing.pricer.stopBeforeSettlementMs, maxNotionalRaw: 300_000_000 });
    expect(options.orders).toMatchObject({ botTag: 'synth', priceToleranceTicks: 2, sizeTolerance: { kind: 'percent', percent: 5 }, coolOffMs: 3000, postOnly: false });
    expect(options.latency).toEqual({ oneWayMs: 80, minRequestSpacingMs: 500, maxConcurrent: 1 });
    // The config's wallet: venue.startingCollateral (default 1,000 USDC), externally owned by default.
    expect(options.account).toEqual({ feeRateBps: 150, usdcRaw: 1_000_000_000, serverManagedWallet: false });
    expect(options.world?.underlying).toMatchObject({ leadMs: 800, makerLagMs: 5000 });
    expect(options.world?.underlying.underlyings.map((u) => u.ticker)).toEqual(['ETH']);
    // The config's ladders, recurring as the venue's: from midnight, the first settles at 01:00.
    expect(options.world?.markets).toMatchObject({ cadences: ['hourly'], strikesPerExpiry: 2, dailyHourUtc: 16, recurring: true });
    expect(options.pricing).toEqual(c.pricing.pricer);
    expect(setup).toMatchObject({ world: 'crypto', seed: 9, tickers: ['ETH'], cadences: ['hourly'], strikesPerExpiry: 2, recurring: true, priced: true, settlesAtMs: Date.UTC(2026, 0, 1, 1) });
    // A daily-only world: its first settlement is the daily hour.
    const daily = syntheticOptions(config('venue: {kind: sim, world: crypto, underlying: {cadences: [daily]}}\n'), fixedSpread, command);
    expect(daily.setup).toMatchObject({ cadences: ['daily'], strikesPerExpiry: 3, settlesAtMs: Date.UTC(2026, 0, 1, 16) });
  });

  it('a live config runs the simulator’s default crypto world (every ticker, hourly and daily ladders of 3) with seed 1; --world generic and --seed override', () => {
    const live = config("venue: {kind: live, baseUrl: 'https://x.test', socketUrl: 'https://x.test'}\nmarkets: {slugs: [a]}\n");
    expect(syntheticOptions(live, fixedSpread, command).setup).toMatchObject({ world: 'crypto', seed: 1, tickers: ['BTC', 'ETH', 'SOL', 'XRP'], cadences: ['hourly', 'daily'], strikesPerExpiry: 3, recurring: true });
    const generic = syntheticOptions(live, fixedSpread, { ...command, world: 'generic', seed: 42 });
    expect(generic.options).toMatchObject({ seed: 42, markets: { count: 4 } });
    expect(generic.options.world).toBeUndefined();
    expect(generic.options.pricing).toBeUndefined();
    expect(generic.options.risk?.stopBeforeExpiryMs).toBe(live.risk.stopBeforeExpiryMs);
    expect(generic.setup).toMatchObject({ cadences: [], recurring: false, settlesAtMs: null });
  });
});

describe('parseVirtualDuration', () => {
  it('reads s, m, h, d and bare seconds; refuses what is not a duration from 1 s to 30 days, naming it', () => {
    expect([parseVirtualDuration('90s'), parseVirtualDuration('30m'), parseVirtualDuration('2h'), parseVirtualDuration('1d'), parseVirtualDuration('45'), parseVirtualDuration('1.5h')]).toEqual([90_000, 1_800_000, 7_200_000, 86_400_000, 45_000, 5_400_000]);
    for (const bad of ['0s', '0.5', '31d', 'soon', '-1h', '']) {
      expect(() => parseVirtualDuration(bad), bad).toThrow(SyntheticUsageError);
      expect(() => parseVirtualDuration(bad), bad).toThrow(`--duration ${JSON.stringify(bad)}`);
    }
  });
});

describe('joinsAndLeaves', () => {
  it('counts events, not markets: a selection that takes a market back makes more joins than markets traded', () => {
    expect(joinsAndLeaves(19, 13)).toBe('19 joins and 13 leaves');
    expect(joinsAndLeaves(1, 0)).toBe('1 join and 0 leaves');
    expect(joinsAndLeaves(0, 1)).toBe('0 joins and 1 leave');
  });
});
