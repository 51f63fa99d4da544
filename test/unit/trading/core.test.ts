/**
 * The trading core (src/trading/core.ts) as its callers use it: built from options, started by `executor.start()`
 * and `runner.start()`. Checks the wiring it owns: the strategy's intents pass the caller's cap, then the account's
 * gate, into the executor (placed with the bot tag, on the market's tokens); every order change reaches the account
 * before the caller; the account hears the books before the runner subscribes, and `stop()` lets go of both; the
 * expiry requotes fall at each market's stop-before-expiry moment; the config's settings are the ones compose gives.
 * Markets that come and go: a join is adopted before it is quoted, a leave stops quoting at once, cancels and confirms,
 * still reports late fills and ends with the market dropped; joins and leaves around shutdown; many of them leave no
 * state behind.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { orderManagerSettings, parseConfigText, REQUOTE_INTERVAL_MS, riskLimitsFor } from '../../../src/config/index.js';
import type { LedgerStore } from '../../../src/ledger/index.js';
import type { BookView, MarketInfo, QuoteIntent } from '../../../src/strategy/contract.js';
import type { RunnerBooks } from '../../../src/strategy/runner.js';
import { formatClientOrderId, marketKey } from '../../../src/orders/client-order-id.js';
import type { FillEvent } from '../../../src/orders/executor.js';
import { RECHECK_MS } from '../../../src/orders/market-membership.js';
import { coreSettingsOf, TradingCore, type TradingCoreOptions } from '../../../src/trading/core.js';
import { advance, FakeVenue, settle, until } from '../../support/fake-venue.js';
import { coreWiring } from '../../support/core-wiring.js';
import { memoryLedger } from '../../support/ledger-fixtures.js';
import { book, market, noView, T0 } from '../../support/views.js';

const CONFIG = parseConfigText('strategy: {name: fixed-spread}\norders: {botTag: tc}\n', { source: '<test>', baseDir: '/srv' });
const ALPHA = market({ slug: 'alpha', tokens: { yes: '111', no: '222' }, expiresAtMs: T0 + 10 * 3_600_000 });
const BETA = market({ slug: 'beta', tokens: { yes: '333', no: '444' }, expiresAtMs: null });
const BID: QuoteIntent = { slot: 'bid-0', token: 'YES', side: 'BUY', priceTicks: 480, sizeRaw: 20_000_000, postOnly: true };

/** Books of every market at 0.48 / 0.52, with listeners counted. */
class Books implements RunnerBooks {
  readonly listeners = new Set<(slug: string) => void>();
  private readonly view = { yes: book({ bids: [[480, 100]], asks: [[520, 100]] }), no: noView(book({ bids: [[480, 100]], asks: [[520, 100]] })) };
  books(_slug: string): { readonly yes: BookView; readonly no: BookView } | null {
    return this.view;
  }
  onChange(listener: (slug: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

const ledgers: LedgerStore[] = [];
afterEach(() => {
  for (const ledger of ledgers.splice(0)) ledger.close();
});

function build(overrides: Partial<TradingCoreOptions> = {}) {
  const scheduler = new ManualClock(T0);
  const venue = new FakeVenue(() => scheduler.now());
  const books = new Books();
  const ledger = memoryLedger({ now: () => scheduler.now() });
  ledgers.push(ledger);
  const infos = new Map<string, MarketInfo>([ALPHA, BETA].map((m) => [m.slug, m]));
  const capped: (readonly QuoteIntent[])[] = [];
  const changes: string[] = [];
  const fills: FillEvent[] = [];
  const core: TradingCore = new TradingCore({
    ...coreWiring(CONFIG, scheduler, venue, infos),
    venue,
    scheduler,
    // Every market but beta bids (markets joined later included).
    strategy: { quote: (view) => (view.market.slug === 'beta' ? [] : [BID]) },
    ledger: ledger.positionBook,
    books,
    // The caller's cap: one tick lower than the strategy asked.
    capIntents: (_slug, intents) => {
      capped.push(intents);
      return intents.map((i) => ({ ...i, priceTicks: i.priceTicks - 1 }));
    },
    onFill: (fill) => fills.push(fill),
    // With the collateral the account allows the bot at that moment: the account saw the change first.
    onOrderChange: (order) => changes.push(`${order.state} ${core.account.balances().collateralRaw}`),
    ...overrides,
  });
  return { scheduler, venue, books, core, capped, changes, fills, deliver: (): void => venue.takeEvents().forEach((e) => core.executor.onOrderEvent(e)) };
}

describe('trading core', () => {
  it('strategy → cap → account gate → executor: placed with the bot tag on the market tokens', async () => {
    const t = build();
    await settle(t.scheduler, t.core.executor.start());
    t.core.runner.start();
    await until(t.scheduler, () => t.venue.live('alpha').length === 1);
    const [order] = t.venue.live('alpha');
    expect(order).toMatchObject({ priceTicks: 479, sizeRaw: 20_000_000, side: 'BUY', tokenId: '111' });
    expect(order!.clientOrderId?.startsWith('tc-')).toBe(true);
    expect(t.capped[0]).toEqual([BID]);
    expect(t.venue.live('beta')).toEqual([]);
    expect(t.changes[0]).toBe(`pending-new ${CONFIG.risk.maxNotionalRaw}`);
    t.core.stop();
  });

  it('every order change reaches the account before the caller: a refusal for want of balance is a shortfall at once', async () => {
    const t = build();
    await settle(t.scheduler, t.core.executor.start());
    t.venue.failNextPlace({ kind: 'rejected', reason: 'insufficient-balance' });
    t.core.runner.start();
    await until(t.scheduler, () => t.changes.some((c) => c.startsWith('rejected')));
    // No resting BUY locks collateral: the shortfall leaves none, already when the caller hears of the rejection.
    expect(t.changes.filter((c) => c.startsWith('rejected'))).toEqual(['rejected 0']);
    t.core.stop();
  });

  it('the account hears the books from the start, the runner once it starts; stop() lets go of both', async () => {
    const t = build();
    expect(t.books.listeners.size).toBe(1);
    await settle(t.scheduler, t.core.executor.start());
    t.core.runner.start();
    expect(t.books.listeners.size).toBe(2);
    t.core.stop();
    expect(t.books.listeners.size).toBe(0);
    const still = build({ quoteOnBookChange: false });
    await settle(still.scheduler, still.core.executor.start());
    still.core.runner.start();
    expect(still.books.listeners.size).toBe(1);
    still.core.stop();
  });

  it('arms a requote at each expiring market’s stop-before-expiry moment, none for a market without expiry', () => {
    const t = build();
    const armed: number[] = [];
    t.core.armExpiryRequotes((atMs) => armed.push(atMs));
    expect(armed).toEqual([ALPHA.expiresAtMs! - riskLimitsFor(CONFIG.risk, 'alpha').stopBeforeExpiryMs]);
  });

  it("the config's settings: the bot tag, the order manager's settings, the mode poll and the requote interval", () => {
    expect(coreSettingsOf(CONFIG)).toEqual({
      orders: { botTag: 'tc', ...orderManagerSettings(CONFIG) },
      modePollIntervalMs: CONFIG.maintenance.pollIntervalMs,
      requoteIntervalMs: REQUOTE_INTERVAL_MS,
    });
  });
});

const GAMMA = market({ slug: 'gamma', tokens: { yes: '555', no: '666' }, expiresAtMs: T0 + 10 * 3_600_000 });
const RETAIN_MS = 5_000;

/** A core quoting alpha (and beta, with nothing), its executor's terminal orders kept RETAIN_MS. */
async function running(overrides: Partial<TradingCoreOptions> = {}) {
  const t = build({ orders: { ...coreSettingsOf(CONFIG).orders, retainTerminalMs: RETAIN_MS }, ...overrides });
  await settle(t.scheduler, t.core.executor.start());
  t.core.runner.start();
  await until(t.scheduler, () => t.venue.live('alpha').length === 1);
  return t;
}

describe('trading core: markets that come and go', () => {
  it('add → the bot’s live orders adopted first → quoted: the adopted bid is kept, nothing quoted before', async () => {
    const t = await running();
    const adopted = t.venue.seedOrder({ marketSlug: 'gamma', tokenId: '555', side: 'BUY', priceTicks: 479, sizeRaw: 20_000_000, clientOrderId: formatClientOrderId({ botTag: 'tc', marketKey: marketKey('gamma'), slot: 'bid-0', sequence: 7 }) });
    const listing = t.venue.hold('listLiveOrders');
    const joining = t.core.addMarket(GAMMA);
    await until(t.scheduler, () => listing.reached);
    await advance(t.scheduler, 2_000);
    expect([t.core.runner.marketCount(), t.core.markets.info('gamma')]).toEqual([2, undefined]);
    listing.release();
    expect(await settle(t.scheduler, joining)).toMatchObject({ marketSlug: 'gamma', ok: true, adopted: 1, canceled: 0 });
    await until(t.scheduler, () => t.core.runner.cycles('gamma') > 0);
    await advance(t.scheduler, 1_000);
    expect(t.venue.live('gamma').map((o) => o.orderId)).toEqual([adopted.orderId]);
    expect(t.venue.callsOf('placeOrder').filter((c) => c.detail.includes('gamma'))).toEqual([]);
    expect(t.core.markets.infoList().map((m) => m.slug)).toEqual(['alpha', 'beta', 'gamma']);
    // Idempotent: joined again, nothing new.
    expect(await settle(t.scheduler, t.core.addMarket(GAMMA))).toMatchObject({ ok: true, adopted: 0 });
    expect(t.core.stateCounts()).toMatchObject({ markets: 3, runnerMarkets: 3, executorMarkets: 3 });
    t.core.stop();
  });

  it('remove → quoting stops, orders canceled and confirmed → retired → a late fill still reported → dropped', async () => {
    const t = await running();
    const [order] = t.venue.live('alpha');
    t.venue.fill(order!.orderId, 5_000_000, 'late-1');
    const late = t.venue.takeEvents();
    const report = await settle(t.scheduler, t.core.removeMarket('alpha', { budgetMs: 5_000 }));
    expect(report).toEqual({ clean: true, left: 0 });
    expect(t.venue.live('alpha')).toEqual([]);
    expect([t.core.markets.info('alpha'), t.core.runner.marketCount(), t.core.executor.isActiveMarket('alpha')]).toEqual([undefined, 1, false]);
    const placements = t.venue.callsOf('placeOrder').length;
    late.forEach((e) => t.core.executor.onOrderEvent(e));
    t.core.requote('alpha');
    await advance(t.scheduler, 2 * REQUOTE_INTERVAL_MS);
    expect(t.fills).toMatchObject([{ tradeEventId: 'late-1', marketSlug: 'alpha', sizeRaw: 5_000_000 }]);
    expect(t.venue.callsOf('placeOrder')).toHaveLength(placements);
    await advance(t.scheduler, RETAIN_MS + 1_000, 100);
    // Beta alone is left (its gate decision and key are the account's and the executor's only entries).
    expect(t.core.stateCounts()).toEqual({ markets: 1, runnerMarkets: 1, accountMarkets: 1, executorMarkets: 1, executorRetiredMarkets: 0, trackedOrders: 0, openOrders: 0, orderIndexMarkets: 0, marketKeys: 1, membershipOps: 0 });
    t.core.stop();
  });

  it('remove during a plan in flight: waits for it, then cancels what it placed', async () => {
    const t = build({ orders: { ...coreSettingsOf(CONFIG).orders, retainTerminalMs: RETAIN_MS } });
    await settle(t.scheduler, t.core.executor.start());
    const placing = t.venue.hold('placeOrder');
    t.core.runner.start();
    await until(t.scheduler, () => placing.reached);
    const leaving = t.core.removeMarket('alpha', { budgetMs: 10_000 });
    await advance(t.scheduler, 500);
    expect(t.venue.callsOf('cancelOrders')).toEqual([]);
    placing.release();
    expect(await settle(t.scheduler, leaving)).toEqual({ clean: true, left: 0 });
    expect(t.venue.live('alpha')).toEqual([]);
    t.core.stop();
  });

  it('around shutdown: a join is refused (nothing quoted), a leave is covered by the shutdown’s cancels', async () => {
    const t = await running();
    const stopping = t.core.executor.shutdown({ budgetMs: 3_000 });
    const [joined, left] = await settle(t.scheduler, Promise.all([t.core.addMarket(GAMMA), t.core.removeMarket('alpha', { budgetMs: 3_000 })]));
    expect(joined).toMatchObject({ marketSlug: 'gamma', ok: false });
    expect(left).toEqual({ clean: true, left: 0 });
    expect(await settle(t.scheduler, stopping)).toMatchObject({ clean: true });
    expect([t.core.markets.info('gamma'), t.core.runner.marketCount()]).toEqual([undefined, 1]);
    expect(t.venue.live()).toEqual([]);
    t.core.stop();
  });

  it('arms a joined market’s requote at its stop-before-expiry moment', () => {
    const t = build();
    const armed: number[] = [];
    t.core.armExpiryRequote(GAMMA, (atMs) => armed.push(atMs));
    t.core.armExpiryRequote(BETA, (atMs) => armed.push(atMs));
    expect(armed).toEqual([GAMMA.expiresAtMs! - riskLimitsFor(CONFIG.risk, 'gamma').stopBeforeExpiryMs]);
  });

  it('many joins and leaves leave no state behind in the executor, the runner or the account', async () => {
    const t = await running();
    const baseline = t.core.stateCounts();
    for (let i = 0; i < 20; i += 1) {
      const info = market({ slug: `m-${i}`, tokens: { yes: String(9000 + 2 * i), no: String(9001 + 2 * i) } });
      await settle(t.scheduler, t.core.addMarket(info));
      await until(t.scheduler, () => t.venue.live(info.slug).length === 1);
      const [order] = t.venue.live(info.slug);
      t.venue.fill(order!.orderId, 1_000_000);
      t.deliver();
      expect(await settle(t.scheduler, t.core.removeMarket(info.slug, { budgetMs: 5_000 }))).toEqual({ clean: true, left: 0 });
    }
    expect(t.fills.filter((f) => f.marketSlug.startsWith('m-'))).toHaveLength(20);
    await advance(t.scheduler, RETAIN_MS + RECHECK_MS, 1_000);
    expect(t.core.stateCounts()).toEqual(baseline);
    t.core.stop();
  });
});
