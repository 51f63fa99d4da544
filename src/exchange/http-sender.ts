/**
 * The wire under the transport: one HTTP exchange (request out, whole answer in), and the moment the request was
 * handed to the OS (`markSent`), which the limiter spaces by.
 *
 * Owns: the default sender over node:http(s) with keep-alive agents and gzip/deflate/br answers, a size cap on
 * answers, and the adapter for an injected fetch (tests, or a custom dispatcher). Knows nothing about signing,
 * retries or the venue.
 */
import http from 'node:http';
import https from 'node:https';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';

export interface WireRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The exact body text; undefined for none. */
  readonly body: string | undefined;
  readonly signal: AbortSignal;
}

export interface WireResponse {
  readonly status: number;
  readonly text: string;
  readonly retryAfter: string | null;
}

/** Sends one request; calls `markSent` once the request has been written out (or right before, if unknowable). */
export type Sender = (request: WireRequest, markSent: () => void) => Promise<WireResponse>;

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** Answers above this size are refused (a venue answer is never near it). */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export class AnswerTooLargeError extends Error {
  override readonly name = 'AnswerTooLargeError';
}

/** An injected fetch: the send moment is unknowable, so it is marked just before the call. */
export function fetchSender(fetchImpl: FetchLike): Sender {
  return async (request, markSent) => {
    markSent();
    const response = await fetchImpl(request.url.href, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      signal: request.signal,
      redirect: 'manual',
    });
    return { status: response.status, text: await response.text(), retryAfter: response.headers.get('retry-after') };
  };
}

function decoderFor(encoding: string | undefined): Transform | null {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

async function readAll(response: http.IncomingMessage): Promise<string> {
  const decoder = decoderFor(response.headers['content-encoding']);
  const stream: Readable = decoder ? pipeline(response, decoder, () => undefined) : response;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_ANSWER_BYTES) {
      response.destroy();
      throw new AnswerTooLargeError(`answer larger than ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface NodeSender {
  readonly send: Sender;
  /** Closes the keep-alive connections. */
  close(): void;
}

/** The default sender: node:http(s) with keep-alive; `markSent` fires when the request is flushed to the socket. */
export function nodeSender(maxSockets = 4): NodeSender {
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets }),
    https: new https.Agent({ keepAlive: true, maxSockets }),
  };
  const send: Sender = (request, markSent) =>
    new Promise<WireResponse>((resolve, reject) => {
      const secure = request.url.protocol === 'https:';
      const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br', ...request.headers };
      if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
      const options = { method: request.method, headers, signal: request.signal };
      const outgoing = secure
        ? https.request(request.url, { ...options, agent: agents.https })
        : http.request(request.url, { ...options, agent: agents.http });
      outgoing.on('finish', markSent);
      outgoing.on('error', reject);
      outgoing.on('response', (response) => {
        readAll(response).then(
          (text) => {
            const retryAfter = response.headers['retry-after'];
            resolve({ status: response.statusCode ?? 0, text, retryAfter: typeof retryAfter === 'string' ? retryAfter : null });
          },
          reject,
        );
      });
      outgoing.end(request.body);
    });
  return {
    send,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
