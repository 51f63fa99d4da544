import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { COMMIT_ORIGINS, executorSettings, isActive, isFromOutside, sleep, untilDeadline, type CommitOrigin } from '../../../src/orders/executor-context.js';

describe('commit origins', () => {
  it('only news from outside a plan re-runs the intents', () => {
    const outside: Record<CommitOrigin, boolean> = {
      plan: false,
      'plan-lookup': false,
      'venue-event': true,
      lookup: true,
      startup: true,
      resync: true,
      'sync-cancel': false,
      shutdown: false,
    };
    expect(Object.fromEntries(COMMIT_ORIGINS.map((origin) => [origin, isFromOutside(origin)]))).toEqual(outside);
  });

  it('plans run only while starting or running', () => {
    expect((['created', 'starting', 'running', 'stopping', 'stopped'] as const).map(isActive)).toEqual([false, true, true, false, false]);
  });
});

describe('executor settings', () => {
  it('fills the defaults and clamps the batch sizes', () => {
    expect(executorSettings({ cancelBatchSize: 10_000, cancelReplace: { batchSize: 0 } })).toMatchObject({
      defaultPostOnly: false,
      initialBackoffMs: 500,
      maxBackoffMs: 10_000,
      notFoundLimit: 3,
      notFoundGraceMs: 10_000,
      foreignPolicy: 'leave',
      exclusiveMarkets: false,
      cancelBatchSize: 500,
      cancelReplace: true,
      replaceBatchSize: 1,
      startupAttempts: 3,
      retainTerminalMs: 3_600_000,
      reconcile: {},
    });
  });
});

describe('scheduler helpers', () => {
  it('untilDeadline resolves the value in time, false once the deadline passes', async () => {
    const clock = new ManualClock(0);
    const fast = untilDeadline(clock, sleep(clock, 50).then(() => 'done'), 100);
    clock.advance(50);
    expect(await fast).toBe('done');
    const slow = untilDeadline(clock, sleep(clock, 500).then(() => 'late'), 150);
    clock.advance(100);
    expect(await slow).toBe(false);
    expect(await untilDeadline(clock, Promise.reject(new Error('ignored')), 0)).toBe(false);
  });
});
