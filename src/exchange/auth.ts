/**
 * HMAC request signing of exchange-facts §4: message `ts\nMETHOD\npath?query\nbody`, keyed with the
 * base64-DECODED secret, HMAC-SHA256, standard base64 digest; three headers under a configurable prefix.
 *
 * Owns: the signed message's exact bytes. Used by the client (requests and socket handshake) and by the
 * simulator (verification), so both sides agree by construction. The secret never leaves this module
 * except as an HMAC key.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The live venue's header prefix: `lmts-api-key`, `lmts-timestamp`, `lmts-signature` (its API reference,
 * "Authentication", and the official clients). The default of the client, the live config and the simulator.
 */
export const LIVE_HEADER_PREFIX = 'lmts';
/** The specification's neutral prefix (`svc-api-key`...): kept as an option for the specification's own tests. */
export const SPEC_HEADER_PREFIX = 'svc';
export const DEFAULT_HEADER_PREFIX = LIVE_HEADER_PREFIX;
/** The path the socket handshake signs (exchange-facts §5). */
export const SOCKET_HANDSHAKE_PATH = '/socket.io/?EIO=4&transport=websocket';

export interface ApiCredentials {
  /** Token id, sent in `{prefix}-api-key`. */
  readonly tokenId: string;
  /** Base64 secret as issued by the venue. */
  readonly secret: string;
}

export interface AuthHeaderNames {
  readonly apiKey: string;
  readonly timestamp: string;
  readonly signature: string;
}

export function authHeaderNames(prefix: string = DEFAULT_HEADER_PREFIX): AuthHeaderNames {
  const p = prefix.toLowerCase();
  return { apiKey: `${p}-api-key`, timestamp: `${p}-timestamp`, signature: `${p}-signature` };
}

/** The exact string that is signed. `pathWithQuery` has no host. `body` is the exact JSON sent, or ''. */
export function signingMessage(timestamp: string, method: string, pathWithQuery: string, body: string): string {
  return `${timestamp}\n${method.toUpperCase()}\n${pathWithQuery}\n${body}`;
}

export function computeSignature(secretBase64: string, message: string): string {
  return createHmac('sha256', Buffer.from(secretBase64, 'base64')).update(message, 'utf8').digest('base64');
}

/** ISO-8601 UTC with milliseconds, e.g. 2026-03-23T12:34:56.789Z. */
export function isoTimestamp(nowMs: number): string {
  return new Date(nowMs).toISOString();
}

export interface SignRequestInput {
  readonly credentials: ApiCredentials;
  readonly method: string;
  readonly pathWithQuery: string;
  readonly body: string;
  readonly nowMs: number;
  readonly prefix?: string;
}

/** The three auth headers for one request (recompute for every attempt: the timestamp is signed). */
export function signRequest(input: SignRequestInput): Record<string, string> {
  const names = authHeaderNames(input.prefix);
  const timestamp = isoTimestamp(input.nowMs);
  const signature = computeSignature(
    input.credentials.secret,
    signingMessage(timestamp, input.method, input.pathWithQuery, input.body),
  );
  return { [names.apiKey]: input.credentials.tokenId, [names.timestamp]: timestamp, [names.signature]: signature };
}

/** Handshake headers for the Socket.IO connection: a GET of the handshake path with an empty body. */
export function socketHandshakeHeaders(credentials: ApiCredentials, nowMs: number, prefix?: string): Record<string, string> {
  return signRequest({
    credentials,
    method: 'GET',
    pathWithQuery: SOCKET_HANDSHAKE_PATH,
    body: '',
    nowMs,
    ...(prefix === undefined ? {} : { prefix }),
  });
}

/** Constant-time comparison of two base64 signatures. */
export function signaturesEqual(expected: string, received: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(received, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
