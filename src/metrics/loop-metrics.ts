/**
 * The main thread's health: how late the event loop runs (p99 and worst excess over the sampler's resolution, per
 * scrape window, from perf_hooks' monitorEventLoopDelay: what an operator alerts on, ops/alerts.yml), the seconds the
 * ledger's SQLite took on it, and the differences the periodic check found between the in-memory position book and
 * the ledger (src/ledger/position-book.ts: each one is an error, repaired from the ledger).
 *
 * Owns: these metrics' names and help, and the loop sampler (off until `watchEventLoop`, so tests that create metrics
 * start no timer). Invariants: the excess figures are never negative; each scrape reads the window since the last one
 * and starts a new one; the SQLite counter only grows (a source that goes back is ignored until it passes its mark).
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Counter, Gauge, type Registry } from 'prom-client';

/** The loop sampler's resolution, ms: an idle loop reads about this much delay, which the excess figures subtract. */
export const LOOP_RESOLUTION_MS = 20;

export interface LoopMetrics {
  /** Starts sampling the event loop (the daemon, once); returns the stop. */
  watchEventLoop(): () => void;
  /** Where the SQLite seconds come from: milliseconds spent so far (src/ledger LedgerStore.sqliteMs). */
  sqliteTimeSource(readMs: () => number): void;
  /** The periodic check found `count` differences between the position book and the ledger (it repaired them). */
  positionBookDifferences(count: number): void;
}

export function createLoopMetrics(registers: Registry[]): LoopMetrics {
  let histogram: IntervalHistogram | null = null;
  let readSqliteMs: (() => number) | null = null;
  let countedMs = 0;
  const excess = (nanos: number): number => Math.max(0, nanos / 1e6 - LOOP_RESOLUTION_MS) / 1000;
  new Gauge({
    name: 'outcome_maker_event_loop_p99_excess_seconds',
    help: `p99 of the event loop's delay beyond the sampler's ${LOOP_RESOLUTION_MS} ms, over the window since the previous scrape (0 until sampling starts).`,
    registers,
    collect() {
      this.set(histogram === null || histogram.count === 0 ? 0 : excess(histogram.percentile(99)));
    },
  });
  new Gauge({
    name: 'outcome_maker_event_loop_max_excess_seconds',
    help: `Worst event-loop delay beyond the sampler's ${LOOP_RESOLUTION_MS} ms over the window since the previous scrape; the window restarts.`,
    registers,
    collect() {
      // Registered after the p99 gauge, so the window is read whole by both before it restarts.
      this.set(histogram === null || histogram.count === 0 ? 0 : excess(histogram.max));
      histogram?.reset();
    },
  });
  new Counter({
    name: 'outcome_maker_ledger_sqlite_seconds_total',
    help: 'Seconds the main thread spent in the ledger\'s SQLite (write transactions whole, reads per statement).',
    registers,
    collect() {
      const ms = readSqliteMs?.() ?? countedMs;
      if (ms > countedMs) {
        this.inc((ms - countedMs) / 1000);
        countedMs = ms;
      }
    },
  });
  const differences = new Counter({
    name: 'outcome_maker_position_book_differences_total',
    help: 'Differences the periodic check found between the in-memory position book and the ledger (each repaired from the ledger; any is a bug).',
    registers,
  });
  differences.inc(0);
  return {
    watchEventLoop() {
      const sampler = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
      sampler.enable();
      histogram = sampler;
      return () => {
        sampler.disable();
        if (histogram === sampler) histogram = null;
      };
    },
    sqliteTimeSource(readMs) {
      readSqliteMs = readMs;
    },
    positionBookDifferences(count) {
      if (Number.isSafeInteger(count) && count > 0) differences.inc(count);
    },
  };
}
