/**
 * The trading core (src/trading/core.ts) as its callers use it: built from options, started by `executor.start()`
 * and `runner.start()`. Checks the wiring it owns: the strategy's intents pass the caller's cap, then the account's
 * gate, into the executor (placed with the bot tag, on the market's tokens); every order change reaches the account
 * before the caller; the account hears the books before the runner subscribes, and `stop()` lets go of both; the
 * expiry requotes fall at each market's stop-before-expiry moment; the config's settings are the ones compose gives.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { orderManagerSettings, parseConfigText, REQUOTE_INTERVAL_MS, riskLimitsFor } from '../../../src/config/index.js';
import type { LedgerStore } from '../../../src/ledger/index.js';
import type { BookView, MarketInfo, QuoteIntent } from '../../../src/strategy/contract.js';
import type { RunnerBooks } from '../../../src/strategy/runner.js';
import { coreSettingsOf, TradingCore, type TradingCoreOptions } from '../../../src/trading/core.js';
import { FakeVenue, settle, until } from '../../support/fake-venue.js';
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
  const settings = coreSettingsOf(CONFIG);
  const core: TradingCore = new TradingCore({
    venue,
    scheduler,
    strategy: { quote: (view) => (view.market.slug === 'alpha' ? [BID] : []) },
    markets: { slugs: () => [...infos.keys()], info: (slug) => infos.get(slug), isResolved: () => false, infoList: () => [...infos.values()] },
    ledger,
    risk: CONFIG.risk,
    mode: { pollIntervalMs: settings.modePollIntervalMs, fetchStatus: () => venue.maintenanceStatus() },
    orders: settings.orders,
    account: { halts: () => ({ killSwitch: false, stale: false }), onBlocked: () => undefined, log: { info: () => undefined } },
    books,
    runner: { requoteIntervalMs: settings.requoteIntervalMs, setInterval: (fn, ms) => scheduler.schedule(ms, fn) },
    // The caller's cap: one tick lower than the strategy asked.
    capIntents: (_slug, intents) => {
      capped.push(intents);
      return intents.map((i) => ({ ...i, priceTicks: i.priceTicks - 1 }));
    },
    onFill: () => undefined,
    // With the collateral the account allows the bot at that moment: the account saw the change first.
    onOrderChange: (order) => changes.push(`${order.state} ${core.account.balances().collateralRaw}`),
    ...overrides,
  });
  return { scheduler, venue, books, core, capped, changes };
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
