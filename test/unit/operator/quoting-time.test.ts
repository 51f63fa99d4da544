import { describe, expect, it } from 'vitest';
import { QuotingClock, quotingStateOf } from '../../../src/operator/quoting-time.js';

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
    expect(clock.totals()).toEqual({ quotingMs: 540_000, waitingMs: 6_000, idleMs: 660_000, waitingForMs: 2_000 });
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
    expect(clock.totals()).toEqual({ quotingMs: 2_000, waitingMs: 0, idleMs: 0, waitingForMs: 0 });
  });

  it('is all zeros before and at its first observation', () => {
    const clock = new QuotingClock();
    expect(clock.totals()).toEqual({ quotingMs: 0, waitingMs: 0, idleMs: 0, waitingForMs: 0 });
    clock.observe(5, 'waiting');
    expect(clock.totals()).toEqual({ quotingMs: 0, waitingMs: 0, idleMs: 0, waitingForMs: 0 });
  });
});
