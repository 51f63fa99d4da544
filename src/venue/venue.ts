/**
 * Opens the venue the bot trades on: the embedded simulator (paper trading, `venue.kind: sim`) or the live
 * exchange (`venue.kind: live`), and yields the addresses and credentials the client needs.
 *
 * Owns: where secrets come from. Live credentials come only from the environment (names in the config); on the
 * simulator a wallet and API token are generated for the session. Invariant: the returned secrets are handed to
 * the client and to the log censor only; nothing here logs them.
 */
import type { Scheduler } from '../core/clock.js';
import type { AppConfig, SimFlowConfig, SimVenueConfig } from '../config/types.js';
import { resolveSecrets } from '../config/index.js';
import type { ApiCredentials } from '../exchange/auth.js';
import type { RunningSimulator } from '../sim/index.js';
import type { EngineOptions, SyntheticOptions } from '../sim/engine/index.js';

export interface OpenVenue {
  readonly kind: 'sim' | 'live';
  readonly baseUrl: string;
  readonly socketUrl: string;
  readonly socketNamespace: string;
  readonly headerPrefix: string;
  readonly credentials: ApiCredentials;
  readonly privateKey: string;
  readonly onBehalfOf: number | null;
  readonly domainName: string | undefined;
  readonly chainId: number | undefined;
  readonly signatureType: number;
  /** The embedded simulator, when paper trading (tests and the CLI summary read it). */
  readonly simulator: RunningSimulator | null;
  /**
   * Pyth Hermes, when it is a pricing source: its endpoint and the API key (null when the variable is unset: Hermes is
   * then not used, and the bot says so). Never logged.
   */
  readonly hermes: { readonly endpoint: string; readonly apiKey: string | null; readonly apiKeyEnv: string } | null;
  close(): Promise<void>;
}

/** The config's flow settings → the simulator engine's synthetic-trader options (undefined fields keep defaults). */
export function syntheticOptionsOf(flow: SimFlowConfig): SyntheticOptions | false {
  if (!flow.enabled) return false;
  const makers = {
    ...(flow.makerLevels === undefined ? {} : { levels: flow.makerLevels }),
    ...(flow.makerSpreadTicks === undefined ? {} : { spreadTicks: flow.makerSpreadTicks }),
    ...(flow.makerSizeRaw === undefined ? {} : { sizeRaw: flow.makerSizeRaw }),
  };
  const fairValue = {
    ...(flow.volatilityPerSqrtHour === undefined ? {} : { volatilityPerSqrtHour: flow.volatilityPerSqrtHour }),
    ...(flow.jumpsPerHour === undefined ? {} : { jumpsPerHour: flow.jumpsPerHour }),
  };
  return {
    ...(flow.stepMs === undefined ? {} : { stepMs: flow.stepMs }),
    fairValue,
    makers,
    ...(flow.noiseTakersPerMinute === undefined ? {} : { noise: { ratePerMinute: flow.noiseTakersPerMinute } }),
    ...(flow.informedTakersPerMinute === undefined ? {} : { informed: { ratePerMinute: flow.informedTakersPerMinute } }),
  };
}

/**
 * The simulator's crypto world from the config: the chosen tickers' underlyings and their recurring strike ladders,
 * with the reward minimum size and rebate rate the config overrides.
 */
async function cryptoWorldOf(u: SimVenueConfig['underlying'], rewards: SimVenueConfig['rewards']): Promise<NonNullable<EngineOptions['world']>> {
  const { DEFAULT_CRYPTO_MARKETS, DEFAULT_UNDERLYINGS } = await import('../sim/engine/index.js');
  const rewardSettings = {
    ...(rewards.minSizeRaw === undefined ? {} : { minSizeRaw: rewards.minSizeRaw }),
    ...(rewards.rebateRate === undefined ? {} : { rebateRate: rewards.rebateRate }),
  };
  return {
    underlying: { underlyings: DEFAULT_UNDERLYINGS.filter((x) => (u.tickers as readonly string[]).includes(x.ticker)), leadMs: u.informedLeadMs, makerLagMs: u.makerLagMs },
    markets: { ...DEFAULT_CRYPTO_MARKETS, cadences: u.cadences, strikesPerExpiry: u.strikesPerExpiry, rewardSettings },
  };
}

/** Pyth Hermes for a live venue: its endpoint and the key from the environment (null when not a source). */
function hermesOf(config: AppConfig, env: Readonly<Record<string, string | undefined>>): OpenVenue['hermes'] {
  if (!config.pricing.sources.includes('hermes')) return null;
  const key = env[config.pricing.hermes.apiKeyEnv];
  return { endpoint: config.pricing.hermes.endpoint, apiKey: key === undefined || key === '' ? null : key, apiKeyEnv: config.pricing.hermes.apiKeyEnv };
}

/** `clock`: the embedded simulator's clock (the bot's session clock, src/venue/session-clock.ts); default the real one. */
export async function openVenue(config: AppConfig, env: Readonly<Record<string, string | undefined>>, clock?: Scheduler): Promise<OpenVenue> {
  const venue = config.venue;
  if (venue.kind === 'sim') {
    // Loaded only for paper trading: a live bot never loads the simulator (its server and engine are a tenth of the
    // modules a bot process would otherwise load at start).
    const { startSimulator } = await import('../sim/index.js');
    const simulator = await startSimulator({
      ...(clock === undefined ? {} : { clock }),
      port: venue.port,
      seed: venue.seed,
      // The crypto world lists its own strike markets; the generic one `venue.markets` markets.
      ...(venue.world === 'crypto' ? {} : { markets: venue.markets }),
      demo: { usdc: venue.startingCollateralRaw / 1_000_000, serverManagedWallet: venue.serverManagedWallet },
      settlementDelayMs: venue.settlementDelayMs,
      payoutDelayMs: venue.payoutDelayMs,
      synthetic: syntheticOptionsOf(venue.flow),
      priceBand: venue.priceBand,
      ...(venue.world === 'crypto' ? { world: await cryptoWorldOf(venue.underlying, venue.rewards) } : {}),
      ...(venue.feeModel === undefined ? {} : { fees: { model: venue.feeModel } }),
      rewards: {
        ...(venue.rewards.enabled === undefined ? {} : { enabled: venue.rewards.enabled }),
        scoreIntervalSec: venue.rewards.scoreIntervalMs / 1000,
        payoutIntervalSec: venue.rewards.payoutIntervalMs / 1000,
        payoutAtUtcSec: venue.rewards.payoutAtUtcMs / 1000,
      },
      // It shares the bot's event loop: a request it came to late, while the bot was busy (or the machine loaded), is
      // not held against the bot's spacing (measured: 4 and 7 such 429s in 4 s paper runs beside four CPU hogs,
      // whose Retry-After pauses then made the stop overrun its budget).
      forgiveOwnStalls: true,
    });
    const demo = simulator.demoAccount;
    return {
      kind: 'sim',
      baseUrl: simulator.baseUrl,
      socketUrl: simulator.socketUrl,
      socketNamespace: '/markets',
      headerPrefix: simulator.headerPrefix,
      credentials: { tokenId: demo.tokenId, secret: demo.secret },
      privateKey: demo.privateKey,
      onBehalfOf: null,
      domainName: undefined,
      chainId: undefined,
      signatureType: 0,
      simulator,
      // The simulator's Pyth Hermes stand-in (it requires no key unless told to).
      hermes: config.pricing.sources.includes('hermes') ? { endpoint: simulator.hermesUrl, apiKey: 'paper-session', apiKeyEnv: config.pricing.hermes.apiKeyEnv } : null,
      close: () => simulator.close(),
    };
  }
  if (config.credentials === null) throw new Error('credentials: a live venue needs credentials (environment variable names)');
  const secrets = resolveSecrets(config.credentials, env);
  return {
    kind: 'live',
    baseUrl: venue.baseUrl,
    socketUrl: venue.socketUrl,
    socketNamespace: venue.socketNamespace,
    headerPrefix: venue.headerPrefix,
    credentials: { tokenId: secrets.apiTokenId.reveal(), secret: secrets.apiSecret.reveal() },
    privateKey: secrets.privateKey.reveal(),
    onBehalfOf: secrets.onBehalfOf,
    domainName: venue.eip712DomainName,
    chainId: venue.chainId,
    signatureType: venue.signatureType,
    simulator: null,
    hermes: hermesOf(config, env),
    close: async () => undefined,
  };
}
