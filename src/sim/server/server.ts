/**
 * The simulator's HTTP + Socket.IO server on one port, bound to 127.0.0.1 only.
 *
 * Pipeline of one request: admin routes (`/_sim/...`, loopback only, no limits or faults) → rate limiter
 * per API token (429 + Retry-After, counted in the request log) → injected delay → injected failure
 * (`before` phase) → route match (404 framework body) → body read (413 past the cap) → HMAC verification
 * (401) and scope (403) → handler → injected failure (`after` phase) → JSON answer.
 *
 * Owns: the wiring of routes, limiter, faults, request log, socket feed and control. Invariants: nothing a
 * client sends can crash the process (every error becomes an answer; an unexpected one a 500); the signed
 * path is the request target exactly as received; secrets never reach a log or an answer.
 */
import { HermesStandIn, type HermesOptions } from './hermes.js';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Server as SocketServer } from 'socket.io';
import { authHeaderNames, DEFAULT_HEADER_PREFIX } from '../../exchange/auth.js';
import { DEFAULT_CHAIN_ID, DEFAULT_DOMAIN_NAME } from '../../exchange/eip712.js';
import type { SimClock, SimEngine } from '../engine/index.js';
import { DEFAULT_BODY_LIMIT_BYTES, readBody } from './body.js';
import { createControl, type SimControl } from './control.js';
import { FaultInjector, type FailureRule } from './faults.js';
import { headerValue, verifyHmac, type ApiToken, type ApiTokenRegistry } from './hmac-verify.js';
import { forbidden, frameworkError, HttpError, statusText, unauthorized } from './http-errors.js';
import { PlacementStore } from './placement-store.js';
import { LoopLateness } from './loop-lateness.js';
import { SPEC_RATE_LIMITS, TokenRateLimiter, type RateLimitOptions } from './rate-limiter.js';
import { RequestLog, type RequestOutcome } from './request-log.js';
import { partnerLookup, type RouteDeps, type SigningDomain } from './route-deps.js';
import { Router, type Reply, type RequestContext, type RouteDef } from './router.js';
import { adminRoutes } from './routes-admin.js';
import { publicRoutes } from './routes-public.js';
import { tradingRoutes } from './routes-trading.js';
import { cancelRoutes } from './routes-cancel.js';
import { AccountChecks, accountCheckAdminRoutes, accountCheckRoutes, withTradeTypeOverrides, type AccountCheckDeps } from './routes-account-checks.js';
import { SocketFeed, type FeedServer, type SocketFeedHooks } from './socket-feed.js';
import { TradingModeSchedule } from './trading-mode.js';
import { CancelReplaceFaults } from './cancel-replace-faults.js';
import { cancelReplaceRoutes } from './routes-cancel-replace.js';
import { historyRoutes } from './routes-history.js';
import type { SocketBookSizeUnit } from './wire-format.js';
import { SimSettingsStore, type SimSettings } from './settings.js';

export const LOOPBACK_HOST = '127.0.0.1';
export const DEFAULT_FEED_COALESCE_MS = 50;

/** Operator-facing counters; wire them to metrics. Every hook is optional and must not throw. */
export interface SimServerHooks extends SocketFeedHooks {
  onRequest?(route: string, status: number, durationMs: number): void;
  onRateLimited?(tokenId: string, reason: 'concurrency' | 'interval'): void;
  onAuthFailure?(reason: string): void;
  onInternalError?(route: string, error: unknown): void;
}

export interface SimServerOptions {
  readonly engine: SimEngine;
  readonly clock: SimClock;
  readonly tokens: ApiTokenRegistry;
  /** Prefix of the three HMAC headers (default the live venue's `lmts`; `svc` is the specification's). */
  readonly headerPrefix?: string;
  /** Default: the spec's 2 concurrent / 300 ms, enabled. */
  readonly rateLimit?: RateLimitOptions;
  readonly signing?: Partial<SigningDomain>;
  /** Request body cap (default 1 MiB). */
  readonly bodyLimitBytes?: number;
  /** orderbookUpdate/positions coalescing tick (default 50 ms). */
  readonly feedCoalesceMs?: number;
  /** Unit of socket `orderbookUpdate` level sizes (default `shares`; the live venue's is not recorded). */
  readonly socketBookSizeUnit?: SocketBookSizeUnit;
  readonly requestLogCapacity?: number;
  readonly hooks?: SimServerHooks;
  /** The Hermes stand-in under /hermes (src/sim/server/hermes.ts). */
  readonly hermes?: Partial<HermesOptions>;
  /** Venue behaviours the live venue has not confirmed (settings.ts); defaults DEFAULT_SIM_SETTINGS. */
  readonly settings?: Partial<SimSettings>;
  /**
   * The rate limiter allows for this process's own event-loop stalls (loop-lateness.ts): on for the simulator embedded
   * in the bot, whose loop the bot's own work delays, so a request it stamped late is not held against the client.
   * Wall clock only. Default off: a standalone simulator stamps arrivals as they come.
   */
  readonly forgiveOwnStalls?: boolean;
}

export interface RunningSimServer {
  readonly port: number;
  /** `http://127.0.0.1:<port>`. */
  readonly baseUrl: string;
  /** Socket.IO server URL; connect to `${socketUrl}/markets` with transport `websocket`. */
  readonly socketUrl: string;
  readonly control: SimControl;
  close(): Promise<void>;
}

const LOOPBACK_PEERS = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

const INJECTED_MESSAGES: Readonly<Record<FailureRule['status'], string>> = {
  401: 'Unauthorized',
  429: 'ThrottlerException: Too Many Requests',
  500: 'Internal server error',
  503: 'Service Unavailable',
};

interface Answer {
  readonly reply: Reply;
  readonly outcome: RequestOutcome;
}

function errorReply(error: HttpError): Reply {
  return { status: error.status, body: error.body, headers: error.headers };
}

function injectedReply(rule: FailureRule): Reply {
  const headers: Record<string, string> = rule.status === 429 ? { 'retry-after': String(rule.retryAfterSeconds) } : {};
  return { status: rule.status, body: { message: INJECTED_MESSAGES[rule.status], error: statusText(rule.status), statusCode: rule.status }, headers };
}

function send(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const payload = reply.body === null ? '' : JSON.stringify(reply.body);
  const headers: Record<string, string | number> = { ...reply.headers };
  if (reply.body !== null) {
    headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = Buffer.byteLength(payload);
  }
  res.writeHead(reply.status, headers);
  res.end(payload);
}

export class SimHttpServer {
  readonly control: SimControl;
  private readonly http: HttpServer;
  private readonly io: FeedServer;
  private readonly feed: SocketFeed;
  private readonly router: Router;
  private readonly adminRouter: Router;
  /** Pyth Hermes's price routes, for the crypto world's underlyings. */
  readonly hermes: HermesStandIn;
  private readonly limiter: TokenRateLimiter;
  /** This process's loop lateness, when `forgiveOwnStalls`. */
  private readonly lateness: LoopLateness | null;
  private readonly faults = new FaultInjector();
  /** Forced outcomes of cancel-replace operations (routes-cancel-replace.ts). */
  private readonly cancelReplaceFaults = new CancelReplaceFaults();
  private readonly log: RequestLog;
  private readonly modes = new TradingModeSchedule();
  private readonly placements = new PlacementStore();
  /** Approvals, clock skew and trade-type overrides for `doctor` (routes-account-checks.ts). */
  private readonly accountChecks = new AccountChecks();
  /** Venue behaviours the live venue has not confirmed (settings.ts). */
  private readonly settings: SimSettingsStore;
  private readonly prefix: string;
  private readonly bodyLimit: number;
  private readonly detachPlacements: () => void;

  constructor(private readonly options: SimServerOptions) {
    this.prefix = options.headerPrefix ?? DEFAULT_HEADER_PREFIX;
    this.bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
    this.limiter = new TokenRateLimiter(options.rateLimit ?? SPEC_RATE_LIMITS);
    this.lateness = options.forgiveOwnStalls === true ? new LoopLateness() : null;
    this.log = new RequestLog(options.requestLogCapacity);
    this.settings = new SimSettingsStore(options.settings);
    const deps: RouteDeps = {
      engine: options.engine,
      clock: options.clock,
      modes: this.modes,
      placements: this.placements,
      signing: { domainName: options.signing?.domainName ?? DEFAULT_DOMAIN_NAME, chainId: options.signing?.chainId ?? DEFAULT_CHAIN_ID },
      partnerOf: partnerLookup(options.engine),
    };
    this.detachPlacements = options.engine.on({
      orderEvent: (_profileId, frame) => {
        if (frame.source === 'SETTLEMENT') this.placements.onSettlement(frame);
      },
    });
    const checkDeps: AccountCheckDeps = { engine: options.engine, tokens: options.tokens, checks: this.accountChecks, chainId: deps.signing.chainId, startedAtMs: options.clock.now() };
    this.router = new Router([
      ...withTradeTypeOverrides(publicRoutes(deps), this.accountChecks),
      ...tradingRoutes(deps, () => this.settings.current),
      ...cancelRoutes(deps, () => this.settings.current),
      ...cancelReplaceRoutes(deps, this.cancelReplaceFaults, () => this.settings.current),
      ...historyRoutes(deps, () => this.settings.current),
      ...accountCheckRoutes(checkDeps),
    ]);
    this.http = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        this.options.hooks?.onInternalError?.('unhandled', error);
        send(res, errorReply(frameworkError(500, 'Internal server error')));
      });
    });
    // Idle keep-alive connections are kept a minute, as the load balancers in front of public APIs do, not Node's
    // default 5 s: a client reusing a connection at the moment the server drops it gets ECONNRESET (an unknown outcome
    // for a POST), a race a 2-core machine under load hits a few times an hour. Clients read the Keep-Alive hint.
    this.http.keepAliveTimeout = 65_000;
    this.http.headersTimeout = 66_000;
    this.io = new SocketServer(this.http, { transports: ['websocket'], serveClient: false });
    this.feed = new SocketFeed({
      io: this.io,
      engine: options.engine,
      clock: options.clock,
      tokens: options.tokens,
      headerPrefix: this.prefix,
      coalesceMs: options.feedCoalesceMs ?? DEFAULT_FEED_COALESCE_MS,
      settings: () => this.settings.current,
      ...(options.socketBookSizeUnit === undefined ? {} : { bookSizeUnit: options.socketBookSizeUnit }),
      ...(options.hooks === undefined ? {} : { hooks: options.hooks }),
    });
    this.control = createControl({
      engine: options.engine,
      clock: options.clock,
      tokens: options.tokens,
      modes: this.modes,
      faults: this.faults,
      cancelReplaceFaults: this.cancelReplaceFaults,
      limiter: this.limiter,
      log: this.log,
      feed: this.feed,
      settings: this.settings,
    });
    this.adminRouter = new Router([...adminRoutes(this.control), ...accountCheckAdminRoutes(checkDeps)]);
    this.hermes = new HermesStandIn(options.engine, options.clock, options.hermes ?? {});
  }

  /** Listens on 127.0.0.1 (`port` 0 = a free one). */
  async listen(port = 0): Promise<RunningSimServer> {
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      this.http.once('error', onError);
      this.http.listen(port, LOOPBACK_HOST, () => {
        this.http.off('error', onError);
        resolve();
      });
    });
    const address = this.http.address();
    const bound = typeof address === 'object' && address !== null ? (address satisfies AddressInfo).port : port;
    const baseUrl = `http://${LOOPBACK_HOST}:${bound}`;
    return { port: bound, baseUrl, socketUrl: baseUrl, control: this.control, close: () => this.close() };
  }

  async close(): Promise<void> {
    this.lateness?.stop();
    this.feed.close();
    this.hermes.close();
    this.detachPlacements();
    this.io.of('/markets').disconnectSockets(true);
    await new Promise<void>((resolve) => {
      void this.io.close(() => resolve());
      this.http.closeAllConnections();
    });
  }

  // ───────────────────────────── request pipeline ─────────────────────────────

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const nowMs = this.options.clock.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const url = req.url ?? '/';
    let path: string;
    let query: URLSearchParams;
    try {
      const parsed = new URL(url, `http://${LOOPBACK_HOST}`);
      path = parsed.pathname;
      query = parsed.searchParams;
    } catch {
      send(res, errorReply(frameworkError(400, 'Malformed request target')));
      return;
    }

    if (HermesStandIn.owns(path)) {
      this.hermes.handle(req, res, path, query);
      return;
    }

    if (path === '/_sim' || path.startsWith('/_sim/')) {
      const reply = await this.handleAdmin(req, method, url, path, query, nowMs);
      send(res, reply);
      return;
    }

    // The server clock as a client sees it (the clock-skew fault of routes-account-checks.ts shifts it).
    res.setHeader('date', new Date(nowMs + this.accountChecks.clockSkewMs).toUTCString());
    const tokenHeader = headerValue(req.headers, authHeaderNames(this.prefix).apiKey);
    const rateKey = tokenHeader !== undefined && this.options.tokens.has(tokenHeader) ? tokenHeader : null;
    // When the client built and signed the request (its signed timestamp), for the log: what it could know then.
    const signedAtMs = rateKey === null ? Number.NaN : Date.parse(headerValue(req.headers, authHeaderNames(this.prefix).timestamp) ?? '');
    let routeName = `${method} (unmatched)`;
    const finish = (answer: Answer): void => {
      send(res, answer.reply);
      const durationMs = performance.now() - started;
      const detail = answer.reply.logDetail;
      this.log.record({ atMs: nowMs, method, path, status: answer.reply.status, tokenId: rateKey, durationMs, outcome: answer.outcome, ...(Number.isFinite(signedAtMs) ? { signedAtMs } : {}), ...(detail === undefined ? {} : { detail }) });
      this.options.hooks?.onRequest?.(routeName, answer.reply.status, durationMs);
    };

    if (rateKey !== null) {
      const admission = this.limiter.tryAcquire(rateKey, nowMs, this.lateness?.lateMs() ?? 0);
      if (!admission.ok) {
        this.options.hooks?.onRateLimited?.(rateKey, admission.reason);
        finish({
          reply: errorReply(frameworkError(429, 'ThrottlerException: Too Many Requests', { 'retry-after': String(admission.retryAfterSeconds) })),
          outcome: 'rate_limited',
        });
        return;
      }
      res.once('close', admission.release);
      res.once('finish', admission.release);
    }

    if (this.faults.delayMs > 0) await this.sleep(this.faults.delayMs);
    const rule = this.faults.take(path);
    if (rule !== null && rule.phase === 'before') {
      finish({ reply: injectedReply(rule), outcome: 'injected' });
      return;
    }
    let answer: Answer;
    try {
      const match = this.router.match(method, path);
      if (match === null) throw frameworkError(404, `Cannot ${method} ${path}`);
      routeName = match.route.name ?? `${match.route.method} ${match.route.pattern}`;
      const rawBody = await readBody(req, this.bodyLimit);
      const token = match.route.auth === 'hmac' ? this.authenticate(req, method, url, rawBody, nowMs, match.route) : null;
      const ctx: RequestContext = { method, url, path, query, params: match.params, headers: req.headers, rawBody, nowMs, token };
      answer = { reply: await match.route.handler(ctx), outcome: 'handled' };
    } catch (error) {
      answer = { reply: this.replyForError(routeName, error), outcome: 'error' };
    }
    if (rule !== null) answer = { reply: injectedReply(rule), outcome: 'injected' };
    finish(answer);
  }

  private authenticate(req: IncomingMessage, method: string, url: string, rawBody: string, nowMs: number, route: RouteDef): ApiToken {
    const verdict = verifyHmac(this.options.tokens, this.prefix, { headers: req.headers, method, pathWithQuery: url, body: rawBody, nowMs: nowMs + this.accountChecks.clockSkewMs });
    if (!verdict.ok) {
      this.options.hooks?.onAuthFailure?.(verdict.reason);
      throw unauthorized(verdict.message);
    }
    if (route.scope !== undefined && !verdict.token.scopes.has(route.scope)) {
      throw forbidden(`Insufficient permission: the token lacks the ${route.scope} scope`);
    }
    return verdict.token;
  }

  private async handleAdmin(req: IncomingMessage, method: string, url: string, path: string, query: URLSearchParams, nowMs: number): Promise<Reply> {
    try {
      if (!LOOPBACK_PEERS.has(req.socket.remoteAddress ?? '')) throw forbidden('The admin API is available from loopback only');
      const match = this.adminRouter.match(method, path);
      if (match === null) throw frameworkError(404, `Cannot ${method} ${path}`);
      const rawBody = await readBody(req, this.bodyLimit);
      const ctx: RequestContext = { method, url, path, query, params: match.params, headers: req.headers, rawBody, nowMs, token: null };
      return await match.route.handler(ctx);
    } catch (error) {
      return this.replyForError(`admin ${method} ${path}`, error);
    }
  }

  private replyForError(route: string, error: unknown): Reply {
    if (error instanceof HttpError) return errorReply(error);
    this.options.hooks?.onInternalError?.(route, error);
    return errorReply(frameworkError(500, 'Internal server error'));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.options.clock.schedule(ms, resolve);
    });
  }
}

/** Builds the server and listens on 127.0.0.1:`port`. */
export async function startSimServer(options: SimServerOptions, port = 0): Promise<RunningSimServer> {
  return new SimHttpServer(options).listen(port);
}
