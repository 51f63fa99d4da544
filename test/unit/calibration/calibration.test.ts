/**
 * Calibration in the ledger through its public entries: the schedule of offsets (pure), the scores of a row (known
 * values), the sampler on a real ledger and a manual clock (predictions written as taken, a late one recorded
 * missing, scored once on resolution, nothing taken or scored twice by a restarted sampler, a crash before the
 * resolution losing nothing), and `report` (table, JSON, HTML) showing model vs mid per underlying and cadence.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CalibrationSampler, type CalibrationMarket, type CalibrationReading } from '../../../src/calibration/sampler.js';
import { dueOffsets, offsetToleranceMs } from '../../../src/calibration/schedule.js';
import { scoreMicros } from '../../../src/calibration/score.js';
import { ManualClock } from '../../../src/core/clock.js';
import { LedgerInputError } from '../../../src/ledger/errors.js';
import { calibrationLines } from '../../../src/ledger/report-calibration.js';
import { runReport } from '../../../src/ledger/report.js';
import { openLedger, type LedgerStore } from '../../../src/ledger/store.js';
import { makeTempDir, memoryLedger, T0 } from '../../support/ledger-fixtures.js';

const temp = makeTempDir('calibration-');
afterAll(() => temp.cleanup());

const MIN = 60_000;
const SETTLES = T0 + 60 * MIN;
const BTC: CalibrationMarket = { slug: 'btc-above-90k', underlying: 'BTC', cadence: 'hourly', settlesAtMs: SETTLES };

function sampler(ledger: LedgerStore, clock: ManualClock, read: (m: CalibrationMarket) => CalibrationReading, markets: readonly CalibrationMarket[] = [BTC]): CalibrationSampler {
  return new CalibrationSampler({ ledger: ledger.calibration, scheduler: clock, markets: () => markets, read, offsetsMs: [10 * MIN, 5 * MIN], everyMs: 1000, scoreEveryMs: 1000 });
}

const reading = (model: number | null, mid: number | null): CalibrationReading => ({
  modelMicros: model,
  modelMissing: model === null ? 'stale-underlying' : null,
  midMicros: mid,
  midMissing: mid === null ? 'one-sided' : null,
});

describe('calibration schedule', () => {
  it('takes an offset from its due instant within its tolerance; late after; untracked when due before tracking', () => {
    expect(offsetToleranceMs(600_000, 1000)).toBe(60_000);
    expect(offsetToleranceMs(5_000, 1000)).toBe(2_000);
    expect(offsetToleranceMs(1_000, 1000)).toBe(999);
    const settles = 1_000_000;
    expect(dueOffsets([600_000, 60_000], settles, 0, settles - 600_001, 1000)).toEqual({ take: [], late: [], untracked: [], waiting: [600_000, 60_000] });
    expect(dueOffsets([600_000, 60_000], settles, 0, settles - 600_000, 1000).take).toEqual([600_000]);
    expect(dueOffsets([600_000, 60_000], settles, 0, settles - 540_000, 1000).take).toEqual([600_000]);
    expect(dueOffsets([600_000, 60_000], settles, 0, settles - 539_999, 1000).late).toEqual([600_000]);
    // Tracked after the 10-minute offset's window closed: not this run's (no row); the 1-minute one is still ahead.
    expect(dueOffsets([600_000, 60_000], settles, settles - 500_000, settles - 500_000, 1000)).toEqual({ take: [], late: [], untracked: [600_000], waiting: [60_000] });
    // Never at or after the settlement.
    expect(dueOffsets([1_000], settles, 0, settles, 1000).late).toEqual([1_000]);
  });
});

describe('calibration scores', () => {
  it('log-loss and Brier of one prediction, in millionths (known values)', () => {
    expect(scoreMicros(800_000, 1)).toEqual({ logLossMicro: 223_144, brierMicro: 40_000 }); // −ln 0.8, 0.2²
    expect(scoreMicros(800_000, 0)).toEqual({ logLossMicro: 1_609_438, brierMicro: 640_000 }); // −ln 0.2, 0.8²
    expect(scoreMicros(500_000, 0)).toEqual({ logLossMicro: 693_147, brierMicro: 250_000 });
    expect(scoreMicros(null, 1)).toEqual({ logLossMicro: null, brierMicro: null });
  });
});

describe('calibration sampler on the ledger', () => {
  it('writes each prediction as taken, a late one as missing, and scores once on resolution', () => {
    const clock = new ManualClock(T0);
    const ledger = memoryLedger({ now: () => clock.now() });
    let value = reading(800_000, 700_000);
    const first = sampler(ledger, clock, () => value);
    first.tick(); // tracked from T0
    clock.advanceTo(SETTLES - 10 * MIN);
    first.tick();
    // The 5-minute offset's tick comes 40 s late (its tolerance is 30 s): recorded as missing, never guessed.
    value = reading(null, 600_000);
    clock.advanceTo(SETTLES - 5 * MIN + 40_000);
    first.tick();
    expect(ledger.calibration.takenOffsetsOf(BTC.slug)).toEqual([5 * MIN, 10 * MIN]);
    expect(first.trackedCount()).toBe(0);
    // Nothing to score before the resolution; then each (market, offset) with a prediction, once.
    expect(ledger.calibration.resolvedUnscored()).toEqual([]);
    const scored: string[] = [];
    const second = new CalibrationSampler({
      ledger: ledger.calibration, scheduler: clock, markets: () => [BTC], read: () => reading(1, 1), offsetsMs: [10 * MIN, 5 * MIN], everyMs: 1000, scoreEveryMs: 1000,
      observer: { onScored: (row) => scored.push(`${row.offsetMs / MIN}m:${row.outcome}`) },
    });
    second.start();
    expect(second.trackedCount()).toBe(0); // both offsets are in the ledger: nothing is taken again
    ledger.recordResolution(BTC.slug, { winningOutcomeIndex: 0 }, SETTLES + 1000);
    clock.advance(1000);
    expect(scored).toEqual(['10m:1']);
    const lines = calibrationLines(ledger.calibration.groupsOf());
    expect(lines).toEqual([
      { underlying: 'BTC', cadence: 'hourly', offsetMs: null, n: 1, modelLogLoss: 0.223144, midLogLoss: 0.356675, modelBrier: 0.04, midBrier: 0.09, modelOnly: 0, midOnly: 0 },
      { underlying: 'BTC', cadence: 'hourly', offsetMs: 10 * MIN, n: 1, modelLogLoss: 0.223144, midLogLoss: 0.356675, modelBrier: 0.04, midBrier: 0.09, modelOnly: 0, midOnly: 0 },
    ]);
    // A third sampler (another restart) scores nothing twice.
    const third = sampler(ledger, clock, () => reading(1, 1));
    third.start();
    clock.advance(5000);
    expect(calibrationLines(ledger.calibration.groupsOf())).toEqual(lines);
    expect(scored).toEqual(['10m:1']);
    second.stop();
    third.stop();
  });

  it('takeNow: an offset due at a market’s leave is read then, before the next tick (the book is still there); nothing before it is due', () => {
    const clock = new ManualClock(T0);
    const ledger = memoryLedger({ now: () => clock.now() });
    let book: number | null = 650_000;
    const s = sampler(ledger, clock, () => reading(700_000, book));
    s.tick();
    clock.advanceTo(SETTLES - 10 * MIN - 1);
    s.takeNow(BTC.slug); // not yet due
    s.takeNow('not-tracked');
    expect(ledger.calibration.takenOffsetsOf(BTC.slug)).toEqual([]);
    clock.advanceTo(SETTLES - 10 * MIN); // due now; the leave comes before the sampler's next tick
    s.takeNow(BTC.slug);
    book = null; // the book is gone after the leave
    s.tick();
    expect(ledger.calibration.takenOffsetsOf(BTC.slug)).toEqual([10 * MIN]);
    ledger.recordResolution(BTC.slug, { winningOutcomeIndex: 0 }, SETTLES + 1000);
    clock.advanceTo(SETTLES + 2000);
    s.tick();
    expect(calibrationLines(ledger.calibration.groupsOf()).find((l) => l.offsetMs === 10 * MIN)).toMatchObject({ n: 1, midLogLoss: 0.430783 });
    s.stop();
    s.takeNow(BTC.slug); // after stop: nothing, no throw
  });

  it('a crash after the first prediction loses nothing; the next run takes the rest and scores both', () => {
    const path = join(temp.dir, 'crash.sqlite');
    const clock = new ManualClock(SETTLES - 10 * MIN);
    const first = openLedger({ path, now: () => clock.now() });
    sampler(first, clock, () => reading(900_000, 800_000)).start();
    first.close(); // killed: no stop, no flush
    clock.advanceTo(SETTLES - 5 * MIN);
    const second = openLedger({ path, now: () => clock.now() });
    const scored: number[] = [];
    const s = new CalibrationSampler({
      ledger: second.calibration, scheduler: clock, markets: () => [BTC], read: () => reading(200_000, null), offsetsMs: [10 * MIN, 5 * MIN], everyMs: 1000, scoreEveryMs: 1000,
      observer: { onScored: (row) => scored.push(row.offsetMs) },
    });
    s.start();
    second.recordResolution(BTC.slug, { winningOutcomeIndex: 1 }, SETTLES);
    clock.advanceTo(SETTLES + 2000);
    expect(scored).toEqual([10 * MIN, 5 * MIN]);
    const [all, ten, five] = calibrationLines(second.calibration.groupsOf());
    // Resolved NO: the 10-minute row (model 0.9, mid 0.8) is paired; the 5-minute one has the model only.
    expect(ten).toMatchObject({ offsetMs: 10 * MIN, n: 1, modelLogLoss: 2.302585, midLogLoss: 1.609438, modelBrier: 0.81, midBrier: 0.64, modelOnly: 0 });
    expect(five).toMatchObject({ offsetMs: 5 * MIN, n: 0, modelLogLoss: null, modelOnly: 1 });
    expect(all).toMatchObject({ offsetMs: null, n: 1, modelOnly: 1 });
    s.stop();
    second.close();
  });

  it('refuses a bad prediction with a typed error naming the field, writing nothing', () => {
    const ledger = memoryLedger();
    const bad = { marketSlug: 'm', offsetMs: 60_000, underlying: 'BTC', cadence: 'hourly', settlesAtMs: T0, modelMicros: 1_200_000, modelMissing: null, midMicros: null, midMissing: 'no-book', takenAtMs: T0 };
    expect(() => ledger.calibration.recordPrediction(bad)).toThrow(LedgerInputError);
    expect(() => ledger.calibration.recordPrediction(bad)).toThrow(/calibration\.modelMicros/);
    expect(() => ledger.calibration.recordPrediction({ ...bad, modelMicros: 500_000, midMissing: null })).toThrow(/calibration\.midMicros\.missing/);
    expect(ledger.calibration.takenOffsetsOf('m')).toEqual([]);
    expect(() => new CalibrationSampler({ ledger: ledger.calibration, scheduler: new ManualClock(0), markets: () => [], read: () => reading(1, 1), offsetsMs: [0] })).toThrow(/offsetsMs\[0\]/);
  });
});

describe('report: calibration', () => {
  it('table, JSON and HTML show model vs mid per underlying and cadence', async () => {
    const path = join(temp.dir, 'report.sqlite');
    const clock = new ManualClock(SETTLES - 10 * MIN);
    const ledger = openLedger({ path, now: () => clock.now() });
    const eth: CalibrationMarket = { slug: 'eth-above-3k', underlying: 'ETH', cadence: 'daily', settlesAtMs: SETTLES };
    const s = sampler(ledger, clock, (m) => (m.underlying === 'BTC' ? reading(800_000, 700_000) : reading(400_000, 500_000)), [BTC, eth]);
    s.start();
    clock.advanceTo(SETTLES - 5 * MIN);
    ledger.recordResolution(BTC.slug, { winningOutcomeIndex: 0 }, SETTLES);
    ledger.recordResolution(eth.slug, { winningOutcomeIndex: 1 }, SETTLES);
    clock.advanceTo(SETTLES + 2000);
    s.stop();
    ledger.close();

    const table = await runReport({ db: path, nowMs: SETTLES + 3000 });
    expect(table).toContain('Calibration (model fair value vs book mid');
    expect(table).toContain('BTC         hourly   all            2          0.2231        0.3567       0.0400     0.0900           0         0');
    expect(table).toContain('ETH         daily    5m             1          0.5108        0.6931       0.1600     0.2500           0         0');
    const json = JSON.parse(await runReport({ db: path, nowMs: SETTLES + 3000, format: 'json' })) as { calibration: { rows: unknown[] } };
    expect(json.calibration.rows[0]).toEqual({ underlying: 'BTC', cadence: 'hourly', offset: 'all', offsetMs: null, n: 2, model: { logLoss: 0.223144, brier: 0.04 }, mid: { logLoss: 0.356675, brier: 0.09 }, modelOnly: 0, midOnly: 0 });
    expect(json.calibration.rows).toHaveLength(6);
    const html = await runReport({ db: path, nowMs: SETTLES + 3000, format: 'html' });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<tr class="all"><td>ETH</td><td>daily</td><td>all</td><td>2</td><td><b>0.5108</b></td><td>0.6931</td><td><b>0.1600</b></td><td>0.2500</td>');
    // --since counts markets settling from then on.
    const later = JSON.parse(await runReport({ db: path, nowMs: SETTLES + 3000, format: 'json', sinceMs: SETTLES + 1 })) as { calibration: { rows: unknown[] } };
    expect(later.calibration.rows).toEqual([]);
  });
});
