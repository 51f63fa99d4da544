/**
 * What a settlement transaction moved, read from its receipt's logs rather than assumed: the collateral (USDC)
 * credited to the wallet and the YES / NO tokens that left it.
 *
 * Owns: the log arithmetic and the bigint → raw-number boundary. Invariants: only logs emitted by the configured
 * USDC and conditional-tokens contracts count (an event of the same shape from another contract is ignored); USDC in
 * is the ERC-20 Transfers to the wallet minus those from it; tokens out are the ERC-1155 TransferSingle/TransferBatch
 * of the market's two ids from the wallet (to 0x0: a burn on a plain market; to the adapter on a grouped one) minus
 * those to it; an amount above 2^53 − 1 raises ChainValueError (never a rounded number).
 */
import { decodeEventLog, erc20Abi, isAddressEqual, type Address, type Log } from 'viem';
import { CTF_ABI } from './chain-calls.js';

export class ChainValueError extends Error {
  override readonly name = 'ChainValueError';
}

/** A chain amount as an exact raw number; throws ChainValueError naming the field when it does not fit a double exactly. */
export function toRaw(field: string, value: bigint): number {
  if (value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ChainValueError(`${field}: ${value} is outside 0 … 2^53 − 1: not representable as an exact raw amount`);
  return Number(value);
}

export interface ReceiptMoves {
  readonly usdcInRaw: number;
  readonly yesBurnedRaw: number;
  readonly noBurnedRaw: number;
}

export interface ReceiptParties {
  readonly wallet: Address;
  readonly usdc: Address;
  readonly conditionalTokens: Address;
  /** Decimal token ids. */
  readonly yesTokenId: string;
  readonly noTokenId: string;
}

type LogLike = Pick<Log, 'address' | 'data' | 'topics'>;

export function receiptMoves(logs: readonly LogLike[], parties: ReceiptParties): ReceiptMoves {
  let usdc = 0n;
  let yes = 0n;
  let no = 0n;
  const yesId = BigInt(parties.yesTokenId);
  const noId = BigInt(parties.noTokenId);
  const tokenMove = (from: Address, to: Address, id: bigint, value: bigint): void => {
    const sign = isAddressEqual(from, parties.wallet) ? 1n : isAddressEqual(to, parties.wallet) ? -1n : 0n;
    if (id === yesId) yes += sign * value;
    else if (id === noId) no += sign * value;
  };
  for (const log of logs) {
    if (isAddressEqual(log.address, parties.usdc)) {
      const event = decodeOrNull(() => decodeEventLog({ abi: erc20Abi, data: log.data, topics: log.topics, strict: true }));
      if (event?.eventName !== 'Transfer') continue;
      if (isAddressEqual(event.args.to, parties.wallet)) usdc += event.args.value;
      if (isAddressEqual(event.args.from, parties.wallet)) usdc -= event.args.value;
    } else if (isAddressEqual(log.address, parties.conditionalTokens)) {
      const event = decodeOrNull(() => decodeEventLog({ abi: CTF_ABI, data: log.data, topics: log.topics, strict: true }));
      if (event?.eventName === 'TransferSingle') tokenMove(event.args.from, event.args.to, event.args.id, event.args.value);
      else if (event?.eventName === 'TransferBatch') event.args.ids.forEach((id, i) => tokenMove(event.args.from, event.args.to, id, event.args.values[i] ?? 0n));
    }
  }
  return { usdcInRaw: toRaw('USDC credited', usdc), yesBurnedRaw: toRaw('YES tokens out', yes), noBurnedRaw: toRaw('NO tokens out', no) };
}

function decodeOrNull<T>(decode: () => T): T | null {
  try {
    return decode();
  } catch {
    return null; // another event of the same contract (Approval, PayoutRedemption, …)
  }
}
