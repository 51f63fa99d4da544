/**
 * `GET /portfolio/positions` (the official client's PortfolioPositionsResponse; the venue's API reference example,
 * ../shared/venue-samples/docs-examples/portfolio-positions.json) → the account's token balances per market, its AMM
 * positions, and the `rewards` blocks (wire-rewards.ts).
 *
 * Owns: this answer's shapes and the placing of a position under a market. Invariants:
 * - Element by element: a `clob`, `group` or `amm` element that cannot be read is SKIPPED and reported in `skipped`
 *   with its path and reason (the caller counts and logs it: src/operator/telemetry.ts); it never fails the answer. Only
 *   an answer that is not an object (or whose lists are not lists) is a ResponseValidationError.
 * - Amounts are raw 6-decimal integers (the API reference: `"fillPrice": "750000"` = 0.75, `"cost": "75000000"` = 75
 *   USDC), read exactly; PnL figures may be negative; a figure past 2^53 − 1 is refused (skipped), never rounded.
 * - A balance the venue did not send (`tokensBalance: {}` in the example) is unknown, never 0: that position carries
 *   no balances and is left out of `clob`.
 * - A `clob[].market` without a `slug` (the example's) is kept in `unplaced` with its `condition_id`/`conditionId`
 *   and `address`; `placePositions` matches it to a known market by either, and reports the rest as skipped.
 */
import { z } from 'zod';
import { ResponseValidationError, type EndpointRef } from './errors.js';
import { integer, orNull, parseAnswer, rawAmount } from './wire-fields.js';
import { MarketRewardsWire, PortfolioRewardsWire, toMarketRewards, toPortfolioRewards, type MarketRewards, type PortfolioRewards, type PortfolioSkip } from './wire-rewards.js';

export type { PortfolioSkip } from './wire-rewards.js';

/** A signed raw 6-decimal integer (PnL figures), exact; past 2^53 − 1 it is refused. */
const signedRaw = z.union([z.string().trim().regex(/^-?\d+$/, 'not a raw integer amount'), z.number().int()]).transform((value, ctx) => {
  const n = typeof value === 'number' ? value : Number(BigInt(value));
  if (!Number.isSafeInteger(n)) {
    ctx.addIssue({ code: 'custom', message: 'raw amount exceeds 2^53 - 1' });
    return z.NEVER;
  }
  return n;
});

const PositionSideWire = z.object({
  cost: signedRaw.nullish(),
  fillPrice: signedRaw.nullish(),
  realisedPnl: signedRaw.nullish(),
  unrealizedPnl: signedRaw.nullish(),
  marketValue: signedRaw.nullish(),
});
/** A market reference: the slug when sent, else the condition id or address to place it by. */
const PositionMarketWire = z.object({
  slug: z.string().min(1).nullish(),
  condition_id: z.unknown().optional(),
  conditionId: z.unknown().optional(),
  address: z.unknown().optional(),
});
const ClobPositionWire = z.object({
  market: PositionMarketWire,
  tokensBalance: z.object({ yes: rawAmount.nullish(), no: rawAmount.nullish() }).nullish(),
  positions: z.object({ yes: PositionSideWire.nullish(), no: PositionSideWire.nullish() }).nullish(),
  orders: z.object({ totalCollateralLocked: rawAmount.nullish() }).nullish(),
  rewards: MarketRewardsWire.nullish(),
});
/** An AMMPosition: amounts kept as text (not used). */
const AmmPositionWire = z.object({
  market: z.object({ slug: z.string().min(1) }),
  outcomeIndex: integer.nullish(),
  outcomeTokenAmount: z.union([z.string(), z.number()]).transform(String).nullish(),
});
/** The answer's frame: lists of elements read one by one. */
const PositionsWire = z.object({
  clob: z.array(z.unknown()).nullish(),
  group: z.array(z.unknown()).nullish(),
  amm: z.array(z.unknown()).nullish(),
  rewards: PortfolioRewardsWire.nullish(),
});

/** Figures as the venue reports them, raw 1e6 (fillPrice: a price × 1e6). */
export interface PositionFigures {
  readonly cost: number | null;
  readonly fillPrice: number | null;
  readonly realisedPnl: number | null;
  readonly unrealizedPnl: number | null;
}

export interface ClobPosition {
  readonly marketSlug: string;
  readonly yesBalanceRaw: number;
  readonly noBalanceRaw: number;
  readonly yes: PositionFigures | null;
  readonly no: PositionFigures | null;
  readonly collateralLockedRaw: number | null;
  /** The list of the answer it came from (`clob` when absent). */
  readonly list?: 'clob' | 'group';
  /** The market's `rewards` (wire-rewards.ts); absent when the venue sent none. */
  readonly rewards?: MarketRewards;
}

export interface AmmPosition {
  readonly marketSlug: string;
  readonly outcomeIndex: number | null;
  /** `outcomeTokenAmount` as sent (not used). */
  readonly outcomeTokenAmount: string | null;
}

/** A position whose market came without a slug: placed later by its condition id or address (placePositions). */
export interface UnplacedPosition {
  readonly path: string;
  readonly conditionId: string | null;
  readonly address: string | null;
  /** The position as read, null when it carried no balances. */
  readonly position: Omit<ClobPosition, 'marketSlug'> | null;
}

export interface PortfolioPositions {
  /**
   * Token balances per market, from `clob` and from `group` (a market in both: the `clob` entry). Entries without
   * `tokensBalance` are left out: a balance the venue did not send is unknown, never 0.
   */
  readonly clob: readonly ClobPosition[];
  readonly amm: readonly AmmPosition[];
  /** Every market slug the answer mentions, in any list (entries without balances too). */
  readonly marketSlugs: ReadonlySet<string>;
  /** `group` entries that are neither a CLOB position nor a group of them (their markets are not evidence). */
  readonly unreadableGroupEntries: number;
  /** Positions whose market has no slug, not placed yet. */
  readonly unplaced: readonly UnplacedPosition[];
  /** Parts left out: elements that did not validate, totals that are not raw amounts; each with its path. */
  readonly skipped: readonly PortfolioSkip[];
  /** The answer's `rewards` in total (wire-rewards.ts); absent when the venue sent none. */
  readonly rewards?: PortfolioRewards;
}

type ClobPositionWireOut = z.output<typeof ClobPositionWire>;

const HEX_ID = /^0x[0-9a-fA-F]+$/;
const hexOrNull = (value: unknown): string | null => (typeof value === 'string' && HEX_ID.test(value) ? value.toLowerCase() : null);

function toPosition(p: ClobPositionWireOut, list: 'clob' | 'group'): Omit<ClobPosition, 'marketSlug'> | null {
  const figures = (f: z.output<typeof PositionSideWire> | null | undefined): PositionFigures | null =>
    f ? { cost: orNull(f.cost), fillPrice: orNull(f.fillPrice), realisedPnl: orNull(f.realisedPnl), unrealizedPnl: orNull(f.unrealizedPnl) } : null;
  const balance = p.tokensBalance;
  if (!balance || balance.yes === null || balance.yes === undefined || balance.no === null || balance.no === undefined) return null;
  return {
    yesBalanceRaw: balance.yes,
    noBalanceRaw: balance.no,
    yes: figures(p.positions?.yes),
    no: figures(p.positions?.no),
    collateralLockedRaw: p.orders?.totalCollateralLocked ?? null,
    list,
    ...(p.rewards ? { rewards: toMarketRewards(p.rewards) } : {}),
  };
}

const GroupOfPositions = z.object({ markets: z.array(z.unknown()) }).or(z.object({ positions: z.array(z.unknown()) }));

interface Reader {
  readonly endpoint: EndpointRef;
  readonly status: number;
  readonly root: unknown;
  readonly skipped: PortfolioSkip[];
}

const pathText = (path: readonly (string | number)[]): string => path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');

/** One element through its schema; a failure is recorded in `skipped` (with the field's path and value) and gives null. */
function readElement<S extends z.ZodType>(reader: Reader, schema: S, element: unknown, path: readonly (string | number)[]): z.output<S> | null {
  try {
    return parseAnswer(schema, element, reader.endpoint, reader.status, path, reader.root);
  } catch (error) {
    if (!(error instanceof ResponseValidationError)) throw error;
    const issue = error.issues[0];
    reader.skipped.push({ path: issue?.path ?? pathText(path), reason: `${issue?.message ?? 'invalid'} (got ${issue?.value ?? '?'})` });
    return null;
  }
}

/** One `group` entry → its CLOB positions with their paths; null when its shape is not one of those. */
function groupEntryPositions(reader: Reader, entry: unknown, index: number): { p: ClobPositionWireOut; path: (string | number)[] }[] | null {
  const group = GroupOfPositions.safeParse(entry);
  if (!group.success) {
    const direct = ClobPositionWire.safeParse(entry);
    return direct.success ? [{ p: direct.data, path: ['group', index] }] : null;
  }
  const key = 'markets' in group.data ? 'markets' : 'positions';
  const items = 'markets' in group.data ? group.data.markets : group.data.positions;
  return items.flatMap((item, i) => {
    const path = ['group', index, key, i];
    const p = readElement(reader, ClobPositionWire, item, path);
    return p === null ? [] : [{ p, path }];
  });
}

export function parsePortfolio(data: unknown, endpoint: EndpointRef, status: number): PortfolioPositions {
  const wire = parseAnswer(PositionsWire, data, endpoint, status);
  const reader: Reader = { endpoint, status, root: data, skipped: [] };
  const marketSlugs = new Set<string>();
  const bySlug = new Map<string, ClobPosition>();
  const unplaced: UnplacedPosition[] = [];
  const add = (p: ClobPositionWireOut, list: 'clob' | 'group', path: readonly (string | number)[]): void => {
    const position = toPosition(p, list);
    const slug = p.market.slug;
    if (slug === null || slug === undefined) {
      unplaced.push({ path: pathText(path), conditionId: hexOrNull(p.market.condition_id) ?? hexOrNull(p.market.conditionId), address: hexOrNull(p.market.address), position });
      return;
    }
    marketSlugs.add(slug);
    if (position !== null && !bySlug.has(slug)) bySlug.set(slug, { marketSlug: slug, ...position });
  };
  (wire.clob ?? []).forEach((element, index) => {
    const p = readElement(reader, ClobPositionWire, element, ['clob', index]);
    if (p !== null) add(p, 'clob', ['clob', index]);
  });
  let unreadableGroupEntries = 0;
  (wire.group ?? []).forEach((entry, index) => {
    const positions = groupEntryPositions(reader, entry, index);
    if (positions === null) unreadableGroupEntries += 1;
    else for (const { p, path } of positions) add(p, 'group', path);
  });
  const amm: AmmPosition[] = [];
  (wire.amm ?? []).forEach((element, index) => {
    const p = readElement(reader, AmmPositionWire, element, ['amm', index]);
    if (p === null) return;
    marketSlugs.add(p.market.slug);
    amm.push({ marketSlug: p.market.slug, outcomeIndex: orNull(p.outcomeIndex), outcomeTokenAmount: orNull(p.outcomeTokenAmount) });
  });
  const rewards = wire.rewards ? toPortfolioRewards(wire.rewards) : undefined;
  const skipped = [...reader.skipped, ...(rewards?.skipped ?? [])];
  return { clob: [...bySlug.values()], amm, marketSlugs, unreadableGroupEntries, unplaced, skipped, ...(rewards ? { rewards } : {}) };
}

/** A market the caller knows, to place a position that came without a slug. */
export interface KnownMarket {
  readonly slug: string;
  readonly conditionId?: string | null;
  readonly address?: string | null;
}

/**
 * Places the positions that came without a slug under the known market whose condition id or address they carry
 * (case-insensitive); the others are added to `skipped` (`market without a slug, matched by no known market`). A
 * market already listed with a slug keeps that entry. Pure.
 */
export function placePositions(portfolio: PortfolioPositions, known: readonly KnownMarket[]): PortfolioPositions {
  if (portfolio.unplaced.length === 0) return portfolio;
  const byKey = new Map<string, string>();
  for (const market of known) {
    for (const key of [market.conditionId, market.address]) if (typeof key === 'string' && key !== '') byKey.set(key.toLowerCase(), market.slug);
  }
  const clob = [...portfolio.clob];
  const marketSlugs = new Set(portfolio.marketSlugs);
  const skipped = [...portfolio.skipped];
  for (const item of portfolio.unplaced) {
    const slug = (item.conditionId === null ? undefined : byKey.get(item.conditionId)) ?? (item.address === null ? undefined : byKey.get(item.address));
    if (slug === undefined) {
      skipped.push({ path: `${item.path}.market`, reason: `market without a slug, matched by no known market (condition_id ${item.conditionId ?? 'none'}, address ${item.address ?? 'none'})` });
      continue;
    }
    marketSlugs.add(slug);
    if (item.position !== null && !clob.some((p) => p.marketSlug === slug)) clob.push({ marketSlug: slug, ...item.position });
  }
  return { ...portfolio, clob, marketSlugs, unplaced: [], skipped };
}
