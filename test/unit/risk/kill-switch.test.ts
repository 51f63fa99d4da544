import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { DAY_MS, KillSwitch, utcDayStart, type KillSwitchResume, type KillSwitchTrip } from '../../../src/risk/kill-switch.js';

const DAY0 = Date.UTC(2026, 2, 23);

function setup(pnl: { value: number | Error }) {
  const scheduler = new ManualClock(DAY0 + 10 * 3_600_000);
  const trips: KillSwitchTrip[] = [];
  const resumes: KillSwitchResume[] = [];
  const dayStarts: number[] = [];
  const ks = new KillSwitch({
    scheduler,
    dailyLossLimitRaw: 100_000_000,
    dailyPnlRaw: (dayStart) => {
      dayStarts.push(dayStart);
      if (pnl.value instanceof Error) throw pnl.value;
      return pnl.value;
    },
    onTrip: (t) => trips.push(t),
    onResume: (r) => resumes.push(r),
  });
  return { scheduler, ks, trips, resumes, dayStarts };
}

describe('KillSwitch', () => {
  it('trips at the daily loss limit, reading PnL since 00:00 UTC', () => {
    const pnl = { value: -99_999_999 };
    const { ks, trips, dayStarts } = setup(pnl);
    expect(ks.check()).toBe(false);
    expect(dayStarts[0]).toBe(DAY0);
    pnl.value = -100_000_000;
    expect(ks.check()).toBe(true);
    expect(trips).toHaveLength(1);
    expect(trips[0]).toMatchObject({ reason: 'daily-loss', pnlRaw: -100_000_000, resumesAtMs: DAY0 + DAY_MS });
    expect(ks.check()).toBe(true);
    expect(trips).toHaveLength(1);
  });

  it('judges a PnL the caller has just read without reading it again; a non-finite one counts as unavailable', () => {
    const pnl = { value: 0 };
    const { ks, trips, dayStarts } = setup(pnl);
    expect(ks.check(-99_999_999)).toBe(false);
    expect(dayStarts).toEqual([]);
    expect(ks.check(Number.NaN)).toBe(false);
    expect(dayStarts).toEqual([]);
    expect(ks.check(-100_000_000)).toBe(true);
    expect(trips[0]).toMatchObject({ reason: 'daily-loss', pnlRaw: -100_000_000 });
    expect(dayStarts).toEqual([]);
  });

  it('stays paused until the next UTC day, then resumes by itself', () => {
    const pnl = { value: -150_000_000 };
    const { scheduler, ks, resumes } = setup(pnl);
    ks.check();
    scheduler.advance(DAY0 + DAY_MS - scheduler.now() - 1);
    expect(ks.tripped).toBe(true);
    scheduler.advance(1);
    expect(resumes).toEqual([{ by: 'new-day', atMs: DAY0 + DAY_MS }]);
    expect(ks.tripped).toBe(false);
    // A fresh day: the reader starts again from 0.
    pnl.value = -10_000_000;
    expect(ks.check()).toBe(false);
  });

  it('operator resume re-arms from the PnL at that moment', () => {
    const pnl = { value: -120_000_000 };
    const { ks, trips, resumes } = setup(pnl);
    ks.check();
    ks.resume();
    expect(resumes).toEqual([expect.objectContaining({ by: 'operator' })]);
    expect(ks.check()).toBe(false);
    expect(ks.status().tripAtPnlRaw).toBe(-220_000_000);
    pnl.value = -219_000_000;
    expect(ks.check()).toBe(false);
    pnl.value = -220_000_000;
    expect(ks.check()).toBe(true);
    expect(trips).toHaveLength(2);
  });

  it('a manual trip waits for the operator, also across days', () => {
    const { scheduler, ks } = setup({ value: 0 });
    ks.trip('operator pressed stop');
    expect(ks.status().trip).toMatchObject({ reason: 'manual', resumesAtMs: null });
    scheduler.advance(2 * DAY_MS);
    expect(ks.tripped).toBe(true);
    ks.resume();
    expect(ks.tripped).toBe(false);
  });

  it('trips when the PnL cannot be read several times in a row', () => {
    const pnl: { value: number | Error } = { value: new Error('ledger down') };
    const { ks, trips } = setup(pnl);
    expect(ks.check()).toBe(false);
    expect(ks.check()).toBe(false);
    pnl.value = 0;
    expect(ks.check()).toBe(false); // a good read resets the count
    pnl.value = Number.NaN;
    ks.check();
    ks.check();
    expect(ks.check()).toBe(true);
    expect(trips[0]?.reason).toBe('pnl-unavailable');
  });

  it('checks on its own interval once started', () => {
    const pnl = { value: 0 };
    const { scheduler, ks, trips } = setup(pnl);
    ks.start();
    pnl.value = -200_000_000;
    scheduler.advance(4_999);
    expect(trips).toHaveLength(0);
    scheduler.advance(1);
    expect(trips).toHaveLength(1);
    ks.stop();
  });

  it('computes UTC day starts', () => {
    expect(utcDayStart(DAY0 + 123)).toBe(DAY0);
    expect(utcDayStart(DAY0 - 1)).toBe(DAY0 - DAY_MS);
  });
});
