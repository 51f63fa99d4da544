/**
 * The engine's reads: markets and groups (through `freshView`, so a late expiry is applied first), accounts and
 * balances, books, orders (newest first), the public trade feed, an account's fills and positions, and stats.
 *
 * Invariant: a read changes nothing but a due expiry; every answer is a copy (views), never live state.
 */
import { listKey, clientKey, type EngineCore } from './core.js';
import { freshView, refreshExpiry } from './lifecycle.js';
import type { AccountFill, Balances, BookSnapshot, EngineStats, MarketTrade, OrderStatus, PositionSummary, SimAccount, SimGroup, SimMarket, SimOrder } from './types.js';
import type { MarketState } from './state.js';

const ORDER_STATUSES: readonly OrderStatus[] = ['LIVE', 'MATCHED', 'CANCELED', 'UNMATCHED'];

export function markets(core: EngineCore): readonly SimMarket[] {
  return core.command(() => [...core.marketsBySlug.values()].map((m) => freshView(core, m)));
}

export function market(core: EngineCore, slug: string): SimMarket | undefined {
  const m = core.marketsBySlug.get(slug);
  return m ? core.command(() => freshView(core, m)) : undefined;
}

export function marketById(core: EngineCore, id: number): SimMarket | undefined {
  const m = core.marketsById.get(id);
  return m ? core.command(() => freshView(core, m)) : undefined;
}

export function marketByConditionId(core: EngineCore, conditionId: string): SimMarket | undefined {
  const m = core.marketsByCondition.get(conditionId.toLowerCase());
  return m ? core.command(() => freshView(core, m)) : undefined;
}

export function groups(core: EngineCore): readonly SimGroup[] {
  return [...core.groupsBySlug.keys()].flatMap((slug) => {
    const g = group(core, slug);
    return g ? [g] : [];
  });
}

export function group(core: EngineCore, slug: string): SimGroup | undefined {
  const g = core.groupsBySlug.get(slug);
  if (!g) return undefined;
  return core.command(() => ({
    slug,
    title: g.title,
    negRiskRequestId: g.negRiskRequestId,
    markets: g.markets.map((m) => freshView(core, m)),
  }));
}

export function accounts(core: EngineCore): readonly SimAccount[] {
  return [...core.accountsById.values()].map((a) => a.view());
}

export function account(core: EngineCore, profileId: number): SimAccount | undefined {
  return core.accountsById.get(profileId)?.view();
}

export function accountByAddress(core: EngineCore, address: string): SimAccount | undefined {
  return core.accountsByAddress.get(address.toLowerCase())?.view();
}

export function balances(core: EngineCore, profileId: number): Balances | undefined {
  return core.accountsById.get(profileId)?.balances();
}

export function book(core: EngineCore, slug: string): BookSnapshot | undefined {
  const m = core.marketsBySlug.get(slug);
  if (!m) return undefined;
  return core.command(() => {
    refreshExpiry(core, m);
    return m.book.snapshot();
  });
}

export function lastTradeTicks(core: EngineCore, slug: string): number | null {
  return core.marketsBySlug.get(slug)?.lastTradeTicks ?? null;
}

export function orders(core: EngineCore, profileId: number, slug: string, statuses: readonly OrderStatus[], limit?: number): SimOrder[] {
  const market = core.marketsBySlug.get(slug);
  if (!market) return [];
  return core.command(() => {
    refreshExpiry(core, market);
    const list = core.orderLists.get(listKey(profileId, market.spec.id));
    if (!list) return [];
    const wanted = new Set(statuses.filter((s) => ORDER_STATUSES.includes(s)));
    const max = limit === undefined ? Number.POSITIVE_INFINITY : Math.max(0, Math.floor(limit));
    // The live orders alone (the common read): from the live set, newest first, as the walk below would list them.
    const candidates = wanted.size === 1 && wanted.has('LIVE') ? [...list.live] : list.orders;
    const out: SimOrder[] = [];
    for (let i = candidates.length - 1; i >= 0 && out.length < max; i -= 1) {
      const order = candidates[i];
      if (order && wanted.has(order.status)) out.push(order.view());
    }
    return out;
  });
}

export function orderById(core: EngineCore, id: string): SimOrder | undefined {
  return core.ordersById.get(id)?.view();
}

export function orderByClientOrderId(core: EngineCore, profileId: number, clientOrderId: string): SimOrder | undefined {
  return core.ordersByClientId.get(clientKey(profileId, clientOrderId))?.view();
}

export function trades(core: EngineCore, slugs: readonly string[]): MarketTrade[] {
  const markets = new Set<MarketState>();
  for (const slug of slugs) {
    const m = core.marketsBySlug.get(slug);
    if (m) markets.add(m);
    for (const gm of core.groupsBySlug.get(slug)?.markets ?? []) markets.add(gm);
  }
  // Each feed is already in sequence order; only a multi-market feed needs a merge.
  const entries = [...markets].flatMap((m) => m.feed);
  if (markets.size > 1) entries.sort((a, b) => a.seq - b.seq);
  const out: MarketTrade[] = new Array<MarketTrade>(entries.length);
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[entries.length - 1 - i];
    if (entry) out[i] = entry.trade;
  }
  return out;
}

export function accountTrades(core: EngineCore, profileId: number): AccountFill[] {
  const account = core.accountsById.get(profileId);
  if (!account) return [];
  const fills = account.fills();
  const out: AccountFill[] = [];
  for (let i = fills.length - 1; i >= 0; i -= 1) {
    const f = fills[i];
    if (f) out.push({ ...f });
  }
  return out;
}

/** The account's fills of one order in one trade event, newest first (from the account's index, not a scan). */
export function accountTradesOf(core: EngineCore, profileId: number, tradeEventId: string, orderId: string): AccountFill[] {
  const fills = core.accountsById.get(profileId)?.fillsOf(tradeEventId, orderId) ?? [];
  return fills.map((f) => ({ ...f })).reverse();
}

export function positions(core: EngineCore, profileId: number): PositionSummary[] {
  const account = core.accountsById.get(profileId);
  if (!account) return [];
  const out: PositionSummary[] = [];
  for (const market of core.marketsById.values()) {
    const { yesTokenId, noTokenId, id } = market.spec;
    const live = [...(core.orderLists.get(listKey(profileId, id))?.live ?? [])];
    if (!account.hasPosition(id) && account.tokenTotal(yesTokenId) === 0 && account.tokenTotal(noTokenId) === 0 && live.length === 0) {
      continue;
    }
    out.push({
      marketSlug: market.spec.slug,
      marketId: id,
      conditionId: market.spec.conditionId,
      yes: account.tokenPosition(id, 'YES', yesTokenId),
      no: account.tokenPosition(id, 'NO', noTokenId),
      liveOrders: live.length,
      collateralLockedRaw: live.reduce((sum, o) => sum + (o.side === 'BUY' ? o.lockedRaw : 0), 0),
      feesPaidRaw: account.position(id).feesPaidRaw,
    });
  }
  return out;
}

export function stats(core: EngineCore): EngineStats {
  let resting = 0;
  for (const m of core.marketsBySlug.values()) resting += m.book.size;
  return {
    restingOrders: resting,
    tradesMatched: core.tradesMatched,
    tradesMined: core.tradesMined,
    feesCollectedRaw: core.feesCollectedRaw,
    ordersPlaced: core.ordersPlaced,
  };
}
