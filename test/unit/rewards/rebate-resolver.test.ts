/**
 * The rebate resolver (src/rewards/rebate-resolver.ts) on a real temp SQLite ledger: a maker fill's prior estimate is
 * replaced once by the trade-resolved one (a complementary match: the taker bought the other token), a restart
 * neither re-resolves nor double-books, the feed is read no more often than its cache and only as far back as the
 * pending fills, a fill never found keeps its prior estimate and is counted unmatched, bad feed elements are counted,
 * and the reconciliation says how many fills were resolved. Also the pure match (src/rewards/rebate-match.ts).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { matchFillsToTrades, type FeedTrade } from '../../../src/rewards/rebate-match.js';
import { RebateResolver, type TradeFeedPage } from '../../../src/rewards/rebate-resolver.js';
import { DEFAULT_FEE_CURVE } from '../../../src/core/venue-rules/index.js';
import { openLedger, type LedgerStore } from '../../../src/ledger/store.js';
import type { PendingRebate } from '../../../src/ledger/index.js';
import { estimateMakerRebate } from '../../../src/strategy/rebates.js';
import { fillInput, makeTempDir, T0 } from '../../support/ledger-fixtures.js';

const temp = makeTempDir('rebate-resolver-');
afterAll(() => temp.cleanup());

const SLUG = 'btc-above';
const RATE = 0.2;
const trade = (over: Partial<FeedTrade>): FeedTrade => ({ side: 'BUY', tokenId: 'yes', txHash: '0xaa', matchedSizeRaw: 5_000_000, createdAtMs: T0, ...over });

function fakeMetrics() {
  const seen = { resolved: [] as string[], skipped: 0, states: { pending: 0, trade: 0, unmatched: 0 } };
  return {
    seen,
    metrics: {
      rebateStates: (c: typeof seen.states) => void (seen.states = { ...c }),
      rebateResolved: (outcome: string, match: string, count = 1) => void (count > 0 && seen.resolved.push(`${outcome}:${match}:${count}`)),
      tradeFeedSkipped: (n: number) => void (seen.skipped += n),
    },
  };
}

/** Books a maker fill (a NO bid at 0.949, 5 shares) and its prior rebate estimate, as the accrual would. */
function bookFill(ledger: LedgerStore, id: string, txHash: string | null, atMs: number): number {
  ledger.recordFill(fillInput({ tradeEventId: id, orderId: `o-${id}`, marketSlug: SLUG, token: 'NO', tokenId: 'no', side: 'BUY', priceTicks: 949, sizeRaw: 5_000_000, atMs, txHash }));
  const fill = ledger.getFill({ tradeEventId: id, orderId: `o-${id}` });
  if (fill === null) throw new Error('fill not booked');
  const prior = estimateMakerRebate(fill as { side: 'BUY'; priceTicks: number; sizeRaw: number }, RATE, { takerBuyShare: 0.8 });
  expect(ledger.rewards.recordRebate({ fillId: fill.id, marketSlug: SLUG, strategy: 's', atMs, takerFeeBps: prior.takerFeeBps, feeSource: 'curve', takerFeeRaw: prior.takerFeeRaw, rebateRate: RATE, rebateRaw: prior.rebateRaw, priorShare: 0.8 })).toBe(true);
  return fill.id;
}

describe('rebate resolver', () => {
  it('books the trade-resolved estimate once, across a restart; reads the feed at most once per 30 s; gives up the old', async () => {
    const path = join(temp.dir, 'ledger.sqlite');
    const clock = new ManualClock(T0 + 10_000);
    let ledger = openLedger({ path, now: () => clock.now() });
    const complementary = bookFill(ledger, 't1', '0xaa', T0 + 1_000);
    const never = bookFill(ledger, 't2', '0xbb', T0 + 2_000);
    bookFill(ledger, 't3', null, T0 + 3_000); // not mined yet: not read for
    const reads: number[] = [];
    const feed: TradeFeedPage = {
      // The tx 0xaa holds two trades: a same-token one of another size, and the complementary one of the fill's size.
      trades: [trade({ side: 'SELL', tokenId: 'no', matchedSizeRaw: 9_000_000 }), trade({}), trade({ txHash: '0xcc', createdAtMs: T0 - 120_000 })],
      totalPages: 3,
      skipped: [{ message: 'events[3].side: bad (got 2)' }],
    };
    const read = (slug: string, page: number): Promise<TradeFeedPage> => {
      expect(slug).toBe(SLUG);
      reads.push(page);
      return Promise.resolve(feed);
    };
    const m = fakeMetrics();
    const log = { warn: () => undefined, info: () => undefined };
    const make = () => new RebateResolver({ read, ledger, scheduler: clock, markets: () => [SLUG], feeCurve: DEFAULT_FEE_CURVE, maxAgeMs: 600_000, maxPages: 5, metrics: m.metrics, log });

    let resolver = make();
    await resolver.poll();
    // One page: it reached back past the earliest pending fill (the oldest trade is 2 min before it).
    expect(reads).toEqual([1]);
    expect(m.seen.skipped).toBe(1);
    expect(m.seen.resolved).toEqual(['trade:complementary:1']);
    expect(m.seen.states).toEqual({ pending: 2, trade: 1, unmatched: 0 });
    const rows = () => ledger.db.prepare('SELECT fill_id, fee_source, resolution, taker_side, match_kind, taker_fee_raw, rebate_raw, prior_rebate_raw FROM maker_rebates ORDER BY fill_id').all();
    expect(rows()[0]).toEqual({ fill_id: complementary, fee_source: 'trade', resolution: 'trade', taker_side: 'BUY', match_kind: 'complementary', taker_fee_raw: 7_319, rebate_raw: 1_464, prior_rebate_raw: 2_367 });

    // Within the feed's cache: not read again.
    clock.advance(10_000);
    await resolver.poll();
    expect(reads).toEqual([1]);

    // A restart: the resolved row stays as it is; the pending one is read for again, once the cache allows.
    ledger.close();
    ledger = openLedger({ path, now: () => clock.now() });
    resolver = make();
    clock.advance(30_000);
    await resolver.poll();
    expect(reads).toEqual([1, 1]);
    expect(m.seen.resolved).toEqual(['trade:complementary:1']);
    expect(rows()[0]).toMatchObject({ resolution: 'trade', rebate_raw: 1_464, prior_rebate_raw: 2_367 });
    expect(ledger.rebateResolution.resolve({ fillId: complementary, takerSide: 'SELL', matchKind: 'same', takerFeeBps: 1, takerFeeRaw: 1, rebateRaw: 1, resolvedAtMs: clock.now() })).toBe(false);

    // Past the bound the never-matched fill keeps its prior estimate and is counted unmatched (the unmined one too).
    clock.advance(600_000);
    await resolver.poll();
    expect(m.seen.resolved).toEqual(['trade:complementary:1', 'unmatched:none:2']);
    expect(rows().find((r) => (r as { fill_id: number }).fill_id === never)).toMatchObject({ resolution: 'unmatched', fee_source: 'curve', rebate_raw: 2_367, prior_rebate_raw: null });
    expect(ledger.rebateResolution.counts()).toEqual({ pending: 0, trade: 1, unmatched: 2 });
    ledger.close();
  });

  it('reads further pages until they reach before the earliest pending fill, at most maxPages', async () => {
    const clock = new ManualClock(T0 + 10_000);
    const ledger = openLedger({ path: join(temp.dir, 'pages.sqlite'), now: () => clock.now() });
    bookFill(ledger, 't1', '0xzz', T0);
    const reads: number[] = [];
    const read = (_slug: string, page: number): Promise<TradeFeedPage> => {
      reads.push(page);
      return Promise.resolve({ trades: [trade({ txHash: `0x${page}`, createdAtMs: T0 + 5_000 - page })], totalPages: 9, skipped: [] });
    };
    const resolver = new RebateResolver({ read, ledger, scheduler: clock, markets: () => [SLUG], feeCurve: DEFAULT_FEE_CURVE, maxAgeMs: 600_000, maxPages: 3, metrics: fakeMetrics().metrics, log: { warn: () => undefined, info: () => undefined } });
    await resolver.poll();
    expect(reads).toEqual([1, 2, 3]);
    ledger.close();
  });
});

describe('the stop\'s last rebate pass', () => {
  it('waits for a trade-feed read still in flight within its budget, never past it', async () => {
    const clock = new ManualClock(T0 + 10_000);
    const ledger = openLedger({ path: join(temp.dir, 'flush.sqlite'), now: () => clock.now() });
    bookFill(ledger, 't1', '0xzz', T0);
    let reads = 0;
    // A departed market's trade pages, queued at the lowest priority behind the stop's cancels: no answer yet.
    const read = (): Promise<TradeFeedPage> => {
      reads += 1;
      return new Promise<TradeFeedPage>(() => undefined);
    };
    const resolver = new RebateResolver({ read, ledger, scheduler: clock, markets: () => [SLUG], feeCurve: DEFAULT_FEE_CURVE, maxAgeMs: 600_000, maxPages: 3, metrics: fakeMetrics().metrics, log: { warn: () => undefined, info: () => undefined } });
    void resolver.poll();
    let flushed = false;
    const flush = resolver.flush(1_500).then(() => (flushed = true));
    await Promise.resolve();
    clock.advance(1_499);
    await Promise.resolve();
    expect(flushed).toBe(false);
    clock.advance(1);
    await flush;
    expect(flushed).toBe(true);
    expect(reads).toBe(1); // the in-flight pass was not followed by another past the budget
    ledger.close();
  });

  it('a read answered after the last pass ended writes nothing and warns nothing (the ledger is closed by then)', async () => {
    const clock = new ManualClock(T0 + 10_000);
    const ledger = openLedger({ path: join(temp.dir, 'late.sqlite'), now: () => clock.now() });
    bookFill(ledger, 't1', '0xaa', T0);
    let answer: (page: TradeFeedPage) => void = () => undefined;
    const read = (): Promise<TradeFeedPage> => new Promise<TradeFeedPage>((resolve) => (answer = resolve));
    const warnings: string[] = [];
    const m = fakeMetrics();
    const resolver = new RebateResolver({ read, ledger, scheduler: clock, markets: () => [SLUG], feeCurve: DEFAULT_FEE_CURVE, maxAgeMs: 600_000, maxPages: 3, metrics: m.metrics, log: { warn: (_fields: unknown, msg?: string) => void warnings.push(msg ?? ''), info: () => undefined } });
    const pass = resolver.poll();
    const flush = resolver.flush(1_500);
    await Promise.resolve();
    clock.advance(1_500);
    await flush;
    ledger.close();
    answer({ trades: [trade({})], totalPages: 1, skipped: [] });
    await pass;
    expect(warnings).toEqual([]);
    expect(m.seen.resolved).toEqual([]);
  });
});

describe('matching fills to trades', () => {
  const fill = (over: Partial<PendingRebate>): PendingRebate => ({
    fillId: 1, marketSlug: SLUG, tokenId: 'no', side: 'BUY', priceTicks: 949, sizeRaw: 5_000_000, atMs: T0, txHash: '0xaa', feeSource: 'curve', takerFeeBps: 0, rebateRate: RATE, rebateRaw: 0, ...over,
  });
  it('by txHash, then a taker that can have met the fill, then the size: exact, else the smallest that holds it', () => {
    const bigger = trade({ matchedSizeRaw: 8_000_000 });
    const biggest = trade({ matchedSizeRaw: 9_000_000 });
    const wrongSide = trade({ side: 'SELL', tokenId: 'yes' });
    expect(matchFillsToTrades([fill({})], [biggest, bigger, wrongSide]).get(1)).toBe(bigger);
    const exact = trade({ side: 'SELL', tokenId: 'no' });
    expect(matchFillsToTrades([fill({})], [bigger, exact]).get(1)).toBe(exact);
    expect(matchFillsToTrades([fill({ txHash: null })], [exact]).size).toBe(0);
    expect(matchFillsToTrades([fill({ sizeRaw: 10_000_000 })], [exact, bigger]).size).toBe(0);
  });
});
