import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { StaleGuard } from '../../../src/risk/stale-guard.js';

function setup() {
  const scheduler = new ManualClock(0);
  const events: string[] = [];
  const guard = new StaleGuard({
    scheduler,
    staleGraceMs: 10_000,
    socketDownGraceMs: 5_000,
    onHalt: (slug, reason) => events.push(`halt ${slug} ${reason}`),
    onResume: (slug) => events.push(`resume ${slug}`),
  });
  return { scheduler, guard, events };
}

describe('StaleGuard', () => {
  it('halts a market whose book is not confirmed fresh within the grace, resumes when fresh', () => {
    const { scheduler, guard, events } = setup();
    guard.track('a');
    guard.track('b');
    scheduler.advance(6_000);
    guard.markFresh('b');
    scheduler.advance(3_999);
    expect(events).toEqual([]);
    scheduler.advance(1);
    expect(events).toEqual(['halt a stale-book']);
    expect(guard.isHalted('a')).toBe(true);
    expect(guard.isHalted('b')).toBe(false);
    scheduler.advance(6_000);
    expect(events).toEqual(['halt a stale-book', 'halt b stale-book']);
    guard.markFresh('a');
    expect(events.at(-1)).toBe('resume a');
    expect(guard.isHalted('a')).toBe(false);
    expect(guard.reason('b')).toBe('stale-book');
  });

  it('halts every market when the socket is down longer than its grace, and resumes once up and fresh', () => {
    const { scheduler, guard, events } = setup();
    guard.track('a');
    scheduler.advance(1_000);
    guard.socketDown();
    scheduler.advance(4_999);
    expect(events).toEqual([]);
    scheduler.advance(1);
    expect(events).toEqual(['halt a socket-down']);
    guard.markFresh('a'); // a snapshot while the socket is still down does not resume
    expect(guard.isHalted('a')).toBe(true);
    guard.socketUp();
    expect(events.at(-1)).toBe('resume a');
  });

  it('a short socket drop within the grace halts nothing', () => {
    const { scheduler, guard, events } = setup();
    guard.track('a');
    guard.socketDown();
    scheduler.advance(4_000);
    guard.socketUp();
    guard.markFresh('a');
    scheduler.advance(5_000);
    expect(events).toEqual([]);
  });

  it('after the socket returns, a market still stale stays halted until its book is fresh', () => {
    const { scheduler, guard, events } = setup();
    guard.track('a');
    guard.socketDown();
    scheduler.advance(12_000);
    expect(events).toEqual(['halt a socket-down']);
    guard.socketUp();
    expect(guard.reason('a')).toBe('stale-book');
    guard.markFresh('a');
    expect(events).toEqual(['halt a socket-down', 'resume a']);
  });

  it('rejects bad graces', () => {
    expect(() => new StaleGuard({ scheduler: new ManualClock(0), staleGraceMs: 0, socketDownGraceMs: 1 })).toThrow(/staleGraceMs/);
  });
});
