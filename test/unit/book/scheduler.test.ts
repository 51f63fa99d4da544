import { describe, expect, it } from 'vitest';
import { ListenerSet } from '../../../src/book/listeners.js';
import { ManualScheduler, systemScheduler } from '../../../src/book/scheduler.js';

describe('ManualScheduler', () => {
  it('runs timers in due order as the clock advances, never early', () => {
    const s = new ManualScheduler(100);
    const ran: Array<[string, number]> = [];
    s.schedule(50, () => ran.push(['b', s.now()]));
    s.schedule(10, () => ran.push(['a', s.now()]));
    s.schedule(10, () => ran.push(['a2', s.now()]));
    s.advance(9);
    expect(ran).toEqual([]);
    s.advance(41);
    expect(ran).toEqual([['a', 110], ['a2', 110], ['b', 150]]);
    expect(s.now()).toBe(150);
  });

  it('runs timers scheduled by timers when they fall due, and honours cancellation', () => {
    const s = new ManualScheduler(0);
    const ran: number[] = [];
    s.schedule(10, () => {
      ran.push(s.now());
      s.schedule(5, () => ran.push(s.now()));
    });
    const cancel = s.schedule(12, () => ran.push(-1));
    cancel();
    s.advance(100);
    expect(ran).toEqual([10, 15]);
    expect(s.pending()).toBe(0);
  });
});

describe('systemScheduler', () => {
  it('runs and cancels real timers', async () => {
    const ran: string[] = [];
    const cancel = systemScheduler.schedule(1, () => ran.push('cancelled'));
    cancel();
    await new Promise<void>((resolve) => systemScheduler.schedule(0, () => resolve()));
    await new Promise<void>((resolve) => systemScheduler.schedule(5, () => resolve()));
    expect(ran).toEqual([]);
    expect(Math.abs(systemScheduler.now() - Date.now())).toBeLessThan(50);
  });
});

describe('ListenerSet', () => {
  it('keeps delivering when a listener throws and reports the error', () => {
    const errors: unknown[] = [];
    const set = new ListenerSet<[number]>((e) => errors.push(e));
    const got: number[] = [];
    set.add(() => {
      throw new Error('boom');
    });
    const off = set.add((n) => got.push(n));
    set.emit(1);
    off();
    set.emit(2);
    expect(got).toEqual([1]);
    expect(errors).toHaveLength(2);
  });
});
