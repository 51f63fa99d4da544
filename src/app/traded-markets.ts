/**
 * The markets this bot trades, fixed at start-up (src/app/markets.ts selects them): each market's venue record, its
 * strategy view (`MarketInfo`, with the effective price band) and whether it has resolved during this run.
 *
 * Owns: the traded set and the resolved set. Invariants: the traded set never changes after construction; a market
 * is marked resolved at most once (`markResolved` answers true only the first time), and only a traded market.
 */
import type { Market } from '../exchange/wire.js';
import type { MarketInfo } from '../strategy/contract.js';

/** What the traded set reads of a venue market (the strategy view is built by the caller's `infoOf`). */
export type TradedMarket = Pick<Market, 'slug' | 'id'>;

export class TradedMarkets<M extends TradedMarket = Market> {
  private readonly bySlug: ReadonlyMap<string, M>;
  private readonly infos: ReadonlyMap<string, MarketInfo>;
  private readonly resolved = new Set<string>();

  constructor(markets: readonly M[], infoOf: (market: M) => MarketInfo) {
    this.bySlug = new Map(markets.map((m) => [m.slug, m]));
    this.infos = new Map(markets.map((m) => [m.slug, infoOf(m)]));
  }

  /** Every traded market's slug, in selection order. */
  slugs(): string[] {
    return [...this.bySlug.keys()];
  }

  infoList(): MarketInfo[] {
    return [...this.infos.values()];
  }

  isTraded(slug: string): boolean {
    return this.bySlug.has(slug);
  }

  info(slug: string): MarketInfo | undefined {
    return this.infos.get(slug);
  }

  /** The slug of a traded market by the venue's numeric market id (as text); null when not traded. */
  slugOfMarketId(marketId: string): string | null {
    for (const market of this.bySlug.values()) if (String(market.id) === marketId) return market.slug;
    return null;
  }

  /** Records that `slug` resolved; true the first time for a traded market, false otherwise. */
  markResolved(slug: string): boolean {
    if (!this.bySlug.has(slug) || this.resolved.has(slug)) return false;
    this.resolved.add(slug);
    return true;
  }

  isResolved(slug: string): boolean {
    return this.resolved.has(slug);
  }
}
