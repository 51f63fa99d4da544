/**
 * Order amounts of the venue (exchange-facts §1–2): the collateral of a size at a price, and the exact
 * `makerAmount`/`takerAmount` of a signed order.
 *
 * Owns: the amount rounding (BUY collateral up, SELL down) and which side gives what. Shared by the client's
 * signer, the simulator's validation and synthetic traders, and the backtest's venue. No floats: bigint maths.
 */
import { TICKS_PER_UNIT, UnitError, type Side } from './units.js';

/** Collateral for `sizeRaw` shares at `ticks`, exact, rounded up (BUY) or down (SELL). */
export function collateralRaw(sizeRaw: number, ticks: number, side: Side): number {
  const product = BigInt(sizeRaw) * BigInt(ticks);
  const divisor = BigInt(TICKS_PER_UNIT);
  const quotient = product / divisor;
  const remainder = product % divisor;
  const rounded = side === 'BUY' && remainder !== 0n ? quotient + 1n : quotient;
  const result = Number(rounded);
  if (!Number.isSafeInteger(result)) throw new UnitError('collateral', result, 'too large');
  return result;
}

export interface LimitAmounts {
  readonly makerAmount: number;
  readonly takerAmount: number;
}

/**
 * GTC/FAK amounts: collateral = size × ticks / 1000, rounded up for BUY, down for SELL.
 * BUY: maker gives collateral, takes shares. SELL: maker gives shares, takes collateral.
 */
export function limitOrderAmounts(side: Side, priceTicks: number, sizeRaw: number): LimitAmounts {
  const collateral = collateralRaw(sizeRaw, priceTicks, side);
  return side === 'BUY'
    ? { makerAmount: collateral, takerAmount: sizeRaw }
    : { makerAmount: sizeRaw, takerAmount: collateral };
}

/** FOK (market) amounts: makerAmount = collateral to spend (BUY) or shares to sell (SELL); takerAmount = 1. */
export function marketOrderAmounts(amountRaw: number): LimitAmounts {
  return { makerAmount: amountRaw, takerAmount: 1 };
}
