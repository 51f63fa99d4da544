/**
 * The venue side of market selection: the named markets (many of them from the active listing, a page of 25 per read,
 * each entry as listed when it carries its venue and tokens; the others and a few by GET /markets/{slug}), the paged
 * active listing, and listing entries completed with their details; the choice itself is the pure `selectMarkets`
 * (market-selection.ts), which start-up (`resolveMarkets`) and the run-time discovery loop share.
 *
 * Invariant: only tradable markets are returned (venue and tokens present, not resolved, not expired, not past
 * settlement); a slug named explicitly that is not found, or lacks its venue or tokens, is an error naming it, not a
 * silent skip. A named market that has ended (resolved, expired or past settlement) is skipped with a warning naming
 * it: a bot restarted after one of its markets resolved keeps quoting the others (the settler redeems the resolved
 * one). A listing entry may lack the venue (the spec returns it with GET /markets/{slug}): such entries are judged
 * on their details, which are read only for entries the rules select (`selectWithDetails`).
 */
import { creatorFeeShareOf, DEFAULT_CREATOR_FEE, type CreatorFeeConfig } from '../rewards/creator-fee.js';
import type { Logger } from 'pino';
import type { MarketsConfig } from '../config/types.js';
import { MAX_ACTIVE_MARKETS_LIMIT, type ExchangeApi } from '../exchange/api.js';
import { ExchangeHttpError } from '../exchange/errors.js';
import { normalizeRewardSettings, type Market } from '../exchange/wire.js';
import type { PriceBand } from '../config/types.js';
import type { FeedId } from '../pricing/types.js';
import type { MarketInfo, RewardRules } from '../strategy/contract.js';
import { cadenceOf, endedReason, isTradable, selectMarkets, type SelectionCandidate, type SelectionInput, type SelectionResult } from './market-selection.js';

export { isTradable };

export class MarketSelectionError extends Error {
  override readonly name = 'MarketSelectionError';
  constructor(
    readonly slug: string,
    readonly reason: string,
  ) {
    super(`markets: ${JSON.stringify(slug)} ${reason}`);
  }
}

/** The venue's largest `limit` (25, the official client's ActiveMarketsParams). */
const LISTING_PAGE_SIZE = MAX_ACTIVE_MARKETS_LIMIT;
const LISTING_MAX_PAGES = 80;

/**
 * Every active market, each once. The venue's largest page size is not published (a short page does not prove
 * the end), so pages are read until one brings no market not seen before: an empty page, or a venue that
 * ignores `page`.
 */
export async function activeMarkets(api: ExchangeApi): Promise<Market[]> {
  const bySlug = new Map<string, Market>();
  for (let page = 1; page <= LISTING_MAX_PAGES; page += 1) {
    const answer = await api.getActiveMarkets({ page, limit: LISTING_PAGE_SIZE });
    let added = 0;
    for (const market of answer.markets) {
      if (bySlug.has(market.slug)) continue;
      bySlug.set(market.slug, market);
      added += 1;
    }
    if (added === 0) break;
  }
  return [...bySlug.values()];
}

/** A listing entry with its venue and tokens: as listed when it has them, else from GET /markets/{slug}. */
export async function withDetails(api: ExchangeApi, market: Market): Promise<Market> {
  return hasDetails(market) ? market : api.getMarket(market.slug);
}

function hasDetails(market: Market): boolean {
  return market.venue !== null && market.tokens !== null;
}

/**
 * `selectMarkets` over listing entries, some of which may lack their venue or tokens: such an entry is selected
 * provisionally, its details are read (GET /markets/{slug}) and the selection runs again, until every selected market
 * has its details. Only entries the rules select are read, each at most once; one the venue no longer knows (404) is
 * skipped with that reason. `detailsPending` of the given candidates is ignored (derived from the markets).
 */
export async function selectWithDetails(api: ExchangeApi, input: SelectionInput): Promise<SelectionResult> {
  let candidates: SelectionCandidate[] = input.candidates.map((c) => ({ market: c.market, fair: c.fair, detailsPending: !hasDetails(c.market) }));
  const gone = new Map<string, string>();
  for (;;) {
    const result = selectMarkets({ ...input, candidates });
    const chosen = new Set(result.selected.map((m) => m.slug));
    const pending = new Set(candidates.filter((c) => c.detailsPending === true && chosen.has(c.market.slug)).map((c) => c.market.slug));
    if (pending.size === 0) return gone.size === 0 ? result : { selected: result.selected, skipped: new Map([...result.skipped, ...gone]) };
    const next: SelectionCandidate[] = [];
    for (const candidate of candidates) {
      if (!pending.has(candidate.market.slug)) {
        next.push(candidate);
        continue;
      }
      try {
        next.push({ market: await api.getMarket(candidate.market.slug), fair: candidate.fair, detailsPending: false });
      } catch (error) {
        if (!(error instanceof ExchangeHttpError && error.status === 404)) throw error;
        gone.set(candidate.market.slug, 'not found on the venue (404) when its details were read');
      }
    }
    candidates = next;
  }
}

async function marketNamed(api: ExchangeApi, slug: string): Promise<Market> {
  try {
    return await api.getMarket(slug);
  } catch (error) {
    if (error instanceof ExchangeHttpError && error.status === 404) throw new MarketSelectionError(slug, 'was not found on the venue');
    throw error;
  }
}

/** From this many named slugs on, the active listing is read first (25 markets a page) instead of one read per slug. */
export const NAMED_FROM_LISTING_AT = 8;
/** The listing pays when a page finds this many named markets: at most ⌈named / this⌉ pages are read for them. */
const NAMED_PER_PAGE = 4;

/**
 * Named markets found in the active listing (each entry with its venue and tokens as listed): pages are read until every
 * named slug is found, a page brings no market not seen before, or ⌈named / NAMED_PER_PAGE⌉ pages were read (the
 * listing then cost no more than a quarter of the reads one per slug would). The rest are read one by one.
 */
async function namedFromListing(api: ExchangeApi, slugs: readonly string[]): Promise<Map<string, Market>> {
  const wanted = new Set(slugs);
  const found = new Map<string, Market>();
  const seen = new Set<string>();
  const maxPages = Math.ceil(wanted.size / NAMED_PER_PAGE);
  for (let page = 1; page <= maxPages && found.size < wanted.size; page += 1) {
    const answer = await api.getActiveMarkets({ page, limit: LISTING_PAGE_SIZE });
    let added = 0;
    for (const market of answer.markets) {
      if (seen.has(market.slug)) continue;
      seen.add(market.slug);
      added += 1;
      if (wanted.has(market.slug)) found.set(market.slug, market);
    }
    if (added === 0) break;
  }
  return found;
}

export interface ResolveOptions {
  /** The clock's now (a market past its settlement is never selected). */
  readonly nowMs: number;
  /** Ticker → Pyth feed id for the `tickers` rule (`config.pricing.feedIds`); default: the built-in map. */
  readonly feedIds?: Readonly<Record<string, FeedId>>;
}

/**
 * The markets to quote at start-up: the named slugs read one by one (errors name them), the listing read when groups,
 * `select` or "every market" need it, then `selectMarkets` with no market joined yet and no fair value known.
 */
export async function resolveMarkets(api: ExchangeApi, config: MarketsConfig, log: Logger, options: ResolveOptions): Promise<Market[]> {
  const excluded = new Set(config.exclude);
  const named: Market[] = [];
  const wanted = config.slugs.filter((slug) => !excluded.has(slug));
  const listed = wanted.length >= NAMED_FROM_LISTING_AT ? await namedFromListing(api, wanted) : new Map<string, Market>();
  for (const slug of wanted) {
    const entry = listed.get(slug);
    const market = entry === undefined ? await marketNamed(api, slug) : await withDetails(api, entry);
    const ended = endedReason(market, options.nowMs);
    if (ended !== null) {
      log.warn({ market: slug, resolved: market.resolved, expired: market.expired, reason: ended }, 'a market named in the config has ended: not quoted');
      continue;
    }
    if (!isTradable(market)) throw new MarketSelectionError(slug, 'is not tradable (missing venue or tokens)');
    named.push(market);
  }
  const everything = config.slugs.length === 0 && config.groups.length === 0 && config.select === null;
  const listing = everything || config.groups.length > 0 || config.select !== null ? await activeMarkets(api) : [];
  for (const group of config.groups) {
    if (!listing.some((m) => m.groupSlug === group)) throw new MarketSelectionError(group, 'is not an active group');
  }
  const namedSlugs = new Set(config.slugs);
  const candidates = [...named, ...listing.filter((m) => !namedSlugs.has(m.slug))].map((market) => ({ market, fair: null }));
  const result = await selectWithDetails(api, { rules: config, candidates, nowMs: options.nowMs, current: new Set(), ...(options.feedIds ? { feedIds: options.feedIds } : {}) });
  for (const market of result.selected) {
    const reward = normalizeRewardSettings(market.settings);
    log.debug({ market: market.slug, reward: reward.assumptions }, 'reward settings units as read');
  }
  if (log.isLevelEnabled('debug')) for (const [market, reason] of result.skipped) log.debug({ market, reason }, 'market not selected');
  return [...result.selected];
}

/** The strategy's view of a venue market: tokens, reward settings in exact units, expiry, and the band it may quote in. */
export function marketInfoOf(market: Market, band: PriceBand, rewardRules?: RewardRules, creatorFee: CreatorFeeConfig = DEFAULT_CREATOR_FEE): MarketInfo {
  const reward = normalizeRewardSettings(market.settings);
  // The venue's maker rebate rate when it states one (`settings.rebateRate`); absent: the accrual's fallback applies.
  const rebateRate = market.settings?.rebateRate;
  return {
    slug: market.slug,
    tokens: market.tokens ?? { yes: '', no: '' },
    minSizeRaw: reward.minSizeRaw,
    maxSpreadTicks: reward.maxSpreadTicks,
    rewardC: reward.c,
    dailyRewardRaw: reward.dailyRewardRaw,
    rewardable: market.isRewardable,
    expiresAtMs: market.expirationMs,
    cadence: cadenceOf(market),
    band,
    ...(rewardRules === undefined ? {} : { rewardRules }),
    ...(rebateRate === undefined ? {} : { rebateRate }),
    creatorFeeShare: creatorFeeShareOf(market, creatorFee),
  };
}
