/**
 * Order events known lost (reportGap): the market is resynced at once, without the book's grace period; a gap during
 * a resync runs one more after it; gaps inside the gap cooldown are deferred to its end, never dropped.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { OrderStreamWatch } from '../../../src/orders/order-stream-watch.js';

function setup() {
  const scheduler = new ManualClock(1_000_000);
  const resyncs: string[] = [];
  const finish: Array<() => void> = [];
  const watch = new OrderStreamWatch({
    scheduler,
    ownOrders: () => [],
    book: () => null,
    resync: (slug) => {
      resyncs.push(slug);
      return new Promise<void>((resolve) => finish.push(resolve));
    },
    log: pino({ level: 'silent' }),
    gapCooldownMs: 1_000,
  });
  return { scheduler, resyncs, finish, watch };
}

const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('OrderStreamWatch.reportGap', () => {
  it('resyncs at once, one in flight per market, and once more after it for a gap reported meanwhile', async () => {
    const { resyncs, finish, watch, scheduler } = setup();
    watch.reportGap('a', 'unreadable');
    watch.reportGap('b', 'unreadable');
    expect(resyncs).toEqual(['a', 'b']);
    watch.reportGap('a', 'again');
    watch.reportGap('a', 'and again');
    expect(resyncs).toEqual(['a', 'b']);
    scheduler.advance(1_500);
    finish.shift()?.();
    await flush();
    expect(resyncs).toEqual(['a', 'b', 'a']);
    finish.shift()?.();
    finish.shift()?.();
    await flush();
    expect(resyncs).toEqual(['a', 'b', 'a']);
  });

  it('defers a gap inside the cooldown to its end', async () => {
    const { resyncs, finish, watch, scheduler } = setup();
    watch.reportGap('a', 'first');
    finish.shift()?.();
    await flush();
    watch.reportGap('a', 'second');
    watch.reportGap('a', 'third');
    expect(resyncs).toEqual(['a']);
    scheduler.advance(999);
    expect(resyncs).toEqual(['a']);
    scheduler.advance(1);
    expect(resyncs).toEqual(['a', 'a']);
  });

  it('does nothing after stop()', () => {
    const { resyncs, watch, scheduler } = setup();
    watch.stop();
    watch.reportGap('a', 'late');
    scheduler.advance(5_000);
    expect(resyncs).toEqual([]);
  });
});
