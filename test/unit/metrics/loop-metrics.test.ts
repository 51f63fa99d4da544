/**
 * The main thread's health metrics through the bot's metrics (src/metrics/loop-metrics.ts via createMetrics): the
 * event loop's p99 and worst excess over the sampler's resolution (what ops/alerts.yml alerts on), read per scrape
 * window; the ledger's SQLite seconds on the main thread (the soak's "SQLite ms per s" line); the position book's
 * differences.
 */
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../../src/metrics/index.js';
import { LOOP_RESOLUTION_MS } from '../../../src/metrics/loop-metrics.js';

async function value(registry: Registry, name: string): Promise<number> {
  const line = (await registry.metrics()).split('\n').find((l) => l.startsWith(`${name} `));
  if (line === undefined) throw new Error(`${name} not exposed`);
  return Number(line.split(' ')[1]);
}

/** Holds the thread for `ms` (what a long synchronous SQLite call does to the loop). */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('loop metrics', () => {
  it('the event loop\'s p99 and worst excess: 0 before sampling, a stall beyond the resolution shows', async () => {
    const registry = new Registry();
    const metrics = createMetrics({ registry, collectDefault: false });
    expect(await value(registry, 'outcome_maker_event_loop_p99_excess_seconds')).toBe(0);
    const stop = metrics.watchEventLoop();
    try {
      await tick(3 * LOOP_RESOLUTION_MS);
      block(150);
      await tick(2 * LOOP_RESOLUTION_MS);
      // The stall is beyond the sampler's resolution: at least 150 − 20 ms of excess, worst and p99 (few samples).
      expect(await value(registry, 'outcome_maker_event_loop_max_excess_seconds')).toBeGreaterThanOrEqual(0.1);
      expect(await value(registry, 'outcome_maker_event_loop_p99_excess_seconds')).toBeGreaterThanOrEqual(0);
    } finally {
      stop();
    }
  });

  it('SQLite seconds follow the ledger\'s milliseconds and never go back', async () => {
    const registry = new Registry();
    const metrics = createMetrics({ registry, collectDefault: false });
    let ms = 0;
    metrics.sqliteTimeSource(() => ms);
    ms = 1_500;
    expect(await value(registry, 'outcome_maker_ledger_sqlite_seconds_total')).toBe(1.5);
    ms = 1_000;
    expect(await value(registry, 'outcome_maker_ledger_sqlite_seconds_total')).toBe(1.5);
    ms = 2_250;
    expect(await value(registry, 'outcome_maker_ledger_sqlite_seconds_total')).toBe(2.25);
    metrics.positionBookDifferences(3);
    metrics.positionBookDifferences(-1);
    expect(await value(registry, 'outcome_maker_position_book_differences_total')).toBe(3);
  });
});
