/**
 * Credentials the venue refuses: the start-up check (one signed read before anything is composed: a 401/403 stops
 * `run` with exit 2 and one error line naming the likely cause) and the run-time count (401/403 answers and feed
 * refusals in a row; at `risk.maxAuthRefusals` placements stop).
 *
 * Owns: `likelyCredentialCause` (pure: the venue's answer → which setting to look at first), `CredentialsRefusedError`
 * and `AuthRefusalCounter`. Invariants: never reads or logs a secret (only the header prefix, which is not one, and
 * the venue's own words, already scrubbed by the transport); the cause is a reading of the answer's text, never a
 * guess presented as fact: every candidate is named, the likeliest first.
 */
import { ExchangeHttpError } from '../exchange/errors.js';

export type RefusalSource = 'rest' | 'feed';

/** What a refusal is read from: its HTTP status (null on the feed) and the venue's words. */
export interface RefusalReading {
  readonly status: number | null;
  readonly message: string;
  readonly headerPrefix: string;
}

/** The settings to check, the likeliest first, as one sentence. Pure. */
export function likelyCredentialCause(reading: RefusalReading): string {
  const text = reading.message;
  const prefix = reading.headerPrefix;
  const expected = /\b([a-z][a-z0-9]*)-api-key\b/i.exec(text)?.[1];
  if (expected !== undefined && expected.toLowerCase() !== prefix.toLowerCase()) {
    return `header prefix: the venue asks for ${expected}-api-key headers, the bot sends ${prefix}-api-key (venue.headerPrefix: ${prefix}); set venue.headerPrefix: ${expected}`;
  }
  if (/missing authentication header|missing .*header/i.test(text)) {
    return `header prefix: the venue did not find its authentication headers; the bot sends ${prefix}-api-key, ${prefix}-timestamp, ${prefix}-signature (check venue.headerPrefix), then the token id`;
  }
  if (/timestamp|clock|expired|recv ?window/i.test(text)) return 'clock: the signed timestamp is outside the venue\'s window (check the machine\'s clock), then the secret';
  if (/signature/i.test(text)) return 'secret: the signature does not match (check the API secret: base64, the whole value), then the token id';
  if (/token|api key|api-key/i.test(text)) return 'token: the venue does not know this API token id (check the token id variable, and that the token was not revoked)';
  if (reading.status === 403 || /forbidden|scope|permission/i.test(text)) {
    return 'scope: the token is known but not allowed this call (check on the exchange\'s API-token page that it has the `trading` scope)';
  }
  return `check in this order: venue.headerPrefix (${prefix}), the API token id, the API secret, the clock; \`outcome-maker doctor --config <file>\` checks each`;
}

/** The venue refused the bot's credentials: the run cannot trade. Exit code 2 (a configuration error). */
export class CredentialsRefusedError extends Error {
  override readonly name = 'CredentialsRefusedError';
  readonly code = 'CREDENTIALS_REFUSED';
  readonly exitCode = 2;
  constructor(
    readonly source: RefusalSource,
    readonly status: number | null,
    readonly likelyCause: string,
    detail: string,
  ) {
    const where = source === 'rest' ? `the venue answered ${status ?? '?'} to a signed request` : 'the market feed refused the authentication';
    super(`credentials refused: ${where} (${detail.slice(0, 200)}); likely cause: ${likelyCause}; nothing was placed`);
  }
}

/** The reading of an error thrown by a signed request: a CredentialsRefusedError for a 401/403, else null. */
export function credentialsRefusal(error: unknown, headerPrefix: string): CredentialsRefusedError | null {
  if (!(error instanceof ExchangeHttpError) || (error.status !== 401 && error.status !== 403)) return null;
  return new CredentialsRefusedError('rest', error.status, likelyCredentialCause({ status: error.status, message: error.message, headerPrefix }), error.message);
}

/**
 * The start-up check: one signed read (`read`, e.g. GET /portfolio/positions). A 401/403 throws CredentialsRefusedError;
 * any other failure is left to the start-up's own handling (the read is retried by the caller's policy).
 */
export async function checkCredentials(read: () => Promise<unknown>, headerPrefix: string): Promise<void> {
  try {
    await read();
  } catch (error) {
    // Only a refusal stops the start here. Any other failure (an answer that fails validation: the venue accepted the
    // credentials and answered; a 5xx; no answer) is not this check's to judge: the reads that follow report it.
    const refusal = credentialsRefusal(error, headerPrefix);
    if (refusal !== null) throw refusal;
  }
}

/** Endpoints whose requests are signed: a 2xx answer there proves the credentials accepted. */
const SIGNED_ENDPOINT = /^(GET \/markets\/\{slug\}\/user-orders|POST \/orders|DELETE \/orders|POST \/orders\/|GET \/portfolio|POST \/portfolio|GET \/auth)/;

export interface AuthRefusalCounterOptions {
  /** Refusals in a row that stop placements. */
  readonly limit: number;
  /** Each refusal, counted (the metric). */
  readonly onRefusal: (source: RefusalSource) => void;
  /** Once per run of refusals reaching the limit. */
  readonly onLimit: (count: number, source: RefusalSource) => void;
}

/**
 * Refusals in a row, mid-run: 401/403 answers of the REST transport and feed refusals; a 2xx answer of a signed
 * endpoint ends the run of refusals. At `limit`, `onLimit` fires once (until the credentials are accepted again).
 */
export class AuthRefusalCounter {
  private inARow = 0;
  private fired = false;

  constructor(private readonly options: AuthRefusalCounterOptions) {}

  /** One answer of the REST transport (the observer's onRequestEnd). */
  answer(endpoint: string, status: number | 'timeout' | 'network'): void {
    if (status === 401 || status === 403) {
      this.refused('rest');
      return;
    }
    if (typeof status === 'number' && status >= 200 && status < 300 && SIGNED_ENDPOINT.test(endpoint)) this.accepted();
  }

  /** The feed refused its authentication. */
  feedRefused(): void {
    this.refused('feed');
  }

  /** The credentials were accepted (a signed answer, or the feed authenticated again). */
  accepted(): void {
    this.inARow = 0;
    this.fired = false;
  }

  get refusalsInARow(): number {
    return this.inARow;
  }

  private refused(source: RefusalSource): void {
    this.inARow += 1;
    this.options.onRefusal(source);
    if (this.inARow >= this.options.limit && !this.fired) {
      this.fired = true;
      this.options.onLimit(this.inARow, source);
    }
  }
}
