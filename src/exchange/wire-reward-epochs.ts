/**
 * The elements of the venue's reward-epoch lists → typed epochs. `PortfolioPositionsResponse.rewards.rewardsByEpoch`
 * is DOCUMENTED (the venue's API reference, ../shared/venue-samples/docs-examples/portfolio-positions.json): one
 * element is `{epochId, timestamp, totalRewards, userRewards, earnedPercent}`, `userRewards` the ACCOUNT's reward and
 * `totalRewards` the epoch's pool (150000 of 1500000 = earnedPercent 0.1), every amount a raw 6-decimal integer
 * string. `CLOBPosition.rewards.epochs` is not (the official client types it `any[]`; the example shows `{}`), so each
 * field is still looked up under a configurable list of names (`rewards.venueEpochs.fields`, documented names first)
 * and the names that matched are reported as the answer's `shape`, so the bot logs what the venue actually sent.
 *
 * Owns: that reading and the element → epoch mapping. Invariants: pure; amounts are raw 1e6 integers, read exactly
 * from an integer string or a safe integer (a figure past 2^53 − 1 is never rounded: the element is unreadable, with
 * the reason); `totalRewards` (the pool) is never taken as the account's reward; an element without a readable
 * amount is counted in `unreadable` with its index and reason, never guessed; an epoch has the configured length
 * (`epochLengthMs`, the venue's daily cycle): an element that gives only one instant (the documented `timestamp`,
 * read as the epoch's START by default) gets the other from it. Whether an element is PAID is said by the element
 * (`paid`-like boolean, a `status` like PAID/DISTRIBUTED, a paid-at instant) or left null: the caller judges by the
 * venue's payout time (src/rewards/venue-rewards.ts).
 */
import { instantMsOf } from './wire-instant.js';

/** The names each field is looked up under, first match wins. */
export interface EpochFieldNames {
  readonly start: readonly string[];
  readonly end: readonly string[];
  readonly paidAt: readonly string[];
  readonly paid: readonly string[];
  readonly status: readonly string[];
  readonly rewards: readonly string[];
  readonly rebates: readonly string[];
  /** A per-market breakdown inside an account-wide epoch (a list of elements with a market and amounts). */
  readonly markets: readonly string[];
  /** The market of a breakdown element: a slug string, or an object with `slug`. */
  readonly market: readonly string[];
}

export interface EpochReadOptions {
  readonly fields: EpochFieldNames;
  /** An epoch's length, for an element that gives one instant only (the documented `timestamp`). */
  readonly epochLengthMs: number;
}

/**
 * Documented names first (`timestamp` read as the start: the API reference's example is `2024-01-01T00:00:00.000Z`,
 * a day's start; `userRewards`), then other plausible ones. Never `totalRewards`: the documented pool of the epoch.
 */
export const DEFAULT_EPOCH_FIELDS: EpochFieldNames = {
  start: ['timestamp', 'epochStart', 'startDate', 'startTime', 'startsAt', 'start', 'from', 'epoch_start'],
  end: ['epochEnd', 'endDate', 'endTime', 'endsAt', 'end', 'to', 'epoch_end'],
  paidAt: ['paidAt', 'paidDate', 'distributedAt', 'paid_at'],
  paid: ['paid', 'isPaid', 'distributed', 'claimed'],
  status: ['status', 'state'],
  rewards: ['userRewards', 'rewards', 'rewardAmount', 'rewardsAmount', 'reward', 'amount'],
  rebates: ['userRebates', 'rebates', 'rebateAmount', 'rebatesAmount', 'rebate', 'makerRebates'],
  markets: ['markets', 'byMarket', 'marketRewards'],
  market: ['marketSlug', 'slug', 'market'],
};

/** The venue pays LP rewards daily (user guide, "LP rewards"). */
export const DEFAULT_EPOCH_LENGTH_MS = 86_400_000;

export const DEFAULT_EPOCH_READ: EpochReadOptions = { fields: DEFAULT_EPOCH_FIELDS, epochLengthMs: DEFAULT_EPOCH_LENGTH_MS };

export interface EpochMarketAmounts {
  readonly marketSlug: string;
  readonly rewardsRaw: number | null;
  readonly rebatesRaw: number | null;
}

export interface ReadRewardEpoch {
  readonly startMs: number | null;
  readonly endMs: number | null;
  readonly paidAtMs: number | null;
  /** What the element says of its payment; null: nothing (the caller judges by the payout time). */
  readonly paid: boolean | null;
  readonly rewardsRaw: number | null;
  readonly rebatesRaw: number | null;
  /** The per-market breakdown, where the element carries one. */
  readonly markets: readonly EpochMarketAmounts[];
}

/** An element that could not be read: its index in the list and why. */
export interface UnreadableEpoch {
  readonly index: number;
  readonly reason: string;
}

export interface EpochListReading {
  readonly epochs: readonly ReadRewardEpoch[];
  readonly unreadable: number;
  readonly unreadableItems: readonly UnreadableEpoch[];
  /** The names that matched, e.g. `start=timestamp rewards=userRewards`; null when nothing was readable. */
  readonly shape: string | null;
}

type WireObject = Readonly<Record<string, unknown>>;
const isRecord = (value: unknown): value is WireObject => typeof value === 'object' && value !== null && !Array.isArray(value);

function lookup(item: WireObject, names: readonly string[]): { name: string; value: unknown } | null {
  for (const name of names) if (item[name] !== undefined && item[name] !== null) return { name, value: item[name] };
  return null;
}

/** A raw 6-decimal amount, exact: a non-negative integer string or safe integer; why not, otherwise. */
export function rawAmountOf(value: unknown): { raw: number } | { reason: string } {
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : null;
  if (text === null || !/^\d+$/.test(text)) return { reason: `not a raw integer amount (got ${JSON.stringify(value)})` };
  const exact = BigInt(text);
  if (exact > BigInt(Number.MAX_SAFE_INTEGER)) return { reason: `raw amount ${text} exceeds 2^53 - 1 (not read, never rounded)` };
  return { raw: Number(exact) };
}

const PAID_STATUS = /^(paid|distributed|claimed|settled|completed)$/i;

interface Found {
  readonly names: Map<string, string>;
}

type Amounts = { rewardsRaw: number | null; rebatesRaw: number | null; reason: string | null };

function readAmounts(item: WireObject, options: EpochReadOptions, found: Found): Amounts {
  let reason: string | null = null;
  const pick = (field: 'rewards' | 'rebates'): number | null => {
    const hit = lookup(item, options.fields[field]);
    if (hit === null) return null;
    const amount = rawAmountOf(hit.value);
    if ('reason' in amount) {
      reason ??= `${hit.name}: ${amount.reason}`;
      return null;
    }
    found.names.set(field, hit.name);
    return amount.raw;
  };
  return { rewardsRaw: pick('rewards'), rebatesRaw: pick('rebates'), reason };
}

function readMarkets(item: WireObject, options: EpochReadOptions, found: Found): EpochMarketAmounts[] {
  const hit = lookup(item, options.fields.markets);
  if (hit === null || !Array.isArray(hit.value)) return [];
  found.names.set('markets', hit.name);
  return hit.value.flatMap((entry: unknown): EpochMarketAmounts[] => {
    if (!isRecord(entry)) return [];
    const market = lookup(entry, options.fields.market);
    const slug = typeof market?.value === 'string' ? market.value : isRecord(market?.value) && typeof market.value.slug === 'string' ? market.value.slug : null;
    const { rewardsRaw, rebatesRaw } = readAmounts(entry, options, found);
    if (slug === null || slug === '' || (rewardsRaw === null && rebatesRaw === null)) return [];
    return [{ marketSlug: slug, rewardsRaw, rebatesRaw }];
  });
}

function paidSaid(item: WireObject, options: EpochReadOptions, found: Found, paidAtMs: number | null): boolean | null {
  const flag = lookup(item, options.fields.paid);
  if (typeof flag?.value === 'boolean') {
    found.names.set('paid', flag.name);
    return flag.value;
  }
  const status = lookup(item, options.fields.status);
  if (typeof status?.value === 'string') {
    found.names.set('status', status.name);
    return PAID_STATUS.test(status.value.trim());
  }
  return paidAtMs === null ? null : true;
}

function readOne(item: unknown, options: EpochReadOptions, found: Found): ReadRewardEpoch | string {
  if (!isRecord(item)) return `not an object (got ${JSON.stringify(item)?.slice(0, 60) ?? 'undefined'})`;
  const { reason, ...amounts } = readAmounts(item, options, found);
  if (amounts.rewardsRaw === null && amounts.rebatesRaw === null) return reason ?? `no amount under ${[...options.fields.rewards, ...options.fields.rebates].join('|')}`;
  const instant = (field: 'start' | 'end' | 'paidAt'): number | null => {
    const hit = lookup(item, options.fields[field]);
    const ms = hit === null ? null : instantMsOf(hit.value);
    if (hit !== null && ms !== null) found.names.set(field, hit.name);
    return ms;
  };
  const givenStart = instant('start');
  const givenEnd = instant('end');
  const paidAtMs = instant('paidAt');
  const length = options.epochLengthMs;
  const startMs = givenStart ?? (givenEnd === null ? null : givenEnd - length);
  const endMs = givenEnd ?? (givenStart === null ? null : givenStart + length);
  return { startMs, endMs, paidAtMs, paid: paidSaid(item, options, found, paidAtMs), ...amounts, markets: readMarkets(item, options, found) };
}

const SHAPE_ORDER = ['start', 'end', 'paidAt', 'paid', 'status', 'rewards', 'rebates', 'markets'] as const;

/** Reads an epoch list (any of the venue's epoch lists). Pure. */
export function readRewardEpochs(items: readonly unknown[] | null | undefined, options: EpochReadOptions = DEFAULT_EPOCH_READ): EpochListReading {
  const epochs: ReadRewardEpoch[] = [];
  const unreadableItems: UnreadableEpoch[] = [];
  const found: Found = { names: new Map() };
  (items ?? []).forEach((item, index) => {
    const epoch = readOne(item, options, found);
    if (typeof epoch === 'string') unreadableItems.push({ index, reason: epoch });
    else epochs.push(epoch);
  });
  const shape = found.names.size === 0 ? null : SHAPE_ORDER.flatMap((field) => (found.names.has(field) ? [`${field}=${found.names.get(field) ?? ''}`] : [])).join(' ');
  return { epochs, unreadable: unreadableItems.length, unreadableItems, shape };
}
