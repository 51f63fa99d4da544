/**
 * The bot and the backtest decide alike: the same book sequence (another account's orders moving the book, then
 * taking the bot's quotes) and the same strategy, driven on the same virtual clock against identical engines, make
 * the same venue calls in the same order — placements, cancels and cancel-replaces with the same ids, prices and
 * sizes. Both sides are wired by the one trading core (src/trading/core.ts): the bot side with the settings compose
 * gives it from the config defaults (`coreSettingsOf`) and compose's fill path (SQLite ledger fed by the FillRecorder);
 * the backtest side is src/backtest/trader.ts with the backtest's defaults and its books of the engine's fills. Both
 * read the engine through the same feed and request model (transport, not decisions).
 */
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { BotAccounting } from '../../../src/backtest/accounting.js';
import { EngineFeed } from '../../../src/backtest/engine-feed.js';
import { EngineFills } from '../../../src/backtest/engine-fills.js';
import { EngineVenue } from '../../../src/backtest/engine-venue.js';
import { LatencyVenue } from '../../../src/backtest/latency-venue.js';
import { resolveOptions } from '../../../src/backtest/options.js';
import { riskConfigOf, Trader } from '../../../src/backtest/trader.js';
import { VirtualTime } from '../../../src/backtest/virtual-time.js';
import { OrderEventAdapter } from '../../../src/venue/order-event-adapter.js';
import { FillRecorder } from '../../../src/booking/fill-recorder.js';
import { coreSettingsOf, LEDGER_CHECK_EVERY_MS, TradingCore } from '../../../src/trading/core.js';
import { Timers } from '../../../src/app/timers.js';
import { TradedMarkets } from '../../../src/markets/traded-markets.js';
import { parseConfigText, REQUOTE_INTERVAL_MS } from '../../../src/config/index.js';
import type { LedgerStore } from '../../../src/ledger/index.js';
import { isOwnClientOrderId } from '../../../src/orders/client-order-id.js';
import type { OrderExecutor } from '../../../src/orders/executor.js';
import type { CancelReplaceBatch, PlaceRequest, StatusQuery, VenuePort } from '../../../src/orders/venue-port.js';
import type { RunnerBooks } from '../../../src/strategy/runner.js';
import type { MarketInfo } from '../../../src/strategy/contract.js';
import { createEngine, generateMarkets, type Side, type SimEngine } from '../../../src/sim/engine/index.js';
import fixedSpread from '../../../strategies/fixed-spread.js';
import { memoryLedger } from '../../support/ledger-fixtures.js';
import { limitOrderAmounts } from '../../../src/core/venue-rules/index.js';

const T0 = Date.UTC(2026, 0, 1);
const S = 1_000_000;
const BOT = { profileId: 1, address: '0x00000000000000000000000000000000000B0071' };
const OTHER = { profileId: 2, address: '0x00000000000000000000000000000000000B0072' };
const [SPEC] = generateMarkets(1, 5, T0);
const PARAMS = { bidSpread: 0.01, askSpread: 0.01, levels: 2 };
const TAG = 'om';

const INFO: MarketInfo = {
  slug: SPEC!.slug,
  tokens: { yes: SPEC!.yesTokenId, no: SPEC!.noTokenId },
  minSizeRaw: SPEC!.settings.minSizeRaw,
  maxSpreadTicks: SPEC!.settings.maxSpreadTicks,
  rewardC: SPEC!.settings.c,
  dailyRewardRaw: SPEC!.settings.dailyRewardRaw,
  rewardable: SPEC!.isRewardable,
  expiresAtMs: SPEC!.expirationMs,
  band: { minTicks: 20, maxTicks: 980 },
};

/** Records every call that reaches the engine, in order, with what identifies it. */
class RecordingVenue implements VenuePort {
  readonly calls: string[] = [];
  constructor(private readonly inner: EngineVenue) {}
  placeOrder(r: PlaceRequest) {
    this.calls.push(`place ${place(r)}`);
    return this.inner.placeOrder(r);
  }
  cancelOrders(slug: string, ids: readonly string[]) {
    this.calls.push(`cancel ${slug} ${ids.join(',')}`);
    return this.inner.cancelOrders(slug, ids);
  }
  cancelReplace(batch: CancelReplaceBatch) {
    this.calls.push(`replace ${batch.mode} ${batch.items.map((i) => `${i.cancelOrderId}→${place(i.place)}`).join(' ')}`);
    return this.inner.cancelReplace(batch);
  }
  cancelAll(slug: string) {
    this.calls.push(`cancelAll ${slug}`);
    return this.inner.cancelAll(slug);
  }
  statusBatch(queries: readonly StatusQuery[]) {
    this.calls.push(`status ${queries.map((q) => ('orderId' in q ? q.orderId : q.clientOrderId)).join(',')}`);
    return this.inner.statusBatch(queries);
  }
  listLiveOrders(slug: string) {
    this.calls.push(`list ${slug}`);
    return this.inner.listLiveOrders(slug);
  }
  maintenanceStatus() {
    this.calls.push('maintenance');
    return this.inner.maintenanceStatus();
  }
}

function place(r: Omit<PlaceRequest, 'beforeSend'>): string {
  return `${r.clientOrderId} ${r.token} ${r.side} ${r.priceTicks}x${r.sizeRaw} ${r.postOnly ? 'post' : 'any'}`;
}

/** One engine, its clock, the recording venue behind the request model, and the feed (the transport both sides share). */
function world() {
  const time = new VirtualTime(T0);
  const engine = createEngine({
    seed: 1,
    clock: time,
    settlementDelayMs: 2000,
    markets: [SPEC!],
    accounts: [
      { ...BOT, usdcRaw: 10_000 * S, feeRateBps: 300 },
      { ...OTHER, usdcRaw: 1_000_000 * S, feeRateBps: 300, tokens: { [INFO.tokens.yes]: 10_000 * S, [INFO.tokens.no]: 10_000 * S } },
    ],
  });
  const recording = new RecordingVenue(new EngineVenue({ engine, profileId: BOT.profileId, feeRateBps: 300 }));
  const venue = new LatencyVenue(recording, time, resolveOptions({ strategy: { module: fixedSpread }, seed: 1, durationMs: 1 }).latency);
  const listeners: ((slug: string) => void)[] = [];
  const target: { onOrderEvent: OrderExecutor['onOrderEvent'] } = { onOrderEvent: () => undefined };
  const feed = new EngineFeed({
    engine,
    profileId: BOT.profileId,
    scheduler: time,
    markets: [{ slug: INFO.slug, minSizeRaw: INFO.minSizeRaw }],
    adapter: new OrderEventAdapter({ account: BOT.address, isOwnOrder: ({ clientOrderId }) => clientOrderId !== undefined && isOwnClientOrderId(clientOrderId, TAG), now: () => time.now() }),
    onOrderEvent: (event) => target.onOrderEvent(event),
    onGap: (slug, reason) => {
      throw new Error(`order event gap in ${String(slug)}: ${reason}`);
    },
    onBookChange: (slug) => {
      for (const listener of [...listeners]) listener(slug);
    },
    onRejectedBook: () => undefined,
  });
  const books: RunnerBooks = {
    books: (slug) => feed.book(slug)?.views ?? null,
    onChange: (listener) => {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
  };
  return { time, engine, recording, venue, feed, books, target };
}

/** Another account's orders: a book that moves, then takers hitting the best bid and lifting the best ask. */
function script(engine: SimEngine, atMs: number): void {
  const order = (side: Side, priceTicks: number, shares: number): void => {
    const amounts = limitOrderAmounts(side, priceTicks, shares * S);
    const placed = engine.place({
      profileId: OTHER.profileId,
      marketSlug: INFO.slug,
      orderType: 'GTC',
      tokenId: INFO.tokens.yes,
      side,
      makerAmount: amounts.makerAmount,
      takerAmount: amounts.takerAmount,
      priceTicks,
      feeRateBps: 300,
      salt: atMs + priceTicks,
      postOnly: false,
      stpPolicy: 'cancel_maker',
      signature: '0x',
      signedOrderEcho: {},
    });
    if (!placed.ok) throw new Error(`script order refused: ${placed.code}`);
  };
  const t = atMs - T0;
  if (t === 0) {
    order('BUY', 470, 200);
    order('SELL', 530, 200);
  } else if (t === 4000) {
    for (const o of engine.orders(OTHER.profileId, INFO.slug, ['LIVE'])) if (o.side === 'BUY') engine.cancel(OTHER.profileId, o.id);
    order('BUY', 480, 200);
  } else if (t === 9000) {
    order('SELL', 400, 15); // takes the best bid: the bot's
  } else if (t === 14_000) {
    order('BUY', 600, 12); // lifts the best ask: the bot's
  } else if (t === 18_000) {
    order('SELL', 540, 100);
  }
}

async function drive(w: ReturnType<typeof world>, start: () => Promise<void>, quote: () => void): Promise<void> {
  w.feed.prime();
  const starting = start();
  await w.time.runUntil(T0);
  await starting;
  w.venue.begin();
  quote();
  for (let t = T0; t <= T0 + 25_000; t += 1000) {
    await w.time.runUntil(t);
    script(w.engine, t);
    await w.time.runUntil(t);
  }
  await w.time.runUntil(T0 + 26_000);
}

const ledgers: LedgerStore[] = [];
afterEach(() => {
  for (const ledger of ledgers.splice(0)) ledger.close();
});

/** The bot's decision path: the trading core (src/trading/core.ts) with the settings compose gives it from the default config. */
async function botCalls(): Promise<{ calls: string[]; open: number }> {
  const config = parseConfigText(`strategy: {name: fixed-spread}\norders: {botTag: ${TAG}}\n`, { source: '<test>', baseDir: '/srv' });
  const w = world();
  const scheduler = w.time;
  const log = pino({ level: 'silent' });
  const ledger = memoryLedger({ now: () => scheduler.now() });
  ledgers.push(ledger);
  const timers = new Timers(scheduler);
  const settings = coreSettingsOf(config);
  // As compose: fills booked in the SQLite ledger first, then noted by the account and requoted.
  const fills = new FillRecorder({
    ledger,
    log,
    onBooked: ({ fill }) => {
      core.account.noteFill(fill);
      core.requote(fill.marketSlug);
    },
  });
  const core = new TradingCore({
    venue: w.venue,
    scheduler,
    strategy: resolveOptions({ strategy: { module: fixedSpread, params: PARAMS }, seed: 1, durationMs: 1 }).strategy,
    markets: new TradedMarkets([{ slug: INFO.slug, id: 1 }], () => INFO),
    ledger: ledger.positionBook,
    risk: config.risk,
    mode: { pollIntervalMs: settings.modePollIntervalMs, fetchStatus: () => w.venue.maintenanceStatus() },
    orders: settings.orders,
    account: { halts: () => ({ killSwitch: false, stale: false }), onBlocked: () => undefined, log },
    books: w.books,
    runner: { requoteIntervalMs: settings.requoteIntervalMs, setInterval: (fn, ms) => timers.every(ms, fn) },
    onFill: (fill) => void fills.record(fill),
  });
  w.target.onOrderEvent = (event) => core.executor.onOrderEvent(event);
  await drive(
    w,
    async () => {
      await core.executor.start();
    },
    () => {
      core.runner.start();
      timers.every(LEDGER_CHECK_EVERY_MS, () => core.account.balancesRead());
      core.armExpiryRequotes((atMs, fn) => timers.at(atMs, fn));
    },
  );
  core.stop();
  timers.cancelAll();
  w.feed.stop();
  return { calls: w.recording.calls, open: core.executor.openOrders().length };
}

/** The backtest's decision path: its Trader with the backtest's defaults and its books of the engine's fills. */
async function backtestCalls(): Promise<{ calls: string[]; open: number }> {
  const o = resolveOptions({ strategy: { module: fixedSpread, params: PARAMS }, seed: 1, durationMs: 1, orders: { botTag: TAG } });
  const accounting = new BotAccounting([INFO]);
  const w = world();
  const fills = new EngineFills(w.engine, BOT.profileId, accounting);
  const trader = new Trader({
    venue: w.venue,
    scheduler: w.time,
    strategy: o.strategy,
    markets: [INFO],
    isResolved: () => false,
    ledger: accounting,
    books: w.books,
    risk: riskConfigOf(o.risk),
    orders: o.orders,
    requoteIntervalMs: o.requoteIntervalMs,
    quoteOnBookChange: o.quoteOnBookChange,
    midHistory: o.midHistory,
    observer: { onFill: (fill) => fills.book(fill) },
  });
  w.target.onOrderEvent = (event) => trader.executor.onOrderEvent(event);
  await drive(
    w,
    async () => {
      await trader.adopt();
    },
    () => trader.quote(),
  );
  trader.stop();
  w.feed.stop();
  return { calls: w.recording.calls, open: trader.executor.openOrders().length };
}

describe('bot ≡ backtest', () => {
  it('the backtest defaults are the bot config defaults (risk limits, order management, requote interval)', () => {
    const config = parseConfigText('strategy: {name: fixed-spread}\n', { source: '<test>', baseDir: '/srv' });
    const o = resolveOptions({ strategy: { module: fixedSpread }, seed: 1, durationMs: 1 });
    const { perMarket: _perMarket, dailyLossLimitRaw: _loss, staleGraceMs: _grace, socketDownGraceMs: _down, maxAuthRefusals: _refusals, ...limits } = config.risk;
    expect(o.risk).toEqual(limits);
    expect(o.orders).toMatchObject({
      priceToleranceTicks: config.orders.refreshTolerance.priceTicks,
      sizeTolerance: config.orders.refreshTolerance.size,
      maxOrderAgeMs: config.orders.maxOrderAgeMs,
      coolOffMs: config.orders.filledOrderDelayMs,
      postOnly: config.orders.postOnly,
      cancelReplace: config.orders.cancelReplace,
    });
    expect(o.requoteIntervalMs).toBe(REQUOTE_INTERVAL_MS);
  });

  it('the same books and strategy give the same venue calls, in the same order', async () => {
    const bot = await botCalls();
    const backtest = await backtestCalls();
    // Not a trivial run: quotes placed, replaced as the book moved, and taken by the script's takers.
    expect(bot.calls.filter((c) => c.startsWith('place ')).length).toBeGreaterThan(2);
    expect(bot.calls.some((c) => c.startsWith('replace ') || c.startsWith('cancel '))).toBe(true);
    expect(backtest.calls).toEqual(bot.calls);
    expect(backtest.open).toBe(bot.open);
  });
});
