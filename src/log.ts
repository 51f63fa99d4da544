/**
 * Logging: pino JSON lines (human-readable through pino-pretty on a terminal or when configured), one
 * child logger per component with the market in its context, and secrets kept out of every line.
 *
 * Owns: the two layers of secret protection.
 *  1. Redaction by path (pino `redact`): the fields `privateKey`, `apiSecret`, `secret`, `signature`,
 *     `password`, `authorization`, `apiTokenId` at the top level and one level down, whatever their type.
 *  2. A censor on each finished line (`LogCensor`), which also covers messages, error stacks and child
 *     bindings: the exact values of the resolved secrets (`addSecret`); any string under a key ending in
 *     one of those names (any case: `apiSecret`, `clientSecret`) or in `-signature` / `-api-key` (auth
 *     headers, whatever the venue's header prefix), at any depth; and any 64+-digit hex run (the shape of a private
 *     key) unless it sits under a key known to hold a public hash (`txHash`, `conditionId`, …) or a Pyth feed id
 *     (`pythFeed`, `feedId`, …: public, so never redacted).
 * Convention for callers: nothing is logged per book update at `info`; use `debug`/`trace` for that.
 */
import { Writable } from 'node:stream';
import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogLevel } from './config/types.js';

export type { Logger } from 'pino';

const REDACTED = '[Redacted]';
const SECRET_FIELDS = ['privateKey', 'apiSecret', 'secret', 'signature', 'password', 'authorization', 'apiTokenId'] as const;

/**
 * Paths removed by pino's redaction: each secret field at the top level and one level down, whatever its
 * value's type. (Deeper string values are caught by the line censor; pino's deeper wildcards cost ~20 µs
 * per line.)
 */
export const REDACT_PATHS: readonly string[] = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]);

/**
 * Keys whose 0x-64-hex value is public, not a key: left as they are by the censor. Hashes of the chain, and Pyth's
 * price feed ids (public identifiers of a price stream, printed with every priced market).
 */
export const PUBLIC_HASH_KEYS: readonly string[] = [
  'pythFeed',
  'pythFeedId',
  'pythAddress',
  'feedId',
  'txHash',
  'transactionHash',
  'blockHash',
  'conditionId',
  'questionId',
  'hash',
  'digest',
  'orderHash',
  'tradeEventId',
  'negRiskRequestId',
  'collectionId',
];

/** A string value under a key ending in a secret field name or an auth-header suffix, at any depth. */
const SECRET_KEY_ENDINGS = 'privateKey|secret|signature|password|authorization|apiTokenId|api-key';
const SECRET_KEY_HINT = new RegExp(`(?:${SECRET_KEY_ENDINGS})"`, 'i');
const SECRET_KEY_VALUE = new RegExp(`"([A-Za-z0-9_.-]*(?:${SECRET_KEY_ENDINGS}))":"(?:[^"\\\\]|\\\\.)*"`, 'gi');
const HEX64 = /[0-9a-fA-F]{64}/;
const HEX_RUN = new RegExp(`"(${PUBLIC_HASH_KEYS.join('|')})":"0x[0-9a-fA-F]{64}"|(?<![0-9a-zA-Z])(?:0x)?[0-9a-fA-F]{64,}(?![0-9a-zA-Z])`, 'g');

/** Censors finished log lines. Register each secret value once it is resolved. */
export class LogCensor {
  readonly #secrets = new Set<string>();

  /** Never print this exact text (and its JSON-escaped form) again. Values shorter than 8 characters are ignored. */
  addSecret(value: string): void {
    if (value.length < 8) return;
    this.#secrets.add(value);
    this.#secrets.add(JSON.stringify(value).slice(1, -1));
  }

  censorLine(line: string): string {
    let out = line;
    for (const secret of this.#secrets) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
    if (SECRET_KEY_HINT.test(out)) out = out.replace(SECRET_KEY_VALUE, (_match, key: string) => `"${key}":"${REDACTED}"`);
    if (HEX64.test(out)) out = out.replace(HEX_RUN, (match, publicKey: string | undefined) => (publicKey === undefined ? REDACTED : match));
    return out;
  }
}

/** Anything with `write(line)`: process.stdout, a file stream, a test's collector. */
export interface LineSink {
  write(line: string): unknown;
}

export interface CreateLoggerOptions {
  readonly level?: LogLevel;
  /** true: pino-pretty; false: JSON lines; 'auto' (default): pretty when stdout is a terminal. */
  readonly pretty?: boolean | 'auto';
  /** Where lines go (default: stdout, synchronously so nothing is lost at exit). */
  readonly destination?: LineSink;
  readonly censor?: LogCensor;
  /** Bindings on every line, e.g. `{ bot: 'om' }`. */
  readonly base?: Readonly<Record<string, unknown>>;
  /** Whether stdout is a terminal (for 'auto'; default process.stdout.isTTY). */
  readonly isTty?: boolean;
}

export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const isTty = options.isTty ?? process.stdout.isTTY;
  const usePretty = options.pretty === true || (options.pretty !== false && isTty);
  const censor = options.censor ?? new LogCensor();
  const target: LineSink = usePretty
    ? pretty({
        colorize: isTty && options.destination === undefined,
        translateTime: 'SYS:standard',
        ignore: 'pid,hostname',
        sync: true,
        ...(options.destination === undefined ? {} : { destination: toDestination(options.destination) }),
      })
    : (options.destination ?? pino.destination({ dest: 1, sync: true }));
  const stream: DestinationStream = { write: (line: string) => void target.write(censor.censorLine(line)) };
  return pino(
    {
      level: options.level ?? 'info',
      redact: { paths: [...REDACT_PATHS], censor: REDACTED },
      base: { pid: process.pid, ...options.base },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    stream,
  );
}

/** pino-pretty pipes into its destination, so a plain sink is wrapped in a Writable. */
function toDestination(sink: LineSink): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      sink.write(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      callback();
    },
  });
}

/** The context every component logger carries. */
export interface ComponentContext {
  readonly market?: string;
  readonly [key: string]: unknown;
}

/** A child logger for one component (`exchange.http`, `book`, `orders`, …), optionally for one market. */
export function componentLogger(parent: Logger, component: string, context: ComponentContext = {}): Logger {
  return parent.child({ component, ...context });
}
