/**
 * Randomized invariant test: thousands of random placements (all types, both tokens, both sides, STP
 * policies, post-only), cancels, batch cancels and clock moves across several accounts and two markets.
 * After every few commands the book and the money must be sound, checked both by the engine's own audit
 * and independently from public reads only.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SIZE_STEP_RAW, type Outcome, type Side, limitOrderAmounts, marketOrderAmounts } from '../../../src/core/venue-rules/index.js';
import { createEngine, generateMarkets, ManualClock, type MarketSpec, type OrderType, type PlaceInput, type SimEngine, type StpPolicy } from '../../../src/sim/engine/index.js';
import { Prng } from '../../../src/sim/engine/prng.js';
import { SHARE, T0, USDC, account } from './helpers.js';

const PROFILES = [11, 12, 13, 14, 15];
const START_USDC = 300;
const START_PAIRS = 40;

type Command =
  | { kind: 'place'; p: number; m: number; outcome: Outcome; side: Side; type: OrderType; ticks: number; steps: number; postOnly: boolean; stp: StpPolicy }
  | { kind: 'fok'; p: number; m: number; outcome: Outcome; side: Side; amount: number; stp: StpPolicy }
  | { kind: 'cancel'; p: number; pick: number; asOther: boolean }
  | { kind: 'cancelAll'; p: number; m: number }
  | { kind: 'batch'; p: number; m: number; count: number }
  | { kind: 'advance'; ms: number };

interface Sim {
  readonly engine: SimEngine;
  readonly clock: ManualClock;
  readonly markets: readonly MarketSpec[];
  /** Independent bookkeeping: USDC that entered plus pairs granted (each pair backed by 1 USDC). */
  readonly collateralIn: number;
}

function setup(): Sim {
  const clock = new ManualClock(T0);
  const markets = generateMarkets(2, 77, T0).map((m) => ({ ...m, groupSlug: undefined as never }));
  const plain = markets.map(({ groupSlug: _g, groupTitle: _t, negRiskRequestId: _n, ...rest }) => rest);
  const accounts = PROFILES.map((p) => {
    const tokens: Record<string, number> = {};
    for (const m of plain) {
      tokens[m.yesTokenId] = START_PAIRS * SHARE;
      tokens[m.noTokenId] = START_PAIRS * SHARE;
    }
    return account(p, START_USDC, { tokens, feeRateBps: p % 2 === 0 ? 300 : 0 });
  });
  const engine = createEngine({ seed: 5, clock, settlementDelayMs: 1500, markets: plain, accounts });
  const collateralIn = PROFILES.length * START_USDC * USDC + PROFILES.length * plain.length * START_PAIRS * SHARE;
  return { engine, clock, markets: plain, collateralIn };
}

function apply(sim: Sim, cmd: Command): void {
  const { engine, markets } = sim;
  switch (cmd.kind) {
    case 'place': {
      const m = markets[cmd.m]!;
      const size = cmd.steps * SIZE_STEP_RAW;
      const amounts = limitOrderAmounts(cmd.side, cmd.ticks, size);
      engine.place(input(engine, m, cmd.p, cmd.outcome, cmd.side, cmd.type, cmd.ticks, amounts.makerAmount, amounts.takerAmount, cmd.postOnly, cmd.stp));
      break;
    }
    case 'fok': {
      const m = markets[cmd.m]!;
      const amount = cmd.side === 'SELL' ? Math.max(1, Math.round(cmd.amount / SIZE_STEP_RAW)) * SIZE_STEP_RAW : cmd.amount;
      const amounts = marketOrderAmounts(amount);
      engine.place(input(engine, m, cmd.p, cmd.outcome, cmd.side, 'FOK', null, amounts.makerAmount, amounts.takerAmount, false, cmd.stp));
      break;
    }
    case 'cancel': {
      const live = markets.flatMap((m) => engine.orders(cmd.p, m.slug, ['LIVE']));
      const target = live[cmd.pick % Math.max(1, live.length)];
      if (target) {
        const r = engine.cancel(cmd.asOther ? cmd.p + 1 : cmd.p, target.id);
        expect(r.ok).toBe(!cmd.asOther);
      }
      break;
    }
    case 'cancelAll':
      engine.cancelAll(cmd.p, markets[cmd.m]!.slug);
      break;
    case 'batch': {
      const live = engine.orders(cmd.p, markets[cmd.m]!.slug, ['LIVE', 'CANCELED'], cmd.count);
      if (live.length > 0) engine.cancelBatch(cmd.p, live.map((o) => o.id));
      break;
    }
    case 'advance':
      sim.clock.advance(cmd.ms);
      break;
  }
}

function input(
  engine: SimEngine,
  m: MarketSpec,
  profileId: number,
  outcome: Outcome,
  side: Side,
  orderType: OrderType,
  priceTicks: number | null,
  makerAmount: number,
  takerAmount: number,
  postOnly: boolean,
  stpPolicy: StpPolicy,
): PlaceInput {
  return {
    profileId,
    marketSlug: m.slug,
    orderType,
    tokenId: outcome === 'YES' ? m.yesTokenId : m.noTokenId,
    side,
    makerAmount,
    takerAmount,
    priceTicks,
    feeRateBps: engine.account(profileId)?.feeRateBps ?? 0,
    salt: 1,
    postOnly: postOnly && orderType === 'GTC',
    stpPolicy,
    signature: '0x',
    signedOrderEcho: {},
  };
}

/** Soundness from public reads only, independent of the engine's own audit. */
function checkFromOutside(sim: Sim): void {
  const { engine, markets } = sim;
  let usdcTotal = 0;
  for (const p of PROFILES) {
    const b = engine.balances(p)!;
    usdcTotal += b.usdc.totalRaw;
    expect(b.usdc.totalRaw).toBeGreaterThanOrEqual(0);
    expect(b.usdc.lockedRaw).toBeGreaterThanOrEqual(0);
    expect(b.usdc.lockedRaw).toBeLessThanOrEqual(b.usdc.totalRaw);
    let usdcNeed = 0;
    for (const m of markets) {
      const live = engine.orders(p, m.slug, ['LIVE']);
      for (const token of [m.yesTokenId, m.noTokenId]) {
        const t = b.tokens[token]!;
        expect(t.totalRaw).toBeGreaterThanOrEqual(0);
        expect(t.lockedRaw).toBeLessThanOrEqual(t.totalRaw);
        const need = live.filter((o) => o.side === 'SELL' && o.tokenId === token).reduce((s, o) => s + o.remainingSizeRaw, 0);
        expect(t.lockedRaw).toBe(need);
      }
      usdcNeed += live.filter((o) => o.side === 'BUY').reduce((s, o) => s + (o.remainingSizeRaw / 1000) * (o.priceTicks ?? 0), 0);
    }
    expect(b.usdc.lockedRaw).toBe(usdcNeed);
    expect(engine.accountTrades(p).filter((f) => f.counterpartyProfileId === p)).toEqual([]);
  }
  let pairSupply = 0;
  for (const m of markets) {
    const book = engine.book(m.slug)!;
    if (book.bids.length > 0 && book.asks.length > 0) expect(book.bids[0]!.priceTicks).toBeLessThan(book.asks[0]!.priceTicks);
    let yes = 0;
    let no = 0;
    for (const p of PROFILES) {
      yes += engine.balances(p)!.tokens[m.yesTokenId]!.totalRaw;
      no += engine.balances(p)!.tokens[m.noTokenId]!.totalRaw;
    }
    expect(yes).toBe(no);
    pairSupply += yes;
  }
  expect(usdcTotal + engine.stats().feesCollectedRaw + pairSupply).toBe(sim.collateralIn);
}

const profileArb = fc.constantFrom(...PROFILES);
const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      p: profileArb,
      m: fc.integer({ min: 0, max: 1 }),
      outcome: fc.constantFrom<Outcome>('YES', 'NO'),
      side: fc.constantFrom<Side>('BUY', 'SELL'),
      type: fc.constantFrom<OrderType>('GTC', 'GTC', 'GTC', 'FAK'),
      ticks: fc.integer({ min: 440, max: 560 }),
      steps: fc.integer({ min: 1, max: 15_000 }),
      postOnly: fc.boolean(),
      stp: fc.constantFrom<StpPolicy>('cancel_maker', 'cancel_taker', 'cancel_both'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('fok' as const),
      p: profileArb,
      m: fc.integer({ min: 0, max: 1 }),
      outcome: fc.constantFrom<Outcome>('YES', 'NO'),
      side: fc.constantFrom<Side>('BUY', 'SELL'),
      amount: fc.integer({ min: 1, max: 8 * USDC }),
      stp: fc.constantFrom<StpPolicy>('cancel_maker', 'cancel_taker', 'cancel_both'),
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('cancel' as const), p: profileArb, pick: fc.nat(), asOther: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelAll' as const), p: profileArb, m: fc.integer({ min: 0, max: 1 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('batch' as const), p: profileArb, m: fc.integer({ min: 0, max: 1 }), count: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 3000 }) }) },
);

describe('randomized invariants', () => {
  it('holds every invariant over random command sequences (fast-check, seeded)', () => {
    fc.assert(
      fc.property(fc.array(commandArb, { minLength: 100, maxLength: 400 }), (cmds) => {
        const sim = setup();
        cmds.forEach((cmd, i) => {
          apply(sim, cmd);
          if (i % 5 === 0) {
            expect(sim.engine.checkInvariants()).toEqual([]);
            checkFromOutside(sim);
          }
        });
        sim.clock.advance(10_000);
        expect(sim.engine.checkInvariants()).toEqual([]);
        checkFromOutside(sim);
        const matched = sim.engine.stats().tradesMatched;
        expect(sim.engine.stats().tradesMined).toBe(matched);
      }),
      { seed: 20260101, numRuns: 12 },
    );
  });

  it('holds every invariant over a long seeded run and actually trades', () => {
    const sim = setup();
    const rng = new Prng(99);
    const outcomes: Outcome[] = ['YES', 'NO'];
    const sides: Side[] = ['BUY', 'SELL'];
    const policies: StpPolicy[] = ['cancel_maker', 'cancel_taker', 'cancel_both'];
    for (let i = 0; i < 5000; i += 1) {
      const p = PROFILES[rng.int(0, PROFILES.length - 1)]!;
      const roll = rng.float();
      let cmd: Command;
      if (roll < 0.6) {
        cmd = {
          kind: 'place', p, m: rng.int(0, 1), outcome: outcomes[rng.int(0, 1)]!, side: sides[rng.int(0, 1)]!,
          type: rng.chance(0.8) ? 'GTC' : 'FAK', ticks: rng.int(430, 570), steps: rng.int(1, 12_000), postOnly: rng.chance(0.3), stp: policies[rng.int(0, 2)]!,
        };
      } else if (roll < 0.7) {
        cmd = { kind: 'fok', p, m: rng.int(0, 1), outcome: outcomes[rng.int(0, 1)]!, side: sides[rng.int(0, 1)]!, amount: rng.int(1, 6 * USDC), stp: policies[rng.int(0, 2)]! };
      } else if (roll < 0.92) {
        cmd = { kind: 'cancel', p, pick: rng.int(0, 1000), asOther: rng.chance(0.1) };
      } else if (roll < 0.95) {
        cmd = { kind: 'batch', p, m: rng.int(0, 1), count: rng.int(1, 4) };
      } else {
        cmd = { kind: 'advance', ms: rng.int(0, 2000) };
      }
      apply(sim, cmd);
      if (i % 50 === 0) {
        expect(sim.engine.checkInvariants()).toEqual([]);
        checkFromOutside(sim);
      }
    }
    sim.clock.advance(10_000);
    expect(sim.engine.checkInvariants()).toEqual([]);
    checkFromOutside(sim);
    const stats = sim.engine.stats();
    expect(stats.ordersPlaced).toBeGreaterThan(2000);
    expect(stats.tradesMatched).toBeGreaterThan(300);
    expect(stats.tradesMined).toBe(stats.tradesMatched);
    expect(stats.feesCollectedRaw).toBeGreaterThan(0);
    const kinds = new Set(PROFILES.flatMap((p) => sim.engine.accountTrades(p).map((f) => f.kind)));
    expect(kinds).toEqual(new Set(['TRANSFER', 'MINT', 'MERGE']));
  });
});
