/**
 * The creator fee of Community (user-generated) markets: the venue's user guide says a creator fee is taken from the
 * taker fee FIRST and the maker-rebate pool is funded from what remains. Neither the official client's types
 * (MarketCreator is `{name, imageURI, link}`; MarketMetadata `{fee, …}`; MarketSettings has no creator-fee field)
 * nor the recorded markets (creator "Limitless", no `source`) carry the fee's size, so it is a setting
 * (`rewards.creatorFee.shareOfTakerFee`), and which markets are Community is read from what the market does carry:
 * a namespaced `source` (the specification: "a namespaced value for user-generated markets", e.g. `ugc:alice`; a
 * plain one such as the simulator's `simulator` is not), or a creator whose name is not
 * one of the venue's own (`rewards.creatorFee.venueCreators`, default ["Limitless"]).
 *
 * Owns: that judgement and the maker's share of a taker fee it implies. Invariants: pure; a venue market has no
 * creator fee (share 0); a Community market whose share is not configured has NO rebate estimate (null), never one
 * that ignores the creator's cut.
 */

export interface CreatorFeeConfig {
  /** The creator's fraction of the taker fee on a Community market; null: unknown (no rebate estimate there). */
  readonly shareOfTakerFee: number | null;
  /** Creator names of the venue's own markets (not Community). */
  readonly venueCreators: readonly string[];
}

const NAMESPACED = /^[^:/\s]+[:/]\S+$/;

export const DEFAULT_CREATOR_FEE: CreatorFeeConfig = { shareOfTakerFee: null, venueCreators: ['Limitless'] };

export interface MarketOrigin {
  readonly creatorName?: string | null;
  readonly source?: string | null;
}

/** Whether a market is a Community (user-generated) one, from its `source` and its creator's name. */
export function isCommunityMarket(market: MarketOrigin, config: CreatorFeeConfig = DEFAULT_CREATOR_FEE): boolean {
  // The spec calls a user-generated market's `source` "a namespaced value": one with a namespace separator.
  if (typeof market.source === 'string' && NAMESPACED.test(market.source)) return true;
  const name = market.creatorName;
  return typeof name === 'string' && name !== '' && !config.venueCreators.some((venue) => venue.toLowerCase() === name.toLowerCase());
}

/** The creator's fraction of a taker fee on this market: 0 on the venue's own, the configured share (or null) on a Community one. */
export function creatorFeeShareOf(market: MarketOrigin, config: CreatorFeeConfig = DEFAULT_CREATOR_FEE): number | null {
  return isCommunityMarket(market, config) ? config.shareOfTakerFee : 0;
}

/**
 * The fraction of a taker fee paid back to its maker: the rebate rate applied to what the creator fee leaves
 * (rate × (1 − creator share)); null when the creator's share is unknown.
 */
export function makerShareOfTakerFee(rebateRate: number, creatorFeeShare: number | null): number | null {
  if (creatorFeeShare === null) return null;
  return rebateRate * (1 - Math.min(1, Math.max(0, creatorFeeShare)));
}
