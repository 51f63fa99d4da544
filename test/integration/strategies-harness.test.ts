/**
 * The backtest harness's mechanics, with scripted strategies on the real engine: what reaches the engine,
 * the request model's timing, fills into the books, the gate's trims and halts, and a strategy's failures
 * (thrown errors, invalid intents) counted without stopping the run.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest, type BacktestOptions } from '../../src/backtest/index.js';
import type { QuoteIntent, StrategyModule } from '../../src/strategy/contract.js';
import type { AccountFill } from '../../src/sim/engine/index.js';
import { rewardableMarkets, SHARES, T0 } from './strategies-fixtures.js';

const emptyParams = z.object({}).strict();

function scripted(name: string, quote: (now: number) => QuoteIntent[]): StrategyModule<z.infer<typeof emptyParams>> {
  return { name, description: 'test script', paramsSchema: emptyParams, create: () => ({ quote: (view) => quote(view.now) }) };
}

/** BUY YES at 0.400 and BUY NO at 0.400 (a YES ask at 0.600), `shares` each. */
const twoSided = (shares = 10): QuoteIntent[] => [
  { slot: 'bid-0', token: 'YES', side: 'BUY', priceTicks: 400, sizeRaw: shares * SHARES, postOnly: true },
  { slot: 'ask-0', token: 'NO', side: 'BUY', priceTicks: 400, sizeRaw: shares * SHARES, postOnly: true },
];

const QUIET = { makers: { enabled: false }, noise: { ratePerMinute: 0 }, informed: { ratePerMinute: 0 } } as const;
const NOISY = { makers: { enabled: false }, noise: { ratePerMinute: 30, minSizeRaw: 2 * SHARES, maxSizeRaw: 5 * SHARES }, informed: { ratePerMinute: 0 } } as const;

function base(module: StrategyModule<z.infer<typeof emptyParams>>, overrides: Partial<BacktestOptions<z.infer<typeof emptyParams>>>): BacktestOptions<z.infer<typeof emptyParams>> {
  return { strategy: { module }, seed: 1, startMs: T0, durationMs: 10_000, stepMs: 1000, markets: rewardableMarkets(1), synthetic: QUIET, capital: { enabled: false }, ...overrides }; // the harness's own figures: no merge or redemption moves the holdings
}

describe('backtest harness', () => {
  it('places exactly the intents once and keeps them (zero latency): no churn when nothing changes', async () => {
    const result = await runBacktest(base(scripted('fixed', () => twoSided()), { latency: { oneWayMs: 0, minRequestSpacingMs: 0 } }));
    // Both placements share one cancel-replace request (cross-market batches, on by default: placement operations).
    expect(result.requests).toEqual({ placements: 2, cancelRequests: 0, cancels: 0, total: 2, sent: 1, withheld: 0, rejectedPlacements: 0, rejectedByCode: {} });
    expect(result.quotingFraction).toBe(1);
    expect(result.twoSidedFraction).toBe(1);
    expect(result.fills).toBe(0);
    expect(result.pnlRaw).toBe(0);
    expect(result.counters.quoteCycles).toBeGreaterThanOrEqual(2); // the first, then the periodic requote at 5 s
  });

  it('follows the request model: placements go one at a time, each acting one way after it starts', async () => {
    // Without cross-market batches: placement 1 starts at 0, lands at 0.5 s, answered at 1 s; placement 2 then starts
    // at 1 s and lands at 1.5 s.
    const result = await runBacktest(base(scripted('fixed', () => twoSided()), { latency: { oneWayMs: 500, minRequestSpacingMs: 320, maxConcurrent: 2 }, crossMarketBatches: false }));
    expect([result.requests.placements, result.requests.sent]).toEqual([2, 2]);
    // Sampled each second: t=0 nothing rests, t=1 one side, t=2..9 both.
    expect(result.quotingFraction).toBeCloseTo(9 / 10, 10);
    expect(result.twoSidedFraction).toBeCloseTo(8 / 10, 10);
  });

  it('with cross-market batches (the default) both placements go in one request, acting one way after it starts', async () => {
    // One cancel-replace request of two placement operations: starts at 0, lands at 0.5 s; both sides rest from then.
    const result = await runBacktest(base(scripted('fixed', () => twoSided()), { latency: { oneWayMs: 500, minRequestSpacingMs: 320, maxConcurrent: 2 } }));
    expect([result.requests.placements, result.requests.sent]).toEqual([2, 1]);
    // Sampled each second: t=0 nothing rests, t=1..9 both.
    expect(result.quotingFraction).toBeCloseTo(9 / 10, 10);
    expect(result.twoSidedFraction).toBeCloseTo(9 / 10, 10);
  });

  it('books every fill at the maker price, exactly, and values the holding at the fair value', async () => {
    const fills: AccountFill[] = [];
    const result = await runBacktest(base(scripted('fixed', () => twoSided()), { durationMs: 120_000, synthetic: NOISY, observer: { onFill: (f) => fills.push(f) } }));
    expect(result.fills).toBeGreaterThan(0);
    expect(fills).toHaveLength(result.fills);
    for (const fill of fills) {
      expect(fill.role).toBe('MAKER');
      expect(fill.side).toBe('BUY');
      expect(fill.priceTicks).toBe(400);
      expect(fill.collateralRaw).toBe((fill.sizeRaw * 400) / 1000);
    }
    const volume = fills.reduce((sum, f) => sum + f.collateralRaw, 0);
    expect(result.volumeRaw).toBe(volume);
    expect(result.feesRaw).toBe(0);
    // Only BUYs: nothing realized; the holding (pairs at 1, the rest at the fair value) against its cost.
    expect(result.realizedRaw).toBe(0);
    const market = result.markets[0]!;
    const yes = fills.filter((f) => f.outcome === 'YES').reduce((s, f) => s + f.sizeRaw, 0);
    const no = fills.filter((f) => f.outcome === 'NO').reduce((s, f) => s + f.sizeRaw, 0);
    expect([market.finalYesRaw, market.finalNoRaw]).toEqual([yes, no]);
    const pairs = Math.min(yes, no);
    const value = pairs + ((yes - pairs) * market.finalFairTicks + (no - pairs) * (1000 - market.finalFairTicks)) / 1000;
    expect(result.pnlRaw).toBe(Math.round(value) - volume);

  });

  it('marks every fill against the hidden fair value 1 s, 10 s, 60 s and 5 min later', async () => {
    // A still fair value (no drift, no jumps) makes every markout known in advance: (fair − 0.400)·shares for a YES
    // bid, (0.600 − fair)·shares for a YES ask (BUY NO at 0.400).
    const still = { ...NOISY, fairValue: { volatilityPerSqrtHour: 0, jumpsPerHour: 0 } };
    const fills: AccountFill[] = [];
    const options = base(scripted('fixed', () => twoSided()), { durationMs: 120_000, synthetic: still, observer: { onFill: (f) => fills.push(f) } });
    const result = await runBacktest(options);
    expect((await runBacktest({ ...options, observer: {} })).markouts).toEqual(result.markouts); // deterministic
    const market = result.markets[0]!;
    const fair = market.finalFairTicks / 1000;
    const end = T0 + 120_000;
    expect(fills.length).toBeGreaterThan(0);
    for (const horizonMs of [1_000, 10_000, 60_000, 300_000]) {
      const known = fills.filter((f) => f.matchedAtMs + horizonMs <= end);
      const expected = known.reduce((sum, f) => sum + (f.outcome === 'YES' ? fair - 0.4 : 0.6 - fair) * (f.sizeRaw / 1e6), 0);
      const h = result.markouts.find((x) => x.horizonMs === horizonMs)!;
      expect(h.fills).toBe(known.length);
      expect(h.totalUsdc).toBeCloseTo(expected, 9);
    }
    expect(result.markouts.find((h) => h.horizonMs === 300_000)!.fills).toBe(0); // a 2-minute run cannot know
    expect(market.markouts).toEqual(result.markouts);
  });

  it('trims an intent to the room under the position limit, so holdings never pass it', async () => {
    let worst = 0;
    const result = await runBacktest(
      base(scripted('greedy', () => twoSided(1000)), {
        durationMs: 300_000,
        synthetic: NOISY,
        risk: { maxPositionPerTokenRaw: 8 * SHARES, maxNetPositionRaw: 1000 * SHARES },
        observer: { onFill: (_f, h) => (worst = Math.max(worst, h.yesRaw, h.noRaw)) },
      }),
    );
    expect(result.counters.riskTrims['max-position']).toBeGreaterThan(0);
    expect(worst).toBeLessThanOrEqual(8 * SHARES);
    expect(result.maxTokenRaw).toBe(worst);
    expect(result.fills).toBeGreaterThan(0);
  });

  it('halts before expiry: cancels the quotes and places nothing more', async () => {
    const [market] = rewardableMarkets(1);
    const expiring = { ...market!, expirationMs: T0 + 3_600_000 };
    // Stop 1 h − 30 s before expiry: quoting halts 30 s into the run.
    const result = await runBacktest(
      base(scripted('fixed', () => twoSided()), {
        durationMs: 60_000,
        markets: [expiring],
        latency: { oneWayMs: 0, minRequestSpacingMs: 0 },
        risk: { stopBeforeExpiryMs: 3_600_000 - 30_000 },
      }),
    );
    expect(result.counters.riskDrops['near-expiry']).toBeGreaterThan(0);
    expect(result.requests.placements).toBe(2);
    expect(result.requests.cancels).toBe(2);
    // Quoted until the first quote cycle at or after 30 s (cycles come at least every requote interval, 5 s).
    expect(result.twoSidedFraction).toBeGreaterThanOrEqual(30 / 60);
    expect(result.twoSidedFraction).toBeLessThanOrEqual(35 / 60);
  });

  it('counts a throwing strategy and invalid intents, places nothing from them, and keeps running', async () => {
    const throwing = await runBacktest(
      base(
        scripted('throws', () => {
          throw new Error('boom');
        }),
        {},
      ),
    );
    expect(throwing.counters.strategyErrors).toBe(throwing.counters.quoteCycles);
    expect(throwing.requests.total).toBe(0);
    expect(throwing.steps).toBe(10);

    const offGrid = await runBacktest(base(scripted('off-grid', () => [{ slot: 'bid-0', token: 'YES', side: 'BUY', priceTicks: 400.5, sizeRaw: SHARES }, ...twoSided().slice(1)]), {}));
    expect(offGrid.counters.invalidIntents).toBeGreaterThan(0);
    expect(offGrid.requests.placements).toBe(1); // only the valid ask
  });
});
