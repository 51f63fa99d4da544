/**
 * Market selection as rules: which of the markets the venue lists one process quotes (`markets` in the config), as a
 * pure function of the rules, the candidates (with the model's fair values), the time and the markets joined now.
 * Start-up (`resolveMarkets` in markets.ts) and the run-time discovery loop call the same function, so they agree.
 *
 * The rules, in the order a market is judged (the first that fails is the reason it is skipped):
 *  1. `exclude` wins over everything.
 *  2. Only a tradable market: not resolved, not expired, not past its settlement (`expirationMs`), with its venue and
 *     tokens (a listing entry may lack them: `detailsPending` selects it provisionally, see markets.ts
 *     `selectWithDetails`). A market past its settlement is never selected, named or not.
 *  3. Named markets (`slugs`, then the members of `groups`) are selected while tradable, whatever the rules below.
 *     With nothing named and no `select`, every tradable market is (the simulator's default).
 *  4. `select` adds markets that pass every rule: `rewardableOnly`, `minDailyReward`, `tickers` (the underlying the
 *     pricing terms read, src/pricing/terms.ts, of a market the model can price), `cadences` (`cadenceOf`),
 *     `joinBeforeSettlementSec` (a market is joined only once it settles within it; a joined market is not judged on
 *     it again), and the fair band `minFair`–`maxFair` (inclusive). An unknown fair value (null: the pricer has no
 *     price yet, or the market is not priced) passes the band: the pricer halts quoting until it has a price.
 *     Hysteresis: a joined market leaves the band only once its fair value is beyond it by more than
 *     `fairHysteresis`, so a strike near the edge does not flap in and out at every evaluation.
 *  5. Priority, when `top` (how many `select` adds) or `max` (how many in all) cuts: named slugs (config order), group
 *     members (listing order), then markets joined now, then newcomers ranked by `by` — `dailyReward`: the largest
 *     daily reward, then nearest the money (|fair − 0.5|, unknown last); `nearestTheMoney`: the other way round —
 *     then the soonest settlement (unknown last), then the slug (code-point order). A joined market is never dropped
 *     for a newcomer.
 *
 * Invariants: pure and deterministic (no clock, no I/O; equal inputs, equal outputs; the `select` part does not depend
 * on the candidates' order); every candidate's slug ends in exactly one of `selected` and `skipped`, with a reason a
 * person can read; `selected` holds no slug twice and at most `max` markets; a non-probability fair value is a reason
 * to skip, never a crash.
 */
import type { MarketCadence, MarketSelector, MarketsConfig } from '../config/types.js';
import { rawToDecimal } from '../core/venue-rules/index.js';
import { normalizeRewardSettings, type Market } from '../exchange/wire.js';
import { DEFAULT_PYTH_FEED_IDS } from '../pricing/feed-ids.js';
import { readMarketTerms, termsInputOf } from '../pricing/terms.js';
import type { FeedId } from '../pricing/types.js';

export type Cadence = MarketCadence;

// ---------------------------------------------------------------------------------------------- cadence

/** The lifetime of each cadence's markets (exchange-facts §9: Hourly 60 min, Daily 1,440, Weekly 10,080). */
export const CADENCE_MINUTES: Readonly<Record<Cadence, number>> = { '15m': 15, hourly: 60, daily: 1_440, weekly: 10_080 };
/**
 * A lifetime counts as a cadence's within [0.75, 1.1] × its nominal one: markets are listed a little after their slot
 * opens (a recorded hourly market was created 2 min 9 s past the hour: 57.8 min), never much longer.
 */
const LIFETIME_LOW = 0.75;
const LIFETIME_HIGH = 1.1;

/**
 * A tag or category naming a cadence. The venue tags Hourly, Daily and Weekly markets so (recorded); no 15-minute
 * market was recorded (the venue's timeline API calls them `minutely` / `minutes_15`), so a tag that names 15
 * minutes (`15m`, `15 min`, `15-minute`, `minutes_15`, …) counts and anything else falls back to the lifetime.
 */
function cadenceOfTag(tag: string): Cadence | null {
  const text = tag.trim().toLowerCase();
  if (text === 'hourly' || text === 'daily' || text === 'weekly') return text;
  return /^(15[\s_-]?(m|mins?|minutes?)|minutes_15)$/.test(text) ? '15m' : null;
}

/** The cadence the tags name, when they name exactly one; else null. */
export function cadenceOfTags(tags: readonly string[]): Cadence | null {
  const named = new Set<Cadence>();
  for (const tag of tags) {
    const cadence = cadenceOfTag(tag);
    if (cadence !== null) named.add(cadence);
  }
  return named.size === 1 ? ([...named][0] ?? null) : null;
}

/** The cadence whose lifetime `lifetimeMs` is, or null (`LIFETIME_LOW`–`LIFETIME_HIGH` × the nominal one). */
export function cadenceOfLifetime(lifetimeMs: number): Cadence | null {
  for (const [cadence, minutes] of Object.entries(CADENCE_MINUTES) as [Cadence, number][]) {
    const nominal = minutes * 60_000;
    if (lifetimeMs >= nominal * LIFETIME_LOW && lifetimeMs <= nominal * LIFETIME_HIGH) return cadence;
  }
  return null;
}

/**
 * From the venue's tags and categories (Hourly/Daily/Weekly; a 15-minute tag, see `cadenceOfTag`) when they name
 * exactly one cadence, else from the market's lifetime (`expirationMs − createdAtMs`); null when neither tells.
 */
export function cadenceOf(market: Market): Cadence | null {
  const named = cadenceOfTags([...market.tags, ...market.categories]);
  if (named !== null) return named;
  if (market.createdAtMs === null || market.expirationMs === null) return null;
  return cadenceOfLifetime(market.expirationMs - market.createdAtMs);
}

// ---------------------------------------------------------------------------------------------- the selection

export interface SelectionCandidate {
  readonly market: Market;
  /** The model's fair value of YES in [0, 1]; null when unknown (no price yet, or not a priced market). */
  readonly fair: number | null;
  /**
   * A listing entry whose venue and tokens only its details carry (GET /markets/{slug}): judged on everything else
   * and selected provisionally; fetch its details and select again (markets.ts `selectWithDetails` does).
   */
  readonly detailsPending?: boolean;
}

export interface SelectionInput {
  /** The parsed config section. */
  readonly rules: MarketsConfig;
  /** Everything the listing knows (named slugs included); the first of a slug counts. */
  readonly candidates: readonly SelectionCandidate[];
  readonly nowMs: number;
  /** Markets joined now (priority: a joined market is not dropped for a newcomer; the fair band's hysteresis). */
  readonly current: ReadonlySet<string>;
  /** Ticker → Pyth feed id, to read the pricing terms (`config.pricing.feedIds`); default: the built-in map. */
  readonly feedIds?: Readonly<Record<string, FeedId>>;
}

export interface SelectionResult {
  /** In priority order, at most `max`. */
  readonly selected: readonly Market[];
  /** Slug → why it is not selected. */
  readonly skipped: ReadonlyMap<string, string>;
}

/** Venue and tokens present, not resolved, not expired (the venue's flags; see `endedReason` for the clock). */
export function isTradable(market: Market): boolean {
  return market.venue !== null && market.tokens !== null && !market.resolved && !market.expired;
}

/** Why a market can no longer be traded at `nowMs` (resolved, expired, past its settlement); null while it is open. */
export function endedReason(market: Market, nowMs: number): string | null {
  if (market.resolved) return 'not tradable: resolved';
  if (market.expired) return 'not tradable: expired';
  if (market.expirationMs !== null && market.expirationMs <= nowMs) return `not tradable: past its settlement at ${new Date(market.expirationMs).toISOString()}`;
  return null;
}

function missingDetails(market: Market): string | null {
  if (market.venue === null) return 'not tradable: the venue gave no venue contract';
  if (market.tokens === null) return 'not tradable: the venue gave no YES/NO tokens';
  return null;
}

/** A newcomer or joined market that passed the rules, with its ranking keys. */
interface Ranked {
  readonly market: Market;
  readonly joined: boolean;
  readonly rewardRaw: number;
  /** |fair − 0.5|; null when the fair value is unknown. */
  readonly distance: number | null;
}

/** "3h 5min", "50min", "45s". */
function duration(ms: number): string {
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const min = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return min > 0 ? `${h}h ${min}min` : `${h}h`;
  if (min > 0) return s > 0 ? `${min}min ${s}s` : `${min}min`;
  return `${s}s`;
}

const price = (ticks: number): string => String(ticks / 1000);

/** The fair band's verdict (null: inside); a joined market gets `fairHysteresis` beyond each edge. */
function fairVerdict(fair: number | null, select: MarketSelector, joined: boolean): string | null {
  if (fair === null) return null;
  const margin = joined ? select.fairHysteresisTicks : 0;
  const beyond = joined && margin > 0 ? ` by more than fairHysteresis ${price(margin)}` : '';
  if (select.minFairTicks !== null && fair < (select.minFairTicks - margin) / 1000) return `fair ${fair.toFixed(3)} below minFair ${price(select.minFairTicks)}${beyond}`;
  if (select.maxFairTicks !== null && fair > (select.maxFairTicks + margin) / 1000) return `fair ${fair.toFixed(3)} above maxFair ${price(select.maxFairTicks)}${beyond}`;
  return null;
}

/** The ticker rule's verdict: a priced market of one of `tickers` (null: it is). */
function tickerVerdict(market: Market, tickers: readonly string[], feedIds: Readonly<Record<string, FeedId>>): string | null {
  const terms = readMarketTerms(termsInputOf(market), feedIds);
  const ticker = terms.ok ? terms.terms.ticker : terms.ticker;
  if (ticker === null) return 'no underlying ticker (not a crypto market the model knows)';
  if (!tickers.includes(ticker)) return `ticker ${ticker} not in [${tickers.join(', ')}]`;
  return terms.ok ? null : `a ${ticker} market the model cannot price: ${terms.reason}`;
}

/** Every `select` rule, in order: a reason to skip, or the market with its ranking keys. */
function judge(candidate: SelectionCandidate, select: MarketSelector, input: SelectionInput): Ranked | string {
  const { market, fair } = candidate;
  const joined = input.current.has(market.slug);
  if (fair !== null && !(fair >= 0 && fair <= 1)) return `fair ${String(fair)} is not a probability in [0, 1]`;
  const rewardRaw = normalizeRewardSettings(market.settings).dailyRewardRaw;
  if (select.rewardableOnly && !market.isRewardable) return 'not rewardable (markets.select.rewardableOnly)';
  if (rewardRaw < select.minDailyRewardRaw) return `daily reward ${rawToDecimal(rewardRaw)} below minDailyReward ${rawToDecimal(select.minDailyRewardRaw)}`;
  if (select.tickers !== null) {
    const reason = tickerVerdict(market, select.tickers, input.feedIds ?? DEFAULT_PYTH_FEED_IDS);
    if (reason !== null) return reason;
  }
  if (select.cadences !== null) {
    const cadence = cadenceOf(market);
    if (cadence === null || !select.cadences.includes(cadence)) return `cadence ${cadence ?? 'unknown'} not in [${select.cadences.join(', ')}]`;
  }
  const join = select.joinBeforeSettlementMs;
  if (join !== null && !joined) {
    if (market.expirationMs === null) return 'no settlement time (expirationTimestamp): joinBeforeSettlementSec cannot be judged';
    const left = market.expirationMs - input.nowMs;
    if (left > join) return `settles in ${duration(left)} > joinBeforeSettlementSec ${join / 1000} s`;
  }
  const band = fairVerdict(fair, select, joined);
  if (band !== null) return band;
  return { market, joined, rewardRaw, distance: fair === null ? null : Math.abs(fair - 0.5) };
}

/** Ascending, unknown (null) last. */
function ascending(a: number | null, b: number | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return a - b;
}

function bySlug(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Joined first, then by `by` (see the header), then the soonest settlement, then the slug. */
function rankOrder(by: MarketSelector['by']): (a: Ranked, b: Ranked) => number {
  return (a, b) => {
    if (a.joined !== b.joined) return a.joined ? -1 : 1;
    const reward = b.rewardRaw - a.rewardRaw;
    const money = ascending(a.distance, b.distance);
    const primary = by === 'dailyReward' ? reward || money : money || reward;
    return primary || ascending(a.market.expirationMs, b.market.expirationMs) || bySlug(a.market.slug, b.market.slug);
  };
}

export function selectMarkets(input: SelectionInput): SelectionResult {
  const { rules, nowMs } = input;
  const select = rules.select;
  const excluded = new Set(rules.exclude);
  const namedOrder = new Map(rules.slugs.map((slug, index) => [slug, index]));
  const groups = new Set(rules.groups);
  const everything = rules.slugs.length === 0 && rules.groups.length === 0 && select === null;
  const skipped = new Map<string, string>();
  const seen = new Set<string>();
  const named: Market[] = [];
  const members: Market[] = [];
  const ranked: Ranked[] = [];

  for (const candidate of input.candidates) {
    const { market } = candidate;
    if (seen.has(market.slug)) continue;
    seen.add(market.slug);
    const unfit = excluded.has(market.slug) ? 'excluded' : (endedReason(market, nowMs) ?? (candidate.detailsPending === true ? null : missingDetails(market)));
    if (unfit !== null) skipped.set(market.slug, unfit);
    else if (namedOrder.has(market.slug)) named.push(market);
    else if ((market.groupSlug !== null && groups.has(market.groupSlug)) || everything) members.push(market);
    else if (select === null) skipped.set(market.slug, 'not named in markets.slugs or groups, and no markets.select');
    else {
      const verdict = judge(candidate, select, input);
      if (typeof verdict === 'string') skipped.set(market.slug, verdict);
      else ranked.push(verdict);
    }
  }
  for (const slug of rules.slugs) if (!seen.has(slug)) skipped.set(slug, excluded.has(slug) ? 'excluded' : 'named in markets.slugs but not among the listed markets');
  for (const slug of input.current) if (!seen.has(slug) && !skipped.has(slug)) skipped.set(slug, 'joined but no longer listed');

  named.sort((a, b) => (namedOrder.get(a.slug) ?? 0) - (namedOrder.get(b.slug) ?? 0));
  ranked.sort(rankOrder(select?.by ?? 'dailyReward'));
  const top = select?.top ?? null;
  const added = top === null ? ranked : ranked.slice(0, top);
  for (const r of ranked.slice(added.length)) skipped.set(r.market.slug, `over top ${top ?? ''}`);

  const ordered = [...named, ...members, ...added.map((r) => r.market)];
  const max = select?.max ?? null;
  const selected = max === null ? ordered : ordered.slice(0, max);
  for (const market of ordered.slice(selected.length)) skipped.set(market.slug, `over max ${max ?? ''}`);
  return { selected, skipped };
}

/** A selection that is only a list of slugs: nothing new can ever match it (no listing poll is needed while running). */
export function isStaticSelection(rules: Pick<MarketsConfig, 'slugs' | 'groups' | 'select'>): boolean {
  return rules.slugs.length > 0 && rules.groups.length === 0 && rules.select === null;
}
