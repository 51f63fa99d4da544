/**
 * The paper session's clock (src/venue/session-clock.ts, `venue.startBeforeHourSec`): the offset puts the session's
 * start the asked time before the next UTC hour (the one after, when the next is nearer than asked), it is fixed
 * once, timers keep their real delays, and a config without the setting (or a live venue) has no session clock.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { offsetBeforeHour, sessionClockFor, shiftedScheduler } from '../../../src/venue/session-clock.js';

const HOUR = 3_600_000;
const T = 480_000 * HOUR + 20 * 60_000; // 20 min past an hour

describe('the session clock', () => {
  it('starts the asked time before the next hour boundary', () => {
    expect(T + offsetBeforeHour(T, 10_000)).toBe(480_001 * HOUR - 10_000);
    // 45 min before the hour is already past at 20 min past: the boundary after it.
    expect(T + offsetBeforeHour(T, 45 * 60_000)).toBe(480_002 * HOUR - 45 * 60_000);
    expect(offsetBeforeHour(480_001 * HOUR - 10_000, 10_000)).toBe(0);
    for (const before of [1_000, 600_000, 3_599_000]) {
      const offset = offsetBeforeHour(T, before);
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThan(HOUR);
      expect((T + offset + before) % HOUR).toBe(0);
    }
  });

  it('shifts now only; timers fire after their real delays', () => {
    const base = new ManualClock(T);
    const clock = shiftedScheduler(base, 5_000);
    const fired: number[] = [];
    clock.schedule(1_000, () => fired.push(clock.now()));
    expect(clock.now()).toBe(T + 5_000);
    base.advance(999);
    expect(fired).toEqual([]);
    base.advance(1);
    expect(fired).toEqual([T + 6_000]);
  });

  it('only a simulator with the setting runs on a session clock, fixed when built', () => {
    const base = new ManualClock(T);
    expect(sessionClockFor({ kind: 'sim' }, base)).toBeNull();
    expect(sessionClockFor({ kind: 'live', startBeforeHourMs: 10_000 }, base)).toBeNull();
    const clock = sessionClockFor({ kind: 'sim', startBeforeHourMs: 10_000 }, base)!;
    expect(clock.now()).toBe(480_001 * HOUR - 10_000);
    base.advance(20_000);
    expect(clock.now()).toBe(480_001 * HOUR + 10_000);
  });
});
