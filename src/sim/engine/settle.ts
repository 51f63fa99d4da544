/**
 * Settlement of a matched trade: the SETTLEMENT frames (MATCHED at once, MINED after `settlementDelayMs`, with a
 * txHash) to the taker and every maker account, and the public trade feed entry written when the trade is mined.
 *
 * Owns: `TradeRecord`, a trade from its match to its mining. Invariants: balances moved at match time (MINED only
 * publishes); each account gets one frame per trade and state; the public feed keeps at most `tradesPerMarket`
 * entries (trimmed in batches).
 */
import { SIDE_CODE, ticksToPrice } from '../../core/venue-rules/index.js';
import type { EngineCore } from './core.js';
import type { AccountState, FillRecord } from './ledger.js';
import type { PlannedFill } from './matching.js';
import type { MarketState, OrderRecord } from './state.js';
import { averagePrice, isoTime } from './wire.js';
import type { SettlementFrame } from './types.js';

export interface TradeFill {
  readonly plan: PlannedFill;
  readonly matchId: string;
  readonly makerAccount: AccountState;
  readonly takerFill: FillRecord;
  readonly makerFill: FillRecord;
}

export interface TradeRecord {
  readonly tradeEventId: string;
  readonly market: MarketState;
  readonly taker: OrderRecord;
  readonly takerAccount: AccountState;
  readonly fills: readonly TradeFill[];
  readonly contractsRaw: number;
  readonly collateralRaw: number;
  readonly feeRaw: number;
  readonly matchedAtMs: number;
  txHash: string | null;
}

export function mine(core: EngineCore, trade: TradeRecord): void {
  const now = core.clock.now();
  trade.txHash = `0x${core.idRng.hex(32)}`;
  for (const f of trade.fills) {
    for (const rec of [f.takerFill, f.makerFill]) {
      rec.settlementStatus = 'MINED';
      rec.minedAtMs = now;
      rec.txHash = trade.txHash;
    }
  }
  const market = trade.market;
  market.feed.push({
    seq: ++core.feedSeq,
    trade: {
      createdAt: isoTime(trade.matchedAtMs),
      makerAmount: String(trade.collateralRaw),
      takerAmount: String(trade.collateralRaw),
      matchedSize: String(trade.contractsRaw),
      price: Number(averagePrice(trade.collateralRaw, trade.contractsRaw)),
      side: SIDE_CODE[trade.taker.side],
      title: market.spec.title,
      tokenId: trade.taker.tokenId,
      txHash: trade.txHash,
    },
  });
  if (market.feed.length > core.tradesPerMarket * 1.25 + 16) market.feed = market.feed.slice(market.feed.length - core.tradesPerMarket);
  core.tradesMined += 1;
  emitSettlement(core, trade, 'MINED');
  core.enqueue({ kind: 'mined', slug: market.spec.slug });
  core.observer.onSettlement?.('MINED');
}

export function emitSettlement(core: EngineCore, trade: TradeRecord, type: 'MATCHED' | 'MINED'): void {
  if (type === 'MATCHED') core.observer.onSettlement?.('MATCHED');
  if (!core.hasListeners) return;
  const taker = trade.taker;
  const base: Omit<SettlementFrame, 'orderId' | 'clientOrderId'> = {
    source: 'SETTLEMENT',
    type,
    eventId: `settlement:${trade.tradeEventId}`,
    takerOrderId: taker.id,
    takerAccount: trade.takerAccount.address,
    makerMatches: trade.fills.map((f) => ({
      account: f.makerAccount.address,
      orderId: f.plan.maker.id,
      matchedSize: String(f.plan.sizeRaw),
      price: ticksToPrice(f.plan.maker.priceTicks ?? f.plan.yesTicks),
    })),
    marketSlug: trade.market.spec.slug,
    ...(trade.txHash !== null ? { txHash: trade.txHash } : {}),
    tokenId: taker.tokenId,
    token: taker.outcome,
    side: taker.side,
    price: averagePrice(trade.collateralRaw, trade.contractsRaw),
    amountContracts: String(trade.contractsRaw),
    amountCollateral: String(trade.collateralRaw),
    configuredFeeRateBps: taker.feeRateBps,
    effectiveFeeBps: trade.collateralRaw > 0 ? Math.round((trade.feeRaw * 10_000) / trade.collateralRaw) : 0,
    feeAmountCollateral: String(trade.feeRaw),
    feeAmountContracts: '0',
    isEstimate: type === 'MATCHED',
    tradeEventId: trade.tradeEventId,
    timestamp: core.clock.now(),
  };
  const takerFrame: SettlementFrame = {
    ...base,
    orderId: taker.id,
    ...(taker.clientOrderId !== null ? { clientOrderId: taker.clientOrderId } : {}),
  };
  core.enqueue({ kind: 'order', profileId: trade.takerAccount.profileId, frame: takerFrame });
  const makers = new Set(trade.fills.map((f) => f.makerAccount.profileId));
  makers.delete(trade.takerAccount.profileId);
  for (const profileId of makers) core.enqueue({ kind: 'order', profileId, frame: base });
}
