/**
 * Markets that come and go while the bot runs (the real CLI as a child process, against the simulator's crypto world
 * in this process, selecting by rules: every BTC market), and the calibration of the one that settles. One listed
 * market carries both stories, since the simulator settles on whole minutes and each wait for one costs up to a
 * minute of wall time:
 *
 * - a strike market listed at run time (`POST /_sim/markets`, through the in-process control; the venue's lifecycle
 *   event `marketCreated`) is joined and quoted within seconds; after a dropped connection the bot subscribes the
 *   whole list again (the new market included); at its stop before settlement its orders are canceled, it is left
 *   (logged with the reason) and its series are gone from /metrics, while the other market keeps being quoted;
 * - the model's and the book mid's predictions are taken at 15 s and 8 s before its settlement (offsets configured in
 *   seconds; the bot's stop before settlement is 8 s too, so the second falls due as the market leaves and is still
 *   read from its book), the simulator resolves it from its underlying, the bot records the resolution and writes
 *   the scored rows; /metrics counts them per underlying and cadence, and `outcome-maker report --format json` shows
 *   the rows;
 * - then the stop: exit 0 within the shutdown budget, the summary printed, no order of the bot left on the venue.
 */
import { expect, it } from 'vitest';
import { isQuotingLine, liveOrders, spawnBot, startBtcDailyWorld, writeBotConfig } from '../support/bot-process.js';
import { runCliProcess } from '../support/cli-process.js';
import { hasMsg, jsonLines, metricsUrlOf, pollFor, scrape, stopAfterEach, sumOf } from './ops-support.js';

const STOP_BEFORE_SETTLEMENT_SEC = 8;
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

it('joins a market listed at run time within seconds, resubscribes it after a reconnect, leaves it at its stop, and scores its calibration', async () => {
  // A daily expiry 12 hours from now, whatever the time of day: the world's own market settles after the test.
  const { venue, daily } = await startBtcDailyWorld();
  started.sim = venue;
  const { configPath, dbPath, dir } = writeBotConfig(venue, {
    marketsSection: { select: { tickers: ['BTC'], rewardableOnly: false, max: 10 }, discovery: { pollIntervalSec: 600 } },
    pricing: { stopBeforeSettlementSec: STOP_BEFORE_SETTLEMENT_SEC, guard: { enabled: false } },
    calibration: { offsetsSec: [15, STOP_BEFORE_SETTLEMENT_SEC] },
    strategy: { name: 'fixed-spread', params: { bidSpread: 0.01, askSpread: 0.01, levels: 1, orderSize: 5 } },
  });
  const running = spawnBot(venue, configPath);
  started.bot = running;
  const url = await metricsUrlOf(running);
  await running.waitForLine(isQuotingLine, 40_000);
  await pollFor('the daily market quoted', () => (liveOrders(venue, [daily]).length > 0 ? true : undefined), 20_000);

  // A new strike market, settling at the next whole minute at least 35 s away (35 to 95 s from now): the join (≤ 15 s)
  // and the reconnect below come before its first calibration offset, 15 s before settlement.
  const settlesAt = Math.ceil((Date.now() + 35_000) / 60_000) * 60_000;
  const listed = venue.control.listMarket({ ticker: 'BTC', settlesAt });
  const listedAt = Date.now();
  await pollFor('the new market quoted', () => (liveOrders(venue, [listed.slug]).length > 0 ? true : undefined), 15_000, 50);
  const joinedInMs = Date.now() - listedAt;
  expect(joinedInMs).toBeLessThan(15_000);
  expect(jsonLines(running).some((line) => line.msg === 'market joined' && line['market'] === listed.slug)).toBe(true);

  // A dropped connection: the bot subscribes the whole list again, the new market included.
  venue.control.dropConnections();
  const probe = (slug: string): number => venue.control.injectFrame({ kind: 'custom', marketSlug: slug, event: 'system', payload: { message: 'probe' } });
  await pollFor('both markets subscribed again', () => (probe(listed.slug) === 1 && probe(daily) === 1 ? true : undefined), 20_000, 100);
  expect(Date.now()).toBeLessThan(settlesAt - 15_000);

  // Its stop before settlement: no order from then on, left with the reason, its series gone; the daily one goes on.
  const leaveAt = settlesAt - STOP_BEFORE_SETTLEMENT_SEC * 1000;
  await running.waitForLine(hasMsg('market left'), Math.max(0, leaveAt - Date.now()) + 20_000);
  expect(Date.now()).toBeGreaterThanOrEqual(leaveAt);
  expect(liveOrders(venue, [listed.slug])).toEqual([]);
  const left = jsonLines(running).find((line) => line.msg === 'market left');
  expect(left).toMatchObject({ market: listed.slug, reason: 'stop before settlement', clean: true });
  await pollFor('its series gone from /metrics', async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
    return text.includes(`market="${listed.slug}"`) ? undefined : text;
  }, 10_000).then((text) => expect(text).toContain(`market="${daily}"`));
  expect(liveOrders(venue, [daily]).length).toBeGreaterThan(0);

  // Its settlement: both predictions scored.
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

  // The stop of a bot that joined, left and settled a market: exit 0 within the budget (8 s here), the summary
  // printed, nothing of the bot left open on the venue (what runs after the cancels gets what the budget has left).
  const stopped = await running.stop('SIGTERM');
  expect(stopped.code, running.lines.slice(-20).join('\n')).toBe(0);
  expect(stopped.ms).toBeLessThan(8_000);
  expect(running.lines).toContain('outcome-maker summary');
  expect(running.lines.some((line) => line.includes('shutdown budget exceeded'))).toBe(false);
  expect(liveOrders(venue, venue.engine.markets().map((m) => m.slug))).toEqual([]);
  expect(jsonLines(running).filter((line) => line['level'] === 40 || line['level'] === 50).map((line) => line.msg)).toEqual([]);

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
}, 200_000);
