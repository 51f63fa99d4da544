/**
 * The crypto world's market set, shaped like the live venue's (../shared/venue-samples/rest-markets-active-items.jsonl):
 * recurring 15-minute, hourly, daily and weekly strike markets "$BTC above $88640.73 on Dec 17, 01:00 UTC?" on each
 * simulated underlying, a ladder of strikes around the spot at creation, the Pyth 1-minute-candle rule in the
 * description, the strike in `metadata.openPrice`, the oracle block of the official client's types, tags and reward
 * settings as recorded.
 *
 * Tags: `Hourly`, `Daily` and `Weekly` are recorded (exchange-facts §9); the tag of a 15-minute strike market is NOT
 * recorded (the venue's docs name 15-minute crypto markets, and its timeline docs the slot size `minutes_15`): the
 * simulator writes `15 Min`, its own guess. The category ids are the simulator's own (the recorded items carry none).
 *
 * Owns: the market specs of one expiry (pure given the world's spot and the ids it is handed), the schedule of
 * expiries, and which cadence a run-time listing belongs to. Invariants: a strike is written with the ticker's
 * decimals and is the same string in the title, the description and openPrice; slugs, ids and token ids are unique
 * (the caller hands out the id sequence); the settlement instant is a whole minute.
 */
import { getAddress } from 'viem';
import { RAW_PER_UNIT } from '../../core/venue-rules/index.js';
import { CADENCES, type Cadence } from './cadences.js';
import type { Prng } from './prng.js';
import type { MarketSettings, MarketSpec } from './types-specs.js';
import { trueDigital, type UnderlyingWorld, type UnderlyingSpec } from './underlying.js';

/** Every cadence the world can list, shortest first (cadences.ts, below the engine's base types). */
export { CADENCES, type Cadence } from './cadences.js';

/** How long a market of each cadence lives (the recorded lifetimes: 60, 1,440 and 10,080 minutes; 15 for 15m). */
export const CADENCE_PERIOD_MS: Readonly<Record<Cadence, number>> = { '15m': 900_000, hourly: 3_600_000, daily: 86_400_000, weekly: 604_800_000 };

/** The tag and category the venue writes (recorded: Hourly, Daily, Weekly; `15 Min` is a guess, see the header). */
export const CADENCE_LABEL: Readonly<Record<Cadence, string>> = { '15m': '15 Min', hourly: 'Hourly', daily: 'Daily', weekly: 'Weekly' };

/** The simulator's own category ids (the recorded market items carry none). */
export const CADENCE_CATEGORY_ID: Readonly<Record<Cadence, number>> = { '15m': 40, hourly: 41, daily: 43, weekly: 44 };

export interface CryptoMarketOptions {
  readonly cadences: readonly Cadence[];
  /** Strikes per ticker and expiry (a ladder). */
  readonly strikesPerExpiry: number;
  /** Strikes per ticker and expiry of one cadence, where it differs from `strikesPerExpiry`. */
  readonly strikesPerCadence?: Partial<Readonly<Record<Cadence, number>>>;
  /** Distance between neighbouring strikes, in standard deviations of the move until expiry (at creation). */
  readonly strikeSpacingSigmas: number;
  /** UTC hour of the daily (and weekly) expiry. */
  readonly dailyHourUtc: number;
  /** UTC weekday of the weekly expiry (0 Sunday … 6 Saturday); default 3, the weekday of the one recorded Weekly market. */
  readonly weeklyDayUtc?: number;
  /** A new set opens when one settles. */
  readonly recurring: boolean;
  /** Tickers to list; all the world's when absent. */
  readonly tickers?: readonly string[];
  /** Reward settings and rebate rate of every strike market, where they differ from CRYPTO_REWARD_SETTINGS. */
  readonly rewardSettings?: Partial<MarketSettings>;
}

/**
 * The recorded hourly BTC markets' reward settings (minSize 100 shares, maxSpread 0.035, dailyReward 1000, c 3), and a
 * maker rebate rate of 0.2 (a fifth of the taker fee): the rate is the simulator's guess (no market with
 * `settings.rebateRate` has been recorded; exchange-facts §8).
 */
export const CRYPTO_REWARD_SETTINGS: MarketSettings = { minSizeRaw: 100 * RAW_PER_UNIT, maxSpreadTicks: 35, dailyRewardRaw: 1000 * RAW_PER_UNIT, c: 3, rebateRate: 0.2 };

export const DEFAULT_CRYPTO_MARKETS: CryptoMarketOptions = { cadences: ['hourly', 'daily'], strikesPerExpiry: 3, strikeSpacingSigmas: 0.5, dailyHourUtc: 16, recurring: true };

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const DEFAULT_WEEKLY_DAY_UTC = 3;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * The next expiry of a cadence strictly after `afterMs`: the next quarter hour (15m), the next hour, the next
 * `dailyHourUtc` (daily), or the next `weeklyDayUtc` at `dailyHourUtc` (weekly).
 */
export function nextExpiry(cadence: Cadence, afterMs: number, dailyHourUtc: number, weeklyDayUtc = DEFAULT_WEEKLY_DAY_UTC): number {
  if (cadence === '15m' || cadence === 'hourly') {
    const period = CADENCE_PERIOD_MS[cadence];
    return (Math.floor(afterMs / period) + 1) * period;
  }
  const dayStart = Math.floor(afterMs / DAY_MS) * DAY_MS + dailyHourUtc * HOUR_MS;
  if (cadence === 'daily') return dayStart > afterMs ? dayStart : dayStart + DAY_MS;
  const weekday = new Date(dayStart).getUTCDay();
  const candidate = dayStart + ((weeklyDayUtc - weekday + 7) % 7) * DAY_MS;
  return candidate > afterMs ? candidate : candidate + 7 * DAY_MS;
}

/** When the set expiring at `expiryMs` opened: one period earlier. */
function openedAt(cadence: Cadence, expiryMs: number): number {
  return expiryMs - CADENCE_PERIOD_MS[cadence];
}

/** The cadence a market living `lifetimeMs` belongs to: the shortest whose period covers it (weekly past a week). */
export function cadenceCovering(lifetimeMs: number): Cadence {
  return CADENCES.find((c) => CADENCE_PERIOD_MS[c] >= lifetimeMs) ?? 'weekly';
}

/** The strikes of a ladder around `spot`, rounded to the ticker's decimals, distinct and ascending. */
export function strikeLadder(spot: number, sigmaToExpiry: number, count: number, spacingSigmas: number, decimals: number): string[] {
  const step = Math.max(spot * sigmaToExpiry * spacingSigmas, 10 ** -decimals);
  const strikes = new Set<string>();
  for (let i = 0; i < count; i += 1) {
    const offset = i - (count - 1) / 2;
    strikes.add((spot + offset * step).toFixed(decimals));
  }
  return [...strikes].filter((k) => Number(k) > 0).sort((a, b) => Number(a) - Number(b));
}

function clock(ms: number): { month: string; day: number; year: number; hhmm: string } {
  const d = new Date(ms);
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return { month: MONTHS[d.getUTCMonth()] ?? 'Jan', day: d.getUTCDate(), year: d.getUTCFullYear(), hhmm: `${hh}:${mm}` };
}

export interface IdSource {
  /** The next market id. */
  nextId(): number;
  readonly rng: Prng;
}

/** The slug the venue writes for a strike market (`dollarbtc-above-dollar8864073-on-dec-17-0100-utc-<createdAtMs>`). */
export function strikeMarketSlug(ticker: string, strike: string, expiryMs: number, createdAtMs: number): string {
  const when = clock(expiryMs);
  return `dollar${ticker.toLowerCase()}-above-dollar${strike.replace('.', '')}-on-${when.month.toLowerCase()}-${when.day}-${when.hhmm.replace(':', '')}-utc-${createdAtMs}`;
}

/** What one strike market is: its underlying, strike, cadence, instants and whether a successor opens when it settles. */
export interface StrikeMarketTerms {
  readonly underlying: UnderlyingSpec;
  readonly strike: string;
  /** The spot at creation (the fair value the synthetic flow starts from). */
  readonly spot: number;
  readonly variancePerSecond: number;
  readonly cadence: Cadence;
  readonly expiryMs: number;
  readonly createdAtMs: number;
  /** A member of a recurring series (tag `Recurring`); false for a market listed at run time (no successor). */
  readonly recurring: boolean;
  /** Overrides of CRYPTO_REWARD_SETTINGS (CryptoMarketOptions.rewardSettings). */
  readonly rewardSettings?: Partial<MarketSettings> | undefined;
}

/** The spec of one strike market. */
export function strikeMarketSpec(terms: StrikeMarketTerms, ids: IdSource): MarketSpec {
  const { underlying, strike, cadence, expiryMs, createdAtMs } = terms;
  const ticker = underlying.ticker;
  const secondsLeft = Math.max(1, (expiryMs - createdAtMs) / 1000);
  const fair = trueDigital(terms.spot, Number(strike), secondsLeft, terms.variancePerSecond);
  const when = clock(expiryMs);
  const label = CADENCE_LABEL[cadence];
  return {
    id: ids.nextId(),
    slug: strikeMarketSlug(ticker, strike, expiryMs, createdAtMs),
    title: `💎 $${ticker} above $${strike} on ${when.month} ${when.day}, ${when.hhmm} UTC?`,
    description:
      `This market will resolve to "YES" if the opening price of the 1-minute ${ticker} (https://tradingview.com/chart/?symbol=PYTH:${ticker}USD) ` +
      `candle on ${when.month} ${when.day}, ${when.year}, at ${when.hhmm} UTC is above $${strike}. Otherwise, the market will resolve to "NO". ` +
      'The resolution is based on data from the Pyth Network.',
    conditionId: `0x${ids.rng.hex(32)}`,
    yesTokenId: BigInt(`0x${ids.rng.hex(32)}`).toString(),
    noTokenId: BigInt(`0x${ids.rng.hex(32)}`).toString(),
    venue: { exchange: getAddress(`0x${ids.rng.hex(20)}`), adapter: getAddress(`0x${ids.rng.hex(20)}`) },
    expirationMs: expiryMs,
    createdAtMs,
    categories: [label],
    categoryIds: [CADENCE_CATEGORY_ID[cadence]],
    tags: terms.recurring ? ['Pricechart', label, 'Recurring'] : ['Pricechart', label],
    settings: { ...CRYPTO_REWARD_SETTINGS, ...terms.rewardSettings },
    isRewardable: true,
    initialFairValueTicks: Math.min(999, Math.max(1, Math.round(fair * 1000))),
    oracle: { ticker, strike, pythFeedId: underlying.pythFeedId, name: underlying.name, cadence, ...(terms.recurring ? {} : { recurring: false }) },
  };
}

/** The specs of one ticker's strike ladder for one expiry, created at `createdAtMs` with the spot `spot`. */
export function strikeMarketSpecs(
  underlying: UnderlyingSpec,
  spot: number,
  variancePerSecond: number,
  cadence: Cadence,
  expiryMs: number,
  createdAtMs: number,
  options: CryptoMarketOptions,
  ids: IdSource,
): MarketSpec[] {
  const secondsLeft = Math.max(1, (expiryMs - createdAtMs) / 1000);
  const sigmaToExpiry = Math.sqrt(variancePerSecond * secondsLeft);
  const count = options.strikesPerCadence?.[cadence] ?? options.strikesPerExpiry;
  const strikes = strikeLadder(spot, sigmaToExpiry, count, options.strikeSpacingSigmas, underlying.strikeDecimals);
  return strikes.map((strike) => strikeMarketSpec({ underlying, strike, spot, variancePerSecond, cadence, expiryMs, createdAtMs, recurring: true, rewardSettings: options.rewardSettings }, ids));
}

/** Every ticker's ladder for the next expiry of each cadence after `nowMs` (the sets live at `nowMs`). */
export function cryptoMarketSet(world: UnderlyingWorld, nowMs: number, options: CryptoMarketOptions, ids: IdSource): MarketSpec[] {
  const specs: MarketSpec[] = [];
  for (const cadence of options.cadences) {
    const expiry = nextExpiry(cadence, nowMs, options.dailyHourUtc, options.weeklyDayUtc);
    for (const underlying of world.tickers()) {
      if (options.tickers && !options.tickers.includes(underlying.ticker)) continue;
      specs.push(...successorSpecs(world, underlying.ticker, cadence, expiry, Math.min(nowMs, openedAt(cadence, expiry)), options, ids));
    }
  }
  return specs;
}

/** One ticker's ladder expiring at `expiryMs`, at today's spot (the published price: what the venue would see). */
export function successorSpecs(world: UnderlyingWorld, ticker: string, cadence: Cadence, expiryMs: number, createdAtMs: number, options: CryptoMarketOptions, ids: IdSource): MarketSpec[] {
  const spec = world.spec(ticker);
  const spot = world.publishedAt(ticker, createdAtMs) ?? spec?.startPrice;
  const variance = world.variancePerSecond(ticker);
  if (!spec || spot === undefined || variance === null) return [];
  return strikeMarketSpecs(spec, spot, variance, cadence, expiryMs, createdAtMs, options, ids);
}

/**
 * The probability that a strike market settles YES, from the world: with the TRUE price (what informed traders see),
 * the PUBLISHED one (`leadMs` older: what a bot watching the feeds sees) or the synthetic MAKER's (older still: the
 * venue's slow books), always through the world's true surface (`UnderlyingWorld.digital`). Null when the world
 * cannot tell.
 */
export function worldFair(world: UnderlyingWorld, oracle: { readonly ticker: string; readonly strike: string }, expirationMs: number, nowMs: number, view: 'true' | 'published' | 'maker'): number | null {
  const spot = view === 'true' ? world.priceAt(oracle.ticker, nowMs) : view === 'published' ? world.publishedAt(oracle.ticker, nowMs) : world.makerViewAt(oracle.ticker, nowMs);
  if (spot === null) return null;
  // The world's own surface (its intraday profile and jump law, when it runs them): the makers quote the true ladder.
  return world.digital(oracle.ticker, spot, Number(oracle.strike), nowMs, expirationMs);
}
