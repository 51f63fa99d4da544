/**
 * `GET /portfolio/history` (HMAC): the caller's (or the `x-on-behalf-of` sub-account's) settled trades and its claims,
 * merges and splits (as the venue's API reference lists them; the engine records them: capital.ts, resolve.ts), newest
 * first, with the specification's cursor paging: `cursor` opaque (absent or empty on the first request; the
 * official client sends `cursor=` then), `limit` 1 to 100 (default 20), `nextCursor` null at the end. Items have
 * the official client's HistoryEntry shape: `blockTimestamp` (unix seconds of the mining), `transactionHash`,
 * `strategy` (`Buy`/`Sell` for a limit taker, `Market Buy`/`Market Sell` for a FOK taker, `Limit Buy`/`Limit Sell`
 * for a maker), `outcomeIndex` (0 YES, 1 NO), `outcomeTokenAmount` and `collateralAmount` (raw 1e6 integer strings,
 * or decimals in human units with the setting `historyAmounts: decimal`: the live venue's form is not recorded),
 * `outcomeTokenPrice` (number), and a `market` snapshot.
 *
 * Owns: the history ordering and the cursor. Only MINED fills appear (on-chain history; a MATCHED fill appears once
 * mined); a claim, merge or split appears at once (one transaction). Invariants: the order (minedAt desc, then match id and role desc: unique per fill) is total and stable, and a cursor
 * names the last item served, so paging never repeats or skips an item even while new trades arrive (they sort
 * before the cursor); a cursor that does not decode is a 400 naming `cursor`.
 */
import type { AccountFill, CapitalAction, SimEngine, SimMarket } from '../engine/index.js';
import { effectiveProfile, parseProfileId } from './delegation.js';
import { HttpError, validationError } from './http-errors.js';
import { headerValue } from './hmac-verify.js';
import { queryInt, unknownQueryIssues } from './query.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteDef } from './router.js';
import { ON_BEHALF_OF_HEADER } from './routes-trading.js';
import type { SimSettings } from './settings.js';
import { COLLATERAL_TOKEN } from './wire-format.js';

export const HISTORY_DEFAULT_LIMIT = 20;
export const HISTORY_MAX_LIMIT = 100;

/** How an amount is written: a raw 1e6 integer string, or a decimal in human units. */
type AmountForm = (raw: number) => string;

/** `decimal`: always with a decimal point (12.5, 5.0), trailing zeros trimmed, as ethers' formatUnits writes. Pure. */
export function decimalAmount(raw: number): string {
  const whole = Math.floor(raw / 1e6);
  const fraction = String(raw % 1e6).padStart(6, '0').replace(/0+$/, '');
  return `${whole}.${fraction === '' ? '0' : fraction}`;
}

const AMOUNT_FORMS: Readonly<Record<SimSettings['historyAmounts'], AmountForm>> = { raw: (raw) => String(raw), decimal: decimalAmount };

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

/** One entry of the history, trade or capital action, with its place in the order. */
interface HistoryItem {
  readonly key: HistoryKey;
  readonly entry: () => Record<string, unknown>;
}

/** A claim, merge or split sorts among the trades by its time; its sequence keeps it unique (role `ACTION`). */
const actionKey = (action: CapitalAction): HistoryKey => ({ minedAtMs: action.atMs, matchId: `action-${String(action.seq).padStart(12, '0')}`, role: 'ACTION' });

/**
 * A claim, merge or split in the official client's HistoryEntry shape: `strategy` Claim / Merge / Split,
 * `collateralAmount` the USDC paid out (claim, merge) or put in (split), `outcomeTokenAmounts` [YES, NO] burned or
 * minted, raw 1e6 integer strings like the trades' amounts.
 */
function actionEntry(action: CapitalAction, engine: SimEngine, amount: AmountForm): Record<string, unknown> {
  const market = engine.market(action.marketSlug);
  return {
    blockTimestamp: Math.floor(action.atMs / 1000),
    transactionHash: action.txHash,
    strategy: action.kind,
    collateralAmount: amount(action.collateralRaw),
    outcomeTokenAmounts: action.tokensRaw.map(amount),
    ...(market === undefined ? {} : { market: marketSnapshot(market) }),
  };
}

function strategyOf(fill: AccountFill, engine: SimEngine): string {
  const verb = fill.side === 'BUY' ? 'Buy' : 'Sell';
  if (fill.role === 'MAKER') return `Limit ${verb}`;
  return engine.orderById(fill.orderId)?.type === 'FOK' ? `Market ${verb}` : verb;
}

function historyEntry(fill: AccountFill, engine: SimEngine, amount: AmountForm): Record<string, unknown> {
  const market = engine.market(fill.marketSlug);
  return {
    blockTimestamp: Math.floor((fill.minedAtMs ?? fill.matchedAtMs) / 1000),
    transactionHash: fill.txHash,
    strategy: strategyOf(fill, engine),
    outcomeIndex: fill.outcome === 'YES' ? 0 : 1,
    outcomeTokenAmount: amount(fill.sizeRaw),
    collateralAmount: amount(fill.collateralRaw),
    outcomeTokenPrice: fill.priceTicks / 1000,
    ...(market === undefined ? {} : { market: marketSnapshot(market) }),
  };
}

function marketSnapshot(market: SimMarket): Record<string, unknown> {
  return {
    id: String(market.id),
    slug: market.slug,
    title: market.title,
    conditionId: market.conditionId,
    closed: market.status === 'RESOLVED',
    expirationDate: new Date(market.expirationMs).toISOString(),
    collateral: { symbol: COLLATERAL_TOKEN.symbol, id: COLLATERAL_TOKEN.address, decimals: COLLATERAL_TOKEN.decimals },
    group: market.groupSlug === undefined ? null : { slug: market.groupSlug },
  };
}

export function historyRoutes(deps: RouteDeps, settings: () => SimSettings): RouteDef[] {
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
        const amount = AMOUNT_FORMS[settings().historyAmounts];
        const items: HistoryItem[] = [
          ...deps.engine
            .accountTrades(profileId)
            .filter((f) => f.settlementStatus === 'MINED')
            .map((f) => ({ key: keyOf(f), entry: () => historyEntry(f, deps.engine, amount) })),
          ...deps.engine.capitalActions(profileId).map((a) => ({ key: actionKey(a), entry: () => actionEntry(a, deps.engine, amount) })),
        ].sort((a, b) => compareKeys(a.key, b.key));
        const start = after === null ? 0 : items.findIndex((item) => compareKeys(item.key, after) > 0);
        const page = start < 0 ? [] : items.slice(start, start + limit);
        const last = page[page.length - 1];
        const more = start >= 0 && start + limit < items.length;
        return {
          status: 200,
          body: { data: page.map((item) => item.entry()), nextCursor: more && last !== undefined ? encodeCursor(last.key) : null },
        };
      },
    },
  ];
}
