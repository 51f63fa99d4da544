/**
 * The settlement calls of the chain port, as pure data: which contract a redeem or a merge goes to, with which
 * function and arguments, for a plain market (the conditional tokens themselves) and a grouped one (its NegRisk
 * adapter); and the ABI fragments the port reads with.
 *
 * Owns: the ABI fragments and the choice of call. Invariants: a plain market's calls go to the conditional-tokens
 * contract with the collateral, parent collection 0x00…00 and the index sets / partition [1, 2] (YES is index set 1,
 * NO index set 2); a grouped market's go to its adapter as Polymarket's NegRiskAdapter takes them
 * (`redeemPositions(conditionId, [yes, no])`, `mergePositions(conditionId, amount)`), which pull the holder's tokens
 * with `safeBatchTransferFrom` (hence the holder's `setApprovalForAll(adapter)`); amounts are exact bigints.
 */
import { encodeFunctionData, getAddress, parseAbi, zeroHash, type Address, type Hex } from 'viem';

export const CTF_ABI = parseAbi([
  'function redeemPositions(address collateralToken, bytes32 parentCollectionId, bytes32 conditionId, uint256[] indexSets)',
  'function mergePositions(address collateralToken, bytes32 parentCollectionId, bytes32 conditionId, uint256[] partition, uint256 amount)',
  'function payoutDenominator(bytes32 conditionId) view returns (uint256)',
  'function payoutNumerators(bytes32 conditionId, uint256 index) view returns (uint256)',
  'function balanceOfBatch(address[] owners, uint256[] ids) view returns (uint256[])',
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
]);

export const NEG_RISK_ADAPTER_ABI = parseAbi([
  'function redeemPositions(bytes32 conditionId, uint256[] amounts)',
  'function mergePositions(bytes32 conditionId, uint256 amount)',
]);

/** The custom errors a revert may carry (Polymarket's NegRiskAdapter); Error(string) and Panic decode without them. */
export const SETTLEMENT_ERRORS_ABI = parseAbi(['error NotApprovedForAll()', 'error UnexpectedCollateralToken()', 'error InvalidIndexSet()', 'error LengthMismatch()']);

/** YES is index set 1 (0b01), NO index set 2 (0b10): the partition of a binary condition. */
export const BINARY_PARTITION: readonly bigint[] = [1n, 2n];

export type SettlementCall =
  | { readonly target: 'ctf'; readonly to: Address; readonly functionName: 'redeemPositions'; readonly args: readonly [Address, Hex, Hex, readonly bigint[]] }
  | { readonly target: 'ctf'; readonly to: Address; readonly functionName: 'mergePositions'; readonly args: readonly [Address, Hex, Hex, readonly bigint[], bigint] }
  | { readonly target: 'adapter'; readonly to: Address; readonly functionName: 'redeemPositions'; readonly args: readonly [Hex, readonly bigint[]] }
  | { readonly target: 'adapter'; readonly to: Address; readonly functionName: 'mergePositions'; readonly args: readonly [Hex, bigint] };

export interface CallContracts {
  readonly usdc: Address;
  readonly conditionalTokens: Address;
}

/** Redeem the wallet's holding of a resolved market: plain → the CTF (burns everything held), grouped → the adapter (the amounts held). */
export function redeemCall(market: { readonly conditionId: Hex; readonly negRisk: boolean; readonly adapter: Hex | null }, contracts: CallContracts, held: { readonly yes: bigint; readonly no: bigint }): SettlementCall {
  if (market.negRisk) return { target: 'adapter', to: adapterOf(market), functionName: 'redeemPositions', args: [market.conditionId, [held.yes, held.no]] };
  return { target: 'ctf', to: contracts.conditionalTokens, functionName: 'redeemPositions', args: [contracts.usdc, zeroHash, market.conditionId, BINARY_PARTITION] };
}

/** Merge `amount` complete sets (one YES and one NO each) back into `amount` of collateral. */
export function mergeCall(market: { readonly conditionId: Hex; readonly negRisk: boolean; readonly adapter: Hex | null }, contracts: CallContracts, amount: bigint): SettlementCall {
  if (market.negRisk) return { target: 'adapter', to: adapterOf(market), functionName: 'mergePositions', args: [market.conditionId, amount] };
  return { target: 'ctf', to: contracts.conditionalTokens, functionName: 'mergePositions', args: [contracts.usdc, zeroHash, market.conditionId, BINARY_PARTITION, amount] };
}

/** The transaction's data. */
export function encodeCall(call: SettlementCall): Hex {
  switch (call.target) {
    case 'ctf':
      return call.functionName === 'redeemPositions'
        ? encodeFunctionData({ abi: CTF_ABI, functionName: 'redeemPositions', args: [call.args[0], call.args[1], call.args[2], [...call.args[3]]] })
        : encodeFunctionData({ abi: CTF_ABI, functionName: 'mergePositions', args: [call.args[0], call.args[1], call.args[2], [...call.args[3]], call.args[4]] });
    case 'adapter':
      return call.functionName === 'redeemPositions'
        ? encodeFunctionData({ abi: NEG_RISK_ADAPTER_ABI, functionName: 'redeemPositions', args: [call.args[0], [...call.args[1]]] })
        : encodeFunctionData({ abi: NEG_RISK_ADAPTER_ABI, functionName: 'mergePositions', args: [call.args[0], call.args[1]] });
  }
}

/** One line naming the call (for logs and errors; amounts raw). */
export function describeCall(call: SettlementCall): string {
  const where = call.target === 'ctf' ? `conditional tokens ${call.to}` : `NegRisk adapter ${call.to}`;
  const args = call.args.map((a) => (Array.isArray(a) ? `[${a.join(', ')}]` : String(a))).join(', ');
  return `${where}.${call.functionName}(${args})`;
}

export class SettlementCallError extends Error {
  override readonly name = 'SettlementCallError';
}

function adapterOf(market: { readonly conditionId: Hex; readonly adapter: Hex | null }): Address {
  if (market.adapter === null) throw new SettlementCallError(`market ${market.conditionId} is grouped (NegRisk) but names no adapter (venue.adapter): nothing sent`);
  return getAddress(market.adapter);
}
