/**
 * Books one fill of this bot's orders into the ledger with the economics its sources reported: the socket's
 * SETTLEMENT frame or the REST placement / lookup answer (`execution.totalsRaw`), whichever came first.
 *
 * Owns: the ledger entries of a fill. A taker fee taken in USDC is booked as fee. A taker fee taken in contracts
 * (a BUY's `contractsFee`) is booked as fee at its value (contracts × average price) and the contracts are removed
 * from the position by a position adjustment, so the ledger holds the shares actually received (contractsNet) and
 * its PnL counts the fee once. Invariants: the trade fill is keyed (tradeEventId, orderId) and the fee adjustment
 * `<tradeEventId>/fee:<orderId>`, both idempotent: booking the same fill again, from either source, changes nothing;
 * a fill that fails gives its fee contracts back (once), and one born failed removes none.
 */
import type { LedgerStore } from '../ledger/index.js';
import type { FillEvent } from '../orders/executor-types.js';
import type { TakerFillDetail } from '../venue/venue-adapter.js';

/** The economics of a fill known from its report (keyed `<tradeEventId>|<orderId>` by the bot). */
export interface FillDetail {
  /** Exact collateral (paid on a BUY, received on a SELL), raw; undefined: size × price. */
  readonly collateralRaw: number | undefined;
  /** Fee, raw USDC (a fee in contracts at its value). */
  readonly feeRaw: number;
  readonly role: 'maker' | 'taker';
  /** A BUY's taker fee taken in contracts (its value is in feeRaw): the shares received are size − this. */
  readonly feeContractsRaw?: number;
  /** A maker fill: the taker's fee rate its report carried (`effectiveFeeBps` > 0), the base of the rebate estimate. */
  readonly takerFeeBps?: number;
  /** The trade's transaction, once mined (the key of the public trade feed's element). */
  readonly txHash?: string;
}

/** A REST answer's taker fill → its detail: fee in USDC, plus a fee in contracts valued at the fill's average price. */
export function takerFillDetail(detail: TakerFillDetail): FillDetail {
  const contractsFeeValue = detail.sizeRaw > 0 ? Math.round((detail.feeContractsRaw * detail.collateralRaw) / detail.sizeRaw) : 0;
  return {
    collateralRaw: detail.collateralRaw,
    feeRaw: detail.feeUsdRaw + contractsFeeValue,
    role: 'taker',
    ...(detail.feeContractsRaw > 0 ? { feeContractsRaw: detail.feeContractsRaw } : {}),
  };
}

export type BookingLedger = Pick<LedgerStore, 'recordFill' | 'failFill' | 'applyAdjustment' | 'getFill'>;

const feeKey = (fill: { readonly tradeEventId: string; readonly orderId: string }): string => `${fill.tradeEventId}/fee:${fill.orderId}`;
/** Adjustments are stored under this order id (src/ledger/fills-repo.ts). */
const ADJUSTMENT_ORDER_ID = '-';

/** Books `fill` (of venue order `orderId`); returns the ledger's outcome for the trade fill ('failed' for a failure). */
export function bookFill(ledger: BookingLedger, fill: FillEvent & { readonly orderId: string }, detail: FillDetail | undefined): 'inserted' | 'updated' | 'duplicate' | 'failed' {
  if (fill.state === 'failed') {
    ledger.failFill({ tradeEventId: fill.tradeEventId, orderId: fill.orderId }, { reason: 'settlement failed', atMs: fill.atMs });
    // The trade is undone: so is the removal of its fee contracts (once).
    const removed = ledger.getFill({ tradeEventId: feeKey(fill), orderId: ADJUSTMENT_ORDER_ID });
    if (removed !== null) {
      ledger.applyAdjustment({
        tradeEventId: `${feeKey(fill)}/reversed`,
        marketSlug: fill.marketSlug,
        token: fill.token,
        tokenId: fill.tokenId,
        deltaRaw: removed.sizeRaw,
        priceMicros: fill.priceTicks * 1000,
        atMs: fill.atMs,
        reason: 'taker fee in contracts of a failed fill given back',
      });
    }
    return 'failed';
  }
  const outcome = ledger.recordFill({
    tradeEventId: fill.tradeEventId,
    orderId: fill.orderId,
    clientOrderId: fill.clientOrderId,
    marketSlug: fill.marketSlug,
    token: fill.token,
    tokenId: fill.tokenId,
    side: fill.side,
    priceTicks: fill.priceTicks,
    sizeRaw: fill.sizeRaw,
    ...(detail?.collateralRaw === undefined ? {} : { collateralRaw: detail.collateralRaw }),
    feeRaw: detail?.feeRaw ?? 0,
    role: detail?.role ?? 'maker',
    state: fill.state,
    ...(detail?.txHash === undefined ? {} : { txHash: detail.txHash }),
    atMs: fill.atMs,
  });
  const feeContracts = Math.min(detail?.feeContractsRaw ?? 0, fill.sizeRaw);
  // A fill born failed (its FAILED came first) moved nothing: no fee contracts to remove either.
  const born = outcome === 'inserted' ? ledger.getFill({ tradeEventId: fill.tradeEventId, orderId: fill.orderId }) : null;
  if (born !== null && born.state !== 'failed' && fill.side === 'BUY' && feeContracts > 0) {
    ledger.applyAdjustment({
      tradeEventId: feeKey(fill),
      marketSlug: fill.marketSlug,
      token: fill.token,
      tokenId: fill.tokenId,
      deltaRaw: -feeContracts,
      priceMicros: fill.priceTicks * 1000,
      atMs: fill.atMs,
      reason: 'taker fee taken in contracts',
    });
  }
  return outcome;
}
