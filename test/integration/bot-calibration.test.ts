/**
 * Calibration in the ledger through the public entries: the real CLI as a child process against the simulator's
 * crypto world (BTC, synthetic makers), selecting every BTC market; a strike market listed at run time (the admin's
 * `POST /_sim/markets`, through the in-process control) settling within about a minute is joined, the model's and the
 * book mid's predictions are taken at 15 s and 8 s before its settlement (offsets configured in seconds; the bot's stop
 * before settlement is 8 s too, so the second falls due as the market leaves and is still read from its book), the
 * simulator resolves it from its underlying, the bot records the resolution and writes the scored rows; /metrics
 * counts them per underlying and cadence, and `outcome-maker report --format json` shows the row.
 */
import { expect, it } from 'vitest';
import { isQuotingLine, spawnBot, startBtcDailyWorld, writeBotConfig } from '../support/bot-process.js';
import { runCliProcess } from '../support/cli-process.js';
import { metricsUrlOf, pollFor, scrape, stopAfterEach, sumOf } from './ops-support.js';

const started = stopAfterEach();

interface CalibrationRow {
  readonly underlying: string;
  readonly cadence: string;
  readonly offsetMs: number | null;
  readonly n: number;
  readonly modelOnly: number;
  readonly model: { readonly logLoss: number | null; readonly brier: number | null };
  readonly mid: { readonly logLoss: number | null; readonly brier: number | null };
}

it('takes model and mid predictions before a listed market settles, scores them on its resolution, and reports them', async () => {
  // A daily expiry 12 hours from now (the world's own market settles after the test); the market scored is listed below.
  const { venue } = await startBtcDailyWorld();
  started.sim = venue;
  const { configPath, dbPath, dir } = writeBotConfig(venue, {
    marketsSection: { select: { tickers: ['BTC'], rewardableOnly: false, max: 10 }, discovery: { pollIntervalSec: 600 } },
    pricing: { stopBeforeSettlementSec: 8, guard: { enabled: false } },
    calibration: { offsetsSec: [15, 8] },
    strategy: { name: 'fixed-spread', params: { bidSpread: 0.01, askSpread: 0.01, levels: 1, orderSize: 5 } },
  });
  const running = spawnBot(venue, configPath);
  started.bot = running;
  const url = await metricsUrlOf(running);
  await running.waitForLine(isQuotingLine, 40_000);

  // The next whole minute at least 25 s away (the simulator settles on whole minutes: 25 to 85 s from now).
  const settlesAt = Math.ceil((Date.now() + 25_000) / 60_000) * 60_000;
  const listed = venue.control.listMarket({ ticker: 'BTC', settlesAt });
  const scored = await pollFor(
    'the listed market scored',
    async () => {
      const { samples } = await scrape(url);
      return sumOf(samples, 'outcome_maker_calibration_scored_total', { underlying: 'BTC', source: 'model' }) >= 2 ? samples : undefined;
    },
    Math.max(0, settlesAt - Date.now()) + 20_000,
    250,
  );
  const outcome = venue.engine.market(listed.slug)?.winningOutcomeIndex;
  expect(outcome === 0 || outcome === 1).toBe(true);
  // The model always has a price here; the mid needs a two-sided book without the bot's own orders, which the
  // synthetic makers may not give near expiry once the fair value nears 0 or 1 (recorded missing, `one-sided`); never
  // `no-book`, though the 8 s offset falls due at the stop, where the market leaves (taken before its unsubscription).
  expect(sumOf(scored, 'outcome_maker_calibration_predictions_total', { source: 'model', result: 'taken' })).toBe(2);
  const midTaken = sumOf(scored, 'outcome_maker_calibration_predictions_total', { source: 'mid', result: 'taken' });
  expect(midTaken + sumOf(scored, 'outcome_maker_calibration_predictions_total', { source: 'mid', result: 'one-sided' })).toBe(2);
  expect(sumOf(scored, 'outcome_maker_calibration_scored_total', { underlying: 'BTC', source: 'mid' })).toBe(midTaken);
  expect(sumOf(scored, 'outcome_maker_calibration_log_loss_total', { underlying: 'BTC', source: 'model' })).toBeGreaterThan(0);
  const stopped = await running.stop('SIGTERM');
  expect(stopped.code).toBe(0);

  const report = await runCliProcess(['report', '--db', dbPath, '--format', 'json', '--market', listed.slug], dir);
  expect(report.code, report.stderr).toBe(0);
  const rows = (JSON.parse(report.stdout) as { calibration: { rows: CalibrationRow[] } }).calibration.rows;
  const cadence = rows[0]?.cadence ?? '';
  expect(rows.map((r) => [r.underlying, r.cadence, r.offsetMs, r.n + r.modelOnly])).toEqual([
    ['BTC', cadence, null, 2],
    ['BTC', cadence, 15_000, 1],
    ['BTC', cadence, 8_000, 1],
  ]);
  expect(rows[0]?.n).toBe(midTaken);
  for (const row of rows.filter((r) => r.n > 0)) {
    for (const score of [row.model.logLoss, row.mid.logLoss, row.model.brier, row.mid.brier]) expect(score).toBeGreaterThanOrEqual(0);
    expect(row.model.brier).toBeLessThanOrEqual(1);
  }
}, 150_000);
