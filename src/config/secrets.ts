/**
 * Credentials: the config holds only environment-variable NAMES; this module reads the values from the
 * environment, checks their shape, and wraps them so they cannot leak.
 *
 * Owns: `SecretValue` (prints as `[secret NAME]` through toString, JSON and util.inspect; the value comes
 * out only through `reveal()`), `resolveSecrets`, and `credentialStatus` (which variables are set, for
 * `check-config`). Invariant: no function here puts a secret value into an error message or a return value
 * other than a SecretValue.
 */
import { inspect } from 'node:util';
import { ConfigError, type ConfigIssue } from './issues.js';
import type { CredentialsConfig } from './types.js';

/** The environment, as a plain map (process.env or a test's fake). */
export type Environment = Readonly<Record<string, string | undefined>>;

export class SecretValue {
  readonly #value: string;
  constructor(
    /** The environment variable the value came from (safe to print). */
    readonly envName: string,
    value: string,
  ) {
    this.#value = value;
  }
  /** The secret itself: pass it straight to the signer or HMAC; never log it. */
  reveal(): string {
    return this.#value;
  }
  toString(): string {
    return `[secret ${this.envName}]`;
  }
  toJSON(): string {
    return this.toString();
  }
  [inspect.custom](): string {
    return this.toString();
  }
}

export interface ResolvedCredentials {
  /** Token id, sent in `{prefix}-api-key`. Treated as a secret: it identifies the account. */
  readonly apiTokenId: SecretValue;
  /** Base64 HMAC secret as issued by the venue. */
  readonly apiSecret: SecretValue;
  /** 0x-prefixed 32-byte hex private key (normalised: prefix added, lower-case). */
  readonly privateKey: SecretValue;
  /** Managed sub-account profile id, or null when acting for the token's own profile. */
  readonly onBehalfOf: number | null;
}

const MAX_PROFILE_ID = 2_147_483_647;

/** The raw values of every resolved secret, for the log censor (`LogCensor.addSecret`). */
export function secretValues(credentials: ResolvedCredentials): string[] {
  const key = credentials.privateKey.reveal();
  return [credentials.apiTokenId.reveal(), credentials.apiSecret.reveal(), key, key.slice(2)];
}

/**
 * Only the signing key (for on-chain commands such as `approve`, which need no API token). Throws ConfigError (kind
 * `environment`) naming the variable, never its value.
 */
export function resolvePrivateKey(credentials: CredentialsConfig, env: Environment, source = 'environment'): SecretValue {
  const name = credentials.privateKey;
  const value = env[name];
  const path = 'credentials.privateKey';
  if (value === undefined || value === '') throw new ConfigError(source, [{ kind: 'environment', path, message: `environment variable ${name} is not set`, value: JSON.stringify(name) }]);
  const problem = checkPrivateKey(value);
  if (problem !== null) throw new ConfigError(source, [{ kind: 'environment', path, message: `environment variable ${name} ${problem}`, value: '[redacted]' }]);
  return new SecretValue(name, normalisePrivateKey(value));
}

/**
 * Read and check every credential. All problems are reported together; messages name the variable, never
 * its value. Throws ConfigError (kind `environment`).
 */
export function resolveSecrets(credentials: CredentialsConfig, env: Environment, source = 'environment'): ResolvedCredentials {
  const issues: ConfigIssue[] = [];
  const read = (field: string, name: string, check: (value: string) => string | null): string | null => {
    const value = env[name];
    const path = `credentials.${field}`;
    if (value === undefined || value === '') {
      issues.push({ kind: 'environment', path, message: `environment variable ${name} is not set`, value: JSON.stringify(name) });
      return null;
    }
    const problem = check(value);
    if (problem !== null) {
      issues.push({ kind: 'environment', path, message: `environment variable ${name} ${problem}`, value: '[redacted]' });
      return null;
    }
    return value;
  };

  const tokenId = read('apiTokenId', credentials.apiTokenId, checkTokenId);
  const secret = read('apiSecret', credentials.apiSecret, checkBase64Secret);
  const key = read('privateKey', credentials.privateKey, checkPrivateKey);
  let onBehalfOf: number | null = null;
  const delegation = credentials.onBehalfOf;
  if (delegation?.kind === 'id') onBehalfOf = delegation.id;
  if (delegation?.kind === 'env') {
    const text = read('onBehalfOf', delegation.env, (value) => (parseProfileId(value) === null ? `is not a profile id (an integer 1 to ${MAX_PROFILE_ID})` : null));
    onBehalfOf = text === null ? null : parseProfileId(text);
  }

  if (issues.length > 0 || tokenId === null || secret === null || key === null) throw new ConfigError(source, issues);
  return {
    apiTokenId: new SecretValue(credentials.apiTokenId, tokenId.trim()),
    apiSecret: new SecretValue(credentials.apiSecret, secret.trim()),
    privateKey: new SecretValue(credentials.privateKey, normalisePrivateKey(key)),
    onBehalfOf,
  };
}

/** Every credential problem (unset or malformed variable), without resolving: for start-up checks. */
export function credentialIssues(credentials: CredentialsConfig | null, env: Environment): readonly ConfigIssue[] {
  if (credentials === null) return [];
  try {
    resolveSecrets(credentials, env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
}

export interface CredentialStatus {
  readonly field: 'apiTokenId' | 'apiSecret' | 'privateKey' | 'onBehalfOf';
  readonly env: string;
  readonly set: boolean;
}

/** Which credential variables are set (never their values), for `check-config`. */
export function credentialStatus(credentials: CredentialsConfig, env: Environment): CredentialStatus[] {
  const isSet = (name: string): boolean => (env[name] ?? '') !== '';
  const rows: CredentialStatus[] = [
    { field: 'apiTokenId', env: credentials.apiTokenId, set: isSet(credentials.apiTokenId) },
    { field: 'apiSecret', env: credentials.apiSecret, set: isSet(credentials.apiSecret) },
    { field: 'privateKey', env: credentials.privateKey, set: isSet(credentials.privateKey) },
  ];
  if (credentials.onBehalfOf?.kind === 'env') {
    rows.push({ field: 'onBehalfOf', env: credentials.onBehalfOf.env, set: isSet(credentials.onBehalfOf.env) });
  }
  return rows;
}

function checkTokenId(value: string): string | null {
  const t = value.trim();
  if (t.length > 256) return 'is too long for a token id';
  return /^[\x21-\x7e]+$/.test(t) ? null : 'contains whitespace or non-printable characters';
}

function checkBase64Secret(value: string): string | null {
  const t = value.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(t) || t.length % 4 !== 0) return 'is not standard base64 (the secret as the venue issued it)';
  if (Buffer.from(t, 'base64').length < 16) return 'decodes to fewer than 16 bytes';
  return null;
}

function checkPrivateKey(value: string): string | null {
  return /^(0x)?[0-9a-fA-F]{64}$/.test(value.trim()) ? null : 'is not a 32-byte hex private key';
}

function normalisePrivateKey(value: string): string {
  const hex = value.trim().replace(/^0x/, '').toLowerCase();
  return `0x${hex}`;
}

function parseProfileId(text: string): number | null {
  if (!/^[0-9]{1,10}$/.test(text.trim())) return null;
  const id = Number(text.trim());
  return id >= 1 && id <= MAX_PROFILE_ID ? id : null;
}
