import { describe, expect, it } from 'vitest';
import { MarketDataConfigError } from '../../../src/book/errors.js';
import type { FeedConnectionState } from '../../../src/book/feed-port.js';
import {
  DEFAULT_WATCHDOG_CONFIG,
  needsProbe,
  resolveWatchdogConfig,
  selectProbes,
  staleReason,
  worstCaseConfirmationAgeMs,
} from '../../../src/book/watchdog.js';

const config = resolveWatchdogConfig({ quietAfterMs: 1_000, staleAfterMs: 5_000, socketDownGraceMs: 2_000 });
const connected: FeedConnectionState = { status: 'connected', sinceMs: 0, downSinceMs: null, lastConnectedAtMs: 0, connects: 1, closed: false };

describe('resolveWatchdogConfig', () => {
  it('fills defaults and freezes', () => {
    const resolved = resolveWatchdogConfig();
    expect(resolved).toEqual(DEFAULT_WATCHDOG_CONFIG);
    expect(Object.isFrozen(resolved)).toBe(true);
  });

  it.each([
    [{ intervalMs: 0 }, 'watchdog.intervalMs'],
    [{ maxProbesPerTick: 1.5 }, 'watchdog.maxProbesPerTick'],
    [{ fetchTimeoutMs: Number.NaN }, 'watchdog.fetchTimeoutMs'],
    [{ quietAfterMs: 10_000, staleAfterMs: 10_000 }, 'watchdog.staleAfterMs'],
  ])('rejects %j naming %s', (overrides, field) => {
    let caught: unknown = null;
    try {
      resolveWatchdogConfig(overrides);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(MarketDataConfigError);
    expect(caught).toMatchObject({ field });
  });
});

describe('staleReason', () => {
  it('is no-snapshot without a book', () => {
    expect(staleReason({ hasBook: false, lastFreshMs: null }, connected, 0, config)).toBe('no-snapshot');
  });

  it('is fresh until staleAfterMs since the last confirmation, then unconfirmed', () => {
    expect(staleReason({ hasBook: true, lastFreshMs: 1_000 }, connected, 6_000, config)).toBeNull();
    expect(staleReason({ hasBook: true, lastFreshMs: 1_000 }, connected, 6_001, config)).toBe('unconfirmed');
  });

  it('is feed-down once the feed has been down longer than the grace period, whatever the book', () => {
    const down: FeedConnectionState = { ...connected, status: 'connecting', downSinceMs: 10_000 };
    expect(staleReason({ hasBook: true, lastFreshMs: 11_000 }, down, 12_000, config)).toBeNull();
    expect(staleReason({ hasBook: true, lastFreshMs: 11_000 }, down, 12_001, config)).toBe('feed-down');
    expect(staleReason({ hasBook: true, lastFreshMs: 11_000 }, null, 12_001, config)).toBeNull();
  });
});

describe('needsProbe', () => {
  it('probes markets quiet for quietAfterMs and markets without a book', () => {
    expect(needsProbe({ hasBook: false, lastFreshMs: null }, 0, config)).toBe(true);
    expect(needsProbe({ hasBook: true, lastFreshMs: 0 }, 999, config)).toBe(false);
    expect(needsProbe({ hasBook: true, lastFreshMs: 0 }, 1_000, config)).toBe(true);
  });
});

describe('selectProbes (round-robin under a budget)', () => {
  const markets = ['a', 'b', 'c', 'd', 'e'];

  it('takes at most max eligible markets from the cursor and resumes after the last one', () => {
    const first = selectProbes(markets, 0, 2, () => true);
    expect(first).toEqual({ chosen: ['a', 'b'], nextCursor: 2 });
    const second = selectProbes(markets, first.nextCursor, 2, () => true);
    expect(second).toEqual({ chosen: ['c', 'd'], nextCursor: 4 });
    const third = selectProbes(markets, second.nextCursor, 2, () => true);
    expect(third).toEqual({ chosen: ['e', 'a'], nextCursor: 1 });
  });

  it('skips ineligible markets and never returns one twice', () => {
    const eligible = new Set(['b', 'e']);
    expect(selectProbes(markets, 3, 5, (s) => eligible.has(s))).toEqual({ chosen: ['e', 'b'], nextCursor: 2 });
    expect(selectProbes(markets, 0, 3, () => false)).toEqual({ chosen: [], nextCursor: 0 });
  });

  it('reaches every market within ceil(n / max) ticks even when all stay eligible', () => {
    const seen = new Set<string>();
    let cursor = 0;
    for (let tick = 0; tick < Math.ceil(markets.length / 2); tick++) {
      const s = selectProbes(markets, cursor, 2, () => true);
      s.chosen.forEach((m) => seen.add(m));
      cursor = s.nextCursor;
    }
    expect(seen.size).toBe(markets.length);
    expect(selectProbes([], 7, 2, () => true)).toEqual({ chosen: [], nextCursor: 0 });
  });

  it('worst-case confirmation age grows with markets per probe budget', () => {
    const c = resolveWatchdogConfig({ intervalMs: 2_000, quietAfterMs: 15_000, staleAfterMs: 60_000, maxProbesPerTick: 2 });
    expect(worstCaseConfirmationAgeMs(10, c)).toBe(15_000 + 5 * 2_000);
  });
});
