/**
 * The REST reads of the account and the venue's state: maintenance windows, the profile (fee rate), positions and
 * the portfolio (CLOB, group and AMM positions, their `rewards`: wire-rewards.ts), and the redeem answer. (The doctor's allowance and API-token reads
 * are account-wire.ts.)
 *
 * Owns: these wire shapes and their domain values. Invariants: a profile without a fee rate takes
 * DEFAULT_FEE_RATE_BPS; a CLOB position without both token balances is left out, never guessed.
 *
 * Part of the REST wire format (wire.ts re-exports every part; callers import wire.ts). Rules of every part: extra
 * fields are tolerated (and dropped); numbers sent as strings are accepted; wrong types are rejected with a
 * ResponseValidationError naming the field path and value (parseAnswer); prices become integer ticks and amounts raw
 * 1e6 integers wherever the bot signs, books or compares them.
 */
import type { Address } from 'viem';
import { z } from 'zod';
import { toTradingMode, tradingModeRank, type TradingMode } from '../core/trading-mode.js';
import type { EndpointRef } from './errors.js';
import { address, integer, numeric, orNull, parseAnswer, rawAmount } from './wire-fields.js';
import { MarketRewardsWire, PortfolioRewardsWire, toMarketRewards, toPortfolioRewards, type MarketRewards, type PortfolioRewards } from './wire-rewards.js';

const MaintenanceEntryWire = z.object({
  mode: z.string().nullish(),
  tradingMode: z.string().nullish(),
  message: z.string().nullish(),
  startAt: z.string().nullish(),
  startsAt: z.string().nullish(),
  endAt: z.string().nullish(),
  endsAt: z.string().nullish(),
  resumeAt: z.string().nullish(),
});
const MaintenanceWire = z.object({
  active: z.array(MaintenanceEntryWire).nullish(),
  scheduled: z.array(MaintenanceEntryWire).nullish(),
});

export interface MaintenanceWindow {
  /** The venue's mode string (`post_only`, `cancel_only`, `disabled`, or something new). */
  readonly mode: string | null;
  readonly message: string | null;
  readonly startsAtMs: number | null;
  /** When the window ends (its resumeAt), ms since epoch. */
  readonly endsAtMs: number | null;
}

export interface MaintenanceStatus {
  readonly active: readonly MaintenanceWindow[];
  readonly scheduled: readonly MaintenanceWindow[];
  /** The most restrictive active mode; an active entry with an unknown or missing mode counts as `cancel_only`. */
  readonly mode: TradingMode;
  /** Latest end among the active windows that set `mode`, when known. */
  readonly resumeAtMs: number | null;
}

function dateMs(value: string | null | undefined): number | null {
  const ms = value ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? ms : null;
}

export function parseMaintenance(data: unknown, endpoint: EndpointRef, status: number): MaintenanceStatus {
  const wire = parseAnswer(MaintenanceWire, data, endpoint, status);
  const toWindow = (e: z.output<typeof MaintenanceEntryWire>): MaintenanceWindow => ({
    mode: e.mode ?? e.tradingMode ?? null,
    message: orNull(e.message),
    startsAtMs: dateMs(e.startsAt ?? e.startAt),
    endsAtMs: dateMs(e.resumeAt ?? e.endsAt ?? e.endAt),
  });
  const active = (wire.active ?? []).map(toWindow);
  let mode: TradingMode = 'normal';
  let resumeAtMs: number | null = null;
  for (const window of active) {
    const windowMode = toTradingMode(window.mode);
    if (tradingModeRank(windowMode) > tradingModeRank(mode)) {
      mode = windowMode;
      resumeAtMs = window.endsAtMs;
    } else if (windowMode === mode && mode !== 'normal' && window.endsAtMs !== null) {
      resumeAtMs = Math.max(resumeAtMs ?? 0, window.endsAtMs);
    }
  }
  return { active, scheduled: (wire.scheduled ?? []).map(toWindow), mode, resumeAtMs };
}

const ProfileWire = z.object({
  id: integer,
  account: address,
  rank: z.object({ feeRateBps: integer.nullish() }).nullish(),
});

export const DEFAULT_FEE_RATE_BPS = 300;

export interface Profile {
  /** The profile id: the `ownerId` of orders. */
  readonly id: number;
  readonly account: Address;
  /** `rank.feeRateBps`, or the venue default 300 when absent. */
  readonly feeRateBps: number;
}

export function parseProfile(data: unknown, endpoint: EndpointRef, status: number): Profile {
  const wire = parseAnswer(ProfileWire, data, endpoint, status);
  return { id: wire.id, account: wire.account, feeRateBps: wire.rank?.feeRateBps ?? DEFAULT_FEE_RATE_BPS };
}

const PositionSideWire = z.object({
  cost: numeric.nullish(),
  fillPrice: numeric.nullish(),
  realisedPnl: numeric.nullish(),
  unrealizedPnl: numeric.nullish(),
});
const PositionMarketWire = z.object({ slug: z.string().min(1) });
/** A CLOBPosition of the official client's types; only what the bot reads is required to be readable. */
const ClobPositionWire = z.object({
  market: PositionMarketWire,
  tokensBalance: z.object({ yes: rawAmount.nullish(), no: rawAmount.nullish() }).nullish(),
  positions: z.object({ yes: PositionSideWire.nullish(), no: PositionSideWire.nullish() }).nullish(),
  orders: z.object({ totalCollateralLocked: rawAmount.nullish() }).nullish(),
  rewards: MarketRewardsWire.nullish(),
});
/** An AMMPosition: amounts are decimal strings (units unconfirmed); kept as text. */
const AmmPositionWire = z.object({
  market: PositionMarketWire,
  outcomeIndex: integer.nullish(),
  outcomeTokenAmount: z.union([z.string(), z.number()]).transform(String).nullish(),
});
/**
 * GET /portfolio/positions (PortfolioPositionsResponse): `clob`, `group` (NegRisk positions, typed `any[]` by the
 * official client) and `amm` lists, each optional here. A `group` entry is read as a CLOB position when it has that
 * shape, or as a group holding CLOB positions under `markets`/`positions`; anything else is counted, not guessed.
 */
const PositionsWire = z.object({
  clob: z.array(ClobPositionWire).nullish(),
  group: z.array(z.unknown()).nullish(),
  amm: z.array(AmmPositionWire).nullish(),
  rewards: PortfolioRewardsWire.nullish(),
});

/** Figures as the venue reports them (units as sent). */
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
  /** `outcomeTokenAmount` as sent (a decimal string; its unit is not confirmed). */
  readonly outcomeTokenAmount: string | null;
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
  /** The answer's `rewards` in total (wire-rewards.ts); absent when the venue sent none. */
  readonly rewards?: PortfolioRewards;
}

type ClobPositionWireOut = z.output<typeof ClobPositionWire>;

function toClobPosition(p: ClobPositionWireOut, list: 'clob' | 'group'): ClobPosition | null {
  const figures = (f: z.output<typeof PositionSideWire> | null | undefined): PositionFigures | null =>
    f ? { cost: orNull(f.cost), fillPrice: orNull(f.fillPrice), realisedPnl: orNull(f.realisedPnl), unrealizedPnl: orNull(f.unrealizedPnl) } : null;
  const balance = p.tokensBalance;
  if (!balance || balance.yes === null || balance.yes === undefined || balance.no === null || balance.no === undefined) return null;
  return {
    marketSlug: p.market.slug,
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

/** One `group` entry → the CLOB positions in it; null when its shape is not one of those (see PositionsWire). */
function groupEntryPositions(entry: unknown, endpoint: EndpointRef, status: number, path: readonly PropertyKey[], root: unknown): ClobPositionWireOut[] | null {
  const group = GroupOfPositions.safeParse(entry);
  if (!group.success) {
    const direct = ClobPositionWire.safeParse(entry);
    return direct.success ? [direct.data] : null;
  }
  const key = 'markets' in group.data ? 'markets' : 'positions';
  const items = 'markets' in group.data ? group.data.markets : group.data.positions;
  return items.map((item, index) => parseAnswer(ClobPositionWire, item, endpoint, status, [...path, key, index], root));
}

export function parsePortfolio(data: unknown, endpoint: EndpointRef, status: number): PortfolioPositions {
  const wire = parseAnswer(PositionsWire, data, endpoint, status);
  const marketSlugs = new Set<string>();
  const bySlug = new Map<string, ClobPosition>();
  const add = (p: ClobPositionWireOut, list: 'clob' | 'group'): void => {
    marketSlugs.add(p.market.slug);
    const position = toClobPosition(p, list);
    if (position !== null && !bySlug.has(position.marketSlug)) bySlug.set(position.marketSlug, position);
  };
  for (const p of wire.clob ?? []) add(p, 'clob');
  let unreadableGroupEntries = 0;
  (wire.group ?? []).forEach((entry, index) => {
    const positions = groupEntryPositions(entry, endpoint, status, ['group', index], data);
    if (positions === null) unreadableGroupEntries += 1;
    else for (const p of positions) add(p, 'group');
  });
  const amm = (wire.amm ?? []).map((p) => {
    marketSlugs.add(p.market.slug);
    return { marketSlug: p.market.slug, outcomeIndex: orNull(p.outcomeIndex), outcomeTokenAmount: orNull(p.outcomeTokenAmount) };
  });
  return { clob: [...bySlug.values()], amm, marketSlugs, unreadableGroupEntries, ...(wire.rewards ? { rewards: toPortfolioRewards(wire.rewards) } : {}) };
}

/** The token balances of `parsePortfolio` (CLOB and group lists). */
export function parsePositions(data: unknown, endpoint: EndpointRef, status: number): ClobPosition[] {
  return [...parsePortfolio(data, endpoint, status).clob];
}

/** POST /portfolio/redeem: the answer's shape is not published; an object is returned as is, anything else as null. */
export function parseRedeem(data: unknown, endpoint: EndpointRef, status: number): Readonly<Record<string, unknown>> | null {
  if (data === undefined || data === '' || data === null) return null;
  return parseAnswer(z.record(z.string(), z.unknown()), data, endpoint, status);
}
