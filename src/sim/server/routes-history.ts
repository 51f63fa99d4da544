/**
 * `GET /portfolio/history` (HMAC): the caller's (or the `x-on-behalf-of` sub-account's) settled trades, newest
 * first, with the specification's cursor paging: `cursor` opaque (absent or empty on the first request; the
 * official client sends `cursor=` then), `limit` 1 to 100 (default 20), `nextCursor` null at the end. Items have
 * the official client's HistoryEntry shape: `blockTimestamp` (unix seconds of the mining), `transactionHash`,
 * `strategy` (`Buy`/`Sell` for a limit taker, `Market Buy`/`Market Sell` for a FOK taker, `Limit Buy`/`Limit Sell`
 * for a maker), `outcomeIndex` (0 YES, 1 NO), `outcomeTokenAmount` and `collateralAmount` (raw 1e6 integer strings),
 * `outcomeTokenPrice` (number), and a `market` snapshot.
 *
 * Owns: the history ordering and the cursor. Only MINED fills appear (on-chain history; a MATCHED fill appears once
 * mined). Invariants: the order (minedAt desc, then match id and role desc: unique per fill) is total and stable, and a cursor
 * names the last item served, so paging never repeats or skips an item even while new trades arrive (they sort
 * before the cursor); a cursor that does not decode is a 400 naming `cursor`.
 */
import type { AccountFill, SimEngine } from '../engine/index.js';
import { effectiveProfile, parseProfileId } from './delegation.js';
import { HttpError, validationError } from './http-errors.js';
import { headerValue } from './hmac-verify.js';
import { queryInt, unknownQueryIssues } from './query.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteDef } from './router.js';
import { ON_BEHALF_OF_HEADER } from './routes-trading.js';
import { COLLATERAL_TOKEN } from './wire-format.js';

export const HISTORY_DEFAULT_LIMIT = 20;
export const HISTORY_MAX_LIMIT = 100;

/** Unique per fill: one trade has a match per maker, and a self-trade's match has both roles. */
interface HistoryKey {
  readonly minedAtMs: number;
  readonly matchId: string;
  readonly role: string;
}

const keyOf = (fill: AccountFill): HistoryKey => ({ minedAtMs: fill.minedAtMs ?? 0, matchId: fill.matchId, role: fill.role });

const desc = (a: string, b: string): number => (a === b ? 0 : a < b ? 1 : -1);

/** Newest first: minedAt desc, then matchId desc, then role desc. Negative when `a` comes first. */
function compareKeys(a: HistoryKey, b: HistoryKey): number {
  if (a.minedAtMs !== b.minedAtMs) return b.minedAtMs - a.minedAtMs;
  return desc(a.matchId, b.matchId) || desc(a.role, b.role);
}

export function encodeCursor(key: HistoryKey): string {
  return Buffer.from(JSON.stringify([key.minedAtMs, key.matchId, key.role]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): HistoryKey | null {
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(cursor)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 3) return null;
    const items: readonly unknown[] = parsed;
    const [minedAtMs, matchId, role] = items;
    if (!Number.isSafeInteger(minedAtMs) || typeof matchId !== 'string' || typeof role !== 'string') return null;
    return { minedAtMs: Number(minedAtMs), matchId, role };
  } catch {
    return null;
  }
}

function strategyOf(fill: AccountFill, engine: SimEngine): string {
  const verb = fill.side === 'BUY' ? 'Buy' : 'Sell';
  if (fill.role === 'MAKER') return `Limit ${verb}`;
  return engine.orderById(fill.orderId)?.type === 'FOK' ? `Market ${verb}` : verb;
}

function historyEntry(fill: AccountFill, engine: SimEngine): Record<string, unknown> {
  const market = engine.market(fill.marketSlug);
  return {
    blockTimestamp: Math.floor((fill.minedAtMs ?? fill.matchedAtMs) / 1000),
    transactionHash: fill.txHash,
    strategy: strategyOf(fill, engine),
    outcomeIndex: fill.outcome === 'YES' ? 0 : 1,
    outcomeTokenAmount: String(fill.sizeRaw),
    collateralAmount: String(fill.collateralRaw),
    outcomeTokenPrice: fill.priceTicks / 1000,
    ...(market === undefined
      ? {}
      : {
          market: {
            id: String(market.id),
            slug: market.slug,
            title: market.title,
            conditionId: market.conditionId,
            closed: market.status === 'RESOLVED',
            expirationDate: new Date(market.expirationMs).toISOString(),
            collateral: { symbol: COLLATERAL_TOKEN.symbol, id: COLLATERAL_TOKEN.address, decimals: COLLATERAL_TOKEN.decimals },
            group: market.groupSlug === undefined ? null : { slug: market.groupSlug },
          },
        }),
  };
}

export function historyRoutes(deps: RouteDeps): RouteDef[] {
  return [
    {
      method: 'GET',
      pattern: '/portfolio/history',
      auth: 'hmac',
      handler: (ctx) => {
        const issues = unknownQueryIssues(ctx.query, ['cursor', 'limit']);
        const limit = queryInt(ctx.query, 'limit', { min: 1, max: HISTORY_MAX_LIMIT }, issues) ?? HISTORY_DEFAULT_LIMIT;
        const cursors = ctx.query.getAll('cursor');
        let after: HistoryKey | null = null;
        if (cursors.length > 1) issues.push({ field: 'cursor', message: 'cursor must be given once' });
        else if (cursors[0] !== undefined && cursors[0] !== '') {
          after = decodeCursor(cursors[0]);
          if (after === null) issues.push({ field: 'cursor', message: 'cursor is not a cursor this endpoint issued (pass the previous answer\u2019s nextCursor)' });
        }
        if (issues.length > 0) throw validationError(issues);
        if (ctx.token === null) throw new HttpError(401, { message: 'Unauthorized', error: 'Unauthorized', statusCode: 401 });
        const header = headerValue(ctx.headers, ON_BEHALF_OF_HEADER);
        const profileId = effectiveProfile(ctx.token, header === undefined ? undefined : parseProfileId(header, ON_BEHALF_OF_HEADER), deps.partnerOf);
        const fills = deps.engine
          .accountTrades(profileId)
          .filter((f) => f.settlementStatus === 'MINED')
          .sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
        const start = after === null ? 0 : fills.findIndex((f) => compareKeys(keyOf(f), after) > 0);
        const page = start < 0 ? [] : fills.slice(start, start + limit);
        const last = page[page.length - 1];
        const more = start >= 0 && start + limit < fills.length;
        return {
          status: 200,
          body: { data: page.map((f) => historyEntry(f, deps.engine)), nextCursor: more && last !== undefined ? encodeCursor(keyOf(last)) : null },
        };
      },
    },
  ];
}
