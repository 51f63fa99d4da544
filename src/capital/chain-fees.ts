/**
 * Whether a settlement transaction may be sent now, and at what price: the gas-price ceiling and the wallet's gas
 * balance, decided before anything is signed. Pure.
 *
 * Owns: the gas limit (the node's estimate plus 20 % headroom: a redeem's cost moves with the holding it burns), the
 * EIP-1559 fee caps and the amount of native token the node will require up front. Invariants: nothing above the
 * ceiling is ever offered (maxFeePerGas ≤ ceiling); the amount needed is exactly what a node checks before accepting
 * the transaction (gas limit × maxFeePerGas); all amounts are exact bigints of wei.
 */
import type { Hex } from 'viem';

/** The chain's prices as read just before sending. */
export interface FeeQuote {
  /** `eth_gasPrice`: what a transaction pays per gas now (base fee + a usual tip). */
  readonly gasPriceWei: bigint;
  /** The client's suggested EIP-1559 caps (`eth_feeHistory` / `eth_maxPriorityFeePerGas`). */
  readonly suggestedMaxFeeWei: bigint;
  readonly suggestedPriorityWei: bigint;
}

export type FeePlan =
  | { readonly ok: true; readonly gasLimit: bigint; readonly maxFeePerGas: bigint; readonly maxPriorityFeePerGas: bigint; readonly needWei: bigint }
  | { readonly ok: false; readonly status: 'gas-price-too-high'; readonly gasPriceWei: string; readonly ceilingWei: string }
  | { readonly ok: false; readonly status: 'insufficient-gas'; readonly wallet: Hex; readonly needWei: string; readonly haveWei: string };

export function gasLimitFor(estimate: bigint): bigint {
  return estimate + estimate / 5n;
}

export function planFees(input: { readonly gasEstimate: bigint; readonly quote: FeeQuote; readonly ceilingWei: bigint; readonly balanceWei: bigint; readonly wallet: Hex }): FeePlan {
  const { quote, ceilingWei } = input;
  if (quote.gasPriceWei > ceilingWei) return { ok: false, status: 'gas-price-too-high', gasPriceWei: quote.gasPriceWei.toString(), ceilingWei: ceilingWei.toString() };
  const maxFeePerGas = min(max(quote.suggestedMaxFeeWei, quote.gasPriceWei), ceilingWei);
  const maxPriorityFeePerGas = min(quote.suggestedPriorityWei, maxFeePerGas);
  const gasLimit = gasLimitFor(input.gasEstimate);
  const needWei = gasLimit * maxFeePerGas;
  if (input.balanceWei < needWei) return { ok: false, status: 'insufficient-gas', wallet: input.wallet, needWei: needWei.toString(), haveWei: input.balanceWei.toString() };
  return { ok: true, gasLimit, maxFeePerGas, maxPriorityFeePerGas, needWei };
}

/** wei as ETH text, exact (e.g. "0.000015 ETH"). */
export function formatEth(wei: bigint | string): string {
  const value = typeof wei === 'string' ? BigInt(wei) : wei;
  const unit = 10n ** 18n;
  const fraction = (value % unit).toString().padStart(18, '0').replace(/0+$/, '');
  return `${value / unit}${fraction ? `.${fraction}` : ''} ETH`;
}

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);
