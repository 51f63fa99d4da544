/**
 * Outside changes (src/capital/account-history.ts) through their public entry: `AccountHistorySync.syncOnce` reading
 * GET /portfolio/history over 127.0.0.1 with the real client (pages in the official client's HistoryEntry shape,
 * cursor paging) into a real ledger. A claim, a merge and a split made by hand are booked as cash flows (+, +, −);
 * the bot's own fill and its own redemption (matched by transaction hash, or by market and amount for a redemption
 * recorded without one) are recorded and never booked again; a trade by hand is recorded, not booked; an unreadable
 * element is skipped and reported with its path; a restart (a new sync on the same ledger) books nothing twice and
 * stops paging at the first page it had seen.
 */
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountHistorySync, classifyHistoryEntry } from '../../src/capital/account-history.js';
import { ManualClock } from '../../src/core/clock.js';
import { connectExchange, type ExchangeClient } from '../../src/exchange/client.js';
import { HistoryAmounts } from '../../src/exchange/history-amounts.js';
import { RequestLimiter } from '../../src/exchange/limiter.js';
import { REPLAY_CREDENTIALS } from '../contract/replay.js';
import { fillInput, memoryLedger, T0 } from '../support/ledger-fixtures.js';
import { startRecordingServer, type RecordedRequest, type RecordingServer } from '../support/recording-server.js';

const hash = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;
const market = (slug: string): Record<string, unknown> => ({ id: '1', slug, title: slug, closed: true, conditionId: `0x${'cd'.repeat(32)}` });
const at = (s: number): number => Math.floor(T0 / 1000) + s;

/** Newest first, two pages. */
const PAGE_1 = {
  data: [
    { blockTimestamp: at(60), transactionHash: hash(1), strategy: 'Claim', collateralAmount: '12000000', outcomeTokenAmounts: ['12000000', '0'], market: market('by-hand') },
    { blockTimestamp: at(50), transactionHash: hash(2), strategy: 'Merge', collateralAmount: '3000000', outcomeTokenAmount: '3000000', market: market('by-hand') },
    { blockTimestamp: at(40), transactionHash: hash(3), strategy: 'Limit Buy', outcomeIndex: 0, collateralAmount: '2400000', outcomeTokenAmount: '5000000', outcomeTokenPrice: 0.48, market: market('bot-market') },
    { blockTimestamp: 'yesterday', strategy: 'Claim' },
  ],
  nextCursor: 'page-2',
};
const PAGE_2 = {
  data: [
    { blockTimestamp: at(30), transactionHash: hash(4), strategy: 'Claim', collateralAmount: '7000000', market: market('bot-resolved') },
    { blockTimestamp: at(20), transactionHash: hash(5), strategy: 'Split', collateralAmount: '5000000', outcomeTokenAmounts: ['5000000', '5000000'], market: market('by-hand') },
    { blockTimestamp: at(10), transactionHash: hash(6), strategy: 'Sell', outcomeIndex: 1, collateralAmount: '1000000', outcomeTokenAmount: '2000000', market: market('by-hand') },
  ],
  nextCursor: null,
};

let server: RecordingServer | null = null;
let client: ExchangeClient | null = null;
afterEach(async () => {
  client?.transport.close();
  await server?.close();
});

async function venue(pages: readonly [unknown, unknown] = [PAGE_1, PAGE_2], historyAmounts?: HistoryAmounts): Promise<{ client: ExchangeClient; requests: RecordedRequest[]; skipped: string[] }> {
  const requests: RecordedRequest[] = [];
  const skipped: string[] = [];
  server = await startRecordingServer((request) => {
    requests.push(request);
    return { status: 200, body: request.url.includes('cursor=page-2') ? pages[1] : pages[0] };
  });
  client = await connectExchange({
    baseUrl: server.url,
    credentials: REPLAY_CREDENTIALS,
    signer: { privateKey: `0x${'11'.repeat(32)}` },
    profileId: 1,
    ...(historyAmounts === undefined ? {} : { historyAmounts }),
    transport: { limiter: new RequestLimiter({ minTimeMs: 0 }), retry: { maxServerErrorRetries: 0 }, observer: { onSkippedParts: (_endpoint, parts) => void skipped.push(...parts.map((p) => p.path)) } },
  });
  return { client, requests, skipped };
}

describe('outside changes from GET /portfolio/history', () => {
  it('books what the bot did not do, recognises its own actions, and books nothing twice across a restart', async () => {
    const { client, requests, skipped } = await venue();
    const clock = new ManualClock(T0 + 120_000);
    const ledger = memoryLedger({ now: () => clock.now() });
    // The bot's own: a maker fill mined in transaction 3, and its redemption of `bot-resolved` (no hash: the redeem answer had none).
    ledger.recordFill(fillInput({ tradeEventId: 'own-fill', orderId: 'o1', marketSlug: 'bot-market', priceTicks: 480, sizeRaw: 5_000_000, txHash: hash(3) }));
    ledger.recordRedemption('bot-resolved', 7_000_000, { atMs: T0 });
    const sync = (): AccountHistorySync =>
      new AccountHistorySync({ read: (cursor) => client.api.getHistory({ cursor, limit: 100 }), ledger, scheduler: clock, intervalMs: 0, maxPages: 5, log: pino({ level: 'silent' }) });

    expect(ledger.history.ownTransactions([hash(3)])).toEqual(new Set([hash(3)]));
    expect(await sync().syncOnce()).toEqual({ pages: 2, recorded: 6, booked: 3, own: 2 });
    expect(skipped).toEqual(['data[3].blockTimestamp']);
    expect(requests.map((r) => r.url)).toEqual(['/portfolio/history?limit=100', '/portfolio/history?cursor=page-2&limit=100']);
    const rows = ledger.history.entries();
    const byTx = (n: number): { own: boolean; booked: boolean; cashFlowRaw: number } | undefined => {
      const row = rows.find((r) => r.txHash === hash(n));
      return row && { own: row.own, booked: row.booked, cashFlowRaw: row.cashFlowRaw };
    };
    expect(byTx(1)).toEqual({ own: false, booked: true, cashFlowRaw: 12_000_000 });
    expect(byTx(2)).toEqual({ own: false, booked: true, cashFlowRaw: 3_000_000 });
    expect(byTx(3)).toEqual({ own: true, booked: false, cashFlowRaw: 0 });
    expect(byTx(4)).toEqual({ own: true, booked: false, cashFlowRaw: 0 });
    expect(byTx(5)).toEqual({ own: false, booked: true, cashFlowRaw: -5_000_000 });
    expect(byTx(6)).toEqual({ own: false, booked: false, cashFlowRaw: 0 });
    expect(ledger.history.outsideCashFlows()).toEqual({
      totalRaw: 10_000_000,
      byKind: [
        { kind: 'claim', entries: 1, cashFlowRaw: 12_000_000 },
        { kind: 'merge', entries: 1, cashFlowRaw: 3_000_000 },
        { kind: 'split', entries: 1, cashFlowRaw: -5_000_000 },
      ],
    });

    // A restart: the same history again books nothing and stops at the first page (it holds what was recorded).
    requests.length = 0;
    expect(await sync().syncOnce()).toEqual({ pages: 1, recorded: 0, booked: 0, own: 0 });
    expect(requests).toHaveLength(1);
    expect(ledger.history.outsideCashFlows().totalRaw).toBe(10_000_000);
    ledger.close();
  });

  it("a claim matches the bot's redemption recorded without a hash by market and amount", () => {
    const ledger = memoryLedger();
    ledger.recordRedemption('bot-resolved', 7_000_000, { atMs: T0 });
    const entry = { atMs: T0, txHash: hash(4), strategy: 'Claim', collateralRaw: 7_000_000, tokensRaw: null, outcomeIndex: null, marketSlug: 'bot-resolved', conditionId: null };
    const own = { txHashes: new Set<string>(), unhashedRedemptions: (slug: string) => ledger.history.unhashedRedemptions(slug) };
    expect(classifyHistoryEntry(entry, own)).toMatchObject({ own: true, booked: false, cashFlowRaw: 0 });
    expect(classifyHistoryEntry({ ...entry, collateralRaw: 7_000_001 }, own)).toMatchObject({ own: false, booked: true, cashFlowRaw: 7_000_001 });
    ledger.close();
  });

  it('venue.units.historyAmounts auto: pages in human units are detected (said once at INFO) and booked as the same raw amounts', async () => {
    const decimal = (page: { data: Record<string, unknown>[]; nextCursor: string | null }) => ({
      ...page,
      data: page.data.map((e) => {
        const human = (v: unknown): unknown => (typeof v === 'string' ? (Number(v) / 1e6).toFixed(6) : v);
        return { ...e, collateralAmount: human(e['collateralAmount']), outcomeTokenAmount: human(e['outcomeTokenAmount']), outcomeTokenAmounts: Array.isArray(e['outcomeTokenAmounts']) ? e['outcomeTokenAmounts'].map(human) : undefined };
      }),
    });
    const said: { msg: string; why: unknown }[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void said.push(JSON.parse(line) as { msg: string; why: unknown }) });
    const { client } = await venue([decimal(PAGE_1), decimal(PAGE_2)], new HistoryAmounts('auto', log));
    const clock = new ManualClock(T0 + 120_000);
    const ledger = memoryLedger({ now: () => clock.now() });
    const sync = new AccountHistorySync({ read: (cursor) => client.api.getHistory({ cursor, limit: 100 }), ledger, scheduler: clock, intervalMs: 0, maxPages: 5, log: pino({ level: 'silent' }) });
    expect(await sync.syncOnce()).toEqual({ pages: 2, recorded: 6, booked: 4, own: 0 });
    expect(ledger.history.outsideCashFlows().totalRaw).toBe(12_000_000 + 3_000_000 + 7_000_000 - 5_000_000);
    expect(said.filter((l) => l.msg.startsWith('portfolio history amounts'))).toEqual([
      expect.objectContaining({ msg: 'portfolio history amounts: decimal (detected: an amount with a fractional part cannot be a raw 1e6 integer)' }),
    ]);
    ledger.close();
  });
});
