/**
 * The chain port's options from a live config and the environment: the wallet from the private key's environment
 * variable (credentials.privateKey, as `approve` reads it), the JSON-RPC endpoint from venue.chain.rpcUrl (a URL,
 * or the variable that holds one), the contracts, the gas-price ceiling and the time-outs.
 *
 * Owns: that mapping. Invariants: the key is read only from the environment and stays inside the viem account; an
 * RPC URL read from the environment is marked secret (messages name it `from VAR`); a sim config, a missing key or
 * a missing endpoint is a ChainPortConfigError naming the setting, before anything is read from the chain.
 */
import { privateKeyToAccount } from 'viem/accounts';
import { ChainEndpointError, resolveRpcEndpoint } from './approval-chain.js';
import { ConfigError, resolvePrivateKey, type AppConfig, type Environment } from '../config/index.js';
import { DEFAULT_CREDENTIAL_ENV } from '../config/schema.js';
import type { Logger } from '../log.js';
import { createChainCapitalPort, type ChainCapitalPort, type ChainCapitalPortOptions } from './chain-port.js';
import type { Hex } from './port.js';

export class ChainPortConfigError extends Error {
  override readonly name = 'ChainPortConfigError';
}

export function chainCapitalPortOptions(config: AppConfig, env: Environment, logger: Logger, rpcUrlFlag?: string): ChainCapitalPortOptions {
  if (config.venue.kind !== 'live') throw new ChainPortConfigError('on-chain settlement needs a live venue (venue.kind: live); on the simulator the engine settles');
  const chain = config.venue.chain;
  let endpoint;
  let key;
  try {
    endpoint = resolveRpcEndpoint(rpcUrlFlag, chain.rpcUrl, env);
    key = resolvePrivateKey(config.credentials ?? DEFAULT_CREDENTIAL_ENV, env);
  } catch (error) {
    if (error instanceof ChainEndpointError || error instanceof ConfigError) throw new ChainPortConfigError(`on-chain settlement: ${error.message}`);
    throw error;
  }
  const account = privateKeyToAccount(key.reveal() as Hex);
  return {
    rpcUrl: endpoint.url,
    rpcLabel: endpoint.label,
    chainId: config.venue.chainId,
    account,
    contracts: { usdc: chain.usdc as Hex, conditionalTokens: chain.conditionalTokens as Hex },
    maxGasPriceWei: BigInt(chain.maxGasPriceWei),
    receiptTimeoutMs: chain.receiptTimeoutMs,
    rpcTimeoutMs: config.rateLimits.timeoutMs,
    logger,
    secrets: [key.reveal(), key.reveal().slice(2), ...(endpoint.secret ? [endpoint.url] : [])],
  };
}

/**
 * The bot's chain port, or why it has none: built for a live venue whose wallet the venue will not redeem for
 * (`venue.serverManagedWallet: false`) when capital is on and the run sends orders; null, with the reason, otherwise.
 * A config that cannot build it (no RPC endpoint, its variable unset, no key) is a reason, never a failed start: the
 * capital core stays off, said once as a WARN by the caller, and quoting goes on.
 */
export function liveChainPort(
  config: AppConfig,
  env: Environment,
  logger: Logger,
  options: { readonly dryRun: boolean },
): { readonly port: ChainCapitalPort; readonly reason: null } | { readonly port: null; readonly reason: string } {
  if (config.venue.kind !== 'live') return { port: null, reason: 'paper: the simulator engine settles' };
  if (config.capital.mode === 'off') return { port: null, reason: 'capital.mode: off' };
  if (options.dryRun) return { port: null, reason: 'a dry run sends no transaction' };
  if (config.venue.chain.rpcUrl === null) return { port: null, reason: 'venue.chain.rpcUrl is not set: winnings and complete sets stay in their tokens until it is' };
  try {
    return { port: createChainCapitalPort(chainCapitalPortOptions(config, env, logger)), reason: null };
  } catch (error) {
    if (error instanceof ChainPortConfigError) return { port: null, reason: error.message };
    throw error;
  }
}
