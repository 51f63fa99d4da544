/**
 * The start-up listing decision (src/markets/startup-listing.ts): with `deferred`, a market quotes before its own-order
 * listing only when the ledger holds no open order of the bot there; with `first`, never; a ledger that has never
 * recorded an order lists first whatever the config says (`decideStartupListing`). The one start-up line says which
 * way each market went, and why when the configured mode was not applied.
 */
import { describe, expect, it } from 'vitest';
import { decideStartupListing, quotesBeforeListing, startupListingSummary, withDeferredForeign } from '../../../src/markets/startup-listing.js';
import type { MarketSyncReport } from '../../../src/orders/executor.js';

const report = (marketSlug: string, deferred: boolean): MarketSyncReport => ({ marketSlug, ok: true, adopted: 0, canceled: 0, foreign: 0, error: null, ...(deferred ? { deferred: true } : {}) });

describe('quotesBeforeListing', () => {
  const open = new Set(['held']);
  it('deferred: a market without an open order of the bot in the ledger quotes first', () => {
    expect(quotesBeforeListing({ mode: 'deferred', slug: 'clean', openOrderMarkets: open })).toBe(true);
    expect(quotesBeforeListing({ mode: 'deferred', slug: 'clean', openOrderMarkets: new Set() })).toBe(true);
  });

  it('deferred: a market with an open (live, pending or unknown) order of the bot in the ledger is listed first', () => {
    expect(quotesBeforeListing({ mode: 'deferred', slug: 'held', openOrderMarkets: open })).toBe(false);
  });

  it('first: every market is listed first', () => {
    expect(quotesBeforeListing({ mode: 'first', slug: 'clean', openOrderMarkets: new Set() })).toBe(false);
    expect(quotesBeforeListing({ mode: 'first', slug: 'held', openOrderMarkets: open })).toBe(false);
  });
});

describe('decideStartupListing', () => {
  it('deferred on a ledger with history: deferred', () => {
    expect(decideStartupListing('deferred', 1)).toEqual({ mode: 'deferred', configured: 'deferred', reason: null });
  });

  it('deferred on a ledger that has never recorded an order: first, with the reason', () => {
    const decision = decideStartupListing('deferred', 0);
    expect(decision).toMatchObject({ mode: 'first', configured: 'deferred' });
    expect(decision.reason).toContain('never recorded an order');
    expect(quotesBeforeListing({ mode: decision.mode, slug: 'clean', openOrderMarkets: new Set() })).toBe(false);
  });

  it('first: first, whatever the ledger holds', () => {
    expect(decideStartupListing('first', 0)).toEqual({ mode: 'first', configured: 'first', reason: null });
    expect(decideStartupListing('first', 12)).toEqual({ mode: 'first', configured: 'first', reason: null });
  });
});

describe('startupListingSummary', () => {
  it('says why every market was listed first when the ledger has no history', () => {
    const { fields, msg } = startupListingSummary(decideStartupListing('deferred', 0), [report('a', false)]);
    expect(fields).toMatchObject({ startupListing: 'first', configured: 'deferred', quotingBeforeListing: 0, listedFirst: 1 });
    expect(String(fields['reason'])).toContain('never recorded an order');
    expect(msg).toContain('never recorded an order');
  });

  it('counts the markets that quoted first and names those listed first', () => {
    const { fields, msg } = startupListingSummary(decideStartupListing('deferred', 5), [report('a', true), report('b', true), report('held', false)]);
    expect(fields).toEqual({ startupListing: 'deferred', quotingBeforeListing: 2, listedFirst: 1, listedFirstMarkets: ['held'] });
    expect(msg).toContain('orders.startupListing: deferred');
  });

  it('first: says so, and lists no market names', () => {
    const { fields, msg } = startupListingSummary(decideStartupListing('first', 0), [report('a', false), report('b', false)]);
    expect(fields).toEqual({ startupListing: 'first', quotingBeforeListing: 0, listedFirst: 2 });
    expect(msg).toContain('orders.startupListing: first');
  });
});

describe('withDeferredForeign', () => {
  it('hands a deferred listing\'s report to noteForeign after the observer, and a failed attempt to the observer only', () => {
    const seen: string[] = [];
    const observer = withDeferredForeign({ onDeferredListing: (slug, result) => seen.push(`observer ${slug} ${'report' in result ? 'report' : 'failed'}`) }, (r) => seen.push(`foreign ${r.marketSlug}`));
    observer.onDeferredListing?.('a', { failedAttempt: 1 });
    observer.onDeferredListing?.('a', { report: { ...report('a', true), foreign: 2 }, delayMs: 10 });
    expect(seen).toEqual(['observer a failed', 'observer a report', 'foreign a']);
  });
});
