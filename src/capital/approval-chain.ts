/**
 * The chain side of `outcome-maker approve`, through viem: checks that the RPC endpoint is the configured chain and
 * that every contract has code, reads the current allowances and approvals, and sends one approval transaction at a
 * time, waiting for its receipt.
 *
 * Owns: the ABI fragments and the JSON-RPC calls. Invariants: nothing is sent from here unless `sendApproval` is
 * called; each transaction is confirmed (a receipt with status success) before the next is sent, so nonces never
 * collide; the private key stays inside the viem account (never in a message).
 */
import { createPublicClient, createWalletClient, defineChain, erc20Abi, getAddress, http, parseAbi, type Hash, type PublicClient } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { ChainConfig } from '../config/chain-schema.js';
import type { ApprovalNeed, ApprovalReading } from './approval-plan.js';

const CTF_ABI = parseAbi([
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
  'function setApprovalForAll(address operator, bool approved)',
]);

export class ChainCheckError extends Error {
  override readonly name = 'ChainCheckError';
}

/** No usable JSON-RPC endpoint in the flag, the config or the environment variable it names. */
export class ChainEndpointError extends Error {
  override readonly name = 'ChainEndpointError';
}

/** The endpoint to use and how to name it: a URL read from the environment may carry a provider key (a secret). */
export interface RpcEndpoint {
  readonly url: string;
  /** The URL, or `from VAR` when it came from the environment. */
  readonly label: string;
  readonly secret: boolean;
}

const HTTP_URL = /^https?:\/\/[^\s/]+/;

/** The endpoint: `flag` (e.g. --rpc-url) when given, else venue.chain.rpcUrl (a URL, or read from the variable it names). */
export function resolveRpcEndpoint(flag: string | undefined, configured: ChainConfig['rpcUrl'], env: Readonly<Record<string, string | undefined>>): RpcEndpoint {
  if (flag !== undefined) {
    if (!HTTP_URL.test(flag) || !URL.canParse(flag)) throw new ChainEndpointError(`--rpc-url: expected an http(s) URL (got ${JSON.stringify(flag)})`);
    return { url: flag, label: flag, secret: false };
  }
  if (configured === null) {
    throw new ChainEndpointError('no JSON-RPC endpoint: set venue.chain.rpcUrl in the config (a URL, or the NAME of an environment variable holding it) or give --rpc-url');
  }
  if (configured.kind === 'url') return { url: configured.url, label: configured.url, secret: false };
  const value = env[configured.env]?.trim();
  if (value === undefined || value === '') throw new ChainEndpointError(`venue.chain.rpcUrl: environment variable ${configured.env} is not set`);
  if (!HTTP_URL.test(value) || !URL.canParse(value)) throw new ChainEndpointError(`venue.chain.rpcUrl: environment variable ${configured.env} is not an http(s) URL`);
  return { url: value, label: `from ${configured.env}`, secret: true };
}

export interface ChainSession {
  readonly client: PublicClient;
  readonly rpcUrl: string;
  readonly chainId: number;
  readonly timeoutMs: number;
}

export function openChain(rpcUrl: string, chainId: number, timeoutMs: number): ChainSession {
  return { client: createPublicClient({ pollingInterval: 500, transport: http(rpcUrl, { retryCount: 0, timeout: timeoutMs }) }), rpcUrl, chainId, timeoutMs };
}

/** The endpoint serves `chainId` and every named contract has code; throws ChainCheckError naming what is wrong. */
export async function checkChain(session: ChainSession, contracts: readonly { readonly label: string; readonly address: string }[]): Promise<void> {
  const served = await session.client.getChainId();
  if (served !== session.chainId) throw new ChainCheckError(`the RPC endpoint serves chain ${served}, the config's venue.chainId is ${session.chainId}: nothing read or sent`);
  const empty: string[] = [];
  for (const contract of contracts) {
    const code = await session.client.getCode({ address: getAddress(contract.address) });
    if (code === undefined || code === '0x') empty.push(`${contract.label} ${contract.address}`);
  }
  if (empty.length > 0) throw new ChainCheckError(`no contract at ${empty.join(', ')} on chain ${served}: check venue.chain in the config; nothing sent`);
}

export async function readApproval(session: ChainSession, wallet: string, need: ApprovalNeed): Promise<ApprovalReading> {
  if (need.kind === 'usdc') {
    const allowance = await session.client.readContract({ address: getAddress(need.token), abi: erc20Abi, functionName: 'allowance', args: [getAddress(wallet), getAddress(need.spender)] });
    return { kind: 'usdc', allowance };
  }
  const approved = await session.client.readContract({ address: getAddress(need.token), abi: CTF_ABI, functionName: 'isApprovedForAll', args: [getAddress(wallet), getAddress(need.operator)] });
  return { kind: 'ctf', approved };
}

/** The wallet's native balance (gas), in wei. */
export function gasBalance(session: ChainSession, wallet: string): Promise<bigint> {
  return session.client.getBalance({ address: getAddress(wallet) });
}

/** Sends the approval and waits for its receipt; throws when the transaction reverts. */
export async function sendApproval(session: ChainSession, account: PrivateKeyAccount, need: ApprovalNeed): Promise<{ readonly hash: Hash; readonly block: bigint }> {
  const chain = defineChain({ id: session.chainId, name: `chain ${session.chainId}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [session.rpcUrl] } } });
  const wallet = createWalletClient({ account, chain, transport: http(session.rpcUrl, { retryCount: 0, timeout: session.timeoutMs }) });
  const hash =
    need.kind === 'usdc'
      ? await wallet.writeContract({ address: getAddress(need.token), abi: erc20Abi, functionName: 'approve', args: [getAddress(need.spender), need.amount] })
      : await wallet.writeContract({ address: getAddress(need.token), abi: CTF_ABI, functionName: 'setApprovalForAll', args: [getAddress(need.operator), true] });
  const receipt = await session.client.waitForTransactionReceipt({ hash, timeout: Math.max(session.timeoutMs, 60_000) });
  if (receipt.status !== 'success') throw new ChainCheckError(`transaction ${hash} reverted (block ${receipt.blockNumber})`);
  return { hash, block: receipt.blockNumber };
}
