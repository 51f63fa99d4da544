/**
 * The open orders' locks kept incrementally by the order store (src/orders/open-order-locks.ts): a property test over
 * seeded random order events (placements, answers, partial fills, cancels, unknown outcomes, rejections, a market
 * dropped, terminal orders pruned). After every event the store's figures must equal the same figures recomputed from
 * its open orders, by the aggregate itself (`OpenOrderLocks.of`) and by the funding's and the risk limits' own
 * formulas (`lockedFunds`, `openBuyCollateralRaw`); and the gate fed the aggregate decides exactly as the gate fed
 * every open order.
 */
import { describe, expect, it } from 'vitest';
import { collateralRaw } from '../../../src/core/venue-rules/index.js';
import { mulberry32 } from '../../../src/core/random.js';
import { lockedFunds } from '../../../src/orders/funding.js';
import { OpenOrderLocks, type OpenOrderLocksView } from '../../../src/orders/open-order-locks.js';
import { newOrder, type TrackedOrder } from '../../../src/orders/order-record.js';
import type { OrderState } from '../../../src/orders/order-state.js';
import { OrderStore } from '../../../src/orders/order-store.js';
import { gateIntents, type GateInput } from '../../../src/risk/gate.js';
import { openBuyCollateralRaw } from '../../../src/risk/limits.js';
import type { QuoteIntent } from '../../../src/strategy/contract.js';
import { market as marketInfo } from '../../support/views.js';

const MARKETS = ['m0', 'm1', 'm2', 'm3', 'm4'];
const S = 1_000_000;
const OPEN_NEXT: readonly OrderState[] = ['live', 'partially-filled', 'pending-cancel', 'unknown', 'filled', 'canceled', 'rejected'];

function tokenIdOf(slug: string, token: 'YES' | 'NO'): string {
  return `${slug}-${token}`;
}

/** Every figure of `view`, in a form `toEqual` compares (token maps without their zero entries). */
function figures(view: OpenOrderLocksView): object {
  const tokens = [...view.tokensRaw()].filter(([, raw]) => raw !== 0).sort(([a], [b]) => a.localeCompare(b));
  const markets = [...view.marketsWithBuys()].sort();
  return {
    buy: view.buyCollateralRaw(),
    remaining: view.remainingBuyCollateralRaw(),
    markets,
    perMarket: MARKETS.map((m) => view.marketBuyCollateralRaw(m)),
    tokens,
  };
}

/** The same figures from the open orders with the funding's and the risk limits' formulas. */
function independent(store: OrderStore): object {
  const open = store.open();
  const funds = lockedFunds(open);
  let remaining = 0;
  for (const order of open) if (order.side === 'BUY' && order.remainingRaw > 0) remaining += collateralRaw(order.remainingRaw, order.priceTicks, 'BUY');
  return {
    buy: funds.collateralRaw,
    remaining,
    markets: [...new Set(open.filter((o) => o.side === 'BUY').map((o) => o.marketSlug))].sort(),
    perMarket: MARKETS.map((m) => openBuyCollateralRaw(store.openInMarket(m))),
    tokens: [...funds.tokensRaw].filter(([, raw]) => raw !== 0).sort(([a], [b]) => a.localeCompare(b)),
  };
}

/** One seeded run of `steps` random events against a store; `check` after each. */
function randomRun(seed: number, steps: number, check: (store: OrderStore, step: number) => void): void {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const store = new OrderStore();
  let now = 1_000;
  let seq = 0;
  for (let step = 0; step < steps; step++) {
    now += 10;
    const roll = random();
    const open = store.open();
    if (roll < 0.35 || open.length === 0) {
      const slug = pick(MARKETS);
      const token = pick(['YES', 'NO'] as const);
      const sizeRaw = (1 + Math.floor(random() * 50)) * S + (random() < 0.3 ? 10_000 : 0);
      const order = newOrder(
        { clientOrderId: `c-${seq++}`, marketSlug: slug, slot: `s-${Math.floor(random() * 4)}`, token, tokenId: tokenIdOf(slug, token), side: pick(['BUY', 'SELL'] as const), priceTicks: 1 + Math.floor(random() * 998), sizeRaw, postOnly: true, orderType: 'GTC' },
        now,
      );
      store.put(order);
    } else if (roll < 0.93) {
      const order = pick(open);
      const state = pick(OPEN_NEXT);
      let remainingRaw = order.remainingRaw;
      if (state === 'partially-filled') remainingRaw = Math.max(10_000, Math.floor((order.remainingRaw * random()) / 10_000) * 10_000);
      if (state === 'filled') remainingRaw = 0;
      const next: TrackedOrder = { ...order, state, remainingRaw, filledRaw: order.sizeRaw - remainingRaw, orderId: order.orderId ?? `o-${order.clientOrderId}`, updatedAtMs: now };
      store.put(next);
    } else if (roll < 0.96) {
      store.dropMarket(pick(MARKETS));
    } else {
      store.pruneTerminal(pick(MARKETS), now - 50);
    }
    check(store, step);
  }
}

describe('open-order locks kept by the order store', () => {
  it('equal the locks recomputed from the open orders after every random event (10 seeds × 400 events)', () => {
    for (let seed = 1; seed <= 10; seed++) {
      randomRun(seed, 400, (store, step) => {
        const kept = figures(store.locks);
        expect(kept, `seed ${seed} step ${step}: against OpenOrderLocks.of`).toEqual(figures(OpenOrderLocks.of(store.open())));
        expect(kept, `seed ${seed} step ${step}: against lockedFunds / openBuyCollateralRaw`).toEqual(independent(store));
      });
    }
  });

  it('a terminal order locks nothing; a market dropped leaves no entry', () => {
    const store = new OrderStore();
    const bid = newOrder({ clientOrderId: 'c-1', marketSlug: 'm0', slot: 'bid-0', token: 'YES', tokenId: 'm0-YES', side: 'BUY', priceTicks: 450, sizeRaw: 10 * S, postOnly: true, orderType: 'GTC' }, 0);
    const ask = newOrder({ clientOrderId: 'c-2', marketSlug: 'm0', slot: 'ask-0', token: 'YES', tokenId: 'm0-YES', side: 'SELL', priceTicks: 550, sizeRaw: 7 * S, postOnly: true, orderType: 'GTC' }, 0);
    store.put(bid);
    store.put(ask);
    expect(store.locks.buyCollateralRaw()).toBe(4_500_000);
    expect(store.locks.tokensRaw().get('m0-YES')).toBe(7 * S);
    // Resting after a partial fill: its remaining size; unknown: its full size again.
    store.put({ ...bid, state: 'partially-filled', remainingRaw: 4 * S, orderId: 'o-1' });
    expect(store.locks.buyCollateralRaw()).toBe(1_800_000);
    store.put({ ...bid, state: 'unknown', remainingRaw: 4 * S, orderId: 'o-1' });
    expect(store.locks.buyCollateralRaw()).toBe(4_500_000);
    expect(store.locks.remainingBuyCollateralRaw()).toBe(1_800_000);
    store.put({ ...bid, state: 'canceled', remainingRaw: 4 * S, orderId: 'o-1' });
    expect(figures(store.locks)).toEqual({ buy: 0, remaining: 0, markets: [], perMarket: [0, 0, 0, 0, 0], tokens: [['m0-YES', 7 * S]] });
    store.dropMarket('m0');
    expect([...store.locks.tokensRaw()]).toEqual([]);
  });

  it('the gate fed the aggregate and one market\'s orders decides as the gate fed every open order', () => {
    const intents: QuoteIntent[] = [
      { slot: 's-0', token: 'YES', side: 'BUY', priceTicks: 450, sizeRaw: 40 * S },
      { slot: 's-1', token: 'YES', side: 'SELL', priceTicks: 550, sizeRaw: 30 * S },
      { slot: 's-2', token: 'NO', side: 'BUY', priceTicks: 300, sizeRaw: 25 * S },
    ];
    randomRun(42, 300, (store, step) => {
      const slug = MARKETS[step % MARKETS.length]!;
      const info = { ...marketInfo({ slug }), tokens: { yes: tokenIdOf(slug, 'YES'), no: tokenIdOf(slug, 'NO') } };
      const base: Omit<GateInput, 'openOrders'> = {
        market: info,
        resolved: false,
        intents,
        holdings: new Map(MARKETS.map((m, i) => [m, { yesRaw: 10 * S * i, noRaw: 5 * S, costRaw: 3 * S * i }])),
        balances: { collateralRaw: 60 * S, tokensRaw: new Map([[tokenIdOf(slug, 'YES'), 35 * S], [tokenIdOf(slug, 'NO'), 12 * S]]) },
        limits: { maxPositionPerTokenRaw: 500 * S, maxNetPositionRaw: 300 * S, maxOpenOrders: 8, stopBeforeExpiryMs: 0, maxNotionalRaw: 150 * S },
        nowMs: 0,
        killSwitchTripped: false,
        stale: false,
        committedBuysRaw: new Map([['m1', 2 * S]]),
      };
      const locks = store.locks;
      const fromAll = gateIntents({ ...base, openOrders: store.open() });
      const fromAggregate = gateIntents({
        ...base,
        openOrders: store.openInMarket(slug),
        locks: { locked: { collateralRaw: locks.buyCollateralRaw(), tokensRaw: locks.tokensRaw() }, buyCollateralRaw: (m) => locks.marketBuyCollateralRaw(m) },
      });
      expect(fromAggregate, `step ${step}`).toEqual(fromAll);
    });
  });
});
