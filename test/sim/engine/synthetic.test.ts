import { describe, expect, it } from 'vitest';
import { createEngine, generateMarkets, ManualClock, type SimEngine, type SyntheticOptions } from '../../../src/sim/engine/index.js';
import { ALICE, SHARE, T0, account, expectSound, limit, ok } from './helpers.js';

const BASE = 900_000;

function synth(seed: number, synthetic: SyntheticOptions, marketCount = 3): { engine: SimEngine; clock: ManualClock } {
  const clock = new ManualClock(T0);
  const engine = createEngine({
    seed,
    clock,
    settlementDelayMs: 500,
    markets: generateMarkets(marketCount, 11, T0),
    accounts: [account(ALICE, 10_000)],
    synthetic: { autoStep: false, ...synthetic },
  });
  return { engine, clock };
}

function run(engine: SimEngine, clock: ManualClock, steps: number): void {
  for (let i = 0; i < steps; i += 1) {
    clock.advance(1000);
    engine.syntheticStep();
  }
}

function fingerprint(engine: SimEngine): string {
  return JSON.stringify(engine.markets().map((m) => [m.slug, engine.book(m.slug), engine.trades([m.slug]), engine.fairValueTicks(m.slug)]));
}

describe('synthetic traders', () => {
  it('are deterministic for a seed', () => {
    const a = synth(1, { noise: { ratePerMinute: 30 }, informed: { ratePerMinute: 30 } });
    const b = synth(1, { noise: { ratePerMinute: 30 }, informed: { ratePerMinute: 30 } });
    const c = synth(2, { noise: { ratePerMinute: 30 }, informed: { ratePerMinute: 30 } });
    run(a.engine, a.clock, 120);
    run(b.engine, b.clock, 120);
    run(c.engine, c.clock, 120);
    expect(fingerprint(a.engine)).toBe(fingerprint(b.engine));
    expect(fingerprint(a.engine)).not.toBe(fingerprint(c.engine));
    expect(a.engine.stats().tradesMined).toBeGreaterThan(10);
    expectSound(a.engine);
  });

  it('passive makers keep a ladder on both sides around the fair value', () => {
    const { engine, clock } = synth(3, { noise: { ratePerMinute: 0 }, informed: { ratePerMinute: 0 }, makers: { levels: 3, spreadTicks: 20, levelStepTicks: 10, sizeRaw: 50 * SHARE } });
    run(engine, clock, 1);
    for (const m of engine.markets()) {
      const fair = engine.fairValueTicks(m.slug)!;
      const book = engine.book(m.slug)!;
      expect(book.bids.map((l) => l.priceTicks)).toEqual([fair - 20, fair - 30, fair - 40]);
      expect(book.asks.map((l) => l.priceTicks)).toEqual([fair + 20, fair + 30, fair + 40]);
      expect([...book.bids, ...book.asks].every((l) => l.sizeRaw === 50 * SHARE)).toBe(true);
    }
    const m = engine.markets()[0]!;
    expect(engine.setFairValue(m.slug, 300)).toEqual({ ok: true, fairValueTicks: 300 });
    expect(engine.setFairValue(m.slug, 1000)).toMatchObject({ ok: false, status: 400 });
    run(engine, clock, 1);
    const fair = engine.fairValueTicks(m.slug)!;
    expect(Math.abs(fair - 300)).toBeLessThan(5);
    expect(engine.book(m.slug)?.bids[0]?.priceTicks).toBe(fair - 20);
    expect(engine.account(BASE)).toMatchObject({ synthetic: true });
    expectSound(engine);
  });

  it('informed takers pick off a quote that is mispriced against the fair value', () => {
    const { engine, clock } = synth(4, { makers: { enabled: false }, noise: { ratePerMinute: 0 }, informed: { ratePerMinute: 60, edgeTicks: 5, maxSizeRaw: 20 * SHARE }, fairValue: { volatilityPerSqrtHour: 0, jumpsPerHour: 0 } });
    const spec = generateMarkets(3, 11, T0)[0]!;
    engine.setFairValue(spec.slug, 700);
    const cheap = ok(engine.place(limit(spec, ALICE, 'NO', 'BUY', 400, 10))).order; // YES ask at 0.600, fair 0.700
    const fair = ok(engine.place(limit(spec, ALICE, 'NO', 'BUY', 302, 10))).order; // YES ask at 0.698: inside the edge
    run(engine, clock, 30);
    expect(engine.orderById(cheap.id)?.status).toBe('MATCHED');
    expect(engine.orderById(fair.id)?.status).toBe('LIVE');
    const fills = engine.accountTrades(ALICE);
    expect(fills.every((f) => f.counterpartyProfileId === BASE + 2)).toBe(true);
    expectSound(engine);
  });

  it('noise takers trade against the makers, and flow stops on resolved markets', () => {
    const { engine, clock } = synth(5, { noise: { ratePerMinute: 60 }, informed: { ratePerMinute: 0 } });
    const [m0] = engine.markets();
    engine.resolve(m0!.slug, { winningOutcomeIndex: 1 });
    run(engine, clock, 300);
    const counterparties = new Set(engine.accountTrades(BASE).map((f) => f.counterpartyProfileId));
    expect(counterparties).toEqual(new Set([BASE + 1]));
    expect(engine.trades([m0!.slug])).toEqual([]);
    expect(engine.book(m0!.slug)).toEqual({ bids: [], asks: [] });
    expectSound(engine);
  });

  it('steps itself from the clock when autoStep is on, and stop() ends it', () => {
    const clock = new ManualClock(T0);
    const engine = createEngine({ seed: 9, clock, settlementDelayMs: 100, markets: generateMarkets(2, 1, T0), accounts: [], synthetic: { stepMs: 500 } });
    clock.advance(5000);
    const placed = engine.stats().ordersPlaced;
    expect(placed).toBeGreaterThan(0);
    engine.stop();
    clock.advance(60_000);
    expect(engine.stats().ordersPlaced).toBe(placed);
    expect(clock.pending()).toBe(0);
  });

  it('keeps every invariant over twenty minutes of flow on many markets', () => {
    const { engine, clock } = synth(6, { noise: { ratePerMinute: 20 }, informed: { ratePerMinute: 20 }, fairValue: { jumpsPerHour: 5 } }, 8);
    for (let i = 0; i < 6; i += 1) {
      run(engine, clock, 200);
      expectSound(engine);
    }
    expect(engine.stats().tradesMined).toBeGreaterThan(100);
  });
});
