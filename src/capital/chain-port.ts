/**
 * The live capital port: redeems resolved markets and merges complete sets from the bot's own externally owned
 * wallet, through viem and a JSON-RPC endpoint (`venue.chain.rpcUrl`). A plain market goes to the conditional-tokens
 * contract, a grouped (NegRisk) one to its adapter (src/capital/chain-calls.ts).
 *
 * Owns: the order of one settlement transaction: the chain checked (chain id, contract code: src/capital/approval-chain.ts),
 * the preconditions read (payout posted, holdings, the adapter's approval), the call simulated (gas estimate: a call
 * that would revert is not sent), the gas-price ceiling and the gas balance (chain-fees.ts), the nonce read from the
 * chain (pending), the transaction signed locally, its hash journaled, then broadcast, then its receipt waited for
 * and read (chain-receipt.ts). Invariants: one transaction at a time per wallet in this process (a queue); the
 * journal holds the hash BEFORE the transaction leaves the process, so a lost answer is found again by `recover` and
 * never sent twice; `confirmed` only from a receipt with status success; nothing is sent when an outcome other than
 * `confirmed` / `reverted` is returned; the private key never leaves the viem account and an RPC URL taken from the
 * environment (it may carry a provider key) appears in no message.
 */
import {
  createPublicClient,
  erc20Abi,
  getAddress,
  http,
  keccak256,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  WaitForTransactionReceiptTimeoutError,
  type Address,
  type Hex,
  type LocalAccount,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';
import type { Logger } from '../log.js';
import { ChainCheckError, checkChain, type ChainSession } from './approval-chain.js';
import { CTF_ABI, describeCall, encodeCall, mergeCall, redeemCall, SETTLEMENT_ERRORS_ABI, type SettlementCall } from './chain-calls.js';
import { ChainRpcError, ChainSendError, ReceiptTimeoutError, revertReason, shortText } from './chain-errors.js';
import { formatEth, planFees } from './chain-fees.js';
import { receiptMoves, toRaw } from './chain-receipt.js';
import type { CapitalBalances, CapitalMarketRef, CapitalPort, CapitalTxJournal, CapitalTxOutcome, CapitalTxRequest } from './port.js';

export { ChainCheckError } from './approval-chain.js';
export { ChainRpcError, ChainSendError, ReceiptTimeoutError } from './chain-errors.js';
export { ChainValueError } from './chain-receipt.js';
export { SettlementCallError } from './chain-calls.js';

export interface ChainCapitalPortOptions {
  /** The JSON-RPC endpoint (http or https). */
  readonly rpcUrl: string;
  /** How messages name the endpoint: the URL itself, or `from VAR` when it came from the environment (it may carry a key). */
  readonly rpcLabel: string;
  /** The chain the endpoint must serve (venue.chainId: 8453 on Base); another one is a ChainCheckError, nothing sent. */
  readonly chainId: number;
  /** The wallet: a local account (from the private key in the environment: `chainCapitalPortOptions`). */
  readonly account: LocalAccount;
  /** venue.chain.usdc and venue.chain.conditionalTokens. The adapter of a grouped market comes with the market. */
  readonly contracts: { readonly usdc: Hex; readonly conditionalTokens: Hex };
  /** No transaction is sent while the chain's gas price is above this (venue.chain.maxGasPriceGwei). */
  readonly maxGasPriceWei: bigint;
  /** How long a receipt is waited for (venue.chain.receiptTimeoutSec); then ReceiptTimeoutError, the tx stays journaled. */
  readonly receiptTimeoutMs: number;
  /** Each JSON-RPC request's time-out (rateLimits.timeoutMs). */
  readonly rpcTimeoutMs: number;
  /** How often a receipt is polled for (default 1000 ms; Base makes a block every 2 s). */
  readonly pollingIntervalMs?: number;
  readonly logger: Logger;
  /** Values never to print (the RPC URL when it came from the environment). */
  readonly secrets?: readonly string[];
}

/** One settlement transaction at a time per wallet, across every port of this process. */
const walletQueues = new Map<string, Promise<unknown>>();

function serialized<T>(wallet: Address, task: () => Promise<T>): Promise<T> {
  const key = wallet.toLowerCase();
  const previous = walletQueues.get(key) ?? Promise.resolve();
  const run = previous.then(task, task);
  const tail = run.catch(() => undefined);
  walletQueues.set(key, tail);
  void tail.then(() => {
    if (walletQueues.get(key) === tail) walletQueues.delete(key);
  });
  return run;
}

export function createChainCapitalPort(options: ChainCapitalPortOptions): ChainCapitalPort {
  return new ChainCapitalPort(options);
}

export class ChainCapitalPort implements CapitalPort {
  readonly kind = 'chain' as const;
  readonly wallet: Address;
  private readonly client: PublicClient;
  private readonly session: ChainSession;
  private readonly usdc: Address;
  private readonly ctf: Address;
  private readonly secrets: readonly string[];
  private readonly log: Logger;
  private checked: Promise<void> | null = null;
  private readonly checkedAdapters = new Set<string>();

  constructor(private readonly options: ChainCapitalPortOptions) {
    this.wallet = options.account.address;
    this.usdc = getAddress(options.contracts.usdc);
    this.ctf = getAddress(options.contracts.conditionalTokens);
    this.client = createPublicClient({ pollingInterval: options.pollingIntervalMs ?? 1000, transport: http(options.rpcUrl, { retryCount: 0, timeout: options.rpcTimeoutMs }) });
    this.session = { client: this.client, rpcUrl: options.rpcUrl, chainId: options.chainId, timeoutMs: options.rpcTimeoutMs };
    this.secrets = [...(options.secrets ?? []), ...(options.rpcLabel === options.rpcUrl ? [] : [options.rpcUrl])];
    this.log = options.logger.child({ component: 'chain-port', wallet: this.wallet });
  }

  /**
   * The endpoint serves the configured chain and USDC and the conditional tokens have code there (once; a failed check
   * is tried again next time). ChainCheckError names what is wrong; ChainRpcError when the endpoint does not answer.
   */
  check(): Promise<void> {
    this.checked ??= this.rpc('the chain check', () => checkChain(this.session, [
      { label: 'USDC', address: this.usdc },
      { label: 'conditional tokens', address: this.ctf },
    ])).catch((error: unknown) => {
      this.checked = null;
      throw error;
    });
    return this.checked;
  }

  submit(request: CapitalTxRequest, journal: CapitalTxJournal): Promise<CapitalTxOutcome> {
    return serialized(this.wallet, () => this.submitNow(request, journal));
  }

  async recover(request: CapitalTxRequest, tx: { readonly hash: Hex; readonly nonce: number }): Promise<CapitalTxOutcome | 'unknown'> {
    await this.check();
    const receipt = await this.rpc('the receipt read', () => orNull(this.client.getTransactionReceipt({ hash: tx.hash }), TransactionReceiptNotFoundError));
    if (receipt !== null) return this.outcomeOf(request, receipt);
    const pending = await this.rpc('the transaction read', () => orNull(this.client.getTransaction({ hash: tx.hash }), TransactionNotFoundError));
    if (pending === null) {
      this.log.info({ market: request.market.slug, txHash: tx.hash, nonce: tx.nonce }, 'chain port: the node has no trace of the journaled transaction');
      return 'unknown';
    }
    return this.outcomeOf(request, await this.waitForReceipt(tx.hash, tx.nonce));
  }

  async balances(tokenIds: readonly string[]): Promise<CapitalBalances> {
    await this.check();
    const ids = tokenIds.map((id) => tokenId(id));
    const [held, usdc] = await this.rpc('the balance read', () =>
      Promise.all([
        ids.length === 0 ? Promise.resolve([] as readonly bigint[]) : this.client.readContract({ address: this.ctf, abi: CTF_ABI, functionName: 'balanceOfBatch', args: [ids.map(() => this.wallet), ids] }),
        this.client.readContract({ address: this.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [this.wallet] }),
      ]),
    );
    if (held.length !== ids.length) throw new ChainRpcError(`balanceOfBatch via RPC ${this.options.rpcLabel} answered ${held.length} balances for ${ids.length} token ids`);
    const tokens = new Map<string, number>();
    tokenIds.forEach((id, i) => tokens.set(id, toRaw(`conditional-token balance of ${id}`, held[i] ?? 0n)));
    return { tokens, usdcRaw: toRaw('USDC balance', usdc) };
  }

  // ------------------------------------------------------------------------------------------------ one transaction

  private async submitNow(request: CapitalTxRequest, journal: CapitalTxJournal): Promise<CapitalTxOutcome> {
    await this.check();
    const { market } = request;
    if (market.negRisk && market.adapter !== null) await this.checkAdapter(market.adapter);
    const prepared = request.kind === 'redeem' ? await this.prepareRedeem(market) : await this.prepareMerge(market, request.amountRaw);
    if ('status' in prepared) return prepared;
    const { call } = prepared;
    const data = encodeCall(call);

    // Simulated first: a call that would revert is not sent (an eth_call gives the revert's data to decode).
    let gasEstimate: bigint;
    try {
      await this.client.call({ account: this.wallet, to: call.to, data });
      gasEstimate = await this.client.estimateGas({ account: this.wallet, to: call.to, data });
    } catch (error) {
      const reason = revertReason(error, SETTLEMENT_ERRORS_ABI);
      if (reason === null) throw new ChainRpcError(`the simulation of ${describeCall(call)} via RPC ${this.options.rpcLabel} failed: ${shortText(error, this.secrets)}`);
      return { status: 'not-ready', reason: `${describeCall(call)} would revert (${reason}): nothing sent` };
    }

    const [gasPriceWei, fees, balanceWei] = await this.rpc('the gas price read', () =>
      Promise.all([this.client.getGasPrice(), this.client.estimateFeesPerGas({ type: 'eip1559', chain: null }), this.client.getBalance({ address: this.wallet })]),
    );
    const plan = planFees({ gasEstimate, quote: { gasPriceWei, suggestedMaxFeeWei: fees.maxFeePerGas, suggestedPriorityWei: fees.maxPriorityFeePerGas }, ceilingWei: this.options.maxGasPriceWei, balanceWei, wallet: this.wallet });
    if (!plan.ok) {
      if (plan.status === 'gas-price-too-high') return { status: plan.status, gasPriceWei: plan.gasPriceWei, ceilingWei: plan.ceilingWei };
      this.log.info({ market: market.slug, needWei: plan.needWei, haveWei: plan.haveWei }, `chain port: ${this.wallet} holds ${formatEth(plan.haveWei)}, needs ${formatEth(plan.needWei)} for gas: nothing sent`);
      return { status: plan.status, wallet: plan.wallet, needWei: plan.needWei, haveWei: plan.haveWei };
    }

    const nonce = await this.rpc('the nonce read', () => this.client.getTransactionCount({ address: this.wallet, blockTag: 'pending' }));
    const serializedTx = await this.options.account.signTransaction({
      type: 'eip1559',
      chainId: this.options.chainId,
      to: call.to,
      data,
      value: 0n,
      nonce,
      gas: plan.gasLimit,
      maxFeePerGas: plan.maxFeePerGas,
      maxPriorityFeePerGas: plan.maxPriorityFeePerGas,
    });
    const hash = keccak256(serializedTx);
    journal.broadcast(request.key, { hash, nonce });
    this.log.info({ market: market.slug, kind: request.kind, key: request.key, txHash: hash, nonce, gasLimit: plan.gasLimit.toString(), maxFeePerGas: plan.maxFeePerGas.toString() }, `chain port: sending ${describeCall(call)}`);
    try {
      const sent = await this.client.sendRawTransaction({ serializedTransaction: serializedTx });
      if (sent.toLowerCase() !== hash.toLowerCase()) this.log.error({ txHash: hash, transactionHash: sent }, 'chain port: the node answered another hash than the signed transaction\'s');
    } catch (error) {
      throw new ChainSendError(`the node did not take ${request.kind} transaction ${hash} (nonce ${nonce}) via RPC ${this.options.rpcLabel}: ${shortText(error, this.secrets)}; it is journaled: recover() finds it or says unknown`, hash, nonce);
    }
    return this.outcomeOf(request, await this.waitForReceipt(hash, nonce));
  }

  private async prepareRedeem(market: CapitalMarketRef): Promise<{ call: SettlementCall } | CapitalTxOutcome> {
    const denominator = await this.rpc('the payout read', () => this.client.readContract({ address: this.ctf, abi: CTF_ABI, functionName: 'payoutDenominator', args: [market.conditionId] }));
    if (denominator === 0n) return { status: 'not-ready', reason: `the payout of condition ${market.conditionId} (${market.slug}) is not posted on-chain yet: nothing sent` };
    const [held, numerators] = await this.rpc('the holding read', () =>
      Promise.all([
        this.held(market),
        Promise.all([0n, 1n].map((index) => this.client.readContract({ address: this.ctf, abi: CTF_ABI, functionName: 'payoutNumerators', args: [market.conditionId, index] }))),
      ]),
    );
    if (held.yes === 0n && held.no === 0n) return { status: 'not-ready', reason: `nothing to redeem: ${this.wallet} holds no token of ${market.slug}: nothing sent` };
    const payout = (held.yes * (numerators[0] ?? 0n) + held.no * (numerators[1] ?? 0n)) / denominator;
    if (payout === 0n) return { status: 'not-ready', reason: `nothing to redeem: the ${held.yes} YES and ${held.no} NO of ${market.slug} pay 0 (payout ${numerators.join('/')} of ${denominator}): nothing sent` };
    const missing = await this.missingAdapterApproval(market);
    if (missing !== null) return missing;
    return { call: redeemCall(market, this.contracts(), held) };
  }

  private async prepareMerge(market: CapitalMarketRef, amountRaw: number): Promise<{ call: SettlementCall } | CapitalTxOutcome> {
    if (!Number.isSafeInteger(amountRaw) || amountRaw <= 0) return { status: 'not-ready', reason: `merge of ${market.slug}: amountRaw ${amountRaw} is not a positive integer: nothing sent` };
    const held = await this.rpc('the holding read', () => this.held(market));
    const sets = held.yes < held.no ? held.yes : held.no;
    if (sets < BigInt(amountRaw)) return { status: 'not-ready', reason: `merge of ${amountRaw} sets of ${market.slug}: ${this.wallet} holds ${held.yes} YES and ${held.no} NO (${sets} complete sets): nothing sent` };
    const missing = await this.missingAdapterApproval(market);
    if (missing !== null) return missing;
    return { call: mergeCall(market, this.contracts(), BigInt(amountRaw)) };
  }

  /** The adapter pulls the holder's tokens (safeBatchTransferFrom): without setApprovalForAll(adapter) the call reverts. */
  private async missingAdapterApproval(market: CapitalMarketRef): Promise<CapitalTxOutcome | null> {
    if (!market.negRisk || market.adapter === null) return null;
    const adapter = getAddress(market.adapter);
    const approved = await this.rpc('the approval read', () => this.client.readContract({ address: this.ctf, abi: CTF_ABI, functionName: 'isApprovedForAll', args: [this.wallet, adapter] }));
    if (approved) return null;
    return {
      status: 'not-ready',
      reason: `missing approval: ${this.wallet} has not approved the NegRisk adapter ${adapter} on the conditional tokens ${this.ctf} (setApprovalForAll), which ${market.slug}'s redeem and merge need: run \`outcome-maker approve\` (venue.chain.adapters); nothing sent`,
    };
  }

  private async checkAdapter(adapter: Hex): Promise<void> {
    const key = adapter.toLowerCase();
    if (this.checkedAdapters.has(key)) return;
    await this.rpc('the adapter check', () => checkChain(this.session, [{ label: 'NegRisk adapter', address: adapter }]));
    this.checkedAdapters.add(key);
  }

  private async held(market: CapitalMarketRef): Promise<{ yes: bigint; no: bigint }> {
    const ids = [tokenId(market.yesTokenId), tokenId(market.noTokenId)];
    const [yes = 0n, no = 0n] = await this.client.readContract({ address: this.ctf, abi: CTF_ABI, functionName: 'balanceOfBatch', args: [[this.wallet, this.wallet], ids] });
    return { yes, no };
  }

  private contracts(): { usdc: Address; conditionalTokens: Address } {
    return { usdc: this.usdc, conditionalTokens: this.ctf };
  }

  private async waitForReceipt(hash: Hex, nonce: number): Promise<TransactionReceipt> {
    try {
      return await this.client.waitForTransactionReceipt({ hash, timeout: this.options.receiptTimeoutMs, pollingInterval: this.options.pollingIntervalMs ?? 1000 });
    } catch (error) {
      if (error instanceof WaitForTransactionReceiptTimeoutError) {
        throw new ReceiptTimeoutError(`no receipt for transaction ${hash} (nonce ${nonce}) within ${this.options.receiptTimeoutMs / 1000} s: it stays journaled; recover() finds it`, hash, nonce);
      }
      throw new ChainRpcError(`waiting for the receipt of ${hash} (nonce ${nonce}) via RPC ${this.options.rpcLabel} failed: ${shortText(error, this.secrets)}; it stays journaled`);
    }
  }

  /** `confirmed` with what the logs say moved, or `reverted` with the reason the call gives when replayed at its block. */
  private async outcomeOf(request: CapitalTxRequest, receipt: TransactionReceipt): Promise<CapitalTxOutcome> {
    const block = toRaw('block number', receipt.blockNumber);
    const gasWei = receiptGasWei(receipt).toString();
    if (receipt.status === 'success') {
      const moves = receiptMoves(receipt.logs, { wallet: this.wallet, usdc: this.usdc, conditionalTokens: this.ctf, yesTokenId: request.market.yesTokenId, noTokenId: request.market.noTokenId });
      this.log.info({ market: request.market.slug, kind: request.kind, key: request.key, txHash: receipt.transactionHash, block, ...moves, gasWei }, 'chain port: confirmed');
      return { status: 'confirmed', hash: receipt.transactionHash, block, ...moves, gasWei };
    }
    const reason = await this.replayReason(receipt);
    this.log.info({ market: request.market.slug, kind: request.kind, key: request.key, txHash: receipt.transactionHash, block, reason, gasWei }, 'chain port: reverted');
    return { status: 'reverted', hash: receipt.transactionHash, block, reason, gasWei };
  }

  private async replayReason(receipt: TransactionReceipt): Promise<string> {
    try {
      const tx = await this.client.getTransaction({ hash: receipt.transactionHash });
      if (tx.to === null) return 'reverted (not a call)';
      await this.client.call({ account: this.wallet, to: tx.to, data: tx.input, blockNumber: receipt.blockNumber });
      return 'reverted in its block (the call passes when replayed after the block: its state changed within the block)';
    } catch (error) {
      return revertReason(error, SETTLEMENT_ERRORS_ABI) ?? `reverted (the reason could not be read: ${shortText(error, this.secrets)})`;
    }
  }

  /** Runs one or more JSON-RPC reads; a failure that is not already typed becomes a ChainRpcError naming the endpoint. */
  private async rpc<T>(what: string, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if (error instanceof ChainCheckError || error instanceof ChainRpcError) throw error;
      throw new ChainRpcError(`${what} via RPC ${this.options.rpcLabel} failed: ${shortText(error, this.secrets)}`);
    }
  }
}

/** Gas paid: gas used × effective price, plus the L1 data fee an OP-stack chain (Base) reports in the receipt. */
export function receiptGasWei(receipt: TransactionReceipt): bigint {
  const l1Fee = (receipt as TransactionReceipt & { readonly l1Fee?: unknown }).l1Fee;
  const l1 = typeof l1Fee === 'bigint' ? l1Fee : typeof l1Fee === 'string' && /^0x[0-9a-f]+$/i.test(l1Fee) ? BigInt(l1Fee) : 0n;
  return receipt.gasUsed * receipt.effectiveGasPrice + l1;
}

/** The read's answer, or null when it fails with `notFound` (the node does not know the hash). */
async function orNull<T>(read: Promise<T>, notFound: new (...args: never[]) => Error): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof notFound) return null;
    throw error;
  }
}

function tokenId(decimal: string): bigint {
  if (!/^\d{1,78}$/.test(decimal)) throw new ChainRpcError(`token id ${JSON.stringify(decimal)} is not a decimal uint256: nothing read or sent`);
  return BigInt(decimal);
}

