/**
 * Market selection: explicit slugs, group slugs expanded to their submarkets, or a selector ("the N rewardable
 * markets with the highest daily reward"), minus exclusions; nothing selected = every active market (paper
 * trading on the simulator). Reads the venue once at start-up.
 *
 * Invariant: only tradable markets are returned (venue and tokens present, not resolved, not expired); a slug
 * named explicitly that is not tradable is an error naming it, not a silent skip.
 */
import type { Logger } from 'pino';
import type { MarketsConfig } from '../config/types.js';
import type { ExchangeApi } from '../exchange/api.js';
import { normalizeRewardSettings, type Market } from '../exchange/wire.js';

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

async function activeMarkets(api: ExchangeApi): Promise<Market[]> {
  const all: Market[] = [];
  for (let page = 1; page <= 20; page += 1) {
    const answer = await api.getActiveMarkets({ page, limit: 100 });
    all.push(...answer.markets);
    if (answer.markets.length < 100) break;
  }
  return all;
}

export async function resolveMarkets(api: ExchangeApi, config: MarketsConfig, log: Logger): Promise<Market[]> {
  const chosen = new Map<string, Market>();
  const excluded = new Set(config.exclude);
  for (const slug of config.slugs) {
    const market = await api.getMarket(slug);
    if (!isTradable(market)) throw new MarketSelectionError(slug, 'is not tradable (resolved, expired, or missing venue or tokens)');
    chosen.set(slug, market);
  }
  const everything = config.slugs.length === 0 && config.groups.length === 0 && config.select === null;
  if (everything || config.groups.length > 0 || config.select !== null) {
    const active = await activeMarkets(api);
    for (const group of config.groups) {
      const members = active.filter((m) => m.groupSlug === group);
      if (members.length === 0) throw new MarketSelectionError(group, 'is not an active group');
      for (const market of members) chosen.set(market.slug, await api.getMarket(market.slug));
    }
    if (everything) for (const market of active.filter(isTradable)) chosen.set(market.slug, market);
    const select = config.select;
    if (select !== null) {
      const ranked = active
        .filter(isTradable)
        .filter((m) => !excluded.has(m.slug) && !chosen.has(m.slug))
        .map((m) => ({ market: m, reward: normalizeRewardSettings(m.settings).dailyRewardRaw }))
        .filter((m) => (!select.rewardableOnly || m.market.isRewardable) && m.reward >= select.minDailyRewardRaw)
        .sort((a, b) => (select.by === 'dailyReward' ? b.reward - a.reward : 0) || a.market.slug.localeCompare(b.market.slug))
        .slice(0, select.top);
      for (const { market } of ranked) chosen.set(market.slug, await api.getMarket(market.slug));
    }
  }
  for (const slug of excluded) chosen.delete(slug);
  for (const market of chosen.values()) {
    const reward = normalizeRewardSettings(market.settings);
    log.debug({ market: market.slug, reward: reward.assumptions }, 'reward settings units as read');
  }
  return [...chosen.values()].filter(isTradable);
}
