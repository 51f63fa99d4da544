/**
 * Public REST routes (no authentication): active market listings, category counts, market details
 * (market or group form), the orderbook, the finalized-trade feed, maintenance status, public profiles.
 *
 * `GET /markets/active[/{categoryId}]` takes `page`, `limit` (1–25) and `sortBy` (the official client's
 * ActiveMarketsSortBy: lp_rewards, ending_soon, newest, high_value, liquidity); any other value is a 400.
 * Invariants: unknown query fields are 400 validation errors; slugs are exact (a group slug is accepted
 * only where the spec says so: market details and the trade feed); `GET /markets/{slug}/events` carries
 * the spec's Cache-Control on success and on 404.
 */
import { getAddress } from 'viem';
import type { SimEngine, SimGroup, SimMarket } from '../engine/index.js';
import { HttpError, invalidField, notFound, validationError, type ValidationIssue } from './http-errors.js';
import { assertKnownQuery, queryInt, unknownQueryIssues } from './query.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteDef } from './router.js';
import { groupWire, marketWire, orderbookAnswer } from './wire-format.js';

export const ACTIVE_MARKETS_DEFAULT_LIMIT = 25;
/** The official client's ActiveMarketsParams: "Maximum number of markets to return (max 25)". */
export const ACTIVE_MARKETS_MAX_LIMIT = 25;
/** The official client's ActiveMarketsSortBy. */
export const ACTIVE_MARKETS_SORTS = ['lp_rewards', 'ending_soon', 'newest', 'high_value', 'liquidity'] as const;
export type ActiveMarketsSort = (typeof ACTIVE_MARKETS_SORTS)[number];
export const EVENTS_CACHE_CONTROL = 'public, max-age=30, s-maxage=30, stale-while-revalidate=30';
export const EVENTS_NOT_FOUND_CACHE_CONTROL = 'public, max-age=300, s-maxage=300, stale-while-revalidate=300';

const isActive = (m: SimMarket): boolean => m.tradable;

interface SortKeys {
  readonly id: number;
  readonly dailyRewardRaw: number;
  readonly expirationMs: number;
  readonly createdAtMs: number;
  readonly volumeRaw: number;
  /** Collateral resting within the book (Σ price × size over both sides), raw USDC. */
  readonly liquidityRaw: number;
}

type ListingEntry = { readonly keys: SortKeys; readonly render: () => Record<string, unknown> };

function liquidityRaw(engine: SimEngine, market: SimMarket): number {
  const book = engine.book(market.slug);
  if (!book) return 0;
  const side = (levels: readonly { priceTicks: number; sizeRaw: number }[], yes: boolean): number =>
    levels.reduce((sum, l) => sum + Math.floor((l.sizeRaw * (yes ? l.priceTicks : 1000 - l.priceTicks)) / 1000), 0);
  return side(book.bids, true) + side(book.asks, false);
}

function keysOf(engine: SimEngine, markets: readonly SimMarket[]): SortKeys {
  return {
    id: Math.min(...markets.map((m) => m.id)),
    dailyRewardRaw: markets.reduce((sum, m) => sum + (m.isRewardable ? m.settings.dailyRewardRaw : 0), 0),
    expirationMs: Math.min(...markets.map((m) => m.expirationMs)),
    createdAtMs: Math.max(...markets.map((m) => m.createdAtMs)),
    volumeRaw: markets.reduce((sum, m) => sum + m.volumeRaw, 0),
    liquidityRaw: markets.reduce((sum, m) => sum + liquidityRaw(engine, m), 0),
  };
}

/**
 * The order of each `sortBy` (ties by id ascending): `lp_rewards` highest daily reward first (rewardable ones
 * before the rest), `ending_soon` earliest expiration first, `newest` latest creation first, `high_value` highest
 * traded volume first, `liquidity` most collateral resting in the book first. Without `sortBy`: by id.
 */
const SORTS: Readonly<Record<ActiveMarketsSort | 'id', (a: SortKeys, b: SortKeys) => number>> = {
  id: () => 0,
  lp_rewards: (a, b) => b.dailyRewardRaw - a.dailyRewardRaw,
  ending_soon: (a, b) => a.expirationMs - b.expirationMs,
  newest: (a, b) => b.createdAtMs - a.createdAtMs,
  high_value: (a, b) => b.volumeRaw - a.volumeRaw,
  liquidity: (a, b) => b.liquidityRaw - a.liquidityRaw,
};

const isSort = (value: string): value is ActiveMarketsSort => (ACTIVE_MARKETS_SORTS as readonly string[]).includes(value);

/** Active single markets, and groups (with their active submarkets) in group form, by id. */
function activeEntries(engine: SimEngine, categoryId: number | null, sort: ActiveMarketsSort | 'id'): ListingEntry[] {
  const inCategory = (m: SimMarket): boolean => categoryId === null || m.categoryIds.includes(categoryId);
  const entries: ListingEntry[] = [];
  for (const market of engine.markets()) {
    if (market.groupSlug !== undefined || !isActive(market) || !inCategory(market)) continue;
    entries.push({ keys: keysOf(engine, [market]), render: () => marketWire(market, engine.book(market.slug)) });
  }
  for (const group of engine.groups()) {
    const members = group.markets.filter((m) => isActive(m) && inCategory(m));
    if (members.length === 0) continue;
    entries.push({ keys: { ...keysOf(engine, members), id: Math.min(...group.markets.map((m) => m.id)) }, render: () => groupWire(group, engine, members) });
  }
  const order = SORTS[sort];
  return entries.sort((a, b) => order(a.keys, b.keys) || a.keys.id - b.keys.id);
}

function listActive(deps: RouteDeps, query: URLSearchParams, categoryId: number | null): Record<string, unknown> {
  const issues: ValidationIssue[] = unknownQueryIssues(query, ['page', 'limit', 'sortBy']);
  const page = queryInt(query, 'page', { min: 1 }, issues) ?? 1;
  const limit = queryInt(query, 'limit', { min: 1, max: ACTIVE_MARKETS_MAX_LIMIT }, issues) ?? ACTIVE_MARKETS_DEFAULT_LIMIT;
  const sorts = query.getAll('sortBy');
  let sort: ActiveMarketsSort | 'id' = 'id';
  if (sorts.length > 1) issues.push({ field: 'sortBy', message: 'sortBy must be given once' });
  else if (sorts[0] !== undefined) {
    if (isSort(sorts[0])) sort = sorts[0];
    else issues.push({ field: 'sortBy', message: `sortBy must be one of the following values: ${ACTIVE_MARKETS_SORTS.join(', ')}` });
  }
  if (issues.length > 0) throw validationError(issues);
  const entries = activeEntries(deps.engine, categoryId, sort);
  const slice = entries.slice((page - 1) * limit, page * limit);
  return { data: slice.map((e) => e.render()), totalMarketsCount: entries.length };
}

const CATEGORY_ID = /^\d{1,9}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Checksummed, all-lowercase or all-uppercase hex; anything else (including a bad checksum) is 400. */
export function normalizeAccountParam(value: string, field: string): string {
  if (!ADDRESS.test(value)) throw invalidField(field, `${field} must be a 0x-prefixed 20-byte hex address`);
  const hex = value.slice(2);
  const checksummed = getAddress(value.toLowerCase());
  if (hex !== hex.toLowerCase() && hex !== hex.toUpperCase() && checksummed !== value) {
    throw invalidField(field, `${field} has an invalid EIP-55 checksum`);
  }
  return checksummed;
}

function eventsNotFound(): HttpError {
  return new HttpError(404, { message: 'Market or group not found', error: 'Not Found', statusCode: 404 }, { 'cache-control': EVENTS_NOT_FOUND_CACHE_CONTROL });
}

export function publicRoutes(deps: RouteDeps): RouteDef[] {
  const { engine } = deps;
  const marketOrGroup = (slug: string): { market?: SimMarket; group?: SimGroup } => {
    const market = engine.market(slug);
    if (market) return { market };
    const group = engine.group(slug);
    return group ? { group } : {};
  };

  return [
    {
      method: 'GET',
      pattern: '/markets/active',
      auth: 'public',
      handler: (ctx) => ({ status: 200, body: listActive(deps, ctx.query, null) }),
    },
    {
      method: 'GET',
      pattern: '/markets/active/:categoryId',
      auth: 'public',
      handler: (ctx) => {
        const raw = ctx.params['categoryId'] ?? '';
        if (!CATEGORY_ID.test(raw)) throw invalidField('categoryId', 'categoryId must be a non-negative integer');
        return { status: 200, body: listActive(deps, ctx.query, Number(raw)) };
      },
    },
    {
      method: 'GET',
      pattern: '/markets/categories/count',
      auth: 'public',
      handler: (ctx) => {
        assertKnownQuery(ctx.query, []);
        const category: Record<string, number> = {};
        let totalCount = 0;
        for (const market of engine.markets()) {
          if (!isActive(market)) continue;
          totalCount += 1;
          for (const id of market.categoryIds) category[String(id)] = (category[String(id)] ?? 0) + 1;
        }
        return { status: 200, body: { category, totalCount } };
      },
    },
    {
      method: 'GET',
      pattern: '/markets/:slug',
      auth: 'public',
      handler: (ctx) => {
        assertKnownQuery(ctx.query, []);
        const found = marketOrGroup(ctx.params['slug'] ?? '');
        if (found.market) return { status: 200, body: marketWire(found.market, engine.book(found.market.slug)) };
        if (found.group) return { status: 200, body: groupWire(found.group, engine) };
        throw notFound('Market not found');
      },
    },
    {
      method: 'GET',
      pattern: '/markets/:slug/orderbook',
      auth: 'public',
      handler: (ctx) => {
        assertKnownQuery(ctx.query, []);
        const slug = ctx.params['slug'] ?? '';
        const market = engine.market(slug);
        const book = engine.book(slug);
        if (!market || !book) throw notFound('Market not found');
        return { status: 200, body: orderbookAnswer(market, book) };
      },
    },
    {
      method: 'GET',
      pattern: '/markets/:slug/events',
      auth: 'public',
      handler: (ctx) => {
        const issues = unknownQueryIssues(ctx.query, ['page', 'limit']);
        const page = queryInt(ctx.query, 'page', { min: 1 }, issues) ?? 1;
        const limit = queryInt(ctx.query, 'limit', { min: 1, max: 100 }, issues) ?? 100;
        if (issues.length > 0) throw validationError(issues);
        const found = marketOrGroup(ctx.params['slug'] ?? '');
        const slugs = found.market ? [found.market.slug] : found.group ? found.group.markets.map((m) => m.slug) : null;
        if (slugs === null) throw eventsNotFound();
        const trades = engine.trades(slugs);
        const events = trades.slice((page - 1) * limit, page * limit);
        const headers = { 'cache-control': EVENTS_CACHE_CONTROL };
        if (events.length === 0) return { status: 200, body: { events: [], totalPages: 0 }, headers };
        return {
          status: 200,
          body: { events, limit, page, totalPages: Math.ceil(trades.length / limit), totalRows: trades.length },
          headers,
        };
      },
    },
    {
      method: 'GET',
      pattern: '/maintenance/status',
      auth: 'public',
      handler: (ctx) => {
        assertKnownQuery(ctx.query, []);
        return { status: 200, body: { ...deps.modes.status(ctx.nowMs) } };
      },
    },
    {
      method: 'GET',
      pattern: '/profiles/:address',
      auth: 'public',
      handler: (ctx) => {
        assertKnownQuery(ctx.query, []);
        const address = normalizeAccountParam(ctx.params['address'] ?? '', 'address');
        const account = engine.accountByAddress(address);
        if (!account || account.synthetic) throw notFound('Profile not found');
        return {
          status: 200,
          body: {
            id: account.profileId,
            account: account.address,
            username: null,
            displayName: `sim-${account.profileId}`,
            rank: { name: 'Simulated', feeRateBps: account.feeRateBps },
            isManaged: account.partnerProfileId !== null,
            serverManagedWallet: account.serverManagedWallet,
          },
        };
      },
    },
  ];
}
