import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { ManualClock, createEngine, generateMarkets } from '../../../src/sim/engine/index.js';
import { Prng } from '../../../src/sim/engine/prng.js';
import { T0, account } from './helpers.js';

describe('generateMarkets', () => {
  it('is deterministic and makes distinct, well-formed markets with one NegRisk group', () => {
    const a = generateMarkets(12, 3, T0);
    expect(generateMarkets(12, 3, T0)).toEqual(a);
    expect(generateMarkets(12, 4, T0)).not.toEqual(a);
    for (const key of ['id', 'slug', 'conditionId', 'yesTokenId', 'noTokenId'] as const) {
      expect(new Set(a.map((m) => m[key])).size).toBe(12);
    }
    for (const m of a) {
      expect(m.conditionId).toMatch(/^0x[0-9a-f]{64}$/);
      expect(m.yesTokenId).toMatch(/^[0-9]+$/);
      expect(getAddress(m.venue.exchange)).toBe(m.venue.exchange);
      expect(getAddress(m.venue.adapter)).toBe(m.venue.adapter);
      expect(m.expirationMs).toBeGreaterThan(T0);
    }
    const grouped = a.filter((m) => m.groupSlug !== undefined);
    expect(grouped).toHaveLength(3);
    expect(new Set(grouped.map((m) => m.groupSlug)).size).toBe(1);
    expect(generateMarkets(1, 1, T0).filter((m) => m.groupSlug)).toHaveLength(0);
    expect(generateMarkets(2, 1, T0).filter((m) => m.groupSlug)).toHaveLength(2);
    expect(() => generateMarkets(-1, 1, T0)).toThrow(RangeError);
  });

  it('feeds an engine without configuration errors', () => {
    const engine = createEngine({ seed: 1, clock: new ManualClock(T0), settlementDelayMs: 0, markets: generateMarkets(50, 9, T0), accounts: [account(1)] });
    expect(engine.markets()).toHaveLength(50);
    expect(engine.groups()).toHaveLength(1);
  });
});

describe('engine configuration errors', () => {
  const markets = generateMarkets(2, 1, T0);
  const base = { seed: 1, clock: new ManualClock(T0), settlementDelayMs: 0, markets, accounts: [account(1)] };
  it.each([
    ['duplicate slug', { markets: [markets[0]!, { ...markets[1]!, slug: markets[0]!.slug }] }, /duplicate slug/],
    ['bad condition id', { markets: [{ ...markets[0]!, conditionId: '0x12' }] }, /conditionId/],
    ['duplicate profile', { accounts: [account(1), account(1)] }, /duplicate profileId/],
    ['bad address', { accounts: [{ ...account(1), address: 'nope' }] }, /not an address/],
    ['unknown token grant', { accounts: [{ ...account(1), tokens: { '123': 1 } }] }, /belongs to no market/],
    ['bad band', { priceBand: { minTicks: 0, maxTicks: 999 } }, /priceBand/],
    ['negative delay', { settlementDelayMs: -1 }, /settlementDelayMs/],
    ['unknown synthetic key', { synthetic: JSON.parse('{"bogus": 1}') as object }, /synthetic/],
    ['unknown synthetic market', { synthetic: { markets: ['nope'] } }, /synthetic.markets/],
  ])('rejects %s', (_name, override, message) => {
    expect(() => createEngine({ ...base, ...override })).toThrow(message);
  });
});

describe('ManualClock', () => {
  it('runs due tasks in time order, never early, never when cancelled', () => {
    const clock = new ManualClock(100);
    const ran: string[] = [];
    clock.schedule(50, () => ran.push('b'));
    clock.schedule(10, () => {
      ran.push('a');
      clock.schedule(5, () => ran.push('a2'));
    });
    const cancel = clock.schedule(20, () => ran.push('x'));
    clock.schedule(50, () => ran.push('c'));
    cancel();
    clock.advance(49);
    expect(ran).toEqual(['a', 'a2']);
    expect(clock.now()).toBe(149);
    clock.advance(1);
    expect(ran).toEqual(['a', 'a2', 'b', 'c']);
    expect(clock.pending()).toBe(0);
  });
});

describe('Prng', () => {
  it('is deterministic per seed and makes v4 UUIDs', () => {
    const a = new Prng(5);
    const b = new Prng(5);
    const xs = Array.from({ length: 100 }, () => a.float());
    expect(Array.from({ length: 100 }, () => b.float())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Prng(6).float()).not.toBe(xs[0]);
    for (let i = 0; i < 50; i += 1) expect(a.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const ints = Array.from({ length: 1000 }, () => a.int(3, 7));
    expect(Math.min(...ints)).toBe(3);
    expect(Math.max(...ints)).toBe(7);
  });
});

describe('ManualClock ordering at scale', () => {
  it('runs many tasks in (due, scheduling) order', () => {
    const clock = new ManualClock(0);
    const rng = new Prng(3);
    const expected: [number, number][] = [];
    const ran: [number, number][] = [];
    const cancels: (() => void)[] = [];
    for (let i = 0; i < 2000; i += 1) {
      const due = rng.int(0, 500);
      const cancel = clock.schedule(due, () => ran.push([due, i]));
      if (i % 7 === 0) cancels.push(cancel);
      else expected.push([due, i]);
    }
    for (const c of cancels) c();
    expect(clock.pending()).toBe(expected.length);
    clock.advance(500);
    expected.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    expect(ran).toEqual(expected);
    expect(clock.pending()).toBe(0);
  });
});
