/**
 * The pure parts of the chain port: the settlement calls' calldata (plain market on the conditional tokens, grouped
 * market on its NegRisk adapter, as Polymarket's NegRiskAdapter takes them), the fee plan (ceiling, gas balance),
 * what a receipt's logs moved, the raw-number boundary, and the reading of a revert's reason.
 */
import { BaseError, decodeFunctionData, encodeAbiParameters, encodeErrorResult, encodeEventTopics, getAddress, parseAbi, RawContractError, toFunctionSelector, zeroAddress, zeroHash, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { CTF_ABI, describeCall, encodeCall, mergeCall, NEG_RISK_ADAPTER_ABI, redeemCall, SettlementCallError, SETTLEMENT_ERRORS_ABI } from '../../../src/capital/chain-calls.js';
import { revertReason } from '../../../src/capital/chain-errors.js';
import { formatEth, planFees } from '../../../src/capital/chain-fees.js';
import { ChainValueError, receiptMoves, toRaw } from '../../../src/capital/chain-receipt.js';

const USDC = getAddress('0x833589fcd6edb6e08f4c7c32d4f71b54bda02913');
const CTF = getAddress('0xc9c98965297bc527861c898329ee280632b76e18');
const ADAPTER = getAddress('0x1111111111111111111111111111111111111111');
const WALLET = getAddress('0x2222222222222222222222222222222222222222');
const OTHER = getAddress('0x3333333333333333333333333333333333333333');
const CONDITION: Hex = `0x${'ab'.repeat(32)}`;
const contracts = { usdc: USDC, conditionalTokens: CTF };
const plain = { conditionId: CONDITION, negRisk: false, adapter: null };
const grouped = { conditionId: CONDITION, negRisk: true, adapter: ADAPTER };

describe('settlement calls', () => {
  it('a plain market redeems and merges on the conditional tokens: collateral, parent 0x00…00, index sets [1, 2]', () => {
    const redeem = redeemCall(plain, contracts, { yes: 5n, no: 0n });
    expect(redeem.to).toBe(CTF);
    const decoded = decodeFunctionData({ abi: CTF_ABI, data: encodeCall(redeem) });
    expect(decoded).toEqual({ functionName: 'redeemPositions', args: [USDC, zeroHash, CONDITION, [1n, 2n]] });
    expect(encodeCall(redeem).slice(0, 10)).toBe(toFunctionSelector('redeemPositions(address,bytes32,bytes32,uint256[])'));

    const merge = mergeCall(plain, contracts, 7_000_000n);
    expect(decodeFunctionData({ abi: CTF_ABI, data: encodeCall(merge) })).toEqual({ functionName: 'mergePositions', args: [USDC, zeroHash, CONDITION, [1n, 2n], 7_000_000n] });
    expect(describeCall(merge)).toBe(`conditional tokens ${CTF}.mergePositions(${USDC}, ${zeroHash}, ${CONDITION}, [1, 2], 7000000)`);
  });

  it('a grouped market goes to its adapter: redeemPositions(conditionId, [yes, no]) and mergePositions(conditionId, amount)', () => {
    const redeem = redeemCall(grouped, contracts, { yes: 3n, no: 9n });
    expect(redeem.to).toBe(ADAPTER);
    const data = encodeCall(redeem);
    expect(data.slice(0, 10)).toBe(toFunctionSelector('redeemPositions(bytes32,uint256[])'));
    expect(data).toBe(`${toFunctionSelector('redeemPositions(bytes32,uint256[])')}${encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256[]' }], [CONDITION, [3n, 9n]]).slice(2)}`);
    const merge = encodeCall(mergeCall(grouped, contracts, 4n));
    expect(merge).toBe(`${toFunctionSelector('mergePositions(bytes32,uint256)')}${encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [CONDITION, 4n]).slice(2)}`);
    expect(decodeFunctionData({ abi: NEG_RISK_ADAPTER_ABI, data: merge })).toEqual({ functionName: 'mergePositions', args: [CONDITION, 4n] });
  });

  it('a grouped market without an adapter is refused, naming it', () => {
    expect(() => mergeCall({ ...grouped, adapter: null }, contracts, 1n)).toThrow(SettlementCallError);
    expect(() => redeemCall({ ...grouped, adapter: null }, contracts, { yes: 1n, no: 0n })).toThrow(`market ${CONDITION} is grouped (NegRisk) but names no adapter`);
  });
});

describe('planFees', () => {
  const quote = { gasPriceWei: 5_000_000n, suggestedMaxFeeWei: 9_000_000n, suggestedPriorityWei: 1_000_000n };
  it('offers the suggested caps below the ceiling; the need is gas limit (estimate + 20 %) × max fee', () => {
    const plan = planFees({ gasEstimate: 100_000n, quote, ceilingWei: 100_000_000n, balanceWei: 10n ** 18n, wallet: WALLET });
    expect(plan).toEqual({ ok: true, gasLimit: 120_000n, maxFeePerGas: 9_000_000n, maxPriorityFeePerGas: 1_000_000n, needWei: 120_000n * 9_000_000n });
  });
  it('caps the max fee at the ceiling, and refuses when the price now is above it', () => {
    const capped = planFees({ gasEstimate: 100_000n, quote, ceilingWei: 6_000_000n, balanceWei: 10n ** 18n, wallet: WALLET });
    expect(capped).toMatchObject({ ok: true, maxFeePerGas: 6_000_000n });
    expect(planFees({ gasEstimate: 100_000n, quote, ceilingWei: 4_999_999n, balanceWei: 10n ** 18n, wallet: WALLET })).toEqual({ ok: false, status: 'gas-price-too-high', gasPriceWei: '5000000', ceilingWei: '4999999' });
  });
  it('too little native token: the wallet, the amount needed and held', () => {
    const need = 120_000n * 9_000_000n;
    expect(planFees({ gasEstimate: 100_000n, quote, ceilingWei: 10n ** 9n, balanceWei: need - 1n, wallet: WALLET })).toEqual({ ok: false, status: 'insufficient-gas', wallet: WALLET, needWei: need.toString(), haveWei: (need - 1n).toString() });
    expect(planFees({ gasEstimate: 100_000n, quote, ceilingWei: 10n ** 9n, balanceWei: need, wallet: WALLET }).ok).toBe(true);
    expect(formatEth(need)).toBe('0.00000108 ETH');
    expect(formatEth('1000000000000000001')).toBe('1.000000000000000001 ETH');
  });
});

describe('receiptMoves', () => {
  const ERC20 = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);
  const transfer = (address: Hex, from: Hex, to: Hex, value: bigint): { address: Hex; topics: [Hex, ...Hex[]]; data: Hex } => ({
    address,
    topics: encodeEventTopics({ abi: ERC20, eventName: 'Transfer', args: { from, to } }) as [Hex, ...Hex[]],
    data: encodeAbiParameters([{ type: 'uint256' }], [value]),
  });
  const single = (from: Hex, to: Hex, id: bigint, value: bigint, address: Hex = CTF): { address: Hex; topics: [Hex, ...Hex[]]; data: Hex } => ({
    address,
    topics: encodeEventTopics({ abi: CTF_ABI, eventName: 'TransferSingle', args: { operator: from, from, to } }) as [Hex, ...Hex[]],
    data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [id, value]),
  });
  const batch = (from: Hex, to: Hex, ids: bigint[], values: bigint[]): { address: Hex; topics: [Hex, ...Hex[]]; data: Hex } => ({
    address: CTF,
    topics: encodeEventTopics({ abi: CTF_ABI, eventName: 'TransferBatch', args: { operator: ADAPTER, from, to } }) as [Hex, ...Hex[]],
    data: encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [ids, values]),
  });
  const parties = { wallet: WALLET, usdc: USDC, conditionalTokens: CTF, yesTokenId: '11', noTokenId: '22' };

  it('a plain redeem: burns (to 0x0) of both ids and the collateral transferred to the wallet', () => {
    const logs = [single(WALLET, zeroAddress, 11n, 25n), single(WALLET, zeroAddress, 22n, 25n), transfer(USDC, CTF, WALLET, 25n)];
    expect(receiptMoves(logs, parties)).toEqual({ usdcInRaw: 25, yesBurnedRaw: 25, noBurnedRaw: 25 });
  });

  it('a grouped merge: the batch to the adapter, the collateral back; unrelated contracts, ids and holders do not count', () => {
    const logs = [
      batch(WALLET, ADAPTER, [11n, 22n], [5n, 5n]),
      batch(ADAPTER, zeroAddress, [11n, 22n], [5n, 5n]), // the adapter's own burn: not the wallet's
      transfer(USDC, ADAPTER, WALLET, 5n),
      transfer(OTHER, ADAPTER, WALLET, 999n), // another token contract
      single(WALLET, zeroAddress, 11n, 999n, OTHER), // the same event from another contract
      single(WALLET, zeroAddress, 33n, 999n), // another id
      transfer(USDC, WALLET, OTHER, 1n), // the wallet paying out
    ];
    expect(receiptMoves(logs, parties)).toEqual({ usdcInRaw: 4, yesBurnedRaw: 5, noBurnedRaw: 5 });
  });

  it('an amount beyond 2^53 − 1 is an error naming it, never rounded', () => {
    expect(toRaw('x', 2n ** 53n - 1n)).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => toRaw('USDC balance', 2n ** 53n)).toThrow(ChainValueError);
    expect(() => receiptMoves([transfer(USDC, CTF, WALLET, 2n ** 60n)], parties)).toThrow('USDC credited: 1152921504606846976 is outside 0 … 2^53 − 1');
  });
});

describe('revertReason', () => {
  it('decodes Error(string) and the adapter\'s custom errors from the revert data; null for what is not a revert', () => {
    const withString = new BaseError('call failed', { cause: new RawContractError({ data: encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: ['SafeMath: subtraction overflow'] }) }) });
    expect(revertReason(withString, SETTLEMENT_ERRORS_ABI)).toBe('SafeMath: subtraction overflow');
    const custom = new BaseError('call failed', { cause: new RawContractError({ data: encodeErrorResult({ abi: SETTLEMENT_ERRORS_ABI, errorName: 'NotApprovedForAll' }) }) });
    expect(revertReason(custom, SETTLEMENT_ERRORS_ABI)).toBe('NotApprovedForAll()');
    expect(revertReason(new BaseError('HTTP request failed', { details: 'connect ECONNREFUSED' }), SETTLEMENT_ERRORS_ABI)).toBeNull();
    expect(revertReason(new Error('plain'), SETTLEMENT_ERRORS_ABI)).toBeNull();
    expect(revertReason(new BaseError('RPC Request failed.', { details: 'execution reverted: result for condition not received yet' }), SETTLEMENT_ERRORS_ABI)).toBe('result for condition not received yet');
  });
});
