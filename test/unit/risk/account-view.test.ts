/**
 * AccountView (the account shared by the bot and the backtest) through its public entries: own liquidity that left
 * the book stays the bot's until the next book update; a placement refused for want of balance takes its side out of funding until the balances are read again;
 * the gate halts a resolved or unknown market and quotes a healthy one within its budget; recent fills are kept; a
 * market removed leaves no per-market state, and one left with a position counts in the budget until it resolves.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { AccountView, FILL_MEMORY_MS } from '../../../src/risk/account-view.js';
import { TradedMarkets } from '../../../src/markets/traded-markets.js';
import { parseConfigText } from '../../../src/config/index.js';
import { newOrder } from '../../../src/orders/order-record.js';
import type { TrackedOrder } from '../../../src/orders/order-record.js';
import { OrderStore } from '../../../src/orders/order-store.js';
import { INSUFFICIENT_BALANCE } from '../../../src/risk/balance-shortfall.js';
import { EXECUTOR_FILL, memoryLedger, T0 } from '../../support/ledger-fixtures.js';
import { market } from '../../support/views.js';

const SLUG = 'btc';

function harness(halts = { killSwitch: false, stale: false }) {
  const ledger = memoryLedger();
  const open = new OrderStore();
  const blocked: string[] = [];
  let now = T0;
  const markets = new TradedMarkets([{ slug: SLUG, id: 1 }], () => market({ slug: SLUG, expiresAtMs: T0 + 30 * 86_400_000 }));
  const config = parseConfigText('strategy: {name: fixed-spread}\nrisk: {maxNotional: 100}\n', { source: '<test>', baseDir: '/srv' });
  const account = new AccountView({
    ledger: ledger.positionBook,
    orders: { openIn: (slug) => open.openInMarket(slug), locks: open.locks },
    markets,
    risk: config.risk,
    now: () => now,
    halts: () => halts,
    onBlocked: (slug, reason) => blocked.push(`${slug}:${reason}`),
    log: pino({ level: 'silent' }),
  });
  return { account, ledger, open, blocked, markets, advance: (ms: number) => (now += ms) };
}

const bid = newOrder({ clientOrderId: 'om-k-bid-0-1', marketSlug: SLUG, slot: 'bid-0', token: 'YES', tokenId: '101', side: 'BUY', priceTicks: 450, sizeRaw: 5_000_000, postOnly: true, orderType: 'GTC' }, T0);
const live: TrackedOrder = { ...bid, orderId: 'o-1', state: 'live' };

describe('AccountView', () => {
  it('own liquidity that left the book (filled) is still the bot\'s until the next book update', () => {
    const h = harness();
    h.open.put(live);
    expect(h.account.ownOrders(SLUG)).toEqual([{ token: 'YES', side: 'BUY', priceTicks: 450, sizeRaw: 5_000_000 }]);
    const filled: TrackedOrder = { ...live, state: 'filled', remainingRaw: 0, filledRaw: 5_000_000 };
    h.open.put(filled);
    h.account.orderChanged(filled, live);
    expect(h.account.ownOrders(SLUG)).toEqual([{ token: 'YES', side: 'BUY', priceTicks: 450, sizeRaw: 5_000_000 }]);
    h.account.bookChanged(SLUG);
    expect(h.account.ownOrders(SLUG)).toEqual([]);
    h.ledger.close();
  });

  it('a BUY refused for want of collateral: counted, and no BUY budget beyond resting BUYs until balances are read', () => {
    const h = harness();
    expect(h.account.balances().collateralRaw).toBe(100_000_000);
    h.account.orderChanged({ ...bid, state: 'rejected', reason: INSUFFICIENT_BALANCE }, bid);
    expect(h.blocked).toEqual([`${SLUG}:${INSUFFICIENT_BALANCE}`]);
    expect(h.account.balances().collateralRaw).toBe(0);
    h.account.balancesRead();
    expect(h.account.balances().collateralRaw).toBe(100_000_000);
    h.ledger.close();
  });

  it('the gate: an unknown market is not ready, a resolved one quotes nothing, a healthy one quotes within budget', () => {
    const h = harness();
    const intent = { slot: 'bid-0', token: 'YES' as const, side: 'BUY' as const, priceTicks: 450, sizeRaw: 5_000_000 };
    expect(h.account.gate('other', [intent])).toEqual({ intents: [], halt: 'not-ready' });
    expect(h.account.gate(SLUG, [intent])).toEqual({ intents: [intent], halt: null });
    h.markets.markResolved(SLUG);
    expect(h.account.gate(SLUG, [intent])).toEqual({ intents: [], halt: 'market-resolved' });
    h.ledger.close();
  });

  it('the gate halts on the kill switch', () => {
    const h = harness({ killSwitch: true, stale: false });
    const outcome = h.account.gate(SLUG, [{ slot: 'bid-0', token: 'YES', side: 'BUY', priceTicks: 450, sizeRaw: 5_000_000 }]);
    expect(outcome.intents).toEqual([]);
    expect(outcome.halt).toBe('kill-switch');
    h.ledger.close();
  });

  it('recent fills: kept per market for FILL_MEMORY_MS', () => {
    const h = harness();
    h.account.noteFill(EXECUTOR_FILL);
    expect(h.account.recentFills('btc')).toEqual([{ token: 'YES', side: 'BUY', priceTicks: 450, sizeRaw: 4_000_000, atMs: T0 }]);
    h.advance(FILL_MEMORY_MS + 1);
    h.account.noteFill({ ...EXECUTOR_FILL, atMs: T0 + FILL_MEMORY_MS + 1 });
    expect(h.account.recentFills('btc').map((f) => f.atMs)).toEqual([T0 + FILL_MEMORY_MS + 1]);
    h.ledger.close();
  });
});

describe('AccountView: markets that come and go', () => {
  /** A traded set the test changes, and a ledger holding `held` YES of each market at 0.5 (cost half the size). */
  function rolling() {
    const traded = new Map([['btc', market({ slug: 'btc' })], ['eth', market({ slug: 'eth' })]]);
    const resolved = new Set<string>();
    const held = new Map<string, number>();
    const config = parseConfigText('strategy: {name: fixed-spread}\nrisk: {maxNotional: 100}\n', { source: '<test>', baseDir: '/srv' });
    const account = new AccountView({
      ledger: {
        positionCostRaw: (slug) => (held.get(slug) ?? 0) / 2,
        isHeld: (slug) => (held.get(slug) ?? 0) !== 0,
        heldCostRaw: () => [...held.values()].reduce((sum, raw) => sum + raw / 2, 0),
        tokenBalanceById: (tokenId) => (tokenId.endsWith('-YES') ? held.get(tokenId.slice(0, -4)) : undefined),
        heldMarkets: () => [...held].filter(([, raw]) => raw !== 0).map(([slug]) => slug),
        marketPosition: (slug) => ({ yesRaw: held.get(slug) ?? 0, noRaw: 0, yesAvgCost: null, noAvgCost: null }),
      },
      orders: { openIn: () => [], locks: new OrderStore().locks },
      markets: { slugs: () => [...traded.keys()], info: (slug) => traded.get(slug), isResolved: (slug) => resolved.has(slug) },
      risk: config.risk,
      now: () => T0,
      halts: () => ({ killSwitch: false, stale: false }),
      onBlocked: () => undefined,
      log: pino({ level: 'silent' }),
    });
    return { account, traded, resolved, held };
  }
  const intent = { slot: 'bid-0', token: 'YES' as const, side: 'BUY' as const, priceTicks: 450, sizeRaw: 5_000_000 };

  it('a market removed forgets its fills, departed liquidity and committed buys; late news of it is not kept', () => {
    const r = rolling();
    const ethFill = { ...EXECUTOR_FILL, marketSlug: 'eth' };
    r.account.noteFill(ethFill);
    r.account.gate('eth', [intent]);
    r.account.orderChanged({ ...live, marketSlug: 'eth', state: 'filled', remainingRaw: 0 }, { ...live, marketSlug: 'eth' });
    expect(r.account.marketCount()).toBe(1);
    r.traded.delete('eth');
    r.account.removeMarket('eth');
    expect(r.account.marketCount()).toBe(0);
    expect(r.account.recentFills('eth')).toEqual([]);
    expect(r.account.ownOrders('eth')).toEqual([]);
    r.account.noteFill(ethFill);
    r.account.orderChanged({ ...live, marketSlug: 'eth', state: 'filled', remainingRaw: 0 }, { ...live, marketSlug: 'eth' });
    expect(r.account.marketCount()).toBe(0);
    expect(r.account.gate('eth', [intent])).toEqual({ intents: [], halt: 'not-ready' });
  });

  it('a market left with a position keeps counting in the budget until it resolves', () => {
    const r = rolling();
    r.held.set('eth', 40_000_000);
    expect(r.account.balances().collateralRaw).toBe(80_000_000);
    r.traded.delete('eth');
    r.account.removeMarket('eth');
    expect(r.account.balances().collateralRaw).toBe(80_000_000);
    // The other markets' notional sees it too: with 20 of 100 at cost in eth, a bid for 90 in btc is trimmed.
    const big = { ...intent, sizeRaw: 200_000_000 };
    const whileHeld = r.account.gate('btc', [big]).intents[0]?.sizeRaw ?? 0;
    r.resolved.add('eth');
    expect(r.account.balances().collateralRaw).toBe(100_000_000);
    const afterResolution = r.account.gate('btc', [big]).intents[0]?.sizeRaw ?? 0;
    // 80 USDC left buy 177.777 shares at 0.45; once eth resolved the whole 90 fits.
    expect([whileHeld, afterResolution]).toEqual([177_777_000, 200_000_000]);
  });
});
