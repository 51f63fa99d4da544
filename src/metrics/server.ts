/**
 * The bot's operations endpoint (node:http): `GET /metrics` (Prometheus text), `GET /healthz` (the process
 * answers: 200), `GET /readyz` (200 only while the venue answers, the feed is connected, books are fresh and quoting
 * is not paused; 503 with the reasons otherwise; a `degraded` list, e.g. the shared rate limiter on its fallback share, is
 * shown without changing readiness), `GET /status` (what the status line says, with the reason each unquoted market
 * has no order: `outcome-maker status`) and, when a resume handler is given, `POST /control/resume`
 * (bearer token from the control file, see control.ts).
 *
 * Owns: routing, status codes and the control file's life cycle (written once listening, removed on close).
 * Invariants: a failing readiness or resume handler gives a 5xx answer, never a crash; the token is compared
 * in constant time; no request body is read.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { Registry } from 'prom-client';
import { createControlToken, removeControlFile, RESUME_PATH, writeControlFile, type ResumeOutcome } from './control.js';

/** What the bot reports about itself for /readyz. */
export interface ReadinessState {
  readonly feedConnected: boolean;
  /** Markets whose book is older than feed.staleAfterMs. */
  readonly staleMarkets: readonly string[];
  /** Quoting paused by the kill switch (or another stop). */
  readonly paused: boolean;
  readonly pauseReason?: string | null;
  /** The venue gives no answer to the bot's requests: why (its URL and the cause), or null/absent while it answers. */
  readonly venueUnreachable?: string | null;
  /** Running, but below par (e.g. the shared rate limiter on its fallback share): listed, not a reason to be unready. */
  readonly degraded?: readonly string[];
}

export interface Readiness {
  readonly ready: boolean;
  readonly reasons: readonly string[];
  /** Present when something runs degraded; readiness is unaffected. */
  readonly degraded?: readonly string[];
}

export function evaluateReadiness(state: ReadinessState): Readiness {
  const reasons: string[] = [];
  if (state.venueUnreachable) reasons.push(state.venueUnreachable);
  if (!state.feedConnected) reasons.push('feed disconnected');
  if (state.staleMarkets.length > 0) reasons.push(`stale books: ${state.staleMarkets.join(', ')}`);
  if (state.paused) reasons.push(`quoting paused${state.pauseReason ? `: ${state.pauseReason}` : ''}`);
  const degraded = state.degraded ?? [];
  return { ready: reasons.length === 0, reasons, ...(degraded.length > 0 ? { degraded } : {}) };
}

export interface MetricsServerOptions {
  readonly host: string;
  /** 0 = any free port. */
  readonly port: number;
  readonly registry: Registry;
  readonly readiness: () => ReadinessState;
  /** Enables POST /control/resume and the control file. */
  readonly control?: {
    /** From `controlFilePath(config.database.path)`. */
    readonly filePath: string;
    readonly resume: () => ResumeOutcome | Promise<ResumeOutcome>;
  };
  /** The bot's status (what its status line says, and why each unquoted market is not quoted): `GET /status`; null while starting. */
  readonly status?: () => unknown;
  /** Told about handler failures (for the log); never about tokens. */
  readonly onError?: (error: unknown, route: string) => void;
}

export const STATUS_PATH = '/status';

export interface MetricsServer {
  /** `http://host:port`, with the real port. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const token = options.control ? createControlToken() : null;
  const server = createServer((request, response) => {
    void handle(request, response, options, token);
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  server.keepAliveTimeout = 5_000;
  await listen(server, options.host, options.port);
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('metrics server has no TCP address');
  const port = address.port;
  const url = `http://${urlHost(options.host)}:${port}`;
  if (options.control && token !== null) {
    try {
      writeControlFile(options.control.filePath, { pid: process.pid, url, token, startedAt: new Date().toISOString() });
    } catch (error) {
      await closeServer(server);
      throw error;
    }
  }
  let closed = false;
  return {
    url,
    port,
    async close() {
      if (closed) return;
      closed = true;
      if (options.control && token !== null) removeControlFile(options.control.filePath, token);
      await closeServer(server);
    },
  };
}

async function handle(request: IncomingMessage, response: ServerResponse, options: MetricsServerOptions, token: string | null): Promise<void> {
  const path = (request.url ?? '/').split('?')[0] ?? '/';
  const method = request.method ?? 'GET';
  try {
    if (path === '/metrics' || path === '/healthz' || path === '/readyz') {
      if (method !== 'GET') return send(response, 405, { error: 'method not allowed' }, { allow: 'GET' });
      if (path === '/healthz') return send(response, 200, { status: 'ok' });
      if (path === '/readyz') {
        const readiness = evaluateReadiness(options.readiness());
        return send(response, readiness.ready ? 200 : 503, readiness);
      }
      const text = await options.registry.metrics();
      response.writeHead(200, { 'content-type': options.registry.contentType, 'cache-control': 'no-store' });
      response.end(text);
      return;
    }
    if (path === STATUS_PATH && options.status !== undefined) {
      if (method !== 'GET') return send(response, 405, { error: 'method not allowed' }, { allow: 'GET' });
      const status = options.status();
      return status === null ? send(response, 503, { error: 'starting: no status yet' }) : send(response, 200, status);
    }
    if (path === RESUME_PATH && options.control && token !== null) {
      if (method !== 'POST') return send(response, 405, { error: 'method not allowed' }, { allow: 'POST' });
      if (!bearerMatches(request.headers.authorization, token)) return send(response, 401, { error: 'bad or missing control token' });
      const outcome = await options.control.resume();
      return send(response, outcome.resumed ? 200 : 409, outcome);
    }
    return send(response, 404, { error: 'not found' });
  } catch (error) {
    options.onError?.(error, path);
    if (!response.headersSent) send(response, path === '/readyz' ? 503 : 500, path === '/readyz' ? { ready: false, reasons: ['readiness check failed'] } : { error: 'internal error' });
    else response.destroy();
  }
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': JSON_TYPE, 'cache-control': 'no-store', ...headers });
  response.end(`${JSON.stringify(body)}\n`);
}

function bearerMatches(header: string | undefined, token: string): boolean {
  if (header === undefined || !header.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length).trim(), 'utf8');
  const expected = Buffer.from(token, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The address clients should use: a wildcard bind is reached on loopback. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolvePromise();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolvePromise) => {
    server.close(() => resolvePromise());
    server.closeAllConnections();
  });
}
