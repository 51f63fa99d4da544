import { describe, expect, it } from 'vitest';
import { QuotingClock, quotingStateOf, tenthsOf } from '../../../src/operator/quoting-time.js';

describe('quotingStateOf', () => {
  it('is quoting with any open order, waiting with markets expected and none, idle with nothing expected', () => {
    expect(quotingStateOf(3, 2)).toBe('quoting');
    expect(quotingStateOf(1, 0)).toBe('quoting');
    expect(quotingStateOf(0, 2)).toBe('waiting');
    expect(quotingStateOf(0, 0)).toBe('idle');
  });
});

describe('QuotingClock', () => {
  it('splits an hourly day: each interval counted in the state seen at its start, the three totals adding up', () => {
    const clock = new QuotingClock();
    const t0 = 1_000_000;
    clock.observe(t0, 'waiting'); // joined, no book yet
    clock.observe(t0 + 4_000, 'quoting'); // 4 s to the first orders
    clock.observe(t0 + 544_000, 'idle'); // the ladder reached its stop: 540 s quoting
    clock.observe(t0 + 1_204_000, 'waiting'); // 660 s between two ladders, the next joined
    clock.observe(t0 + 1_206_000, 'waiting');
    expect(clock.totals()).toEqual({ quotingMs: 540_000, waitingMs: 6_000, idleMs: 660_000, waitingForMs: 2_000, fromMs: t0, toMs: t0 + 1_206_000 });
    clock.observe(t0 + 1_210_000, 'quoting');
    const totals = clock.totals();
    expect(totals.waitingForMs).toBe(0);
    expect(totals.quotingMs + totals.waitingMs + totals.idleMs).toBe(1_210_000);
  });

  it('measures the current waiting stretch from its first observation, reset by quoting or idle', () => {
    const clock = new QuotingClock();
    clock.observe(0, 'quoting');
    clock.observe(1_000, 'waiting');
    clock.observe(601_000, 'waiting');
    expect(clock.totals().waitingForMs).toBe(600_000);
    clock.observe(602_000, 'idle');
    expect(clock.totals().waitingForMs).toBe(0);
    clock.observe(603_000, 'waiting');
    clock.observe(604_000, 'waiting');
    expect(clock.totals().waitingForMs).toBe(1_000);
  });

  it('counts nothing for an observation older than the last (time never runs backwards)', () => {
    const clock = new QuotingClock();
    clock.observe(10_000, 'quoting');
    clock.observe(5_000, 'idle');
    clock.observe(12_000, 'idle');
    expect(clock.totals()).toEqual({ quotingMs: 2_000, waitingMs: 0, idleMs: 0, waitingForMs: 0, fromMs: 10_000, toMs: 12_000 });
  });

  it('is all zeros before and at its first observation', () => {
    const clock = new QuotingClock();
    expect(clock.totals()).toEqual({ quotingMs: 0, waitingMs: 0, idleMs: 0, waitingForMs: 0, fromMs: 0, toMs: 0 });
    clock.observe(5, 'waiting');
    expect(clock.totals()).toEqual({ quotingMs: 0, waitingMs: 0, idleMs: 0, waitingForMs: 0, fromMs: 5, toMs: 5 });
  });
});

describe('QuotingClock: one clock, integer ms', () => {
  it('floors a fractional reading to the ms, so the totals are integers adding up to the window exactly', () => {
    const clock = new QuotingClock();
    clock.observe(1_000.9, 'waiting');
    clock.observe(1_250.4, 'quoting');
    clock.observe(2_000.99, 'idle');
    const totals = clock.totals();
    expect(totals).toEqual({ quotingMs: 750, waitingMs: 250, idleMs: 0, waitingForMs: 0, fromMs: 1_000, toMs: 2_000 });
    expect(totals.quotingMs + totals.waitingMs + totals.idleMs).toBe(totals.toMs - totals.fromMs);
  });
});

describe('tenthsOf', () => {
  it('floors each part and gives the tenths left to the largest remainders (ties: the earlier part)', () => {
    expect(tenthsOf([1_050, 1_050, 1_050], 32)).toEqual([11, 11, 10]);
    expect(tenthsOf([540_000, 4_000, 660_000], 12_040)).toEqual([5_400, 40, 6_600]);
    expect(tenthsOf([149, 51, 0], 2)).toEqual([1, 1, 0]);
    expect(tenthsOf([149, 51, 0], 1)).toEqual([1, 0, 0]);
  });

  it('refuses a total the parts cannot fill', () => {
    expect(() => tenthsOf([100, 100, 100], 2)).toThrow(RangeError);
    expect(() => tenthsOf([150, 150, 150], 7)).toThrow(RangeError);
  });
});
