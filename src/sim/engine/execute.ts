/**
 * Executing a placement's planned fills (matching.ts plans, this commits): maker and taker balances, locks and
 * positions, pair accounting (mint, merge, transfer), the taker fee of each fill (fees.ts) and its maker's rebate
 * (rewards.ts), account fills, OME EXECUTION frames, and the trade's mining timer.
 *
 * Invariants: a maker's price is the execution price; a mint or a merge moves exactly one USDC per pair; a transfer
 * pays the maker what the taker gives; fees are charged to the taker only, and the per-fill fees sum to the fee.
 */
import type { EngineCore } from './core.js';
import { EngineInvariantError } from './errors.js';
import { credit, debitFree, debitLocked, type AccountState, type FillRecord } from './ledger.js';
import type { ExecutionPlan } from './matching.js';
import { finish } from './order-exit.js';
import { mine, type TradeFill, type TradeRecord } from './settle.js';
import type { MarketState, OrderRecord } from './state.js';
import { isoTime } from './wire.js';
import type { MakerMatch } from './types.js';

export function executeFills(
  core: EngineCore,
  order: OrderRecord,
  taker: AccountState,
  market: MarketState,
  plan: ExecutionPlan,
  fees: readonly number[],
  now: number,
  makerMatches: MakerMatch[],
): TradeRecord {
  const tradeEventId = core.idRng.uuid();
  const marketId = market.spec.id;
  const fills: TradeFill[] = [];
  const fee = fees.reduce((sum, f) => sum + f, 0);
  plan.fills.forEach((planned, index) => {
    const maker = planned.maker;
    const makerAccount = core.accountsById.get(maker.profileId);
    if (!makerAccount) throw new EngineInvariantError(`maker account ${maker.profileId} missing`);
    const n = planned.sizeRaw;
    const makerToken = makerAccount.token(maker.tokenId);

    // maker side: consume its lock exactly (its price is the execution price)
    market.book.fill(maker, n);
    if (maker.side === 'BUY') {
      debitLocked(makerAccount.usdc, planned.makerCollateralRaw, 'maker buy');
      maker.lockedRaw -= planned.makerCollateralRaw;
      credit(makerToken, n, 'maker buy tokens');
      makerAccount.recordAcquire(marketId, maker.outcome, planned.makerCollateralRaw);
    } else {
      const held = makerToken.total;
      debitLocked(makerToken, n, 'maker sell tokens');
      maker.lockedRaw -= n;
      credit(makerAccount.usdc, planned.makerCollateralRaw, 'maker sell');
      makerAccount.recordDispose(marketId, maker.outcome, n, held, planned.makerCollateralRaw);
    }
    maker.filledSizeRaw += n;
    maker.filledCollateralRaw += planned.makerCollateralRaw;
    maker.updatedAtMs = now;

    // taker side: free funds (checked before commit)
    const takerToken = taker.token(order.tokenId);
    if (order.side === 'BUY') {
      debitFree(taker.usdc, planned.takerCollateralRaw, 'taker buy');
      credit(takerToken, n, 'taker buy tokens');
      taker.recordAcquire(marketId, order.outcome, planned.takerCollateralRaw);
    } else {
      const held = takerToken.total;
      debitFree(takerToken, n, 'taker sell tokens');
      credit(taker.usdc, planned.takerCollateralRaw, 'taker sell');
      taker.recordDispose(marketId, order.outcome, n, held, planned.takerCollateralRaw);
    }
    order.remainingSizeRaw -= n;
    order.filledSizeRaw += n;
    order.filledCollateralRaw += planned.takerCollateralRaw;

    // pair accounting
    if (planned.kind === 'MINT') {
      if (planned.takerCollateralRaw + planned.makerCollateralRaw !== n) throw new EngineInvariantError('mint does not sum to one pair');
      market.poolRaw += n;
      market.mintedNetRaw += n;
    } else if (planned.kind === 'MERGE') {
      if (planned.takerCollateralRaw + planned.makerCollateralRaw !== n) throw new EngineInvariantError('merge does not sum to one pair');
      market.poolRaw -= n;
      market.mintedNetRaw -= n;
    } else if (planned.takerCollateralRaw !== planned.makerCollateralRaw) {
      throw new EngineInvariantError('transfer amounts differ');
    }

    const fillFee = fees[index] ?? 0;
    core.rewards.onTakerFee(market, maker.profileId, fillFee);
    const matchId = core.idRng.uuid();
    const base = { tradeEventId, matchId, marketSlug: market.spec.slug, kind: planned.kind, settlementStatus: 'MATCHED' as const, matchedAtMs: now, minedAtMs: null, txHash: null, sizeRaw: n };
    const takerFill: FillRecord = {
      ...base,
      role: 'TAKER',
      orderId: order.id,
      clientOrderId: order.clientOrderId,
      tokenId: order.tokenId,
      outcome: order.outcome,
      side: order.side,
      priceTicks: planned.takerTicks,
      collateralRaw: planned.takerCollateralRaw,
      feeRaw: fillFee,
      counterpartyProfileId: maker.profileId,
    };
    const makerFill: FillRecord = {
      ...base,
      role: 'MAKER',
      orderId: maker.id,
      clientOrderId: maker.clientOrderId,
      tokenId: maker.tokenId,
      outcome: maker.outcome,
      side: maker.side,
      priceTicks: maker.priceTicks ?? 0,
      collateralRaw: planned.makerCollateralRaw,
      feeRaw: 0,
      counterpartyProfileId: taker.profileId,
    };
    taker.addFill(takerFill);
    makerAccount.addFill(makerFill);
    fills.push({ plan: planned, matchId, makerAccount, takerFill, makerFill });
    makerMatches.push({ id: matchId, createdAt: isoTime(now), matchedSize: String(n), orderId: maker.id });

    core.emitOme(maker, 'EXECUTION', { status: maker.remainingSizeRaw === 0 ? 'FILLED' : 'PARTIALLY_FILLED', matchedSizeRaw: n });
    if (maker.remainingSizeRaw === 0) finish(core, maker, 'MATCHED', null, false);
    core.emitOme(order, 'EXECUTION', { status: order.remainingSizeRaw === 0 ? 'FILLED' : 'PARTIALLY_FILLED', matchedSizeRaw: n });
    core.enqueue({ kind: 'positions', profileId: maker.profileId, slug: market.spec.slug });
    market.lastTradeTicks = planned.yesTicks;
  });

  if (fee > 0) {
    debitFree(taker.usdc, fee, 'taker fee');
    core.feesCollectedRaw += fee;
    order.feePaidRaw = fee;
    taker.recordFee(marketId, fee);
  }
  market.volumeRaw += plan.takerCollateralRaw;
  core.tradesMatched += 1;
  core.enqueue({ kind: 'positions', profileId: taker.profileId, slug: market.spec.slug });
  core.enqueue({ kind: 'book', slug: market.spec.slug });
  core.observer.onTrade?.(market.spec.slug, plan.filledRaw, plan.takerCollateralRaw, fee, taker.synthetic);

  const trade: TradeRecord = {
    tradeEventId,
    market,
    taker: order,
    takerAccount: taker,
    fills,
    contractsRaw: plan.filledRaw,
    collateralRaw: plan.takerCollateralRaw,
    feeRaw: fee,
    matchedAtMs: now,
    txHash: null,
  };
  core.schedule(core.settlementDelayMs, () => core.command(() => mine(core, trade)));
  return trade;
}
