/**
 * The typed errors of the chain port (src/capital/chain-port.ts), and the reading of a revert out of a viem error.
 *
 * Owns: what each failure is called and what it carries. Invariants: every message names the RPC endpoint by its
 * label (the URL, or `from VAR` when the URL came from the environment and may carry a provider key), never by a
 * secret; a transaction's hash and nonce are carried as fields so the core can journal or look it up again.
 */
import { BaseError, ContractFunctionRevertedError, decodeErrorResult, RawContractError, type Abi, type Hex } from 'viem';
import { errorText } from '../core/errors.js';
import { scrubSecrets } from '../exchange/errors.js';

/** The endpoint did not answer (wrong URL, down, timed out) or answered nonsense. Nothing was sent by the failing step. */
export class ChainRpcError extends Error {
  override readonly name = 'ChainRpcError';
}

/** The node refused (or did not acknowledge) a signed transaction. It was journaled first: `recover` finds it or says `unknown`. */
export class ChainSendError extends Error {
  override readonly name = 'ChainSendError';
  constructor(
    message: string,
    readonly hash: Hex,
    readonly nonce: number,
  ) {
    super(message);
  }
}

/** No receipt within the receipt time-out. The transaction stays journaled; `recover(request, {hash, nonce})` finds it later. */
export class ReceiptTimeoutError extends Error {
  override readonly name = 'ReceiptTimeoutError';
  constructor(
    message: string,
    readonly hash: Hex,
    readonly nonce: number,
  ) {
    super(message);
  }
}

/** The short text of an error (viem's `shortMessage` rather than its request dump), with the secrets removed. */
export function shortText(error: unknown, secrets: readonly string[]): string {
  const text = error instanceof BaseError ? error.shortMessage : errorText(error);
  return scrubSecrets(text, secrets);
}

function revertData(error: unknown): Hex | null {
  const data = error instanceof RawContractError ? error.data : typeof error === 'object' && error !== null && 'data' in error ? error.data : undefined;
  return typeof data === 'string' && /^0x[0-9a-fA-F]{8,}$/.test(data) ? (data as Hex) : null;
}

/** A revert's reason when the error is one (decoded with `abi`'s custom errors, Error(string) and Panic); null otherwise. */
export function revertReason(error: unknown, abi: Abi): string | null {
  if (!(error instanceof BaseError)) return null;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError) {
    if (reverted.reason !== undefined) return reverted.reason;
    if (reverted.data !== undefined) return `${reverted.data.errorName}(${(reverted.data.args ?? []).map(String).join(', ')})`;
    return reverted.signature === undefined ? 'execution reverted' : `custom error ${reverted.signature}`;
  }
  // The revert's data: a RawContractError's (eth_call), or the JSON-RPC error's own `data` (code 3, "execution reverted").
  const withData = error.walk((e) => revertData(e) !== null);
  const data = withData === null ? null : revertData(withData);
  if (data !== null) {
    try {
      const decoded = decodeErrorResult({ abi, data });
      const args: readonly unknown[] = decoded.args ?? [];
      if (decoded.errorName === 'Error') return String(args[0]);
      return `${decoded.errorName}(${args.map(String).join(', ')})`;
    } catch {
      return `execution reverted with data ${data.slice(0, 10)}`;
    }
  }
  const text = [error.details, error.shortMessage].find((t) => /revert/i.test(t));
  return text === undefined ? null : text.replace(/^execution reverted:\s*/i, '') || 'execution reverted';
}
