/**
 * Wire formatting of the simulator's REST and socket answers: Market and group objects, the orderbook of
 * exchange-facts §6, the `orderbookUpdate` body of §5, portfolio positions and the `positions` frame.
 *
 * Owns: every choice of unit on the wire (documented in docs/simulator.md), following the answers recorded from
 * the live venue (venue-samples/) where they exist: the REST orderbook's level sizes are raw 1e6 integers (JSON
 * numbers) with a `side`, its `maxSpread` a price-unit string and `minSize` a raw-unit string; Market objects carry
 * `logo`/`proxyTitle` null, a null `venue.adapter` for a simple CLOB market, `settings.maxSpread` a number and the
 * rest of `settings` strings. The socket book's size unit is not recorded: configurable (`raw` | `shares`).
 * Amounts in portfolio answers are raw integer strings and prices decimal strings.
 * Invariants: pure functions of engine state; integer maths (bigint) for every derived amount.
 */
import { adjustedMidpoint, RAW_PER_UNIT, rawToDecimal, rawToFloat, ticksToFloat, ticksToPrice, TICKS_PER_UNIT } from '../../core/venue-rules/index.js';
import { ZERO_ADDRESS } from '../../exchange/eip712.js';
import type { BookSnapshot, Level, PositionSummary, SimEngine, SimGroup, SimMarket, TokenPosition } from '../engine/index.js';

/** USDC on Base, the collateral the venue reports. */
export const COLLATERAL_TOKEN = { address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', decimals: 6, symbol: 'USDC' } as const;

/** One level as the live venue sends it: `side` is BUY in bids and SELL in asks. */
export interface WireLevel {
  readonly price: number;
  readonly size: number;
  readonly side: 'BUY' | 'SELL';
}

/**
 * Unit of level sizes in the socket `orderbookUpdate`: `raw` (1e6 integers, as the REST book sends) or `shares`
 * (decimal numbers). The live venue's socket unit is not recorded; see docs/simulator.md.
 */
export type SocketBookSizeUnit = 'raw' | 'shares';
export const SOCKET_BOOK_SIZE_UNITS: readonly SocketBookSizeUnit[] = ['raw', 'shares'];
/** Default `shares`: the only source that describes the socket's unit says shares (exchange-facts §5). */
export const DEFAULT_SOCKET_BOOK_SIZE_UNIT: SocketBookSizeUnit = 'shares';

/** `GET /markets/{slug}/orderbook`, as recorded from the live venue (venue-samples/rest-orderbook.jsonl). */
export interface RestOrderbook {
  readonly bids: WireLevel[];
  readonly asks: WireLevel[];
  readonly tokenId: string;
  readonly adjustedMidpoint: number | null;
  /** Price units as a decimal string ("0.035"). */
  readonly maxSpread: string;
  /** Raw units as an integer string ("100000000" = 100 shares). */
  readonly minSize: string;
  readonly lastTradePrice: number | null;
}

/** The `orderbook` of a socket `orderbookUpdate` (the official client's OrderbookData: numbers throughout). */
export interface WireOrderbook {
  readonly bids: WireLevel[];
  readonly asks: WireLevel[];
  readonly tokenId: string;
  readonly adjustedMidpoint: number | null;
  readonly maxSpread: number;
  /** Raw units. */
  readonly minSize: number;
}

export function wireLevels(levels: readonly Level[], side: 'BUY' | 'SELL', unit: SocketBookSizeUnit = 'raw'): WireLevel[] {
  return levels.map((l) => ({ price: ticksToFloat(l.priceTicks), size: unit === 'raw' ? l.sizeRaw : rawToFloat(l.sizeRaw), side }));
}

/** The socket `orderbookUpdate` book, sizes in `unit`. */
export function wireOrderbook(market: SimMarket, book: BookSnapshot, unit: SocketBookSizeUnit = DEFAULT_SOCKET_BOOK_SIZE_UNIT): WireOrderbook {
  return {
    bids: wireLevels(book.bids, 'BUY', unit),
    asks: wireLevels(book.asks, 'SELL', unit),
    tokenId: market.yesTokenId,
    adjustedMidpoint: adjustedMidpoint(book, market.settings.minSizeRaw),
    maxSpread: ticksToFloat(market.settings.maxSpreadTicks),
    minSize: market.settings.minSizeRaw,
  };
}

/** GET /markets/{slug}/orderbook: raw integer sizes, `side` per level, maxSpread and minSize strings (recorded). */
export function orderbookAnswer(market: SimMarket, book: BookSnapshot): RestOrderbook {
  return {
    bids: wireLevels(book.bids, 'BUY', 'raw'),
    asks: wireLevels(book.asks, 'SELL', 'raw'),
    tokenId: market.yesTokenId,
    adjustedMidpoint: adjustedMidpoint(book, market.settings.minSizeRaw),
    maxSpread: ticksToPrice(market.settings.maxSpreadTicks),
    minSize: String(market.settings.minSizeRaw),
    lastTradePrice: market.lastTradeTicks === null ? null : ticksToFloat(market.lastTradeTicks),
  };
}

/**
 * YES mark in half-ticks precision, as a fraction numerator over 2000: the touch midpoint, else the last
 * trade, else 0.5. After resolution the payout value (1/0, or the split ratio).
 */
function yesMarkOver2000(market: SimMarket, book: BookSnapshot | undefined): bigint {
  if (market.status === 'RESOLVED') {
    if (market.winningOutcomeIndex !== null) return market.winningOutcomeIndex === 0 ? 2000n : 0n;
    if (market.payoutNumerators !== null) {
      const [yes, no] = market.payoutNumerators;
      const total = yes + no;
      return total === 0 ? 0n : (BigInt(yes) * 2000n) / BigInt(total);
    }
  }
  const bid = book?.bids[0];
  const ask = book?.asks[0];
  if (bid !== undefined && ask !== undefined) return BigInt(bid.priceTicks + ask.priceTicks);
  if (market.lastTradeTicks !== null) return BigInt(market.lastTradeTicks * 2);
  return 1000n;
}

function priceFromFraction(numerator: bigint, denominator: bigint): number {
  return Number((numerator * 1_000_000n) / denominator) / 1_000_000;
}

function bestPrices(book: BookSnapshot | undefined): { yesBid: number; yesAsk: number } {
  const bid = book?.bids[0];
  const ask = book?.asks[0];
  return { yesBid: bid === undefined ? 0 : ticksToFloat(bid.priceTicks), yesAsk: ask === undefined ? 1 : ticksToFloat(ask.priceTicks) };
}

const complement = (price: number): number => Math.round((1 - price) * TICKS_PER_UNIT) / TICKS_PER_UNIT;

/** The Market object of exchange-api.md (single market form). */
export function marketWire(market: SimMarket, book: BookSnapshot | undefined): Record<string, unknown> {
  const yesMarkFraction = yesMarkOver2000(market, book);
  const { yesBid, yesAsk } = bestPrices(book);
  const noBid = complement(yesAsk);
  const noAsk = complement(yesBid);
  const dailyReward = rawToDecimal(market.settings.dailyRewardRaw);
  const expiration = new Date(market.expirationMs).toISOString();
  return {
    id: market.id,
    conditionId: market.conditionId,
    negRiskRequestId: market.negRiskRequestId ?? null,
    description: market.description,
    title: market.title,
    proxyTitle: null,
    collateralToken: { ...COLLATERAL_TOKEN },
    expirationDate: expiration,
    expirationTimestamp: market.expirationMs,
    createdAt: new Date(market.createdAtMs).toISOString(),
    updatedAt: new Date(market.resolvedAtMs ?? market.createdAtMs).toISOString(),
    categories: [...market.categories],
    categoryIds: [...market.categoryIds],
    tags: [...(market.tags ?? [])],
    status: market.status,
    expired: market.expired,
    creator: { name: 'Limitless', imageURI: '', link: '', address: ZERO_ADDRESS },
    volume: String(market.volumeRaw),
    volumeFormatted: rawToDecimal(market.volumeRaw),
    tokens: { yes: market.yesTokenId, no: market.noTokenId },
    prices: [priceFromFraction(yesMarkFraction, 2000n), priceFromFraction(2000n - yesMarkFraction, 2000n)],
    tradePrices: {
      buy: { market: [yesAsk, noAsk], limit: [yesBid, noBid] },
      sell: { market: [yesBid, noBid], limit: [yesAsk, noAsk] },
    },
    isRewardable: market.isRewardable,
    slug: market.slug,
    tradeType: 'clob',
    marketType: 'single',
    priorityIndex: 0,
    winningOutcomeIndex: market.winningOutcomeIndex,
    payoutNumerators: market.payoutNumerators === null ? null : [...market.payoutNumerators],
    metadata: {
      fee: true,
      // Recorded on the live crypto markets: the STRIKE, a decimal string in USD (../shared/spec/exchange-facts.md §9). A
      // generic simulated market has no strike: it writes the YES price it started from, in the same shape.
      openPrice: market.oracle ? market.oracle.strike : ticksToPrice(market.initialFairValueTicks ?? 500),
      isBannered: false,
      // Recorded under this name (the spec writes the arbitrage marker as `isExternalArbitrage`).
      isPolyArbitrage: false,
      shouldMarketMake: market.isRewardable,
    },
    settings: {
      minSize: String(market.settings.minSizeRaw),
      maxSpread: ticksToFloat(market.settings.maxSpreadTicks),
      dailyReward,
      // Recorded as the per-minute pool printed as a float ("0.6944444444444444" for a daily 1000).
      rewardsEpoch: String(market.settings.dailyRewardRaw / RAW_PER_UNIT / 1440),
      c: String(market.settings.c),
      // The official client's MarketSettings.rebateRate (a number; absent from the recorded items): when the market pays one.
      ...(market.settings.rebateRate === undefined ? {} : { rebateRate: market.settings.rebateRate }),
    },
    // The official client's types (1.1.0) carry this block on oracle markets (absent from the recorded items).
    ...(market.oracle
      ? { priceOracleMetadata: { ticker: market.oracle.ticker, assetType: 'CRYPTO', pythAddress: market.oracle.pythFeedId, symbol: market.oracle.ticker, name: market.oracle.name, logo: null } }
      : {}),
    logo: null,
    source: 'simulator',
    properties: [],
    frequency: '',
    subFrequency: '',
    feedEvents: [],
    // Recorded: a simple CLOB market has no adapter (null); NegRisk submarkets keep theirs.
    venue: { exchange: market.venue.exchange, adapter: market.groupSlug === undefined ? null : market.venue.adapter },
    ...(market.groupSlug === undefined ? {} : { groupSlug: market.groupSlug }),
  };
}

/** The group (NegRisk ladder) form: group fields plus its submarkets in Market form. */
export function groupWire(group: SimGroup, engine: SimEngine, markets: readonly SimMarket[] = group.markets): Record<string, unknown> {
  const all = group.markets;
  const categories = [...new Set(all.flatMap((m) => m.categories))];
  const categoryIds = [...new Set(all.flatMap((m) => m.categoryIds))];
  const volumeRaw = all.reduce((sum, m) => sum + m.volumeRaw, 0);
  const expirationMs = Math.max(...all.map((m) => m.expirationMs));
  const createdAtMs = Math.min(...all.map((m) => m.createdAtMs));
  const id = Math.min(...all.map((m) => m.id));
  return {
    id,
    slug: group.slug,
    title: group.title,
    negRiskRequestId: group.negRiskRequestId,
    tradeType: 'clob',
    marketType: 'group',
    status: all.every((m) => m.status === 'RESOLVED') ? 'RESOLVED' : 'FUNDED',
    expired: all.every((m) => m.expired),
    expirationDate: new Date(expirationMs).toISOString(),
    expirationTimestamp: expirationMs,
    createdAt: new Date(createdAtMs).toISOString(),
    categories,
    categoryIds,
    collateralToken: { ...COLLATERAL_TOKEN },
    isRewardable: all.some((m) => m.isRewardable),
    volume: String(volumeRaw),
    volumeFormatted: rawToDecimal(volumeRaw),
    markets: markets.map((m) => marketWire(m, engine.book(m.slug))),
  };
}

// ───────────────────────────── positions ─────────────────────────────

/** costBasis / balance as a raw price (× 1e6, floored); 0 when flat. */
function averagePriceRaw(position: TokenPosition): number {
  if (position.balanceRaw <= 0) return 0;
  return Number((BigInt(position.costBasisRaw) * BigInt(RAW_PER_UNIT)) / BigInt(position.balanceRaw));
}

/** costBasis / balance as a decimal price string (6 places, floored); null when flat. */
export function averagePrice(position: TokenPosition): string | null {
  return position.balanceRaw <= 0 ? null : rawToDecimal(averagePriceRaw(position));
}

/** balance × mark, raw USDC, floored. `markOver2000` is a YES or NO mark over 2000. */
function valueRaw(balanceRaw: number, markOver2000: bigint): number {
  return Number((BigInt(balanceRaw) * markOver2000) / 2000n);
}

interface PositionMarks {
  readonly yes: bigint;
  readonly no: bigint;
}

function marksOf(market: SimMarket, book: BookSnapshot | undefined): PositionMarks {
  const yes = yesMarkOver2000(market, book);
  if (market.status === 'RESOLVED' && market.winningOutcomeIndex === null && market.payoutNumerators !== null) {
    const [y, n] = market.payoutNumerators;
    const total = y + n;
    return { yes, no: total === 0 ? 0n : (BigInt(n) * 2000n) / BigInt(total) };
  }
  return { yes, no: 2000n - yes };
}

function sidePosition(position: TokenPosition, markOver2000: bigint): Record<string, unknown> {
  const marketValue = valueRaw(position.balanceRaw, markOver2000);
  return {
    cost: String(position.costBasisRaw),
    // Raw like every amount of this answer (the API reference: "fillPrice": "750000" is 0.75).
    fillPrice: String(averagePriceRaw(position)),
    marketValue: String(marketValue),
    realisedPnl: String(position.realisedPnlRaw),
    unrealizedPnl: String(marketValue - position.costBasisRaw),
  };
}

/** One element of `GET /portfolio/positions` → `clob`; `rewards` its CLOBPosition.rewards (rewards-wire.ts). */
export function portfolioPositionWire(summary: PositionSummary, market: SimMarket, book: BookSnapshot | undefined, rewards: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const marks = marksOf(market, book);
  return {
    market: {
      id: market.id,
      slug: market.slug,
      title: market.title,
      conditionId: market.conditionId,
      condition_id: market.conditionId,
      status: market.status,
      expired: market.expired,
      closed: market.status === 'RESOLVED',
      winningOutcomeIndex: market.winningOutcomeIndex,
      tokens: { yes: market.yesTokenId, no: market.noTokenId },
      ...(market.groupSlug === undefined ? {} : { groupSlug: market.groupSlug }),
    },
    tokensBalance: { yes: String(summary.yes.balanceRaw), no: String(summary.no.balanceRaw) },
    tokensLocked: { yes: String(summary.yes.lockedRaw), no: String(summary.no.lockedRaw) },
    positions: { yes: sidePosition(summary.yes, marks.yes), no: sidePosition(summary.no, marks.no) },
    orders: { liveOrders: summary.liveOrders, totalCollateralLocked: String(summary.collateralLockedRaw) },
    fees: { paid: String(summary.feesPaidRaw) },
    rewards,
  };
}

/** The socket `positions` frame for one market (exchange-facts §5). */
export function positionsFrame(account: string, summary: PositionSummary | undefined, market: SimMarket, book: BookSnapshot | undefined): Record<string, unknown> {
  const marks = marksOf(market, book);
  const entry = (tokenId: string, position: TokenPosition | undefined, mark: bigint): Record<string, unknown> => ({
    tokenId,
    ctfBalance: String(position?.balanceRaw ?? 0),
    averageFillPrice: position === undefined ? '0' : (averagePrice(position) ?? '0'),
    costBasis: String(position?.costBasisRaw ?? 0),
    marketValue: String(position === undefined ? 0 : valueRaw(position.balanceRaw, mark)),
    marketId: market.id,
  });
  return {
    account,
    marketSlug: market.slug,
    positions: [entry(market.yesTokenId, summary?.yes, marks.yes), entry(market.noTokenId, summary?.no, marks.no)],
    type: 'CLOB',
  };
}
