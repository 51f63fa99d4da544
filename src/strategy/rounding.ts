/**
 * The one rounding boundary between strategy maths (float prices and shares) and the venue grid
 * (integer ticks, raw sizes on the 1,000-raw step). Every built-in strategy, and any user strategy
 * that wants to, crosses it here and nowhere else.
 *
 * Invariants of every intent returned:
 * - price: BUY rounded down, SELL up (src/core/venue-rules roundPriceToTicks), so rounding never makes a
 *   quote more aggressive; then limited into (0, 1) and the market's band;
 * - size: rounded DOWN to the step, and at least the minimum given (else the intent is dropped);
 * - a ladder's bids are strictly below its asks in YES terms (a BUY NO at q counts as an ask at 1 − q).
 *
 * Limiting is done in the safe direction (a bid above the band is lowered to its top, an ask below it
 * raised to its bottom). A price beyond the band on its passive side (a bid below the bottom, an ask
 * above the top) cannot be placed as asked: it is dropped by default, because the nearest legal
 * price is more aggressive than the strategy wanted; `outOfBand: 'clamp'` moves it to the band edge
 * instead, but never past the fair price or through the touch.
 */
import { MAX_TICK, MIN_TICK, roundPriceToTicks, roundSizeToStep, SIZE_STEP_RAW, TICKS_PER_UNIT } from '../core/venue-rules/index.js';
import type { Outcome, Side } from '../core/venue-rules/index.js';
import type { MarketInfo, QuoteIntent } from './contract.js';
import { fromYesTerms, toYesTerms } from './yes-terms.js';
import type { YesSide } from './yes-terms.js';

export interface TickBand {
  readonly minTicks: number;
  readonly maxTicks: number;
}

/** What to do with a price beyond the band on its passive side. */
export type OutOfBandPolicy = 'drop' | 'clamp';

/** The market's band intersected with the venue's [1, 999]; null when that leaves nothing. */
export function effectiveBand(market: MarketInfo): TickBand | null {
  const { minTicks, maxTicks } = market.band;
  if (!Number.isFinite(minTicks) || !Number.isFinite(maxTicks)) return null;
  const lo = Math.max(MIN_TICK, Math.ceil(minTicks));
  const hi = Math.min(MAX_TICK, Math.floor(maxTicks));
  return lo <= hi ? { minTicks: lo, maxTicks: hi } : null;
}

/** The band, seen in YES terms, of an order placed through `token` (a NO price q is a YES price 1 − q). */
export function yesTermsBand(band: TickBand, token: Outcome): TickBand {
  if (token === 'YES') return band;
  return { minTicks: TICKS_PER_UNIT - band.maxTicks, maxTicks: TICKS_PER_UNIT - band.minTicks };
}

/** Float shares → raw on the step (down); null for NaN, negative or below `minSizeRaw`. */
export function roundShares(shares: number, minSizeRaw: number = SIZE_STEP_RAW): number | null {
  if (!Number.isFinite(shares) || shares <= 0) return null;
  const raw = roundSizeToStep(shares);
  if (!Number.isSafeInteger(raw) || raw < Math.max(SIZE_STEP_RAW, minSizeRaw)) return null;
  return raw;
}

/**
 * Rounds a float price for `side` (BUY down, SELL up) and limits it to [lo, hi]. Returns null when the
 * price is not finite, when lo > hi, or when it is beyond the passive end and the policy is 'drop'.
 * For a BUY the passive end is `lo` (bidding lower than allowed); for a SELL it is `hi`.
 */
export function limitPrice(price: number, side: Side, lo: number, hi: number, policy: OutOfBandPolicy): number | null {
  if (!Number.isFinite(price) || lo > hi) return null;
  // Keep the float inside a sane range before scaling so a wild input cannot overflow the integer maths.
  const bounded = Math.min(2, Math.max(-1, price));
  const ticks = roundPriceToTicks(bounded, side);
  if (side === 'BUY') {
    if (ticks > hi) return hi;
    if (ticks < lo) return policy === 'clamp' ? lo : null;
    return ticks;
  }
  if (ticks < lo) return lo;
  if (ticks > hi) return policy === 'clamp' ? hi : null;
  return ticks;
}

export interface FloatIntent {
  readonly slot: string;
  readonly token: Outcome;
  readonly side: Side;
  /** Price of `token`, in price units (0..1). */
  readonly price: number;
  readonly shares: number;
  readonly postOnly?: boolean;
}

export interface RoundingOptions {
  /** Smallest raw size worth sending (default one step). */
  readonly minSizeRaw?: number;
  readonly outOfBand?: OutOfBandPolicy;
}

/** One float intent → a QuoteIntent on the grid and in the band, or null when it cannot be placed as asked. */
export function roundIntent(intent: FloatIntent, market: MarketInfo, options: RoundingOptions = {}): QuoteIntent | null {
  const band = effectiveBand(market);
  if (band === null) return null;
  const sizeRaw = roundShares(intent.shares, options.minSizeRaw);
  if (sizeRaw === null) return null;
  const priceTicks = limitPrice(intent.price, intent.side, band.minTicks, band.maxTicks, options.outOfBand ?? 'drop');
  if (priceTicks === null) return null;
  return withPostOnly({ slot: intent.slot, token: intent.token, side: intent.side, priceTicks, sizeRaw }, intent.postOnly);
}

/** One level of a ladder: a YES price in price units and a size in shares. */
export interface FloatLevel {
  readonly price: number;
  readonly shares: number;
}

export interface YesLadderSpec {
  /** Bid levels (BUY YES), best first; level i gets slot `<bid prefix>-i`. */
  readonly bids: readonly FloatLevel[];
  /** Ask levels in YES prices, best first; level i gets slot `<ask prefix>-i`. */
  readonly asks: readonly FloatLevel[];
  /** YES price the ladder straddles: bids strictly below it, asks strictly above. null: no such limit. */
  readonly fair: number | null;
  readonly postOnly: boolean;
  /**
   * YES raw the asks may sell. Asks are walked best first; an ask whose whole size is still covered is
   * SELL YES, any other is BUY NO at 1 − p (same slot), which needs no inventory.
   */
  readonly yesToSellRaw: number;
  /** NO raw the bids may sell, the same way: a covered bid is SELL NO at 1 − p, any other BUY YES. Default 0. */
  readonly noToSellRaw?: number;
  readonly minSizeRaw?: number;
  readonly outOfBand?: OutOfBandPolicy;
  /** The YES book's touch: post-only bids stay below the best ask and asks above the best bid. */
  readonly touch?: { readonly bestBidTicks: number | null; readonly bestAskTicks: number | null };
  readonly slotPrefix?: { readonly bid: string; readonly ask: string };
}

/**
 * Builds a two-sided YES ladder from floats: bids are BUY YES or (complement, when NO is held) SELL NO,
 * asks are SELL YES when YES is held, else (complement) BUY NO.
 * Bids are rounded down and asks up in YES terms, which is the same as rounding each actual order
 * (BUY NO down in NO price) because the complement is exact in ticks.
 */
export function buildYesLadder(spec: YesLadderSpec, market: MarketInfo): QuoteIntent[] {
  const band = effectiveBand(market);
  if (band === null) return [];
  const policy = spec.outOfBand ?? 'drop';
  const minSizeRaw = spec.minSizeRaw ?? SIZE_STEP_RAW;
  const prefix = spec.slotPrefix ?? { bid: 'bid', ask: 'ask' };
  const fairScaled = spec.fair !== null && Number.isFinite(spec.fair) ? snapScaled(spec.fair * TICKS_PER_UNIT) : null;
  const touchAsk = spec.postOnly ? (spec.touch?.bestAskTicks ?? null) : null;
  const touchBid = spec.postOnly ? (spec.touch?.bestBidTicks ?? null) : null;

  // Highest legal bid and lowest legal ask (YES ticks), from the fair price and the touch.
  let bidCap = Number.POSITIVE_INFINITY;
  if (fairScaled !== null) bidCap = Math.ceil(fairScaled) - 1;
  if (touchAsk !== null) bidCap = Math.min(bidCap, touchAsk - 1);
  let askFloor = Number.NEGATIVE_INFINITY;
  if (fairScaled !== null) askFloor = Math.floor(fairScaled) + 1;
  if (touchBid !== null) askFloor = Math.max(askFloor, touchBid + 1);

  const out: QuoteIntent[] = [];
  let noLeft = inventory(spec.noToSellRaw);
  spec.bids.forEach((level, i) => {
    const sizeRaw = roundShares(level.shares, minSizeRaw);
    if (sizeRaw === null) return;
    const token: Outcome = sizeRaw <= noLeft ? 'NO' : 'YES';
    const yesBand = yesTermsBand(band, token);
    // In YES terms a bid is a BUY: rounded down, passive end is the bottom.
    const ticks = limitPrice(level.price, 'BUY', yesBand.minTicks, Math.min(yesBand.maxTicks, bidCap), policy);
    if (ticks === null) return;
    if (token === 'NO') noLeft -= sizeRaw;
    out.push(ladderIntent(`${prefix.bid}-${i}`, 'bid', ticks, token, sizeRaw, spec.postOnly));
  });

  let yesLeft = inventory(spec.yesToSellRaw);
  spec.asks.forEach((level, i) => {
    const sizeRaw = roundShares(level.shares, minSizeRaw);
    if (sizeRaw === null) return;
    const token: Outcome = sizeRaw <= yesLeft ? 'YES' : 'NO';
    const yesBand = yesTermsBand(band, token);
    const lo = Math.max(yesBand.minTicks, askFloor);
    // In YES terms an ask is a SELL: rounded up, passive end is the top.
    const ticks = limitPrice(level.price, 'SELL', lo, yesBand.maxTicks, policy);
    if (ticks === null) return;
    if (token === 'YES') yesLeft -= sizeRaw;
    out.push(ladderIntent(`${prefix.ask}-${i}`, 'ask', ticks, token, sizeRaw, spec.postOnly));
  });

  return fairScaled === null ? uncross(out) : out;
}

function inventory(raw: number | undefined): number {
  return raw !== undefined && Number.isFinite(raw) ? Math.max(0, raw) : 0;
}

function ladderIntent(slot: string, yesSide: YesSide, yesTicks: number, token: Outcome, sizeRaw: number, postOnly: boolean): QuoteIntent {
  const order = fromYesTerms(yesSide, yesTicks, token);
  return withPostOnly({ slot, token, side: order.side, priceTicks: order.priceTicks, sizeRaw }, postOnly);
}

function withPostOnly(intent: QuoteIntent, postOnly: boolean | undefined): QuoteIntent {
  return postOnly === undefined ? intent : { ...intent, postOnly };
}

/** Without a fair price, drop every bid at or above the lowest ask and every ask at or below the highest bid. */
function uncross(intents: QuoteIntent[]): QuoteIntent[] {
  const yes = intents.map((intent) => ({ intent, ...toYesTerms(intent.token, intent.side, intent.priceTicks) }));
  const bids = yes.filter((q) => q.side === 'bid').map((q) => q.priceTicks);
  const asks = yes.filter((q) => q.side === 'ask').map((q) => q.priceTicks);
  if (bids.length === 0 || asks.length === 0) return intents;
  const maxBid = Math.max(...bids);
  const minAsk = Math.min(...asks);
  if (maxBid < minAsk) return intents;
  return yes.filter((q) => (q.side === 'bid' ? q.priceTicks < minAsk : q.priceTicks > maxBid)).map((q) => q.intent);
}

/** Snaps a scaled price within float noise of an integer onto it (0.555 * 1000 = 555.0000000001). */
function snapScaled(scaled: number): number {
  const nearest = Math.round(scaled);
  return Math.abs(scaled - nearest) < 1e-7 ? nearest : scaled;
}
