/**
 * The underlying price store of one process: for each ticker and source the latest validated price, its confidence,
 * its publish time and its receive time.
 *
 * Owns: validation of every incoming price (one place, whatever the source) and the latest quote per ticker and
 * source, plus the venue's own per-market view. Invariants: a refused update (malformed, non-finite, non-positive,
 * future-dated beyond `maxFutureSkewMs`, older than the last from the same source) changes nothing and returns a
 * typed refusal naming the field and the value, which the caller counts and logs; `best(ticker)` prefers Hermes,
 * falls back to the venue, and flags stale (receive age over `staleMs`) and in-doubt (both fresh and further apart
 * than `maxDivergenceBps`) quotes; time comes from the injected clock only.
 */
import { z } from 'zod';
import type { UnderlyingQuote, UnderlyingSourceName } from '../types.js';

export interface StoreSettings {
  readonly staleMs: number;
  readonly maxDivergenceBps: number;
  /** A publish time later than now by more than this is refused. */
  readonly maxFutureSkewMs: number;
}

export const DEFAULT_STORE_SETTINGS: StoreSettings = { staleMs: 10_000, maxDivergenceBps: 50, maxFutureSkewMs: 5_000 };

/** An update before validation: what a source parsed off the wire. */
export interface RawUnderlyingUpdate {
  readonly ticker: unknown;
  readonly price: unknown;
  readonly conf?: unknown;
  readonly publishTimeMs: unknown;
  readonly marketSlug?: unknown;
}

export class UnderlyingRefusal extends Error {
  override readonly name = 'UnderlyingRefusal';
  constructor(
    readonly source: UnderlyingSourceName,
    readonly field: string,
    readonly value: unknown,
    readonly reason: 'malformed' | 'non-finite' | 'non-positive' | 'future-dated' | 'out-of-order',
  ) {
    super(`${source} price refused: ${field} ${reason} (got ${typeof value === 'number' || typeof value === 'string' ? JSON.stringify(value) : Object.prototype.toString.call(value)})`);
  }
}

const finiteNumber = z.number();
const UpdateShape = z.object({
  ticker: z.string().regex(/^[A-Z][A-Z0-9]{0,15}$/),
  price: finiteNumber,
  conf: finiteNumber.nullable().optional(),
  publishTimeMs: z.number().int(),
  marketSlug: z.string().min(1).nullable().optional(),
});

export interface StoreObserver {
  onAccepted?(quote: UnderlyingQuote): void;
  onRefused?(refusal: UnderlyingRefusal): void;
}

export interface BestQuote {
  readonly quote: UnderlyingQuote;
  readonly ageMs: number;
  readonly stale: boolean;
  /** |hermes − venue| / mid in basis points while both are fresh; null otherwise. */
  readonly divergenceBps: number | null;
  readonly inDoubt: boolean;
}

export class UnderlyingStore {
  private readonly latest = new Map<string, UnderlyingQuote>();
  private readonly perMarket = new Map<string, UnderlyingQuote>();
  private readonly listeners = new Set<(quote: UnderlyingQuote) => void>();

  constructor(
    private readonly settings: StoreSettings,
    private readonly now: () => number,
    private readonly observer: StoreObserver = {},
  ) {}

  /** Validates and keeps one update; returns the quote, or the refusal (already reported to the observer). */
  accept(source: UnderlyingSourceName, raw: RawUnderlyingUpdate): UnderlyingQuote | UnderlyingRefusal {
    const refusal = this.check(source, raw);
    if (refusal instanceof UnderlyingRefusal) {
      this.observer.onRefused?.(refusal);
      return refusal;
    }
    const quote = refusal;
    const current = this.latest.get(key(quote.ticker, source));
    if (!current || quote.publishTimeMs >= current.publishTimeMs) this.latest.set(key(quote.ticker, source), quote);
    if (quote.marketSlug !== null) this.perMarket.set(quote.marketSlug, quote);
    this.observer.onAccepted?.(quote);
    for (const listener of [...this.listeners]) listener(quote);
    return quote;
  }

  quote(ticker: string, source: UnderlyingSourceName): UnderlyingQuote | null {
    return this.latest.get(key(ticker, source)) ?? null;
  }

  /** The venue's own view of one market's underlying (its latest `oraclePriceData`). */
  venueView(marketSlug: string): UnderlyingQuote | null {
    return this.perMarket.get(marketSlug) ?? null;
  }

  best(ticker: string): BestQuote | null {
    const now = this.now();
    const hermes = this.quote(ticker, 'hermes');
    const venue = this.quote(ticker, 'venue');
    const fresh = (q: UnderlyingQuote | null): q is UnderlyingQuote => q !== null && now - q.receiveTimeMs <= this.settings.staleMs;
    const chosen = fresh(hermes) ? hermes : fresh(venue) ? venue : (hermes ?? venue);
    if (chosen === null) return null;
    let divergenceBps: number | null = null;
    if (fresh(hermes) && fresh(venue)) divergenceBps = (Math.abs(hermes.price - venue.price) / ((hermes.price + venue.price) / 2)) * 10_000;
    const ageMs = Math.max(0, now - chosen.receiveTimeMs);
    return { quote: chosen, ageMs, stale: ageMs > this.settings.staleMs, divergenceBps, inDoubt: divergenceBps !== null && divergenceBps > this.settings.maxDivergenceBps };
  }

  onQuote(listener: (quote: UnderlyingQuote) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private check(source: UnderlyingSourceName, raw: RawUnderlyingUpdate): UnderlyingQuote | UnderlyingRefusal {
    const parsed = UpdateShape.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.map(String).join('.') || 'update';
      const value: unknown = issue ? issue.path.reduce<unknown>((v, k) => (typeof v === 'object' && v !== null ? Reflect.get(v, k) : undefined), raw) : raw;
      return new UnderlyingRefusal(source, field, value, typeof value === 'number' && !Number.isFinite(value) ? 'non-finite' : 'malformed');
    }
    const u = parsed.data;
    if (!Number.isFinite(u.price)) return new UnderlyingRefusal(source, 'price', u.price, 'non-finite');
    if (u.price <= 0) return new UnderlyingRefusal(source, 'price', u.price, 'non-positive');
    const conf = u.conf ?? null;
    if (conf !== null && !Number.isFinite(conf)) return new UnderlyingRefusal(source, 'conf', conf, 'non-finite');
    if (conf !== null && conf < 0) return new UnderlyingRefusal(source, 'conf', conf, 'non-positive');
    const now = this.now();
    if (u.publishTimeMs > now + this.settings.maxFutureSkewMs) return new UnderlyingRefusal(source, 'publishTimeMs', u.publishTimeMs, 'future-dated');
    // A venue frame is about one market: its order is per market (several markets on one ticker repeat a price).
    const previous = u.marketSlug == null ? this.latest.get(key(u.ticker, source)) : this.perMarket.get(u.marketSlug);
    if (previous && u.publishTimeMs < previous.publishTimeMs) return new UnderlyingRefusal(source, 'publishTimeMs', u.publishTimeMs, 'out-of-order');
    return { ticker: u.ticker, source, price: u.price, conf, publishTimeMs: u.publishTimeMs, receiveTimeMs: now, marketSlug: u.marketSlug ?? null };
  }
}

function key(ticker: string, source: UnderlyingSourceName): string {
  return `${source}:${ticker}`;
}
