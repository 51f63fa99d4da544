/**
 * Test helper (tests only): plain-fetch calls to the simulator, HMAC-signed with src/exchange/auth.ts when
 * credentials are given, plus a polling wait. The body string sent is exactly the string signed.
 */
import { signRequest, type ApiCredentials } from '../../src/exchange/auth.js';

export interface CallOptions {
  readonly creds?: ApiCredentials;
  /** JSON body (stringified once; that exact string is signed and sent). */
  readonly body?: unknown;
  /** A raw body sent as is (for bad-JSON tests); signed when creds are given. */
  readonly rawBody?: string;
  readonly prefix?: string;
  /** Timestamp to sign with (default Date.now()). */
  readonly nowMs?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface CallResult {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: unknown;
}

export async function call(baseUrl: string, method: string, pathWithQuery: string, options: CallOptions = {}): Promise<CallResult> {
  const bodyText = options.rawBody ?? (options.body === undefined ? '' : JSON.stringify(options.body));
  const auth = options.creds
    ? signRequest({
        credentials: options.creds,
        method,
        pathWithQuery,
        body: bodyText,
        nowMs: options.nowMs ?? Date.now(),
        ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
      })
    : {};
  const headers: Record<string, string> = { ...auth, ...options.headers };
  if (bodyText !== '') headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${pathWithQuery}`, { method, headers, ...(bodyText === '' ? {} : { body: bodyText }) });
  const text = await response.text();
  let body: unknown = null;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: response.status, headers: response.headers, text, body };
}

/** Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitUntil<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 3_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Narrows an unknown JSON value to an object for field access in assertions. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function obj(value: unknown): Record<string, unknown> {
  if (!isRecord(value)) throw new Error(`expected a JSON object, got ${JSON.stringify(value)}`);
  return value;
}

export function arr(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new Error(`expected a JSON array, got ${JSON.stringify(value)}`);
  return value;
}

/** The one `{field, message}` of a 400 validation body (`{message: [{field, message}], …}`); throws otherwise. */
export function onlyValidationIssue(body: unknown): { field: string; message: string } {
  const message = arr(obj(body)['message']);
  const first = message[0];
  if (message.length !== 1 || first === undefined) throw new Error(`expected one validation issue, got ${JSON.stringify(body)}`);
  const issue = obj(first);
  return { field: String(issue['field']), message: String(issue['message']) };
}
