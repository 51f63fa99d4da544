/**
 * `outcome-maker approve --config FILE [--rpc-url URL] [--yes]`: lists the USDC allowances and conditional-token
 * approvals the bot's wallet needs (plan.ts) as the chain has them now, and, only when confirmed (`--yes`, or `y`
 * at an interactive prompt), sends the missing ones, then reads them again.
 *
 * Owns: the order of the steps and the exit codes: 0 = listed (and, when confirmed, everything set), 1 = an RPC or
 * transaction failure, 2 = a usage or config problem (sim venue, no RPC endpoint, the key's variable not set, the
 * endpoint on another chain, a contract without code); nothing is sent when 2 is returned. Invariants: nothing is
 * sent without confirmation; the private key and an RPC URL taken from the environment appear in no output.
 */
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainConfig } from '../config/chain-schema.js';
import { DEFAULT_CREDENTIAL_ENV } from '../config/schema.js';
import { resolvePrivateKey, type AppConfig, type Environment } from '../config/index.js';
import { errorText } from '../core/errors.js';
import { scrubSecrets } from '../exchange/errors.js';
import { ChainCheckError, ChainEndpointError, checkChain, gasBalance, openChain, readApproval, resolveRpcEndpoint, sendApproval, type ChainSession, type RpcEndpoint } from './approval-chain.js';
import { approvalsNeeded, describeNeed, formatListing, isSatisfied, type ApprovalRow } from './approval-plan.js';

export class ApproveUsageError extends Error {
  override readonly name = 'ApproveUsageError';
}

export interface ApproveOptions {
  readonly configPath: string;
  readonly config: AppConfig;
  readonly env: Environment;
  /** Overrides `venue.chain.rpcUrl`. */
  readonly rpcUrl?: string;
  /** Send without asking. */
  readonly yes: boolean;
  /** Asks the user; null when there is no terminal to ask (then nothing is sent without --yes). */
  readonly confirm: ((question: string) => Promise<boolean>) | null;
  readonly stdout: (text: string) => void;
}

/** Runs the command; resolves to its exit code (0 or 1). Throws ApproveUsageError for a usage or config problem. */
export async function runApprove(options: ApproveOptions): Promise<number> {
  const { config } = options;
  if (config.venue.kind !== 'live') {
    throw new ApproveUsageError(`approve: ${options.configPath} uses venue.kind "sim": the simulator needs no approvals; approve acts on a live venue's chain (venue.kind: live)`);
  }
  const chainConfig = config.venue.chain;
  const rpc = resolveRpcUrl(options.rpcUrl, chainConfig.rpcUrl, options.env);
  const key = resolvePrivateKey(config.credentials ?? DEFAULT_CREDENTIAL_ENV, options.env, options.configPath);
  const account = privateKeyToAccount(key.reveal() as `0x${string}`);
  const hidden = [key.reveal(), key.reveal().slice(2), ...(rpc.secret ? [rpc.url] : [])];
  const say = (text: string): void => options.stdout(scrubSecrets(text, hidden));
  const session = openChain(rpc.url, config.venue.chainId, config.rateLimits.timeoutMs);
  const needs = approvalsNeeded(chainConfig);

  try {
    await checkChain(session, [
      { label: 'USDC', address: chainConfig.usdc },
      { label: 'conditional tokens', address: chainConfig.conditionalTokens },
      ...chainConfig.exchanges.map((address) => ({ label: 'exchange', address })),
      ...chainConfig.adapters.map((address) => ({ label: 'adapter', address })),
    ]);
  } catch (error) {
    if (error instanceof ChainCheckError) throw new ApproveUsageError(`approve: ${scrubSecrets(error.message, hidden)}`);
    say(`approve: the RPC endpoint ${rpc.label} did not answer: ${errorText(error)}\n`);
    return 1;
  }

  say(`approve: wallet ${account.address} on chain ${config.venue.chainId} (RPC ${rpc.label})\n`);
  let rows: ApprovalRow[];
  try {
    rows = await readRows(session, account.address, needs);
  } catch (error) {
    say(`approve: reading the approvals failed: ${errorText(error)}\n`);
    return 1;
  }
  say(formatListing(rows));
  const missing = rows.filter((row) => !row.set).map((row) => row.need);
  if (missing.length === 0) return 0;

  const question = `send ${missing.length} approval transaction${missing.length === 1 ? '' : 's'} from ${account.address}?`;
  const confirmed = options.yes || (options.confirm !== null && (await options.confirm(`${question} [y/N] `)));
  if (!confirmed) {
    say(`nothing sent: ${options.confirm === null && !options.yes ? 'run again with --yes to send them' : 'not confirmed'}\n`);
    return 0;
  }
  const gas = await gasBalance(session, account.address).catch(() => null);
  if (gas === 0n) say(`warning: ${account.address} holds no native token for gas; the transactions will fail\n`);
  try {
    for (const need of missing) {
      const sent = await sendApproval(session, account, need);
      say(`sent: ${describeNeed(need)}: tx ${sent.hash} (block ${sent.block})\n`);
    }
    rows = await readRows(session, account.address, needs);
  } catch (error) {
    say(`approve: ${errorText(error)}\n`);
    return 1;
  }
  say(formatListing(rows));
  return rows.every((row) => row.set) ? 0 : 1;
}

async function readRows(session: ChainSession, wallet: string, needs: ReturnType<typeof approvalsNeeded>): Promise<ApprovalRow[]> {
  const rows: ApprovalRow[] = [];
  for (const need of needs) {
    const reading = await readApproval(session, wallet, need);
    rows.push({ need, reading, set: isSatisfied(need, reading) });
  }
  return rows;
}

/** The endpoint to use: --rpc-url, else venue.chain.rpcUrl (a URL, or read from the variable it names). */
function resolveRpcUrl(flag: string | undefined, configured: ChainConfig['rpcUrl'], env: Environment): RpcEndpoint {
  try {
    return resolveRpcEndpoint(flag, configured, env);
  } catch (error) {
    if (error instanceof ChainEndpointError) throw new ApproveUsageError(`approve: ${error.message}`);
    throw error;
  }
}

/** A y/N question on the terminal; null when stdin is not a terminal (a script, CI, pm2): then only --yes sends. */
export function terminalConfirm(): ((question: string) => Promise<boolean>) | null {
  if (process.stdin.isTTY !== true) return null;
  return async (question) => {
    const { createInterface } = await import('node:readline/promises');
    const prompt = createInterface({ input: process.stdin, output: process.stdout });
    try {
      return /^y(es)?$/i.test((await prompt.question(question)).trim());
    } finally {
      prompt.close();
    }
  };
}
