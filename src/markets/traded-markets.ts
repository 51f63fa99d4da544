/**
 * The markets this bot trades, which change while it runs (src/markets/market-roster.ts joins and leaves them): each
 * market's venue record, its strategy view (`MarketInfo`, with the effective price band) and whether it resolved.
 *
 * Owns: the traded set, the departed set (markets left but kept until they resolve and settle, so a late order event
 * still finds its market and the resolution still reaches the ledger) and the resolved set. Invariants: a market is
 * either traded or departed, never both; a market is marked resolved at most once (`markResolved` answers true only
 * the first time), and only a known (traded or departed) market; `forget` drops a departed market entirely (memory
 * stays bounded over days of rolling markets); `slugs()` keeps the order in which markets joined.
 */
import type { Market } from '../exchange/wire.js';
import type { MarketInfo } from '../strategy/contract.js';

/** What the traded set reads of a venue market (the strategy view is built by the caller's `infoOf`). */
export type TradedMarket = Pick<Market, 'slug' | 'id'>;

export class TradedMarkets<M extends TradedMarket = Market> {
  private readonly bySlug = new Map<string, M>();
  private readonly infos = new Map<string, MarketInfo>();
  private readonly departed = new Map<string, M>();
  private readonly resolved = new Set<string>();

  constructor(
    markets: readonly M[],
    private readonly infoOf: (market: M) => MarketInfo,
  ) {
    for (const market of markets) this.add(market);
  }

  /** Joins `market` (a departed one comes back); false when it is traded already. */
  add(market: M): boolean {
    if (this.bySlug.has(market.slug)) return false;
    this.departed.delete(market.slug);
    this.bySlug.set(market.slug, market);
    this.infos.set(market.slug, this.infoOf(market));
    return true;
  }

  /** Leaves `slug`: no longer traded, kept as departed until `forget`. False when it was not traded. */
  remove(slug: string): boolean {
    const market = this.bySlug.get(slug);
    if (market === undefined) return false;
    this.bySlug.delete(slug);
    this.infos.delete(slug);
    this.departed.set(slug, market);
    return true;
  }

  /** Drops a departed market and its resolved mark; a traded market is never forgotten. */
  forget(slug: string): boolean {
    if (!this.departed.delete(slug)) return false;
    this.resolved.delete(slug);
    return true;
  }

  /** Every traded market's slug, in the order they joined. */
  slugs(): string[] {
    return [...this.bySlug.keys()];
  }

  /** Markets left and not forgotten yet. */
  departedSlugs(): string[] {
    return [...this.departed.keys()];
  }

  infoList(): MarketInfo[] {
    return [...this.infos.values()];
  }

  isTraded(slug: string): boolean {
    return this.bySlug.has(slug);
  }

  /** Traded or departed. */
  isKnown(slug: string): boolean {
    return this.bySlug.has(slug) || this.departed.has(slug);
  }

  /** The venue record of a traded or departed market. */
  market(slug: string): M | undefined {
    return this.bySlug.get(slug) ?? this.departed.get(slug);
  }

  info(slug: string): MarketInfo | undefined {
    return this.infos.get(slug);
  }

  /** The slug of a traded or departed market by the venue's numeric market id (as text); null when unknown. */
  slugOfMarketId(marketId: string): string | null {
    for (const market of this.bySlug.values()) if (String(market.id) === marketId) return market.slug;
    for (const market of this.departed.values()) if (String(market.id) === marketId) return market.slug;
    return null;
  }

  /** Records that `slug` resolved; true the first time for a known market, false otherwise. */
  markResolved(slug: string): boolean {
    if (!this.isKnown(slug) || this.resolved.has(slug)) return false;
    this.resolved.add(slug);
    return true;
  }

  isResolved(slug: string): boolean {
    return this.resolved.has(slug);
  }

  /** The markets marked resolved and not forgotten (bounded: the known markets). */
  resolvedSlugs(): ReadonlySet<string> {
    return this.resolved;
  }
}
