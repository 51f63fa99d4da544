/**
 * Loading a bot's config: file → YAML → secret scan → schema → deeply frozen `AppConfig`.
 *
 * Owns: turning every failure (missing file, bad YAML, duplicate key, unknown key, wrong type, missing
 * field, secret written into the file, cross-field rule) into one ConfigError that lists every problem with
 * its dotted path and its value (redacted when it is, or may be, a secret). Pure apart from reading the file;
 * nothing here touches the network, so a config that fails here has made no request.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, resolve } from 'node:path';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document } from 'yaml';
import type { z } from 'zod';
import {
  ConfigError,
  describeConfigValue,
  formatPath,
  looksLikePrivateKey,
  valueAt,
  type ConfigIssue,
  type ConfigIssueKind,
  type UncheckedStrategy,
} from './issues.js';
import { appConfigSchema, isSecretLiteralParams, isStrategyPath } from './schema.js';
import { nearestKey, validKeysAt } from './key-suggestion.js';
import { errorText } from '../core/errors.js';
import type { AppConfig } from './types.js';

export interface ParseOptions {
  /** Label used in messages: the file path, or e.g. `<inline>`. */
  readonly source: string;
  /** Directory that relative paths in the config are resolved against (the config file's directory). */
  readonly baseDir: string;
  /** Ledger path when the config names none (default: `<baseDir>/outcome-maker.db`). */
  readonly defaultDatabasePath?: string;
}

/** Read, parse and validate a config file. Throws ConfigError listing every problem. */
export function loadConfigFile(path: string): AppConfig {
  const absolute = resolve(path);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'unknown';
    const reason = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory, not a file' : `cannot read the file (${code})`;
    throw new ConfigError(path, [{ kind: 'file', path: '', message: reason, value: JSON.stringify(absolute) }]);
  }
  const stem = basename(absolute, extname(absolute));
  return parseConfigText(text, { source: path, baseDir: dirname(absolute), defaultDatabasePath: resolve(dirname(absolute), `${stem}.db`) });
}

/** Parse YAML text and validate it. Throws ConfigError. */
export function parseConfigText(text: string, options: ParseOptions): AppConfig {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, lineCounter });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      options.source,
      doc.errors.map((error) => ({
        kind: 'yaml' as const,
        path: '',
        message: `invalid YAML at line ${error.linePos?.[0].line ?? '?'}, column ${error.linePos?.[0].col ?? '?'}: ${firstLine(error.message)}`,
        value: JSON.stringify(lineOf(text, error.linePos?.[0].line)),
      })),
    );
  }
  const secretIssues = scanForSecretLiterals(doc, text, lineCounter);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new ConfigError(options.source, [
      { kind: 'yaml', path: '', message: `invalid YAML: ${firstLine(errorText(error))}`, value: '(document)' },
    ]);
  }
  return validate(data, options, secretIssues);
}

/** Validate already-parsed data (e.g. built by a test). Throws ConfigError. */
export function parseConfig(data: unknown, options: ParseOptions): AppConfig {
  return validate(data, options, scanPlainDataForSecrets(data));
}

function validate(data: unknown, options: ParseOptions, secretIssues: readonly ConfigIssue[]): AppConfig {
  if (data === null || data === undefined || typeof data !== 'object' || Array.isArray(data)) {
    throw new ConfigError(options.source, [
      ...secretIssues,
      {
        kind: data === null || data === undefined ? 'missing' : 'wrong-type',
        path: '',
        message: 'the config must be a YAML mapping (key: value lines)',
        value: describeConfigValue(data),
      },
    ]);
  }
  const schema = appConfigSchema({
    resolvePath: (path) => (isAbsolute(path) ? path : resolve(options.baseDir, path)),
    defaultDatabasePath: options.defaultDatabasePath ?? resolve(options.baseDir, 'outcome-maker.db'),
  });
  const result = schema.safeParse(data);
  const secretPaths = new Set(secretIssues.map((issue) => issue.path));
  const lookup = normaliseForLookup(data);
  const schemaIssues = result.success ? [] : result.error.issues.flatMap((issue) => toConfigIssues(issue, lookup, schema)).filter((issue) => !secretPaths.has(issue.path));
  const issues = [...secretIssues, ...schemaIssues];
  if (issues.length > 0 || !result.success) throw new ConfigError(options.source, issues, uncheckedStrategy(data, issues, options));
  return deepFreeze(result.data);
}

/**
 * The strategy section of a file that failed elsewhere, when that section itself is well formed (a name; params a
 * mapping or absent) and no problem was found in it: its params are then checked by the strategy too, so every
 * problem of the file is reported at once. A module path is resolved against the config's directory, as the schema
 * does.
 */
function uncheckedStrategy(data: object, issues: readonly ConfigIssue[], options: ParseOptions): UncheckedStrategy | null {
  if (issues.some((issue) => issue.path === 'strategy' || issue.path.startsWith('strategy.'))) return null;
  const section: unknown = Reflect.get(data, 'strategy');
  if (section === null || typeof section !== 'object' || Array.isArray(section)) return null;
  const name: unknown = Reflect.get(section, 'name');
  const params: unknown = Reflect.get(section, 'params') ?? {};
  if (typeof name !== 'string' || name === '' || params === null || typeof params !== 'object' || Array.isArray(params)) return null;
  return {
    name: isStrategyPath(name) ? (isAbsolute(name) ? name : resolve(options.baseDir, name)) : name,
    params: Object.fromEntries(Object.entries(params)),
  };
}

// ---------------------------------------------------------------------------------------------- zod issues

/** The data as the schema sees it after its preprocessing (a bare `markets:` list means `markets.slugs`). */
function normaliseForLookup(data: object): object {
  const markets: unknown = Reflect.get(data, 'markets');
  return Array.isArray(markets) ? { ...data, markets: { slugs: markets } } : data;
}

function toConfigIssues(issue: z.core.$ZodIssue, data: unknown, schema: z.core.$ZodType): ConfigIssue[] {
  const path = [...issue.path];
  // A Redis URL may carry a password (rateLimits.shared.redis): never echoed either.
  const redact = path[0] === 'credentials' || (path[0] === 'rateLimits' && path[1] === 'shared');
  const make = (kind: ConfigIssueKind, message: string, at: PropertyKey[] = path): ConfigIssue => ({
    kind,
    path: formatPath(at),
    message,
    value: describeConfigValue(valueAt(data, at), redact),
  });
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => {
        // The nearest valid key at that place, as the CLI does for its options.
        const meant = nearestKey(key, validKeysAt(schema, path));
        return make('unknown-key', meant === null ? 'unknown key' : `unknown key (did you mean ${formatPath([...path, meant])}?)`, [...path, key]);
      });
    case 'invalid_type': {
      const value = valueAt(data, path);
      return [value === undefined ? make('missing', 'required') : make('wrong-type', `expected ${article(issue.expected)}, got ${typeName(value)}`)];
    }
    case 'invalid_union': {
      if (issue.discriminator !== undefined) {
        const at = path[path.length - 1] === issue.discriminator ? path : [...path, issue.discriminator];
        const value = valueAt(data, at);
        return [make(value === undefined ? 'missing' : 'invalid', value === undefined ? 'required' : issue.message, at)];
      }
      const value = valueAt(data, path);
      return [value === undefined ? make('missing', 'required') : make('wrong-type', issue.message)];
    }
    case 'invalid_value':
      return [make('invalid', `expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}`)];
    case 'too_small':
      return [make('invalid', boundMessage('at least', 'above', issue.minimum, issue.inclusive, issue.origin))];
    case 'too_big':
      return [make('invalid', boundMessage('at most', 'below', issue.maximum, issue.inclusive, issue.origin))];
    case 'invalid_key':
      return [make('invalid', `invalid key: ${issue.issues.map((inner) => inner.message).join('; ')}`)];
    case 'custom':
      return [make(isSecretLiteralParams(issue.params) ? 'secret-literal' : 'invalid', issue.message)];
    default:
      return [make('invalid', issue.message)];
  }
}

function boundMessage(inclusiveWord: string, exclusiveWord: string, bound: number | bigint, inclusive: boolean | undefined, origin: string): string {
  const unit = origin === 'string' ? ' characters' : origin === 'array' ? ' items' : '';
  if (origin === 'int' || origin === 'number' || origin === 'bigint') return `must be ${inclusive === false ? exclusiveWord : inclusiveWord} ${bound}`;
  return `must have ${inclusiveWord} ${bound}${unit}`;
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value)) return 'a fractional number';
  return `a ${typeof value}`;
}

// ---------------------------------------------------------------------------------------------- secrets in the file

const SECRET_KEY_NAME = /(secret|private_?key|password|passphrase|mnemonic|seed_?phrase)/i;
const HEX64_ANYWHERE = /(?:0x)?[0-9a-fA-F]{64}(?![0-9a-fA-F])/;

/** The secret-literal rule for one value at `path` (its source text); null when it is fine. */
function secretLiteralIssue(path: readonly PropertyKey[], text: string): ConfigIssue | null {
  // Pyth feed ids are public 32-byte ids, shaped like a private key: the feed-id parser checks them instead.
  if (path[0] === 'pricing' && path[1] === 'feedIds') return null;
  const last = path[path.length - 1];
  const message = looksLikePrivateKey(text)
    ? 'looks like a private key: secrets come only from environment variables (see credentials)'
    : typeof last === 'string' && SECRET_KEY_NAME.test(last) && path[0] !== 'credentials' && text.trim() !== ''
      ? 'secret-looking key: secrets come only from environment variables (see credentials)'
      : null;
  return message === null ? null : { kind: 'secret-literal', path: formatPath(path), message, value: describeConfigValue(text, true) };
}

/**
 * Secrets written into the file: any scalar shaped like a private key (checked on its source text, so a
 * 0x… that YAML read as a number is caught too), any non-empty value under a secret-sounding key outside
 * `credentials`, and private-key-shaped text in comments. Values are never echoed.
 */
function scanForSecretLiterals(doc: Document, text: string, lineCounter: LineCounter): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const flaggedLines = new Set<number>();
  visit(doc, {
    Scalar(key, node, ancestors) {
      if (key === 'key') return;
      const path = scalarPath([...ancestors, node]);
      const issue = path === null ? null : secretLiteralIssue(path, node.source ?? (typeof node.value === 'string' ? node.value : ''));
      if (issue === null) return;
      issues.push(issue);
      if (node.range) flaggedLines.add(lineCounter.linePos(node.range[0]).line);
    },
  });
  text.split('\n').forEach((lineText, index) => {
    const lineNumber = index + 1;
    const hashAt = lineText.indexOf('#');
    if (hashAt < 0 || flaggedLines.has(lineNumber)) return;
    const match = HEX64_ANYWHERE.exec(lineText.slice(hashAt));
    if (match) {
      issues.push({
        kind: 'secret-literal',
        path: `(comment, line ${lineNumber})`,
        message: 'a private key in a comment: remove it from the file',
        value: describeConfigValue(match[0], true),
      });
    }
  });
  return issues;
}

/** The key path of a scalar from its ancestor chain; null for scalars that are not values of a mapping/sequence. */
function scalarPath(chain: readonly unknown[]): PropertyKey[] | null {
  const path: PropertyKey[] = [];
  for (let i = 0; i < chain.length - 1; i += 1) {
    const parent = chain[i];
    const child = chain[i + 1];
    if (isPair(parent)) {
      if (parent.value !== child) return null;
      path.push(isScalar(parent.key) ? String(parent.key.value) : String(parent.key));
    } else if (isSeq(parent)) {
      path.push(parent.items.indexOf(child));
    } else if (isMap(parent)) {
      continue;
    }
  }
  return path;
}

/** The same rules on plain data (no source text). */
function scanPlainDataForSecrets(data: unknown): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const walk = (value: unknown, path: PropertyKey[]): void => {
    if (typeof value === 'string') {
      const issue = secretLiteralIssue(path, value);
      if (issue !== null) issues.push(issue);
    } else if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...path, index]));
    else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) walk(item, [...path, key]);
  };
  walk(data, []);
  return issues;
}

// ---------------------------------------------------------------------------------------------- helpers

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? text).replace(/ at line \d+, column \d+:?$/, '');
}

function lineOf(text: string, line: number | undefined): string {
  if (line === undefined) return '';
  const content = text.split('\n')[line - 1] ?? '';
  return looksLikePrivateKey(content.trim()) || HEX64_ANYWHERE.test(content) ? '[redacted]' : content.slice(0, 80);
}

/** Freeze an object graph in place (plain objects and arrays), returning it. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
