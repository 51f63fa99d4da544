/**
 * The elements of the venue's reward-epoch lists (`PortfolioPositionsResponse.rewards.rewardsByEpoch` and
 * `CLOBPosition.rewards.epochs`, both typed `any[]` by the official client; no authenticated answer is recorded) →
 * typed epochs, by DETECTION rather than by one guessed shape: each field is looked up under a configurable list of
 * names (`rewards.venueEpochs.fields`; the defaults hold the simulator's names among other plausible ones), and the
 * names that matched are reported as the answer's `shape`, so the bot logs what the venue actually sent.
 *
 * Owns: that detection and the element → epoch mapping. Invariants: pure; amounts become raw 1e6 integers (`decimal`:
 * a decimal USDC string or number, like the recorded `settings.dailyReward`; `raw`: an integer of raw units); an
 * element without a readable amount (rewards or rebates) is counted in `unreadable`, never guessed; an element is PAID
 * when it says so (`paid`-like boolean true, a `status` like PAID/DISTRIBUTED/CLAIMED/SETTLED, or a paid-at instant),
 * or, when it says nothing about payment, once it has an end (the venue pays each epoch at its end).
 */
import { parseScaled } from '../core/venue-rules/index.js';
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

export type EpochAmountUnit = 'decimal' | 'raw';

export interface EpochReadOptions {
  readonly fields: EpochFieldNames;
  readonly amountUnit: EpochAmountUnit;
}

export const DEFAULT_EPOCH_FIELDS: EpochFieldNames = {
  start: ['epochStart', 'startDate', 'startTime', 'startsAt', 'start', 'from', 'epoch_start'],
  end: ['epochEnd', 'endDate', 'endTime', 'endsAt', 'end', 'to', 'epoch_end'],
  paidAt: ['paidAt', 'paidDate', 'distributedAt', 'paid_at'],
  paid: ['paid', 'isPaid', 'distributed', 'claimed'],
  status: ['status', 'state'],
  rewards: ['rewards', 'rewardAmount', 'rewardsAmount', 'reward', 'totalRewards', 'userRewards', 'amount'],
  rebates: ['rebates', 'rebateAmount', 'rebatesAmount', 'rebate', 'totalRebates', 'makerRebates'],
  markets: ['markets', 'byMarket', 'marketRewards'],
  market: ['marketSlug', 'slug', 'market'],
};

export const DEFAULT_EPOCH_READ: EpochReadOptions = { fields: DEFAULT_EPOCH_FIELDS, amountUnit: 'decimal' };

export interface EpochMarketAmounts {
  readonly marketSlug: string;
  readonly rewardsRaw: number | null;
  readonly rebatesRaw: number | null;
}

export interface ReadRewardEpoch {
  readonly startMs: number | null;
  /** null while the epoch is open. */
  readonly endMs: number | null;
  readonly paidAtMs: number | null;
  /** Said or implied (see the header); null when nothing says. */
  readonly paid: boolean | null;
  readonly rewardsRaw: number | null;
  readonly rebatesRaw: number | null;
  /** The per-market breakdown, where the element carries one. */
  readonly markets: readonly EpochMarketAmounts[];
}

export interface EpochListReading {
  readonly epochs: readonly ReadRewardEpoch[];
  readonly unreadable: number;
  /** The names that matched, e.g. `start=epochStart end=epochEnd rewards=rewards …`; null when nothing was readable. */
  readonly shape: string | null;
}

type WireObject = Readonly<Record<string, unknown>>;
const isRecord = (value: unknown): value is WireObject => typeof value === 'object' && value !== null && !Array.isArray(value);

function lookup(item: WireObject, names: readonly string[]): { name: string; value: unknown } | null {
  for (const name of names) if (item[name] !== undefined && item[name] !== null) return { name, value: item[name] };
  return null;
}

function amountOf(value: unknown, unit: EpochAmountUnit): number | null {
  if (unit === 'raw') {
    const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
    return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null;
  }
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  try {
    const raw = parseScaled('amount', value, 6);
    return raw >= 0 ? raw : null;
  } catch {
    return null;
  }
}

const PAID_STATUS = /^(paid|distributed|claimed|settled|completed)$/i;

interface Found {
  readonly names: Map<string, string>;
}

function readAmounts(item: WireObject, options: EpochReadOptions, found: Found): { rewardsRaw: number | null; rebatesRaw: number | null } {
  const pick = (field: 'rewards' | 'rebates'): number | null => {
    const hit = lookup(item, options.fields[field]);
    if (hit === null) return null;
    const raw = amountOf(hit.value, options.amountUnit);
    if (raw !== null) found.names.set(field, hit.name);
    return raw;
  };
  return { rewardsRaw: pick('rewards'), rebatesRaw: pick('rebates') };
}

function readMarkets(item: WireObject, options: EpochReadOptions, found: Found): EpochMarketAmounts[] {
  const hit = lookup(item, options.fields.markets);
  if (hit === null || !Array.isArray(hit.value)) return [];
  found.names.set('markets', hit.name);
  return hit.value.flatMap((entry: unknown): EpochMarketAmounts[] => {
    if (!isRecord(entry)) return [];
    const market = lookup(entry, options.fields.market);
    const slug = typeof market?.value === 'string' ? market.value : isRecord(market?.value) && typeof market.value.slug === 'string' ? market.value.slug : null;
    const amounts = readAmounts(entry, options, found);
    if (slug === null || slug === '' || (amounts.rewardsRaw === null && amounts.rebatesRaw === null)) return [];
    return [{ marketSlug: slug, ...amounts }];
  });
}

function readOne(item: unknown, options: EpochReadOptions, found: Found): ReadRewardEpoch | null {
  if (!isRecord(item)) return null;
  const amounts = readAmounts(item, options, found);
  if (amounts.rewardsRaw === null && amounts.rebatesRaw === null) return null;
  const instant = (field: 'start' | 'end' | 'paidAt'): number | null => {
    const hit = lookup(item, options.fields[field]);
    const ms = hit === null ? null : instantMsOf(hit.value);
    if (hit !== null && ms !== null) found.names.set(field, hit.name);
    return ms;
  };
  const startMs = instant('start');
  const endMs = instant('end');
  const paidAtMs = instant('paidAt');
  const flag = lookup(item, options.fields.paid);
  const status = lookup(item, options.fields.status);
  let paid: boolean | null = null;
  if (typeof flag?.value === 'boolean') {
    found.names.set('paid', flag.name);
    paid = flag.value;
  } else if (typeof status?.value === 'string') {
    found.names.set('status', status.name);
    paid = PAID_STATUS.test(status.value.trim());
  }
  if (paid === null && paidAtMs !== null) paid = true;
  if (paid === null && endMs !== null) paid = true;
  return { startMs, endMs, paidAtMs, paid, ...amounts, markets: readMarkets(item, options, found) };
}

const SHAPE_ORDER = ['start', 'end', 'paidAt', 'paid', 'status', 'rewards', 'rebates', 'markets'] as const;

/** Reads an epoch list (any of the venue's `any[]` lists) by detection. Pure. */
export function readRewardEpochs(items: readonly unknown[] | null | undefined, options: EpochReadOptions = DEFAULT_EPOCH_READ): EpochListReading {
  const epochs: ReadRewardEpoch[] = [];
  let unreadable = 0;
  const found: Found = { names: new Map() };
  for (const item of items ?? []) {
    const epoch = readOne(item, options, found);
    if (epoch === null) unreadable += 1;
    else epochs.push(epoch);
  }
  const shape = found.names.size === 0 ? null : SHAPE_ORDER.flatMap((field) => (found.names.has(field) ? [`${field}=${found.names.get(field) ?? ''}`] : [])).join(' ');
  return { epochs, unreadable, shape };
}
