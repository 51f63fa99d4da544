/**
 * A live config pointed at a running simulator on 127.0.0.1: the venue's URLs, the Hermes stand-in and the JSON-RPC
 * endpoint replaced by the simulator's, and the simulator's demo account put into an environment OBJECT under the
 * config's own credential variable names. Used by `doctor --sim` (a sim config's live view) and `rehearse` (a live
 * config run on the simulator).
 *
 * Owns: that mapping. Invariants: every address of the returned config is the simulator's (127.0.0.1), never the
 * live venue's; the header prefix is the simulator's (the caller starts it with the one it wants); the demo secrets
 * live only in the returned environment object (never the process's), which is the caller's to hand to the bot.
 */
import { chainSchema } from '../config/chain-schema.js';
import { DEFAULT_CREDENTIAL_ENV } from '../config/schema.js';
import type { AppConfig, CredentialsConfig, Environment, LiveVenueConfig } from '../config/index.js';
import type { RunningSimulator } from '../sim/index.js';

/** The live venue block of `config` (the defaults for a sim config), every address the simulator's. */
function simulatorVenue(config: AppConfig, simulator: RunningSimulator): LiveVenueConfig {
  const base = config.venue.kind === 'live' ? config.venue : null;
  const rpcUrl = `${simulator.baseUrl}/_sim/rpc`;
  return {
    kind: 'live',
    baseUrl: simulator.baseUrl,
    socketUrl: simulator.socketUrl,
    socketNamespace: '/markets',
    headerPrefix: simulator.headerPrefix,
    chainId: base?.chainId ?? 8453,
    eip712DomainName: base?.eip712DomainName ?? 'Limitless CTF Exchange',
    signatureType: base?.signatureType ?? 0,
    priceBand: config.venue.priceBand,
    units: config.venue.units,
    chain: base === null ? chainSchema.parse({ rpcUrl }) : { ...base.chain, rpcUrl: { kind: 'url', url: rpcUrl } },
  };
}

/**
 * `config` as a live config on `simulator`, and `env` with the demo account (and the Hermes stand-in's key) under the
 * config's credential names (the defaults for a sim config, which names none).
 */
export function liveViewOnSimulator(config: AppConfig, simulator: RunningSimulator, env: Environment): { readonly config: AppConfig; readonly env: Environment } {
  const credentials: CredentialsConfig = config.credentials ?? { ...DEFAULT_CREDENTIAL_ENV };
  const demo = simulator.demoAccount;
  return {
    config: {
      ...config,
      venue: simulatorVenue(config, simulator),
      credentials,
      pricing: { ...config.pricing, hermes: { ...config.pricing.hermes, endpoint: simulator.hermesUrl } },
    },
    env: {
      ...env,
      [credentials.apiTokenId]: demo.tokenId,
      [credentials.apiSecret]: demo.secret,
      [credentials.privateKey]: demo.privateKey,
      // The stand-in asks for no key unless told to; a value keeps Hermes a source as configured.
      [config.pricing.hermes.apiKeyEnv]: 'paper-session',
    },
  };
}
