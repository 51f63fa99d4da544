/**
 * The staleness watchdog's rules, as pure functions over plain values (the book store runs them on its
 * scheduler and does the I/O).
 *
 * Why a watchdog: the venue pushes a book only when it changes, so a quiet market and a frozen feed look
 * the same from the socket. A book counts as fresh while something recent confirms it: a frame from the
 * feed, a REST snapshot, or a REST probe that matched it. Markets that have been quiet for `quietAfterMs`
 * are probed over REST, a bounded number per tick in round-robin order (every REST call spends the shared
 * rate-limit budget). A market not confirmed for `staleAfterMs`, or any market while the feed has been
 * down for longer than `socketDownGraceMs`, is stale.
 *
 * Invariants: `resolveWatchdogConfig` accepts only positive finite integers (and a stale bound larger
 * than the quiet threshold); `selectProbes` never returns more than `max` markets, never one twice, and
 * resumes after the last one chosen so every eligible market is reached within ceil(n / max) ticks.
 */
import { MarketDataConfigError } from './errors.js';
import type { FeedConnectionState } from './feed-port.js';

export interface WatchdogConfig {
  /** How often the watchdog runs. */
  readonly intervalMs: number;
  /** A market not confirmed fresh for this long is probed over REST. */
  readonly quietAfterMs: number;
  /** A market not confirmed fresh for this long is stale. */
  readonly staleAfterMs: number;
  /** REST probes per tick at most (the rate-limit budget the watchdog may spend). */
  readonly maxProbesPerTick: number;
  /** Every market is stale once the feed has been down for longer than this. */
  readonly socketDownGraceMs: number;
  /** After a probe finds the local book wrong, how long to wait for a feed frame before calling the feed frozen. */
  readonly frozenConfirmMs: number;
  /** A snapshot fetch that has not answered after this long is abandoned (counted as an error). */
  readonly fetchTimeoutMs: number;
}

export const DEFAULT_WATCHDOG_CONFIG: WatchdogConfig = Object.freeze({
  intervalMs: 2_000,
  quietAfterMs: 15_000,
  staleAfterMs: 60_000,
  maxProbesPerTick: 1,
  socketDownGraceMs: 10_000,
  frozenConfirmMs: 2_000,
  fetchTimeoutMs: 10_000,
});

export function resolveWatchdogConfig(overrides: Partial<WatchdogConfig> = {}): WatchdogConfig {
  const config: WatchdogConfig = { ...DEFAULT_WATCHDOG_CONFIG, ...overrides };
  for (const [key, value] of Object.entries(config)) {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
      throw new MarketDataConfigError(`watchdog.${key}`, value, 'must be a positive integer');
    }
  }
  if (config.staleAfterMs <= config.quietAfterMs) {
    throw new MarketDataConfigError(
      'watchdog.staleAfterMs',
      config.staleAfterMs,
      `must be larger than quietAfterMs (${config.quietAfterMs}) so a quiet market is probed before it goes stale`,
    );
  }
  return Object.freeze(config);
}

/**
 * Worst-case age of a quiet market's confirmation with `marketCount` markets all quiet: it becomes
 * eligible at `quietAfterMs` and the round-robin reaches it within ceil(n / maxProbesPerTick) ticks.
 * When this is not below `staleAfterMs`, quiet markets will flap to stale: give the watchdog more budget
 * or a longer stale bound.
 */
export function worstCaseConfirmationAgeMs(marketCount: number, config: WatchdogConfig): number {
  const ticks = Math.ceil(Math.max(0, marketCount) / config.maxProbesPerTick);
  return config.quietAfterMs + ticks * config.intervalMs;
}

export type StaleReason = 'no-snapshot' | 'unconfirmed' | 'feed-down';

export interface FreshnessFacts {
  readonly hasBook: boolean;
  /** Last time the book was confirmed current (frame, REST snapshot or matching probe). */
  readonly lastFreshMs: number | null;
}

/** Why a market's book cannot be trusted now, or null when it is fresh. */
export function staleReason(
  facts: FreshnessFacts,
  feed: FeedConnectionState | null,
  nowMs: number,
  config: WatchdogConfig,
): StaleReason | null {
  if (!facts.hasBook || facts.lastFreshMs === null) return 'no-snapshot';
  if (feed !== null && feed.downSinceMs !== null && nowMs - feed.downSinceMs > config.socketDownGraceMs) {
    return 'feed-down';
  }
  if (nowMs - facts.lastFreshMs > config.staleAfterMs) return 'unconfirmed';
  return null;
}

/** Is the market due a REST probe? (Quiet for `quietAfterMs`, or never synced.) */
export function needsProbe(facts: FreshnessFacts, nowMs: number, config: WatchdogConfig): boolean {
  if (!facts.hasBook || facts.lastFreshMs === null) return true;
  return nowMs - facts.lastFreshMs >= config.quietAfterMs;
}

export interface ProbeSelection {
  readonly chosen: readonly string[];
  /** Where the next selection starts (index into the same market list). */
  readonly nextCursor: number;
}

/** Round-robin choice of at most `max` eligible markets, starting at `cursor`. */
export function selectProbes(
  markets: readonly string[],
  cursor: number,
  max: number,
  eligible: (slug: string) => boolean,
): ProbeSelection {
  const n = markets.length;
  if (n === 0 || max <= 0) return { chosen: [], nextCursor: 0 };
  const start = ((cursor % n) + n) % n;
  const chosen: string[] = [];
  let nextCursor = start;
  for (let step = 0; step < n && chosen.length < max; step++) {
    const index = (start + step) % n;
    const slug = markets[index]!;
    if (eligible(slug)) {
      chosen.push(slug);
      nextCursor = (index + 1) % n;
    }
  }
  return { chosen, nextCursor };
}
