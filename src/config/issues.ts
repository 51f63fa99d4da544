/**
 * Config problems: the typed error every config step throws, and how an offending value is shown.
 *
 * Owns: `ConfigError` (all problems of one file at once, each with a dotted path and the offending value, and the
 * strategy section left to check when the file failed elsewhere)
 * and the rule that a value which looks like a secret, or sits under `credentials`, is never printed.
 */

/** What went wrong, for callers that branch on it (the CLI maps every kind to exit code 2). */
export type ConfigIssueKind =
  | 'file' // the file cannot be read
  | 'yaml' // the text is not valid YAML
  | 'unknown-key'
  | 'wrong-type'
  | 'missing'
  | 'invalid' // right type, unacceptable value (range, pattern, cross-field rule)
  | 'secret-literal' // a secret value written into the file
  | 'environment' // a credential environment variable is unset or malformed
  | 'strategy'; // strategy name or parameters rejected by the strategy registry

export interface ConfigIssue {
  readonly kind: ConfigIssueKind;
  /** Dotted path with [index] for arrays, e.g. `risk.maxPositionPerToken`, `markets.slugs[2]`; '' for the file. */
  readonly path: string;
  readonly message: string;
  /** The offending value, already described for display (quoted, truncated, secrets redacted). */
  readonly value: string;
}

/** The `strategy` section as written, when the file failed elsewhere (so its params can still be checked). */
export interface UncheckedStrategy {
  /** A registered name, or a module path already resolved against the config's directory. */
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    /** Where the config came from (a file path, or a label such as `<inline>`). */
    readonly source: string,
    readonly issues: readonly ConfigIssue[],
    /**
     * The file's strategy section when the file failed but that section is well formed: the strategy's own check of
     * its params (asynchronous: it loads the strategy) can then report its problems with the others
     * (src/config/checked-load.ts).
     */
    readonly uncheckedStrategy: UncheckedStrategy | null = null,
  ) {
    super(formatIssues(source, issues));
  }
}

export function formatIssues(source: string, issues: readonly ConfigIssue[]): string {
  const head = `${source}: ${issues.length} config problem${issues.length === 1 ? '' : 's'}`;
  return [head, ...issues.map((issue) => `  - ${formatIssue(issue)}`)].join('\n');
}

export function formatIssue(issue: ConfigIssue): string {
  const where = issue.path === '' ? '(file)' : issue.path;
  return `${where}: ${issue.message} (got ${issue.value})`;
}

/** `['risk', 'perMarket', 'a-b', 'priceBand', 0]` → `risk.perMarket["a-b"].priceBand[0]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else {
      const key = String(segment);
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) out += out === '' ? key : `.${key}`;
      else out += `[${JSON.stringify(key)}]`;
    }
  }
  return out;
}

const PRIVATE_KEY = /^(0x)?[0-9a-fA-F]{64}$/;
const LONG_HEX = /^(0x)?[0-9a-fA-F]{32,}$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const BASE64ISH = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;

/** A 32-byte hex string: the shape of an EVM private key. */
export function looksLikePrivateKey(text: string): boolean {
  return PRIVATE_KEY.test(text.trim());
}

/**
 * The shapes a credential takes (hex key, UUID token id, base64 secret). Used where only an environment
 * variable NAME is allowed, so a false positive costs nothing: names are upper-case with underscores.
 */
export function looksLikeCredentialLiteral(text: string): boolean {
  const t = text.trim();
  if (LONG_HEX.test(t) || UUID.test(t)) return true;
  return BASE64ISH.test(t) && /[a-z]/.test(t) && /[A-Z0-9+/=]/.test(t);
}

const REDACTED = '[redacted]';

/** Describe any value for an error message: strings quoted and truncated; secrets (or everything, if `redact`) hidden. */
export function describeConfigValue(value: unknown, redact = false): string {
  if (value === undefined) return '(missing)';
  if (redact) return redactedShape(value);
  const safe = redactSecretsDeep(value, 0);
  if (typeof safe === 'string') return truncate(safe === REDACTED ? REDACTED : JSON.stringify(safe));
  if (typeof safe === 'number' || typeof safe === 'boolean' || safe === null) return String(safe);
  if (typeof safe === 'bigint') return `${safe}n`;
  try {
    const json: string | undefined = JSON.stringify(safe);
    return json === undefined ? `(a ${typeof safe})` : truncate(json);
  } catch {
    return Object.prototype.toString.call(safe);
  }
}

function redactedShape(value: unknown): string {
  if (typeof value === 'string') return `${REDACTED} (a string of ${value.length} characters)`;
  if (value === null) return 'null';
  if (Array.isArray(value)) return `${REDACTED} (an array)`;
  return `${REDACTED} (a ${typeof value})`;
}

function redactSecretsDeep(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return looksLikePrivateKey(value) ? REDACTED : value;
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactSecretsDeep(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = redactSecretsDeep(item, depth + 1);
  return out;
}

function truncate(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Read the value at `path` in plain data (undefined when the path does not exist). */
export function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = data;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = Reflect.get(current, segment);
  }
  return current;
}
