/**
 * Conformance: GET /portfolio/history (HMAC) — the official client's HistoryResponse `{data: HistoryEntry[],
 * nextCursor}` with the specification's cursor paging (limit 1–100, default 20; empty `cursor` = first page;
 * `nextCursor` null at the end), only mined trades, newest first, no item repeated or skipped across pages even when
 * trades arrive between pages. Runs on an injected manual clock (mining is a scheduled step).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ENDPOINTS } from '../../../src/exchange/endpoints.js';
import { HistoryAmounts } from '../../../src/exchange/history-amounts.js';
import { parseHistoryPage } from '../../../src/exchange/wire-history.js';
import { ManualClock } from '../../../src/sim/engine/index.js';
import { decimalAmount } from '../../../src/sim/server/routes-history.js';
import { arr, obj } from '../../support/sim-http.js';
import { signedOrderBody } from '../../support/sim-orders.js';
import { call, BOB, placedId, startTestSim, type TestAccount, type TestSim } from '../fixtures.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
let t: TestSim;
let clock: ManualClock;

beforeAll(async () => {
  clock = new ManualClock(START);
  t = await startTestSim({ clock, settlementDelayMs: 1_000 });
});
afterAll(async () => {
  await t.sim.close();
});

const history = (query: string, who: TestAccount = t.demo) => call(t.sim.baseUrl, 'GET', `/portfolio/history${query}`, { creds: who.creds, nowMs: clock.now() });

async function place(who: TestAccount, outcome: 'YES' | 'NO', priceTicks: number, orderType: 'GTC' | 'FAK' = 'GTC') {
  const body = await signedOrderBody({ privateKey: who.privateKey, ownerId: who.profileId, market: t.market, outcome, side: 'BUY', priceTicks, sizeRaw: 1_000_000, orderType });
  return placedId(await call(t.sim.baseUrl, 'POST', '/orders', { creds: who.creds, nowMs: clock.now(), body }));
}

/** One trade: the demo rests BUY YES at `ticks`, Bob takes it with a FAK BUY NO (a mint). */
async function trade(ticks: number): Promise<void> {
  await place(t.demo, 'YES', ticks);
  await place(BOB, 'NO', 1000 - ticks, 'FAK');
  clock.advance(1);
}

async function allPages(limit: number): Promise<{ pages: Record<string, unknown>[][]; cursors: (string | null)[] }> {
  const pages: Record<string, unknown>[][] = [];
  const cursors: (string | null)[] = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const r = await history(`?cursor=${encodeURIComponent(cursor)}&limit=${limit}`);
    expect(r.status).toBe(200);
    const body = obj(r.body);
    expect(Object.keys(body).sort()).toEqual(['data', 'nextCursor']);
    pages.push(arr(body['data']).map(obj));
    const next = body['nextCursor'];
    if (next !== null && typeof next !== 'string') throw new Error(`nextCursor is ${JSON.stringify(next)}`);
    cursor = next;
    cursors.push(cursor);
    if (pages.length > 20) throw new Error('paging never ended');
  }
  return { pages, cursors };
}

describe('GET /portfolio/history', () => {
  it('is empty before any trade, and lists only mined trades', async () => {
    expect((await history('')).body).toEqual({ data: [], nextCursor: null });
    await trade(400);
    expect(obj((await history('')).body)['data']).toEqual([]); // matched, not mined yet
    clock.advance(1_000);
    const data = arr(obj((await history('')).body)['data']).map(obj);
    expect(data).toHaveLength(1);
    const e = data[0]!;
    expect(e).toMatchObject({ strategy: 'Limit Buy', outcomeIndex: 0, outcomeTokenAmount: '1000000', collateralAmount: '400000', outcomeTokenPrice: 0.4 });
    expect(e['blockTimestamp']).toBe(Math.floor(clock.now() / 1000));
    expect(String(e['transactionHash'])).toMatch(/^0x[0-9a-f]{64}$/);
    expect(obj(e['market'])).toMatchObject({ slug: t.market.slug, id: String(t.market.id), closed: false, conditionId: t.market.conditionId });
    // Bob's side of the same trade: a limit taker buying NO.
    expect(obj(arr(obj((await history('', BOB)).body)['data'])[0])).toMatchObject({ strategy: 'Buy', outcomeIndex: 1, outcomeTokenPrice: 0.6 });
  });

  it('pages newest first with nextCursor, never repeating or skipping an item, nextCursor null at the end', async () => {
    for (const ticks of [401, 402, 403, 404, 405, 406, 407]) await trade(ticks);
    clock.advance(1_000);
    const { pages, cursors } = await allPages(3);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 2]);
    expect(cursors[cursors.length - 1]).toBeNull();
    const prices = pages.flat().map((e) => e['outcomeTokenPrice']);
    expect(prices).toEqual([0.407, 0.406, 0.405, 0.404, 0.403, 0.402, 0.401, 0.4]);
    expect(pages.flat().map((e) => Number(e['blockTimestamp']))).toEqual([...pages.flat().map((e) => Number(e['blockTimestamp']))].sort((a, b) => b - a));
    // Default limit 20: one page.
    expect(arr(obj((await history('')).body)['data'])).toHaveLength(8);
  });

  it('a trade mined between pages does not shift the next page', async () => {
    const first = obj((await history('?limit=2')).body);
    const cursor = String(first['nextCursor']);
    await trade(410);
    clock.advance(1_000);
    const second = arr(obj((await history(`?limit=2&cursor=${encodeURIComponent(cursor)}`)).body)['data']).map(obj);
    expect(second.map((e) => e['outcomeTokenPrice'])).toEqual([0.405, 0.404]);
  });

  it('pages through one trade against two makers one fill at a time (each fill its own item)', async () => {
    await place(t.demo, 'YES', 300);
    await place(t.demo, 'YES', 301);
    const body = await signedOrderBody({ privateKey: BOB.privateKey, ownerId: BOB.profileId, market: t.market, outcome: 'NO', side: 'BUY', priceTicks: 700, sizeRaw: 2_000_000, orderType: 'FAK' });
    placedId(await call(t.sim.baseUrl, 'POST', '/orders', { creds: BOB.creds, nowMs: clock.now(), body }));
    clock.advance(1_000);
    const first = obj((await history('?limit=1', BOB)).body);
    const second = obj((await history(`?limit=1&cursor=${encodeURIComponent(String(first['nextCursor']))}`, BOB)).body);
    const both = [...arr(first['data']), ...arr(second['data'])].map(obj);
    expect(both.map((e) => e['outcomeTokenPrice']).sort()).toEqual([0.699, 0.7]);
    expect(both.every((e) => e['transactionHash'] === both[0]?.['transactionHash'])).toBe(true);
  });

  it('validates limit and cursor with 400 naming the field; needs authentication', async () => {
    for (const [query, field] of [['?limit=0', 'limit'], ['?limit=101', 'limit'], ['?cursor=@@@', 'cursor'], ['?cursor=bm90LWEtY3Vyc29y', 'cursor'], ['?market=x', 'market']] as const) {
      const r = await history(query);
      expect(r.status, query).toBe(400);
      expect(arr(obj(r.body)['message']).map((m) => obj(m)['field'])).toEqual([field]);
    }
    expect((await history('?limit=100')).status).toBe(200);
    expect((await call(t.sim.baseUrl, 'GET', '/portfolio/history')).status).toBe(401);
  });

  it('writes its amounts as the setting says (raw by default, decimal on demand); the bot\'s parser reads both into the same raw figures', async () => {
    const read = async (): Promise<Record<string, unknown>> => obj((await history('?limit=3')).body);
    const raw = await read();
    expect(arr(raw['data']).map((e) => obj(e)['collateralAmount'])).toEqual(['300000', '301000', '410000']);
    t.sim.control.updateSettings({ historyAmounts: 'decimal' });
    try {
      const decimal = await read();
      expect(arr(decimal['data']).map((e) => [obj(e)['collateralAmount'], obj(e)['outcomeTokenAmount']])).toEqual([
        ['0.3', '1.0'],
        ['0.301', '1.0'],
        ['0.41', '1.0'],
      ]);
      const amounts = new HistoryAmounts('auto');
      const figures = (body: unknown) => parseHistoryPage(body, API_ENDPOINTS.getHistory, 200, amounts).entries.map((e) => [e.collateralRaw, e.tokensRaw]);
      expect(figures(decimal)).toEqual([
        [300_000, 1_000_000],
        [301_000, 1_000_000],
        [410_000, 1_000_000],
      ]);
      expect(amounts.decision()).toMatchObject({ unit: 'decimal', source: 'evidence' });
      expect(parseHistoryPage(raw, API_ENDPOINTS.getHistory, 200, new HistoryAmounts('raw')).entries.map((e) => e.collateralRaw)).toEqual([300_000, 301_000, 410_000]);
    } finally {
      t.sim.control.updateSettings({ historyAmounts: 'raw' });
    }
  });
});

describe('decimalAmount (the simulator\'s decimal form)', () => {
  it('writes raw 1e6 amounts in human units, always with a decimal point', () => {
    expect([decimalAmount(12_500_000), decimalAmount(5_000_000), decimalAmount(1), decimalAmount(0), decimalAmount(495_326_974)]).toEqual(['12.5', '5.0', '0.000001', '0.0', '495.326974']);
  });
});
