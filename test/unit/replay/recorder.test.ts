/**
 * The recorder's rules on a manual clock with scripted market data: trades in YES terms (a NO trade at q is a YES
 * trade at 1 − q, taker side flipped) at the trade's own time, each written once, none from before the start; markets read in turn, one
 * per interval, none sooner than its refresh time; the trading mode written on change only; a book as the store holds it, with the last frame's stamp.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import type { TradingMode } from '../../../src/core/trading-mode.js';
import type { MarketTrade } from '../../../src/exchange/wire.js';
import type { ReplayEvent } from '../../../src/replay/format.js';
import { Recorder, tradeEvent, type RecordedMarket } from '../../../src/replay/recorder.js';

const T0 = 1_800_000_000_000;
const A: RecordedMarket = { slug: 'a', yesTokenId: 'ya', noTokenId: 'na' };
const B: RecordedMarket = { slug: 'b', yesTokenId: 'yb', noTokenId: 'nb' };

function trade(tokenId: string, price: number, side: 'BUY' | 'SELL', createdAtMs: number, sizeRaw = 5_000_000): MarketTrade {
  return { createdAtMs, collateralRaw: Math.round(sizeRaw * price), takerAmountRaw: sizeRaw, matchedSizeRaw: sizeRaw, price, side, tokenId, txHash: null, title: null };
}

describe('tradeEvent', () => {
  it('a YES trade keeps price and side; a NO trade is a YES trade at 1 − q on the other side; others are not ours', () => {
    expect(tradeEvent(A, trade('ya', 0.42, 'BUY', T0))).toEqual({ kind: 'trade', t: T0, venueTs: T0, market: 'a', priceTicks: 420, sizeRaw: 5_000_000, takerSide: 'BUY', id: null });
    expect(tradeEvent(A, trade('na', 0.57, 'BUY', T0))).toMatchObject({ priceTicks: 430, takerSide: 'SELL' });
    expect(tradeEvent(A, trade('na', 0.57, 'SELL', T0))).toMatchObject({ priceTicks: 430, takerSide: 'BUY' });
    expect(tradeEvent(A, trade('yb', 0.5, 'BUY', T0))).toBeNull();
    expect(tradeEvent(A, trade('ya', 0.4235, 'BUY', T0))).toMatchObject({ priceTicks: 424 }); // a sweep's average: nearest tick
  });
});

describe('Recorder', () => {
  function rig(marketTradeRefreshMs = 2000) {
    const clock = new ManualClock(T0);
    const events: ReplayEvent[] = [];
    const tradesOf = new Map<string, MarketTrade[]>([['a', []], ['b', []]]);
    const reads: string[] = [];
    let mode: TradingMode = 'normal';
    const changeListeners: ((slug: string) => void)[] = [];
    const frameListeners: ((slug: string, ts: number | null) => void)[] = [];
    const book = { yes: { bids: [{ priceTicks: 400, sizeRaw: 1_000_000 }], asks: [{ priceTicks: 450, sizeRaw: 2_000_000 }] } };
    const recorder = new Recorder({
      markets: [A, B],
      data: {
        onBookFrame: (l) => (frameListeners.push(l), () => {}),
        onMarketResolved: () => () => {},
        onDisconnect: () => () => {},
        books: () => book,
        onBookChange: (l) => (changeListeners.push(l), () => {}),
        onStale: () => () => {},
      },
      venue: {
        recentTrades: (slug) => {
          reads.push(slug);
          return Promise.resolve(tradesOf.get(slug) ?? []);
        },
        tradingMode: () => Promise.resolve(mode),
      },
      sink: (e) => events.push(e),
      scheduler: clock,
      log: pino({ level: 'silent' }),
      tradeReadIntervalMs: 1000,
      marketTradeRefreshMs,
      modeReadIntervalMs: 5000,
    });
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 5; i += 1) await Promise.resolve();
    };
    return { clock, events, tradesOf, reads, recorder, settle, setMode: (m: TradingMode) => (mode = m), frame: (slug: string, ts: number) => frameListeners.forEach((l) => l(slug, ts)), change: (slug: string) => changeListeners.forEach((l) => l(slug)) };
  }

  it('reads markets in turn, writes each trade once and none from before the start', async () => {
    const r = rig();
    r.recorder.start();
    r.tradesOf.set('a', [trade('ya', 0.4, 'BUY', T0 - 1), trade('ya', 0.41, 'BUY', T0 + 100)]);
    for (let i = 0; i < 4; i += 1) {
      r.clock.advance(1000);
      await r.settle();
    }
    expect(r.reads).toEqual(['a', 'b', 'a', 'b']);
    expect(r.events.filter((e) => e.kind === 'trade')).toEqual([expect.objectContaining({ market: 'a', priceTicks: 410, venueTs: T0 + 100, t: T0 + 100 })]);
    r.recorder.stop();
  });

  it('a market is not read again before its refresh time (the venue caches the answer 30 s): that turn sends nothing', async () => {
    const r = rig(30_000);
    r.recorder.start();
    for (let i = 0; i < 4; i += 1) {
      r.clock.advance(1000);
      await r.settle();
    }
    expect(r.reads).toEqual(['a', 'b']);
    for (let i = 4; i < 31; i += 1) {
      r.clock.advance(1000);
      await r.settle();
    }
    expect(r.reads).toEqual(['a', 'b', 'a']); // a's turn at 31 s: 30 s after its first read
    r.recorder.stop();
  });

  it('the mode is written at start and on change only; a book carries its frame stamp once', async () => {
    const r = rig();
    r.recorder.start();
    await r.settle();
    r.clock.advance(5000);
    await r.settle();
    r.setMode('cancel_only');
    r.clock.advance(5000);
    await r.settle();
    expect(r.events.filter((e) => e.kind === 'mode').map((e) => (e.kind === 'mode' ? e.mode : null))).toEqual(['normal', 'cancel_only']);
    r.frame('a', T0 - 7);
    r.change('a');
    r.change('a');
    const books = r.events.filter((e) => e.kind === 'book');
    expect(books).toEqual([
      { kind: 'book', t: T0 + 10_000, venueTs: T0 - 7, market: 'a', bids: [[400, 1_000_000]], asks: [[450, 2_000_000]] },
      { kind: 'book', t: T0 + 10_000, venueTs: null, market: 'a', bids: [[400, 1_000_000]], asks: [[450, 2_000_000]] },
    ]);
    r.recorder.stop();
    const count = r.events.length;
    r.change('a');
    r.clock.advance(10_000);
    await r.settle();
    expect(r.events.length).toBe(count);
    expect(r.events.at(-1)).toMatchObject({ kind: 'gap', cause: 'recorder-stop' });
  });
});
