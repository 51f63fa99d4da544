/**
 * Markets that come and go, through `backtest --synthetic` (runSyntheticCommand, as the CLI calls it): on the config's
 * recurring hourly ladders it trades the ladder of every hour — joined as the engine lists it when the previous one
 * settles, left at its stop before settlement. The other rolling-market backtests (the 24-hour soak, stops under a
 * saturated limit, `admits`) are in backtest-rolling-markets.test.ts: a file each, so the two `backtest` workers run
 * them side by side. CPU-bound (the `backtest` project).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runSyntheticCommand } from '../../src/backtest/synthetic-command.js';
import { parseConfigText } from '../../src/config/index.js';
import { hangBound } from '../support/hang-bound.js';

const HOUR_MS = 3_600_000;

const rolling = z.looseObject({
  world: z.literal('crypto'),
  cadences: z.tuple([z.literal('hourly')]),
  strikesPerExpiry: z.literal(2),
  recurring: z.literal(true),
  marketsJoined: z.int(),
  marketsLeft: z.int(),
  fills: z.int(),
  markets: z.array(z.looseObject({ market: z.string(), settlesAt: z.iso.datetime(), fills: z.int().min(0) })),
});

describe('rolling markets in backtest --synthetic', () => {
  it('backtest --synthetic, 3 virtual hours of recurring hourly ladders: the ladder of every hour is joined, traded and left', async () => {
    const config = parseConfigText(
      [
        'venue: {kind: sim, seed: 5, world: crypto, underlying: {tickers: [BTC], cadences: [hourly], strikesPerExpiry: 2}}',
        'strategy: {name: fixed-spread, params: {bidSpread: 0.01, askSpread: 0.01, levels: 1, orderSize: 10, inventoryRange: 50}}',
        'orders: {botTag: roll, refreshTolerance: {priceTicks: 2, size: "10%"}}',
        'risk: {maxPositionPerToken: 200, maxNetPosition: 100, maxOpenOrders: 8, maxNotional: 800}',
        '',
      ].join('\n'),
      { source: '<test>', baseDir: '/srv' },
    );
    const report = rolling.parse(JSON.parse(await runSyntheticCommand(config, { configPath: 'rolling.yaml', durationMs: 3 * HOUR_MS, latencyMs: 50, feeRateBps: 300, json: true })));
    // Two strikes an hour: the ladder listed at the start and the two listed as their predecessors settled.
    // The ladder listed at the run's last instant (settling at 04:00) may be joined as the run ends (the daemon's own
    // selection judges a listed market at once): it trades nothing. Every earlier ladder is joined, traded and left.
    const endIso = '2026-01-01T03:00:00.000Z';
    const late = report.markets.filter((m) => m.settlesAt > endIso);
    for (const market of late) expect(market.fills, market.market).toBe(0);
    expect(late.length).toBeLessThanOrEqual(2);
    expect([report.marketsJoined - late.length, report.marketsLeft]).toEqual([6, 6]);
    const fillsBySettlement = new Map<string, number>();
    for (const market of report.markets.filter((m) => m.settlesAt <= endIso)) fillsBySettlement.set(market.settlesAt, (fillsBySettlement.get(market.settlesAt) ?? 0) + market.fills);
    expect([...fillsBySettlement.keys()]).toEqual(['2026-01-01T01:00:00.000Z', '2026-01-01T02:00:00.000Z', '2026-01-01T03:00:00.000Z']);
    for (const [hour, fills] of fillsBySettlement) expect(fills, hour).toBeGreaterThan(0);
    expect(report.markets).toHaveLength(6 + late.length);
    expect(report.markets.reduce((n, m) => n + m.fills, 0)).toBe(report.fills);
    // A bound that only catches a hang: about 20 s of CPU, but it shares the cores with the unit files, the other
    // backtests and `npm test`'s build, and took over 120 s on a machine others loaded (load average 15–18).
  }, hangBound(300_000));
});
