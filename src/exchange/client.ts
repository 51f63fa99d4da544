/**
 * Composition of the exchange client: credentials from the environment, then transport + signer + API wired
 * together, with the profile id (ownerId) and fee rate read from GET /profiles/{address} at connect time.
 *
 * Owns: which environment variables hold secrets (names configurable, values only from the environment) and the
 * start-up order. Invariant: secret values never appear in an error; a missing or malformed one names the variable.
 */
import type { ApiCredentials } from './auth.js';
import { ExchangeApi } from './api.js';
import { checkProfileId } from './delegation.js';
import { RequestInputError } from './errors.js';
import { HttpTransport, type HttpTransportOptions } from './http.js';
import { OrderSigner, type OrderSignerOptions } from './signer.js';
import type { BookSizeUnit, Profile } from './wire.js';
import type { HistoryAmounts } from './history-amounts.js';

export interface CredentialEnvNames {
  readonly apiTokenId: string;
  readonly apiSecret: string;
  readonly privateKey: string;
}

export const DEFAULT_CREDENTIAL_ENV: CredentialEnvNames = {
  apiTokenId: 'OM_API_TOKEN_ID',
  apiSecret: 'OM_API_SECRET',
  privateKey: 'OM_PRIVATE_KEY',
};

export interface EnvCredentials {
  readonly credentials: ApiCredentials;
  readonly privateKey: string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Reads the API token id, API secret (base64) and private key from `env` under the given variable names. */
export function credentialsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  names: CredentialEnvNames = DEFAULT_CREDENTIAL_ENV,
): EnvCredentials {
  const read = (name: string): string => {
    const value = env[name]?.trim();
    if (!value) throw new RequestInputError(`env.${name}`, '[unset]', 'is not set');
    return value;
  };
  const tokenId = read(names.apiTokenId);
  const secret = read(names.apiSecret);
  if (!BASE64.test(secret)) throw new RequestInputError(`env.${names.apiSecret}`, '[redacted]', 'is not base64');
  const privateKey = read(names.privateKey);
  return { credentials: { tokenId, secret }, privateKey };
}

export interface ConnectOptions {
  readonly baseUrl: string;
  readonly credentials: ApiCredentials;
  readonly headerPrefix?: string;
  /** Signing key and order options (privateKey or account, signatureType, maker, domainName, chainId, priceBand). */
  readonly signer: OrderSignerOptions;
  /** Transport tuning: limits, retry, timeoutMs, fetch, clocks, observer... */
  readonly transport?: Omit<HttpTransportOptions, 'baseUrl' | 'credentials' | 'headerPrefix'>;
  /** Skip the profile lookup when the profile id is already known. */
  readonly profileId?: number;
  readonly onBehalfOf?: number;
  readonly bookSizeUnit?: BookSizeUnit;
  /** The unit of GET /portfolio/history amounts (./history-amounts.ts), shared by every read of the run. */
  readonly historyAmounts?: HistoryAmounts;
  /** Wraps the profile read (e.g. retries while the account is busy: src/venue/startup-retry.ts). */
  readonly startupRead?: <T>(read: () => Promise<T>) => Promise<T>;
  /** Told the transport as soon as it exists (before the profile read), so a caller can close it while connecting. */
  readonly onTransport?: (transport: HttpTransport) => void;
}

export interface ExchangeClient {
  readonly transport: HttpTransport;
  readonly signer: OrderSigner;
  readonly api: ExchangeApi;
  /** The maker's profile when it was looked up; null when `profileId` was given. */
  readonly profile: Profile | null;
}

/**
 * Builds the client. Unless `profileId` is given, reads GET /profiles/{maker} for the ownerId and applies the
 * profile's rank.feeRateBps to the signer.
 */
export async function connectExchange(options: ConnectOptions): Promise<ExchangeClient> {
  const signer = new OrderSigner(options.signer);
  const transport = new HttpTransport({
    ...options.transport,
    baseUrl: options.baseUrl,
    credentials: options.credentials,
    ...(options.headerPrefix === undefined ? {} : { headerPrefix: options.headerPrefix }),
  });
  options.onTransport?.(transport);
  const common = {
    transport,
    ...(options.onBehalfOf === undefined ? {} : { onBehalfOf: options.onBehalfOf }),
    ...(options.bookSizeUnit === undefined ? {} : { bookSizeUnit: options.bookSizeUnit }),
    ...(options.historyAmounts === undefined ? {} : { historyAmounts: options.historyAmounts }),
  };
  if (options.profileId !== undefined) {
    return { transport, signer, api: new ExchangeApi({ ...common, profileId: checkProfileId('profileId', options.profileId) }), profile: null };
  }
  // A bot joining an account other bots keep busy may meet 429s: the caller's start-up patience wraps the read.
  const profileApi = new ExchangeApi(common);
  const patience = options.startupRead ?? (<T>(read: () => Promise<T>) => read());
  const profile = await patience(() => profileApi.getProfile(signer.makerAddress));
  signer.setFeeRateBps(profile.feeRateBps);
  return { transport, signer, api: new ExchangeApi({ ...common, profileId: profile.id }), profile };
}
