/**
 * Market selection: explicit slugs, group slugs expanded to their submarkets, or a selector ("the N rewardable
 * markets with the highest daily reward"), minus exclusions; nothing selected = every active market (paper
 * trading on the simulator). Reads the venue once at start-up: many named slugs from the active listing (a page of 25
 * per read, each entry as listed when it carries its venue and tokens), the others and a few by GET /markets/{slug}.
 *
 * Invariant: only tradable markets are returned (venue and tokens present, not resolved, not expired); a slug
 * named explicitly that is not found, or lacks its venue or tokens, is an error naming it, not a silent skip. A
 * named market that has ended (resolved or expired) is skipped with a warning naming it: a bot restarted after
 * one of its markets resolved keeps quoting the others (the settler redeems the resolved one). A listing entry may
 * lack the venue (the spec returns it with GET /markets/{slug}): such entries are judged on their details.
 */
import type { Logger } from 'pino';
import type { MarketsConfig } from '../config/types.js';
import { MAX_ACTIVE_MARKETS_LIMIT, type ExchangeApi } from '../exchange/api.js';
import { ExchangeHttpError } from '../exchange/errors.js';
import { normalizeRewardSettings, type Market } from '../exchange/wire.js';
import type { PriceBand } from '../config/types.js';
import type { MarketInfo } from '../strategy/contract.js';

export class MarketSelectionError extends Error {
  override readonly name = 'MarketSelectionError';
  constructor(
    readonly slug: string,
    readonly reason: string,
  ) {
    super(`markets: ${JSON.stringify(slug)} ${reason}`);
  }
}

export function isTradable(market: Market): boolean {
  return market.venue !== null && market.tokens !== null && !market.resolved && !market.expired;
}

/** The venue's largest `limit` (25, the official client's ActiveMarketsParams). */
const LISTING_PAGE_SIZE = MAX_ACTIVE_MARKETS_LIMIT;
const LISTING_MAX_PAGES = 80;

/**
 * Every active market, each once. The venue's largest page size is not published (a short page does not prove
 * the end), so pages are read until one brings no market not seen before: an empty page, or a venue that
 * ignores `page`.
 */
async function activeMarkets(api: ExchangeApi): Promise<Market[]> {
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

/** Open as far as a listing entry can tell (tradability also needs the venue, which only details may carry). */
function isOpen(market: Market): boolean {
  return !market.resolved && !market.expired;
}

/** A listing entry with its venue and tokens: as listed when it has them, else from GET /markets/{slug}. */
async function withDetails(api: ExchangeApi, market: Market): Promise<Market> {
  return market.venue !== null && market.tokens !== null ? market : api.getMarket(market.slug);
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

export async function resolveMarkets(api: ExchangeApi, config: MarketsConfig, log: Logger): Promise<Market[]> {
  const select = config.select;
  const chosen = new Map<string, Market>();
  const excluded = new Set(config.exclude);
  const listed = config.slugs.length >= NAMED_FROM_LISTING_AT ? await namedFromListing(api, config.slugs) : new Map<string, Market>();
  for (const slug of config.slugs) {
    const entry = listed.get(slug);
    const market = entry === undefined ? await marketNamed(api, slug) : await withDetails(api, entry);
    if (market.resolved || market.expired) {
      log.warn({ market: slug, resolved: market.resolved, expired: market.expired }, 'a market named in the config has ended: not quoted');
      continue;
    }
    if (!isTradable(market)) throw new MarketSelectionError(slug, 'is not tradable (missing venue or tokens)');
    chosen.set(slug, market);
  }
  const everything = config.slugs.length === 0 && config.groups.length === 0 && select === null;
  if (everything || config.groups.length > 0 || select !== null) {
    const active = await activeMarkets(api);
    for (const group of config.groups) {
      const members = active.filter((m) => m.groupSlug === group);
      if (members.length === 0) throw new MarketSelectionError(group, 'is not an active group');
      for (const market of members) if (!excluded.has(market.slug)) chosen.set(market.slug, await withDetails(api, market));
    }
    if (everything) {
      for (const market of active.filter(isOpen)) {
        if (excluded.has(market.slug)) continue;
        const detailed = await withDetails(api, market);
        if (isTradable(detailed)) chosen.set(detailed.slug, detailed);
      }
    }
    if (select !== null) {
      const ranked = active
        .filter(isOpen)
        .filter((m) => !excluded.has(m.slug) && !chosen.has(m.slug))
        .map((m) => ({ market: m, reward: normalizeRewardSettings(m.settings).dailyRewardRaw }))
        .filter((m) => (!select.rewardableOnly || m.market.isRewardable) && m.reward >= select.minDailyRewardRaw)
        .sort((a, b) => b.reward - a.reward || a.market.slug.localeCompare(b.market.slug));
      let taken = 0;
      for (const { market } of ranked) {
        if (taken >= select.top) break;
        const detailed = await withDetails(api, market);
        if (!isTradable(detailed)) continue;
        chosen.set(detailed.slug, detailed);
        taken += 1;
      }
    }
  }
  for (const slug of excluded) chosen.delete(slug);
  for (const market of chosen.values()) {
    const reward = normalizeRewardSettings(market.settings);
    log.debug({ market: market.slug, reward: reward.assumptions }, 'reward settings units as read');
  }
  return [...chosen.values()].filter(isTradable);
}

/** The strategy's view of a venue market: tokens, reward settings in exact units, expiry, and the band it may quote in. */
export function marketInfoOf(market: Market, band: PriceBand): MarketInfo {
  const reward = normalizeRewardSettings(market.settings);
  return {
    slug: market.slug,
    tokens: market.tokens ?? { yes: '', no: '' },
    minSizeRaw: reward.minSizeRaw,
    maxSpreadTicks: reward.maxSpreadTicks,
    rewardC: reward.c,
    dailyRewardRaw: reward.dailyRewardRaw,
    rewardable: market.isRewardable,
    expiresAtMs: market.expirationMs,
    band,
  };
}
