import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { MarketRegistry, MarketState } from '../../../src/orders/market-state.js';
import type { PlanOutcome } from '../../../src/orders/executor-types.js';

const REF = { slug: 'will-it-rain', tokens: { yes: '111', no: '222' } };

describe('market state', () => {
  it('holds one pending run: take hands it out once', () => {
    const market = new MarketState(REF);
    const outcomes: PlanOutcome[] = [];
    expect(market.pending).toBeNull();
    market.setPending({ submission: { intents: [], issuedAtMs: 1 }, resolve: (o) => outcomes.push(o) });
    const run = market.takePending();
    expect(run?.submission.issuedAtMs).toBe(1);
    expect(market.takePending()).toBeNull();
    run?.resolve?.({ status: 'stopped' });
    expect(outcomes).toEqual([{ status: 'stopped' }]);
  });

  it('arms one review timer at a time, forgets it before it fires, and disarms', () => {
    const clock = new ManualClock(0);
    const market = new MarketState(REF);
    const fired: string[] = [];
    market.armReview(clock, 100, () => fired.push('first'));
    market.armReview(clock, 200, () => fired.push('second'));
    clock.advance(150);
    expect(fired).toEqual([]);
    clock.advance(100);
    expect(fired).toEqual(['second']);
    market.armReview(clock, 10, () => fired.push('third'));
    market.disarmReview();
    clock.advance(50);
    expect(fired).toEqual(['second']);
  });

  it('arms the lookup timer only when it is not armed, and counts lookup attempts', () => {
    const clock = new ManualClock(0);
    const market = new MarketState(REF);
    const fired: number[] = [];
    market.armLookup(clock, 100, () => fired.push(1));
    market.armLookup(clock, 10, () => fired.push(2));
    expect(market.lookupArmed).toBe(true);
    clock.advance(100);
    expect(fired).toEqual([1]);
    expect(market.lookupArmed).toBe(false);
    expect([market.nextLookupAttempt(), market.nextLookupAttempt()]).toEqual([1, 2]);
    market.resetLookupAttempts();
    expect(market.nextLookupAttempt()).toBe(1);
    expect([market.beginLookupPass(), market.beginLookupPass()]).toEqual([true, false]);
    market.endLookupPass();
    expect(market.beginLookupPass()).toBe(true);
  });

  it('queues one resync at a time, until the sync starts', () => {
    const market = new MarketState(REF);
    expect([market.claimResync(), market.claimResync()]).toEqual([true, false]);
    market.syncStarted();
    expect(market.claimResync()).toBe(true);
  });

  it('keeps the latest fill time per slot, never going back', () => {
    const market = new MarketState(REF);
    market.noteFill('bid-0', 500);
    market.noteFill('bid-0', 300);
    market.noteFill('ask-0', 700);
    expect([...market.lastFillAtBySlot]).toEqual([
      ['bid-0', 500],
      ['ask-0', 700],
    ]);
  });

  it('tracks lookups and hands out strays once', () => {
    const market = new MarketState(REF);
    market.markForLookup('c1');
    expect(market.awaitsLookup('c1')).toBe(true);
    market.lookupSettled('c1');
    expect(market.awaitsLookup('c1')).toBe(false);
    market.addStray('o1');
    market.addStray('o2');
    expect(market.hasStrays).toBe(true);
    expect(market.takeStrays()).toEqual(['o1', 'o2']);
    expect(market.hasStrays).toBe(false);
  });
});

describe('market registry', () => {
  it('registers a slug once, findable by slug and by key', () => {
    const markets = new MarketRegistry();
    expect(markets.add(REF, () => 'k1')).toBe(true);
    expect(markets.add(REF, () => 'k2')).toBe(false);
    expect(markets.get(REF.slug)?.ref).toBe(REF);
    expect(markets.withKey('k1')).toBe(markets.get(REF.slug));
    expect(markets.withKey('k2')).toBeUndefined();
    expect(markets.slugs()).toEqual([REF.slug]);
  });
});
