/**
 * Fixtures of the authenticated answers nobody recorded, typed with the official client's own types
 * (@limitless-exchange/sdk 1.1.0, dist/index.d.ts): the compiler proves each one is a shape that client allows.
 * Each `*_MIN` fixture leaves out every field the SDK marks optional; the `OPTIONAL_*` key lists are proven complete
 * by `exactly` below, so a test that drops them one by one covers every optional field.
 */
import type {
  AMMPosition,
  CLOBPosition,
  CreatedOrder,
  Execution,
  ExecutionTotalsRaw,
  OrderBook,
  OrderMatch,
  OrderResponse,
  PortfolioPositionsResponse,
} from '@limitless-exchange/sdk';

/** The optional keys of T. */
export type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];
/** Compiles only when the tuple lists exactly the union U. */
export function exactly<U extends PropertyKey>() {
  return <L extends readonly U[]>(list: L & ([U] extends [L[number]] ? unknown : never)): L => list;
}

export const ORDER_ID = '0b5b2a4e-6f0a-4c1e-9d2b-3f4e5a6b7c8d';
export const MAKER = '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A';
export const YES_TOKEN = '101';
export const NO_TOKEN = '102';

/** A resting GTC BUY of 10 YES at 0.45 as the official client types it: no status, no remainingSize, no originalSize. */
export const CREATED_ORDER: CreatedOrder = {
  id: ORDER_ID,
  createdAt: '2026-03-23T12:00:00.000Z',
  makerAmount: 4_500_000,
  takerAmount: 10_000_000,
  expiration: null,
  signatureType: 0,
  salt: 123_456,
  maker: MAKER,
  signer: MAKER,
  taker: '0x0000000000000000000000000000000000000000',
  tokenId: YES_TOKEN,
  side: 0,
  feeRateBps: 300,
  nonce: 0,
  signature: `0x${'ab'.repeat(65)}`,
  orderType: 'GTC',
  price: 0.45,
  marketId: 7,
};

/** A taker BUY of 4 contracts at 0.45 with its fee in USDC (3% of 1.80 = 0.054). */
export const TOTALS_FEE_IN_USDC: ExecutionTotalsRaw = {
  contractsGross: '4000000',
  contractsNet: '4000000',
  contractsFee: '0',
  usdGross: '1800000',
  usdNet: '1854000',
  usdFee: '54000',
};

/** The same trade with its fee taken in contracts (3% of 4 = 0.12 contracts). */
export const TOTALS_FEE_IN_CONTRACTS: ExecutionTotalsRaw = {
  contractsGross: '4000000',
  contractsNet: '3880000',
  contractsFee: '120000',
  usdGross: '1800000',
  usdNet: '1800000',
  usdFee: '0',
};

export const MAKER_MATCH: OrderMatch = { id: 'match-1', createdAt: null, matchedSize: '4000000', orderId: '1c6c3b5f-7a1b-4d2f-8e3c-4a5b6c7d8e9f' };

export const EXECUTION_FULL: Execution = {
  clientOrderId: 'om-1a2b3c4d-bid-0-k1',
  effectiveFeeBps: 300,
  eligibleAt: '2026-03-23T12:00:01.000Z',
  feeRateBps: 300,
  matched: true,
  reason: 'SOMETHING_NEW',
  stpMakerCancels: [],
  settlementStatus: 'MATCHED',
  totalsRaw: TOTALS_FEE_IN_USDC,
  tradeEventId: 'trade-1',
  txHash: null,
};

export const OPTIONAL_EXECUTION_KEYS = exactly<OptionalKeys<Execution>>()(['clientOrderId', 'eligibleAt', 'reason', 'stpMakerCancels', 'tradeEventId', 'txHash'] as const);
export const OPTIONAL_RESPONSE_KEYS = exactly<OptionalKeys<OrderResponse>>()(['execution', 'makerMatches'] as const);

/** Execution with every optional field left out. */
export const EXECUTION_MIN: Execution = { effectiveFeeBps: 0, feeRateBps: 300, matched: false, settlementStatus: 'UNMATCHED', totalsRaw: { contractsGross: '0', contractsNet: '0', contractsFee: '0', usdGross: '0', usdNet: '0', usdFee: '0' } };

export const RESPONSE_TAKER: OrderResponse = { order: CREATED_ORDER, makerMatches: [MAKER_MATCH], execution: EXECUTION_FULL };
export const RESPONSE_TAKER_CONTRACT_FEE: OrderResponse = { order: CREATED_ORDER, makerMatches: [MAKER_MATCH], execution: { ...EXECUTION_FULL, totalsRaw: TOTALS_FEE_IN_CONTRACTS } };
/** OrderResponse with every optional field left out. */
export const RESPONSE_MIN: OrderResponse = { order: CREATED_ORDER };
export const RESPONSE_RESTING: OrderResponse = { order: CREATED_ORDER, makerMatches: [], execution: EXECUTION_MIN };

/** POST /orders/status/batch (exchange-facts §6) whose data is an OrderResponse. */
export function statusBatchOf(data: OrderResponse): { results: { index: number; status: 'found'; orderId: string; data: OrderResponse }[] } {
  return { results: [{ index: 0, status: 'found', orderId: data.order.id, data }] };
}

const SIDE = { cost: '2250000', fillPrice: '450000', marketValue: '2500000', realisedPnl: '0', unrealizedPnl: '250000' };

export const CLOB_FULL: CLOBPosition = {
  market: { id: 7, slug: 'plain-clob', title: 'Plain', status: 'FUNDED', closed: false, deadline: '2026-04-01T00:00:00.000Z' },
  makerAddress: MAKER,
  positions: { yes: SIDE, no: SIDE },
  tokensBalance: { yes: '5000000', no: '0' },
  latestTrade: { latestYesPrice: 0.5, latestNoPrice: 0.5, outcomeTokenPrice: 0.5 },
  orders: { liveOrders: [], totalCollateralLocked: '4500000' },
  rewards: { epochs: [], isEarning: false },
};

/** A CLOB position with its optional fields (orders, rewards) left out, held in a NegRisk group's submarket. */
export const CLOB_MIN: CLOBPosition = {
  market: { id: 8, slug: 'neg-a', title: 'Neg A', closed: false, deadline: '2026-04-01T00:00:00.000Z' },
  makerAddress: MAKER,
  positions: { yes: SIDE, no: SIDE },
  tokensBalance: { yes: '7000000', no: '1000000' },
  latestTrade: { latestYesPrice: 0.4, latestNoPrice: 0.6, outcomeTokenPrice: 0.4 },
};

export const AMM_POSITION: AMMPosition = {
  market: { id: 9, slug: 'amm-market', title: 'AMM', closed: false, deadline: '2026-04-01T00:00:00.000Z' },
  account: MAKER,
  outcomeIndex: 0,
  collateralAmount: '2.5',
  outcomeTokenAmount: '4.2',
  averageFillPrice: '0.6',
  totalBuysCost: '2.5',
  totalSellsCost: '0',
  realizedPnl: '0',
  unrealizedPnl: '0.1',
};

/**
 * All three lists. `group` is `any[]` in the official client: one entry is a group holding CLOB positions of its
 * submarkets under `markets`, one is a CLOB position itself, one is a shape nobody knows (counted, never guessed).
 */
export const POSITIONS_FULL: PortfolioPositionsResponse = {
  amm: [AMM_POSITION],
  clob: [CLOB_FULL],
  group: [{ market: { slug: 'neg-group', title: 'Neg group' }, markets: [CLOB_MIN] }, { ...CLOB_MIN, market: { ...CLOB_MIN.market, slug: 'neg-b' } }, { totally: 'unknown' }],
  points: '0',
};

/** Every optional field (points, accumulativePoints, rewards) left out, every list empty. */
export const POSITIONS_MIN: PortfolioPositionsResponse = { amm: [], clob: [], group: [] };

export const OPTIONAL_CLOB_KEYS = exactly<OptionalKeys<CLOBPosition>>()(['orders', 'rewards'] as const);

/** The first recorded orderbook answer, typed with the SDK's OrderBook: the recorded shape is one it allows. */
export const RECORDED_BOOK: OrderBook = {
  bids: [
    { price: 0.5, size: 100000000, side: 'BUY' },
    { price: 0.002, size: 495326974, side: 'BUY' },
  ],
  asks: [{ price: 0.57, size: 100000000, side: 'SELL' }],
  tokenId: '92289852863546168923172041109435335196598071811644043640768177177257925705522',
  adjustedMidpoint: 0.5349999999999999,
  maxSpread: '0.035',
  minSize: '100000000',
  lastTradePrice: 0.58,
};
