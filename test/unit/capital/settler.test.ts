/**
 * The Settler through its public entry (resolved / resume / stop) on a manual clock, a real in-memory ledger and a
 * scripted venue: what it reads, when it redeems, what it records, and how often it retries.
 */
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { FrameworkError, ValidationError } from '../../../src/exchange/errors.js';
import type { LedgerStore } from '../../../src/ledger/index.js';
import type { RedemptionResult } from '../../../src/metrics/metrics.js';
import { Settler, type SettlementApi } from '../../../src/capital/settler.js';
import { fillInput, memoryLedger, T0 } from '../../support/ledger-fixtures.js';

const SLUG = 'btc-100k';
const CONDITION = `0x${'ab'.repeat(32)}`;
const endpoint = { method: 'POST', pathTemplate: '/portfolio/redeem' } as const;
const notPosted = (): FrameworkError => new FrameworkError(400, endpoint, { message: 'Payout has not been posted on-chain yet', error: 'Bad Request', statusCode: 400 });

interface MarketState {
  winningOutcomeIndex: number | null;
  payoutNumerators: number[] | null;
}

/** A scripted venue: token balances per market, a market's resolution, and a redeem that fails until posted. */
class FakeVenue implements SettlementApi {
  readonly calls: string[] = [];
  balances = new Map<string, { yes: number; no: number }>();
  markets = new Map<string, MarketState>();
  posted = false;
  redeemError: Error | null = null;
  answer: Readonly<Record<string, unknown>> | null = null;

  getMarket(slug: string): Promise<{ slug: string; conditionId: string | null; winningOutcomeIndex: number | null; payoutNumerators: number[] | null }> {
    this.calls.push(`getMarket ${slug}`);
    const state = this.markets.get(slug) ?? { winningOutcomeIndex: null, payoutNumerators: null };
    return Promise.resolve({ slug, conditionId: CONDITION, ...state });
  }

  getPositions(): Promise<{ marketSlug: string; yesBalanceRaw: number; noBalanceRaw: number }[]> {
    this.calls.push('getPositions');
    return Promise.resolve([...this.balances].map(([marketSlug, b]) => ({ marketSlug, yesBalanceRaw: b.yes, noBalanceRaw: b.no })));
  }

  redeem(conditionId: string): Promise<Readonly<Record<string, unknown>> | null> {
    this.calls.push(`redeem ${conditionId}`);
    if (this.redeemError) return Promise.reject(this.redeemError);
    if (!this.posted) return Promise.reject(notPosted());
    const held = this.balances.get(SLUG) ?? { yes: 0, no: 0 };
    this.balances.set(SLUG, { yes: 0, no: 0 });
    return Promise.resolve(this.answer ?? { success: true, payout: String(held.yes) });
  }

  count(prefix: string): number {
    return this.calls.filter((call) => call.startsWith(prefix)).length;
  }
}

interface Rig {
  readonly venue: FakeVenue;
  readonly ledger: LedgerStore;
  readonly clock: ManualClock;
  readonly results: [string, RedemptionResult, number | undefined][];
  readonly pending: number[];
  settler(options?: { redeem?: 'auto' | 'off'; dryRun?: boolean; conditionIds?: Map<string, string | null> }): Settler;
  /** Moves the clock and lets the settler's async steps finish. */
  advance(ms: number): Promise<void>;
}

const open: LedgerStore[] = [];
afterEach(() => {
  for (const ledger of open.splice(0)) ledger.close();
});

function rig(): Rig {
  const clock = new ManualClock(T0);
  const ledger = memoryLedger({ now: () => clock.now() });
  open.push(ledger);
  const venue = new FakeVenue();
  const results: [string, RedemptionResult, number | undefined][] = [];
  const pending: number[] = [];
  const drain = async (): Promise<void> => {
    for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
  };
  return {
    venue,
    ledger,
    clock,
    results,
    pending,
    settler: (options = {}) =>
      new Settler({
        api: venue,
        ledger,
        scheduler: clock,
        log: pino({ level: 'silent' }),
        redeem: options.redeem ?? 'auto',
        dryRun: options.dryRun ?? false,
        retry: { initialMs: 1000, maxMs: 8000 },
        conditionIds: options.conditionIds ?? new Map([[SLUG, CONDITION]]),
        observer: { onResult: (market, result, amountRaw) => results.push([market, result, amountRaw]), onPending: (count) => pending.push(count) },
      }),
    advance: async (ms) => {
      await drain();
      clock.advance(ms);
      await drain();
    },
  };
}

/** The ledger holds 10 YES (cost 5 USDC) and 4 NO of SLUG; the venue holds the same. */
function holdTokens(r: Rig): void {
  r.ledger.recordFill(fillInput({ tradeEventId: 't1', token: 'YES', tokenId: '111', sizeRaw: 10_000_000, priceTicks: 500 }));
  r.ledger.recordFill(fillInput({ tradeEventId: 't2', orderId: 'order-2', token: 'NO', tokenId: '222', sizeRaw: 4_000_000, priceTicks: 400 }));
  r.venue.balances.set(SLUG, { yes: 10_000_000, no: 4_000_000 });
}

describe('Settler', () => {
  it('records the resolution, retries while the payout is not posted, then redeems once and records the payout', async () => {
    const r = rig();
    holdTokens(r);
    const settler = r.settler();
    settler.resolved(SLUG, 0, T0);
    expect(r.ledger.getResolution(SLUG)).toMatchObject({ winningOutcomeIndex: 0 });
    await r.advance(0);
    expect(r.venue.count('redeem')).toBe(1);
    expect(settler.pending()).toEqual([SLUG]);
    // Backoff: 1 s, 2 s, 4 s, then capped at 8 s.
    await r.advance(999);
    expect(r.venue.count('redeem')).toBe(1);
    await r.advance(1);
    expect(r.venue.count('redeem')).toBe(2);
    await r.advance(2000);
    expect(r.venue.count('redeem')).toBe(3);
    r.venue.posted = true;
    await r.advance(4000);
    expect(r.venue.count('redeem')).toBe(4);
    expect(settler.pending()).toEqual([]);
    expect(r.ledger.settlement(SLUG)).toEqual({ payoutRaw: 10_000_000, redeemedRaw: 10_000_000, receivableRaw: 0 });
    expect(r.results.filter(([, result]) => result === 'retry')).toHaveLength(3);
    expect(r.results.at(-1)).toEqual([SLUG, 'redeemed', 10_000_000]);
    expect(r.pending.at(-1)).toBe(0);
    // Nothing runs afterwards.
    await r.advance(60_000);
    expect(r.venue.count('redeem')).toBe(4);
  });

  it('reads a split resolution from the venue when the frame names no winner', async () => {
    const r = rig();
    holdTokens(r);
    r.venue.markets.set(SLUG, { winningOutcomeIndex: null, payoutNumerators: [1, 1] });
    r.venue.posted = true;
    r.venue.answer = { success: true };
    r.settler().resolved(SLUG, null, T0);
    await r.advance(0);
    expect(r.ledger.getResolution(SLUG)).toMatchObject({ winningOutcomeIndex: null, payoutYes: 1, payoutNo: 1 });
    // No payout figure in the answer: the amount computed from the venue's balances (5 + 2 USDC) is recorded.
    expect(r.ledger.settlement(SLUG)?.redeemedRaw).toBe(7_000_000);
  });

  it('stops for the whole account on 403 and leaves the payout receivable', async () => {
    const r = rig();
    holdTokens(r);
    r.venue.redeemError = new FrameworkError(403, endpoint, { message: 'only server-managed wallets', error: 'Forbidden', statusCode: 403 });
    const settler = r.settler();
    settler.resolved(SLUG, 0, T0);
    await r.advance(0);
    expect(r.results).toEqual([[SLUG, 'refused', undefined]]);
    expect(settler.pending()).toEqual([]);
    // Another market resolving later is not even tried.
    r.ledger.recordFill(fillInput({ tradeEventId: 't3', orderId: 'order-3', marketSlug: 'eth-5k', tokenId: '333', sizeRaw: 1_000_000 }));
    settler.resolved('eth-5k', 0, T0);
    await r.advance(60_000);
    expect(r.venue.count('redeem')).toBe(1);
    expect(r.ledger.settlement(SLUG)?.receivableRaw).toBe(10_000_000);
  });

  it('gives a market up on a validation error instead of retrying forever', async () => {
    const r = rig();
    holdTokens(r);
    r.venue.redeemError = new ValidationError(400, endpoint, { message: [{ field: 'conditionId', message: 'invalid' }], error: 'Bad Request', statusCode: 400 });
    const settler = r.settler();
    settler.resolved(SLUG, 1, T0);
    await r.advance(60_000);
    expect(r.venue.count('redeem')).toBe(1);
    expect(r.results).toEqual([[SLUG, 'failed', undefined]]);
    expect(settler.pending()).toEqual([]);
  });

  it('does not redeem with only losing tokens on the venue', async () => {
    const r = rig();
    holdTokens(r);
    r.venue.balances.set(SLUG, { yes: 0, no: 4_000_000 });
    r.venue.posted = true;
    r.settler().resolved(SLUG, 0, T0);
    await r.advance(0);
    expect(r.venue.count('redeem')).toBe(0);
    expect(r.results).toEqual([[SLUG, 'nothing', undefined]]);
  });

  it('a restart after a redemption whose answer was lost records the payout once, without redeeming again', async () => {
    const r = rig();
    holdTokens(r);
    r.ledger.recordResolution(SLUG, { winningOutcomeIndex: 0 }, T0);
    // The previous run's redeem went through but it died before the ledger write: the venue holds nothing now.
    r.venue.balances.delete(SLUG);
    const settler = r.settler();
    settler.resume(new Set());
    await r.advance(0);
    expect(r.venue.count('redeem')).toBe(0);
    expect(r.results).toEqual([[SLUG, 'inferred', 10_000_000]]);
    expect(r.ledger.settlement(SLUG)?.receivableRaw).toBe(0);
    // A second restart finds nothing to do.
    r.settler().resume(new Set());
    await r.advance(0);
    expect(r.venue.calls.filter((c) => c === 'getPositions')).toHaveLength(1);
  });

  it('at start-up, settles a held market that resolved while the bot was down, and leaves open ones alone', async () => {
    const r = rig();
    holdTokens(r);
    r.ledger.recordFill(fillInput({ tradeEventId: 't9', orderId: 'order-9', marketSlug: 'still-open', tokenId: '999', sizeRaw: 1_000_000 }));
    r.venue.markets.set(SLUG, { winningOutcomeIndex: 0, payoutNumerators: null });
    r.venue.posted = true;
    const settler = r.settler({ conditionIds: new Map() });
    settler.resume(new Set(['traded-now']));
    await r.advance(0);
    expect(r.ledger.getResolution(SLUG)).toMatchObject({ winningOutcomeIndex: 0 });
    expect(r.ledger.settlement(SLUG)?.redeemedRaw).toBe(10_000_000);
    expect(r.ledger.getResolution('still-open')).toBeNull();
    expect(r.venue.count('getMarket still-open')).toBe(1);
    expect(settler.pending()).toEqual([]);
    await r.advance(60_000);
    expect(r.venue.count('getMarket still-open')).toBe(1);
  });

  it('with redemption off or in a dry run, records the resolution but sends no redeem', async () => {
    for (const options of [{ redeem: 'off' as const }, { dryRun: true }]) {
      const r = rig();
      holdTokens(r);
      r.venue.posted = true;
      const settler = r.settler(options);
      settler.resolved(SLUG, 0, T0);
      await r.advance(0);
      expect(r.venue.count('redeem'), JSON.stringify(options)).toBe(0);
      expect(r.ledger.settlement(SLUG)?.receivableRaw).toBe(10_000_000);
      expect(settler.pending()).toEqual([]);
    }
  });

  it('stop() cancels pending retries', async () => {
    const r = rig();
    holdTokens(r);
    const settler = r.settler();
    settler.resolved(SLUG, 0, T0);
    await r.advance(0);
    settler.stop();
    await r.advance(60_000);
    expect(r.venue.count('redeem')).toBe(1);
    expect(settler.pending()).toEqual([]);
  });
});
