/**
 * Server side of exchange-facts §4: verification of the three HMAC headers against the registered API
 * tokens, reusing the client's message composition (src/exchange/auth.ts) so both sides agree by
 * construction.
 *
 * Owns: the token registry (token id → secret, scopes, profile) and the verdict for one request.
 * Invariants: the timestamp must be ISO-8601 and within `windowMs` (30 s) of server time in both
 * directions; comparison is constant-time; no failure message ever contains the secret or the expected
 * signature.
 */
import { authHeaderNames, computeSignature, signaturesEqual, signingMessage } from '../../exchange/auth.js';

export const KNOWN_SCOPES = ['trading', 'delegated_signing'] as const;
export type ApiScope = (typeof KNOWN_SCOPES)[number];

export const TIMESTAMP_WINDOW_MS = 30_000;

export interface ApiTokenSpec {
  readonly tokenId: string;
  /** Base64 secret, as the venue issues it. */
  readonly secret: string;
  readonly scopes: readonly ApiScope[];
  readonly profileId: number;
}

export interface ApiToken {
  readonly tokenId: string;
  readonly scopes: ReadonlySet<ApiScope>;
  readonly profileId: number;
}

export class TokenRegistryError extends Error {
  override readonly name = 'TokenRegistryError';
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${field}: ${reason} (got ${JSON.stringify(value)})`);
  }
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export class ApiTokenRegistry {
  private readonly tokens = new Map<string, { token: ApiToken; secret: string }>();

  constructor(specs: readonly ApiTokenSpec[] = []) {
    for (const spec of specs) this.add(spec);
  }

  add(spec: ApiTokenSpec): ApiToken {
    if (spec.tokenId.length === 0) throw new TokenRegistryError('tokenId', spec.tokenId, 'must not be empty');
    if (this.tokens.has(spec.tokenId)) throw new TokenRegistryError('tokenId', spec.tokenId, 'is registered twice');
    // The secret's value is never echoed: only its length is described.
    if (!BASE64.test(spec.secret) || Buffer.from(spec.secret, 'base64').length < 16) {
      throw new TokenRegistryError('secret', `<${spec.secret.length} chars>`, 'must be base64 of at least 16 bytes');
    }
    if (!Number.isSafeInteger(spec.profileId) || spec.profileId < 1) throw new TokenRegistryError('profileId', spec.profileId, 'must be an integer >= 1');
    for (const scope of spec.scopes) {
      if (!KNOWN_SCOPES.includes(scope)) throw new TokenRegistryError('scopes', scope, `unknown scope (known: ${KNOWN_SCOPES.join(', ')})`);
    }
    const token: ApiToken = { tokenId: spec.tokenId, scopes: new Set(spec.scopes), profileId: spec.profileId };
    this.tokens.set(spec.tokenId, { token, secret: spec.secret });
    return token;
  }

  has(tokenId: string): boolean {
    return this.tokens.has(tokenId);
  }

  get(tokenId: string): ApiToken | undefined {
    return this.tokens.get(tokenId)?.token;
  }

  all(): ApiToken[] {
    return [...this.tokens.values()].map((t) => t.token);
  }

  /** Verifies `signature` over the request; the secret stays inside the registry. */
  verify(tokenId: string, timestamp: string, method: string, pathWithQuery: string, body: string, signature: string): boolean {
    const entry = this.tokens.get(tokenId);
    if (!entry) return false;
    const expected = computeSignature(entry.secret, signingMessage(timestamp, method, pathWithQuery, body));
    return signaturesEqual(expected, signature);
  }
}

export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface HmacRequest {
  readonly headers: HeaderBag;
  readonly method: string;
  readonly pathWithQuery: string;
  readonly body: string;
  readonly nowMs: number;
}

export type HmacVerdict =
  | { readonly ok: true; readonly token: ApiToken }
  | { readonly ok: false; readonly reason: 'missing_headers' | 'unknown_token' | 'bad_timestamp' | 'stale_timestamp' | 'bad_signature'; readonly message: string };

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

export function headerValue(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value[0];
}

/** True when the request carries any of the three auth headers (a public caller carries none). */
export function hasAuthHeaders(headers: HeaderBag, prefix: string): boolean {
  const names = authHeaderNames(prefix);
  return [names.apiKey, names.timestamp, names.signature].some((n) => headerValue(headers, n) !== undefined);
}

export function verifyHmac(registry: ApiTokenRegistry, prefix: string, request: HmacRequest, windowMs: number = TIMESTAMP_WINDOW_MS): HmacVerdict {
  const names = authHeaderNames(prefix);
  const tokenId = headerValue(request.headers, names.apiKey);
  const timestamp = headerValue(request.headers, names.timestamp);
  const signature = headerValue(request.headers, names.signature);
  if (!tokenId || !timestamp || !signature) {
    const missing = [
      tokenId ? null : names.apiKey,
      timestamp ? null : names.timestamp,
      signature ? null : names.signature,
    ].filter((n): n is string => n !== null);
    return { ok: false, reason: 'missing_headers', message: `Missing authentication header(s): ${missing.join(', ')}` };
  }
  const token = registry.get(tokenId);
  if (!token) return { ok: false, reason: 'unknown_token', message: 'Invalid API token' };
  const tsMs = ISO_8601.test(timestamp) ? Date.parse(timestamp) : Number.NaN;
  if (!Number.isFinite(tsMs)) return { ok: false, reason: 'bad_timestamp', message: `${names.timestamp} must be an ISO-8601 timestamp` };
  if (Math.abs(request.nowMs - tsMs) > windowMs) {
    return { ok: false, reason: 'stale_timestamp', message: `${names.timestamp} is more than ${windowMs / 1000} s away from server time` };
  }
  if (!registry.verify(tokenId, timestamp, request.method, request.pathWithQuery, request.body, signature)) {
    return { ok: false, reason: 'bad_signature', message: 'Invalid signature' };
  }
  return { ok: true, token };
}
