/**
 * Public REST routes (no authentication): active market listings, category counts, market details
 * (market or group form), the orderbook, the finalized-trade feed, maintenance status, public profiles.
 *
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
export const ACTIVE_MARKETS_MAX_LIMIT = 100;
export const EVENTS_CACHE_CONTROL = 'public, max-age=30, s-maxage=30, stale-while-revalidate=30';
export const EVENTS_NOT_FOUND_CACHE_CONTROL = 'public, max-age=300, s-maxage=300, stale-while-revalidate=300';

const isActive = (m: SimMarket): boolean => m.tradable;

type ListingEntry = { readonly sortId: number; readonly render: () => Record<string, unknown> };

/** Active single markets, and groups (with their active submarkets) in group form, by id. */
function activeEntries(engine: SimEngine, categoryId: number | null): ListingEntry[] {
  const inCategory = (m: SimMarket): boolean => categoryId === null || m.categoryIds.includes(categoryId);
  const entries: ListingEntry[] = [];
  for (const market of engine.markets()) {
    if (market.groupSlug !== undefined || !isActive(market) || !inCategory(market)) continue;
    entries.push({ sortId: market.id, render: () => marketWire(market, engine.book(market.slug)) });
  }
  for (const group of engine.groups()) {
    const members = group.markets.filter((m) => isActive(m) && inCategory(m));
    if (members.length === 0) continue;
    entries.push({ sortId: Math.min(...group.markets.map((m) => m.id)), render: () => groupWire(group, engine, members) });
  }
  return entries.sort((a, b) => a.sortId - b.sortId);
}

function listActive(deps: RouteDeps, query: URLSearchParams, categoryId: number | null): Record<string, unknown> {
  const issues: ValidationIssue[] = unknownQueryIssues(query, ['page', 'limit']);
  const page = queryInt(query, 'page', { min: 1 }, issues) ?? 1;
  const limit = queryInt(query, 'limit', { min: 1, max: ACTIVE_MARKETS_MAX_LIMIT }, issues) ?? ACTIVE_MARKETS_DEFAULT_LIMIT;
  if (issues.length > 0) throw validationError(issues);
  const entries = activeEntries(deps.engine, categoryId);
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
