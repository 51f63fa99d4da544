import { describe, expect, it } from 'vitest';
import { ChangeCoalescer } from '../../../src/book/coalescer.js';
import { ManualClock } from '../../../src/core/clock.js';

describe('ChangeCoalescer', () => {
  it('turns a burst into one notification per market', () => {
    const scheduler = new ManualClock(1_000);
    const delivered: string[] = [];
    const coalescer = new ChangeCoalescer(scheduler, 0, (k) => delivered.push(k));
    for (let i = 0; i < 50; i++) coalescer.mark('a');
    coalescer.mark('b');
    expect(delivered).toEqual([]);
    scheduler.flush();
    expect(delivered).toEqual(['a', 'b']);
  });

  it('holds a market to one notification per minimum interval', () => {
    const scheduler = new ManualClock(0);
    const delivered: Array<[string, number]> = [];
    const coalescer = new ChangeCoalescer(scheduler, 100, (k) => delivered.push([k, scheduler.now()]));
    coalescer.mark('a');
    scheduler.flush();
    coalescer.mark('a');
    scheduler.advance(30);
    coalescer.mark('a');
    scheduler.advance(69);
    expect(delivered).toEqual([['a', 0]]);
    scheduler.advance(1);
    expect(delivered).toEqual([['a', 0], ['a', 100]]);
  });

  it('drops pending notifications on cancel', () => {
    const scheduler = new ManualClock(0);
    const delivered: string[] = [];
    const coalescer = new ChangeCoalescer(scheduler, 0, (k) => delivered.push(k));
    coalescer.mark('a');
    coalescer.mark('b');
    coalescer.cancel('a');
    expect(coalescer.isPending('a')).toBe(false);
    scheduler.flush();
    coalescer.mark('c');
    coalescer.cancelAll();
    scheduler.flush();
    expect(delivered).toEqual(['b']);
  });
});
