/**
 * Doctor's settlement lines: how the account's resolved markets and complete sets come back as USDC (through the
 * venue's API for a server-managed sub-account, else on-chain from the bot's own wallet), whether that wallet holds
 * the native token (ETH on Base) for the gas, and which approvals the on-chain redeem and merge need.
 *
 * Owns: the three verdicts (pure). Facts they rest on (checked against the contracts' source): the conditional
 * tokens' `redeemPositions` and `mergePositions` burn the CALLER's own positions, so a plain market's redeem and
 * merge need no approval; Polymarket's NegRiskAdapter (the grouped markets' `venue.adapter`) pulls the caller's YES and
 * NO with the conditional tokens' `safeBatchTransferFrom` first, so a grouped market's need `setApprovalForAll(adapter)`
 * from the wallet (the same approval SELL needs). Invariant: no secret in a message.
 */
import { formatEth } from '../capital/chain-fees.js';
import { weiToGwei } from '../config/chain-schema.js';
import { check, type CheckResult } from './types.js';
import type { ApprovalReading, ApprovalTarget } from './verdicts.js';

/** A settlement transaction's gas, taken generously: the CTF's redeem burns ~100–130k, the adapter's adds its transfers. */
export const TYPICAL_SETTLEMENT_GAS = 200_000n;
/** Below this many settlement transactions' worth of gas at the ceiling, doctor warns (a day of hourly markets). */
export const GAS_RUNWAY_TRANSACTIONS = 50n;

export type SettlementRoute = { readonly kind: 'api'; readonly onBehalfOf: number } | { readonly kind: 'chain'; readonly wallet: string; readonly rpc: boolean };

export function settlementRouteVerdict(route: SettlementRoute): CheckResult {
  const title = 'settlement (redeem and merge)';
  if (route.kind === 'api') {
    return check(
      'settlement',
      title,
      'pass',
      `sub-account ${route.onBehalfOf}: resolved markets are redeemed through the venue's API (POST /portfolio/redeem with onBehalfOf), which the venue does only for a server-managed wallet (a 403 otherwise: the bot cannot redeem on-chain for a wallet whose key it does not hold)`,
      undefined,
      { route: 'api', onBehalfOf: route.onBehalfOf },
    );
  }
  if (!route.rpc) {
    return check(
      'settlement',
      title,
      'warn',
      `wallet ${route.wallet} is the private key's own (externally owned) wallet: the venue's API does not redeem for it, and without a JSON-RPC endpoint the bot cannot redeem or merge on-chain: winnings stay locked in resolved tokens`,
      'set venue.chain.rpcUrl (a URL, or the NAME of an environment variable holding it) so the bot redeems and merges on-chain',
      { route: 'chain', wallet: route.wallet, rpc: false },
    );
  }
  return check('settlement', title, 'pass', `wallet ${route.wallet} (externally owned) redeems and merges on-chain itself (the venue's API does not redeem for it), through the JSON-RPC endpoint`, undefined, {
    route: 'chain',
    wallet: route.wallet,
    rpc: true,
  });
}

/** The wallet's native balance against what a settlement transaction may cost at the gas-price ceiling. */
export function gasVerdict(wallet: string, reading: { readonly ok: true; readonly wei: bigint } | { readonly ok: false; readonly error: string } | null, maxGasPriceWei: number): CheckResult {
  const title = 'gas for settlement';
  const perTx = TYPICAL_SETTLEMENT_GAS * BigInt(maxGasPriceWei);
  const basis = `${TYPICAL_SETTLEMENT_GAS.toString()} gas at the ${weiToGwei(maxGasPriceWei)} gwei ceiling (venue.chain.maxGasPriceGwei) = ${formatEth(perTx)} per redeem or merge`;
  if (reading === null) return check('gas', title, 'skip', `not read: no JSON-RPC endpoint (${basis})`, 'give --rpc-url or set venue.chain.rpcUrl');
  if (!reading.ok) return check('gas', title, 'warn', `the RPC read of ${wallet}'s balance failed: ${reading.error}`, 'check --rpc-url / venue.chain.rpcUrl');
  const data = { wallet, balanceWei: reading.wei.toString(), perTransactionWei: perTx.toString(), maxGasPriceWei };
  const count = perTx === 0n ? 0n : reading.wei / perTx;
  const held = `wallet ${wallet} holds ${formatEth(reading.wei)}`;
  if (count < 1n) {
    return check('gas', title, 'fail', `${held}: not enough for one redeem or merge (needs ${formatEth(perTx)}: ${basis})`, `send ETH on Base to ${wallet}: ${formatEth(perTx * GAS_RUNWAY_TRANSACTIONS)} covers ${GAS_RUNWAY_TRANSACTIONS.toString()} settlement transactions`, data);
  }
  if (count < GAS_RUNWAY_TRANSACTIONS) {
    return check('gas', title, 'warn', `${held}: about ${count.toString()} redeems or merges (${basis})`, `top it up: ${formatEth(perTx * GAS_RUNWAY_TRANSACTIONS)} covers ${GAS_RUNWAY_TRANSACTIONS.toString()}`, data);
  }
  return check('gas', title, 'pass', `${held}: about ${count.toString()} redeems or merges (${basis})`, undefined, data);
}

/** Which approvals the on-chain redeem and merge need, and whether the wallet has them (null readings: not read). */
export function settlementApprovalsVerdict(route: SettlementRoute, sellTargets: readonly ApprovalTarget[], readings: ReadonlyMap<string, ApprovalReading> | null): CheckResult {
  const title = 'approvals for redeem and merge';
  const plain = 'plain markets: none (the conditional tokens burn the holder\'s own positions)';
  if (route.kind === 'api') return check('approvals-settlement', title, 'skip', 'the venue redeems for a server-managed sub-account: no on-chain approval of the bot\'s');
  const adapters = sellTargets.filter((t) => t.role === 'adapter');
  if (adapters.length === 0) return check('approvals-settlement', title, 'pass', `${plain}; no grouped (NegRisk) market configured`);
  const named = (t: ApprovalTarget): string => `NegRisk adapter ${t.address} (${t.markets.join(', ')})`;
  const needed = `grouped markets: setApprovalForAll on the conditional tokens to ${adapters.map(named).join('; ')} (the adapter pulls the YES and NO before merging or redeeming them)`;
  if (readings === null) return check('approvals-settlement', title, 'warn', `${plain}; ${needed}: not verified`, 'give --rpc-url to read them on-chain');
  const missing = adapters.filter((t) => {
    const reading = readings.get(t.address.toLowerCase());
    return reading?.ok === true && !reading.approved;
  });
  const unknown = adapters.filter((t) => readings.get(t.address.toLowerCase())?.ok !== true);
  if (missing.length > 0) {
    return check('approvals-settlement', title, 'fail', `${plain}; missing for grouped markets: ${missing.map(named).join('; ')}: their redeem and merge cannot be sent`, 'run `outcome-maker approve --config <file>` with each adapter listed in venue.chain.adapters');
  }
  if (unknown.length > 0) return check('approvals-settlement', title, 'warn', `${plain}; not verified: ${unknown.map(named).join('; ')}`, 'check `isApprovedForAll` on-chain');
  return check('approvals-settlement', title, 'pass', `${plain}; ${needed}: set`);
}

/** What `eth_chainId` of the JSON-RPC endpoint answered, or why it did not. */
export type RpcChainReading = { readonly ok: true; readonly chainId: number } | { readonly ok: false; readonly error: string };

/**
 * The JSON-RPC endpoint every on-chain line reads (`--rpc-url`, else `venue.chain.rpcUrl`): it must answer and serve
 * `venue.chainId`. Another chain's balances and approvals would be read as the wallet's (a fresh wallet there holds
 * nothing): on a wrong chain id, or an endpoint that does not answer, the on-chain lines are not read. `label` names the
 * endpoint without printing a URL that came from the environment (it may carry a provider key). Pure.
 */
export function rpcChainVerdict(label: string, expectedChainId: number, reading: RpcChainReading): CheckResult {
  const title = 'JSON-RPC endpoint';
  if (!reading.ok) {
    return check('rpc', title, 'fail', `${label} does not answer (${reading.error}): the balance, approvals and gas were not read on-chain, and the bot could not redeem or merge through it`, 'check the URL (a JSON-RPC endpoint of Base, e.g. https://mainnet.base.org)', { endpoint: label });
  }
  if (reading.chainId !== expectedChainId) {
    return check(
      'rpc',
      title,
      'fail',
      `${label} serves chain ${reading.chainId}, not venue.chainId ${expectedChainId}: the balance, approvals and gas were not read from it, and the bot's redemptions and merges would refuse it`,
      `point it at a node of chain ${expectedChainId}${expectedChainId === 8453 ? ' (Base)' : ''}`,
      { endpoint: label, chainId: reading.chainId, expectedChainId },
    );
  }
  return check('rpc', title, 'pass', `${label} serves chain ${reading.chainId} (venue.chainId)`, undefined, { endpoint: label, chainId: reading.chainId });
}
