/**
 * Replay benchmark: how fast a recording replays through the strategy, the account view and the real order
 * executor (src/replay/replay-backtest.ts). A seeded one-hour recording of one market is generated in the replay
 * format (a book every 250 ms along a random walk, 15 levels a side; a trade every ~2 s at the touch), then replayed
 * with the fixed-spread strategy of config/paper.yaml, conservative queue, 50 ms latency.
 *
 * Prints the recorded events per second of wall time and the wall time for the hour. Target: under 10 s per hour.
 * Run: npx tsx bench/replay.ts   (BENCH_REPLAY_MINUTES sets the recording's length, default 60)
 */
import { pathToFileURL } from 'node:url';
import { mulberry32 } from '../src/core/random.js';
import { loadConfigFile, validateStrategy } from '../src/config/index.js';
import { REPLAY_FORMAT, REPLAY_UNITS, REPLAY_VERSION, type ReplayEvent, type ReplayHeader } from '../src/replay/format.js';
import { runReplayBacktest } from '../src/replay/replay-backtest.js';

/** A synthetic recording: `minutes` of books and trades of one market. */
export function syntheticRecording(minutes: number, seed = 7): { header: ReplayHeader; events: ReplayEvent[] } {
  const random = mulberry32(seed);
  const start = Date.UTC(2026, 10, 24);
  const events: ReplayEvent[] = [];
  let mid = 500;
  for (let t = 0; t < minutes * 60_000; t += 250) {
    if (random() < 0.2) mid = Math.min(900, Math.max(100, mid + (random() < 0.5 ? -1 : 1)));
    const level = (i: number): number => 1_000_000 * (20 + Math.floor(random() * 200)) + i;
    const bids: [number, number][] = Array.from({ length: 15 }, (_, i) => [mid - 10 - i * 2, level(i)]);
    const asks: [number, number][] = Array.from({ length: 15 }, (_, i) => [mid + 10 + i * 2, level(i)]);
    events.push({ kind: 'book', t: start + t, venueTs: start + t - 40, market: 'bench', bids, asks });
    if (random() < 0.125) {
      const buy = random() < 0.5;
      events.push({ kind: 'trade', t: start + t + 1, venueTs: start + t, market: 'bench', priceTicks: buy ? mid + 10 : mid - 10, sizeRaw: 1_000_000 * (1 + Math.floor(random() * 50)), takerSide: buy ? 'BUY' : 'SELL', id: null });
    }
  }
  const header: ReplayHeader = {
    kind: 'header',
    format: REPLAY_FORMAT,
    version: REPLAY_VERSION,
    venue: { name: 'synthetic', baseUrl: null },
    source: { tool: 'bench', version: '0' },
    units: REPLAY_UNITS,
    markets: [{ slug: 'bench', yesTokenId: null, noTokenId: null, tickTicks: 1 }],
    createdAtMs: start,
    part: 0,
  };
  return { header, events };
}

export async function run(): Promise<Record<string, number | string>> {
  const minutes = Number(process.env['BENCH_REPLAY_MINUTES'] ?? 60);
  const { header, events } = syntheticRecording(minutes);
  const config = loadConfigFile(new URL('../config/paper.yaml', import.meta.url).pathname);
  const check = await validateStrategy(config);
  if (!check.ok) throw new Error('config/paper.yaml: strategy parameters invalid');
  const started = performance.now();
  const report = await runReplayBacktest({ config, strategy: check.module.create(check.params), header, events, latencyMs: 50, queueModel: 'conservative', feeRateBps: 300 });
  const seconds = (performance.now() - started) / 1000;
  const perHour = (seconds * 60) / minutes;
  return {
    recorded_minutes: minutes,
    recorded_events: events.length,
    wall_seconds: Math.round(seconds * 100) / 100,
    events_per_second: Math.round(events.length / seconds),
    wall_seconds_per_recorded_hour: Math.round(perHour * 100) / 100,
    fills: report.figures.fills,
    requests: report.figures.requests,
    target_seconds_per_hour: 10,
    meets_target: perHour <= 10 ? 'yes' : 'NO',
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await run();
  for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(34)} ${value}`);
}
