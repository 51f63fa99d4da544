/**
 * How long the bot's orders outlive a market's stop before settlement in the backtests (issue 29), and whether any
 * order is placed at or after it: the figure docs/replay.md gave as "seen up to 1.7 s past the stop".
 *
 * 1. Replay: the project's recording (examples/sim-btc-ladder/) with its last market listed 2 min in and settling so
 *    that its stop falls a minute before the end (test/unit/replay/replay-listed.test.ts's case), sampled every 10 ms:
 *    the last sample with an order of that market resting, after its stop.
 * 2. Synthetic: a crypto world of BTC and ETH hourly ladders (`BENCH_STOP_STRIKES` strikes each, default 3), started 10
 *    minutes before they settle, every step requoted (the rate limit saturated): per market, orders placed at or after
 *    its stop and the last moment one of its orders rested past the stop, from the engine's own order events; with
 *    the default cross-market cancel-replace requests, then with a cancel and a placement per requote (every
 *    placement a request of its own, so placements queue at the stop).
 *
 * Run: npx tsx bench/stop-overrun.ts
 */
import { join } from 'node:path';
import { loadConfigFile, validateStrategy } from '../src/config/index.js';
import { runBacktest, type BacktestOptions } from '../src/backtest/index.js';
import { LEAVE_AFTER_STOP_MS } from '../src/backtest/market-roll.js';
import { DEFAULT_PRICER_SETTINGS } from '../src/pricing/market-pricer.js';
import type { ReplayEvent, ReplayMarket } from '../src/replay/format.js';
import { readReplay } from '../src/replay/reader.js';
import { runReplayBacktest } from '../src/replay/replay-backtest.js';
import { DEFAULT_CRYPTO_MARKETS, DEFAULT_UNDERLYINGS } from '../src/sim/engine/index.js';
import fixedSpread from '../strategies/fixed-spread.js';

const ROOT = join(import.meta.dirname, '..');
const HOUR_MS = 3_600_000;

async function replayOverrun(): Promise<void> {
  const recorded = readReplay(join(ROOT, 'examples/sim-btc-ladder/recording.ndjson.gz'));
  const config = loadConfigFile(join(ROOT, 'config/fixed-spread.yaml'));
  const check = await validateStrategy(config);
  if (!check.ok) throw new Error('config/fixed-spread.yaml');
  const stopMs = config.pricing.pricer.stopBeforeSettlementMs;
  const startMs = Math.min(...recorded.events.flatMap((e) => (e.kind === 'underlying' ? [] : [e.t])));
  const endMs = Math.max(...recorded.events.flatMap((e) => (e.kind === 'book' || e.kind === 'trade' ? [e.t] : [])));
  const listAtMs = startMs + 120_000;
  const leaveAtMs = endMs - 60_000;
  const stopAtMs = leaveAtMs - LEAVE_AFTER_STOP_MS;
  const last = recorded.header.markets.at(-1);
  if (last === undefined) throw new Error('the example has no market');
  const late: ReplayMarket = { ...last, expiresAtMs: stopAtMs + stopMs };
  const events: ReplayEvent[] = [...recorded.events.filter((e) => !('market' in e) || e.market !== late.slug || e.t >= listAtMs), { kind: 'listed', t: listAtMs, entry: late }];
  const header = { ...recorded.header, version: 3 as const, markets: recorded.header.markets.slice(0, -1) };
  const report = await runReplayBacktest({ config, strategy: check.module.create(check.params), header, events, latencyMs: 50, queueModel: 'conservative', feeRateBps: 0, sampleEveryMs: 10 });
  const market = report.markets.find((m) => m.slug === late.slug);
  if (market === undefined) throw new Error('the late market is not in the report');
  const resting = market.series.t.filter((_, i) => market.series.bid[i] !== null || market.series.ask[i] !== null).map((t) => startMs + t * 1000);
  const lastRestingMs = Math.max(...resting);
  console.log(`replay: stop at +${((stopAtMs - startMs) / 1000).toFixed(1)} s, left at +${((leaveAtMs - startMs) / 1000).toFixed(1)} s; an order rested until ${((lastRestingMs - stopAtMs) / 1000).toFixed(2)} s past the stop; fills ${report.figures.fills}, PnL ${report.figures.totalPnlUsdc.toFixed(2)} USDC, requests ${report.figures.requests}`);
}

async function syntheticOverrun(label: string, overrides: Partial<BacktestOptions>): Promise<void> {
  const strikes = Number(process.env.BENCH_STOP_STRIKES ?? 3);
  const startMs = Date.UTC(2026, 0, 1) + HOUR_MS - 10 * 60_000;
  const stopBeforeMs = DEFAULT_PRICER_SETTINGS.stopBeforeSettlementMs;
  const placedPast: string[] = [];
  const restedUntil = new Map<string, number>();
  const stops = new Map<string, number>();
  const wall = Date.now();
  const result = await runBacktest({
    strategy: { module: fixedSpread, params: { bidSpread: 0.01, askSpread: 0.01, levels: 2, orderSize: 10, inventoryRange: 50 } },
    seed: 11,
    startMs,
    durationMs: 12 * 60_000,
    world: {
      underlying: { underlyings: DEFAULT_UNDERLYINGS.filter((u) => u.ticker === 'BTC' || u.ticker === 'ETH'), leadMs: 1500 },
      markets: { ...DEFAULT_CRYPTO_MARKETS, cadences: ['hourly'], strikesPerExpiry: strikes, recurring: false },
    },
    pricing: DEFAULT_PRICER_SETTINGS,
    risk: { stopBeforeExpiryMs: stopBeforeMs },
    ...overrides,
    observer: {
      onStart: (view) => {
        for (const m of view.markets) stops.set(m.slug, m.expirationMs - stopBeforeMs);
        const seen = new Set<string>();
        const restingBefore = new Map<string, number>();
        view.onOrderChange((slug) => {
          const stopAtMs = stops.get(slug);
          if (stopAtMs === undefined) return;
          const now = view.now();
          const resting = view.restingOrders(slug);
          for (const order of resting) {
            if (!seen.has(order.id) && order.createdAtMs >= stopAtMs) placedPast.push(`${slug} ${order.id} +${order.createdAtMs - stopAtMs} ms`);
            seen.add(order.id);
          }
          // An order rested until now when one rests now or rested until this event (its cancel).
          if (now >= stopAtMs && (resting.length > 0 || (restingBefore.get(slug) ?? 0) > 0)) restedUntil.set(slug, Math.max(restedUntil.get(slug) ?? stopAtMs, now));
          restingBefore.set(slug, resting.length);
        });
      },
    },
  });
  const overruns = [...stops.keys()].map((slug) => (restedUntil.get(slug) ?? stops.get(slug) ?? 0) - (stops.get(slug) ?? 0));
  console.log(
    `synthetic, ${label}: ${stops.size} markets, ${result.requests.sent} requests, ${result.requests.withheld} withheld; orders placed at or after a stop: ${placedPast.length}; ` +
      `an order rested up to ${(Math.max(...overruns) / 1000).toFixed(2)} s past its stop (mean over markets ${(overruns.reduce((a, b) => a + b, 0) / overruns.length / 1000).toFixed(2)} s); ` +
      `fills ${result.fills}, PnL ${(result.pnlRaw / 1e6).toFixed(2)} USDC; ${((Date.now() - wall) / 1000).toFixed(1)} s wall`,
  );
  for (const line of placedPast.slice(0, 5)) console.log(`  placed past the stop: ${line}`);
}

await replayOverrun();
await syntheticOverrun('cross-market cancel-replace (the default)', {});
await syntheticOverrun('a cancel and a placement per requote', { crossMarketBatches: false, orders: { cancelReplace: { enabled: false } } });
