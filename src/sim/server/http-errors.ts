/**
 * The simulator's error answers, in the four body shapes of exchange-api.md § Errors:
 * validation `{message: [{field, message}], error: 'Bad Request', statusCode: 400}`,
 * framework `{message, error, statusCode}`, message-only `{message}`, and the 425 trading-mode body
 * `{code, message, mode, resumeAt}`.
 *
 * Owns: one typed error class (`HttpError`) that every route throws and the server turns into an answer,
 * so no handler writes a status line by hand. Invariant: a body built here never contains a secret
 * (callers pass messages, never credentials).
 */

export interface ValidationIssue {
  readonly field: string;
  readonly message: string;
}

/** Any JSON object or array answer. */
export type JsonBody = object;

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  425: 'Too Early',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? 'Error';
}

/** An answer other than success, thrown by handlers and turned into a response by the server. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly body: JsonBody,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(`HTTP ${status}: ${summarize(body)}`);
  }
}

function isRecord(body: JsonBody): body is Readonly<Record<string, unknown>> {
  return !Array.isArray(body);
}

function lengthOf(body: JsonBody): number {
  return Array.isArray(body) ? body.length : 0;
}

function summarize(body: JsonBody): string {
  if (!isRecord(body)) return `array(${lengthOf(body)})`;
  const message = body['message'];
  return typeof message === 'string' ? message : JSON.stringify(message ?? body);
}

/** 400 with the validation body; `issues` name every offending field. */
export function validationError(issues: readonly ValidationIssue[]): HttpError {
  return new HttpError(400, { message: issues.map((i) => ({ field: i.field, message: i.message })), error: 'Bad Request', statusCode: 400 });
}

export function invalidField(field: string, message: string): HttpError {
  return validationError([{ field, message }]);
}

/** `{message, error, statusCode}`: the web framework's own shape (404 unknown route, 413, bad JSON...). */
export function frameworkError(status: number, message: string, headers: Readonly<Record<string, string>> = {}): HttpError {
  return new HttpError(status, { message, error: statusText(status), statusCode: status }, headers);
}

/** `{message}` only. */
export function messageError(status: number, message: string): HttpError {
  return new HttpError(status, { message });
}

export function notFound(message: string): HttpError {
  return frameworkError(404, message);
}

export function unauthorized(message = 'Unauthorized'): HttpError {
  return frameworkError(401, message);
}

export function forbidden(message: string): HttpError {
  return frameworkError(403, message);
}
