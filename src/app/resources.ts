/**
 * The bot's resources, opened before anything is wired: local ones first (preflight: the metrics port bound and the
 * control file written, then the ledger file opened and migrated: a busy port stops the bot before the ledger is
 * touched, and any failing stops it having sent nothing to the exchange), then the venue (the embedded simulator, or
 * the live venue's addresses and secrets), the exchange client (profile: ownerId, fee rate) and the traded markets
 * (one read of the venue, retried while the account is busy, and for at most `startup.venueTimeoutSec` while the
 * venue gives no answer at all).
 *
 * Owns: opening and closing them. Invariants: `opened` holds each resource as soon as it exists, so a start-up that
 * fails halfway closes exactly what it opened; closing order is ledger → metrics server → client transport → venue
 * (nothing writes the ledger once it is closed; the client sends nothing once closed, and the venue, e.g. the
 * simulator, goes last, once the requests already sent have their answers).
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { AppConfig } from '../config/types.js';
import { transportRetryPolicy } from '../config/index.js';
import type { Scheduler } from '../core/clock.js';
import { errorText } from '../core/errors.js';
import { connectExchange, type ExchangeClient } from '../exchange/client.js';
import { HistoryAmounts } from '../exchange/history-amounts.js';
import type { HttpTransport, TransportObserver } from '../exchange/http.js';
import { sharedTransportOptions } from '../exchange/shared-limiter-config.js';
import type { Market } from '../exchange/wire.js';
import { openLedger, type LedgerObserver, type LedgerStore } from '../ledger/index.js';
import { controlFilePath, startMetricsServer, type ReadinessState } from '../metrics/index.js';
import { resolveMarkets } from '../markets/venue-markets.js';
import { isStaticSelection } from '../markets/market-selection.js';
import { noAnswerCause, retryStartupRead, startupRetryMessage, STARTUP_READ_BUDGET_MS } from '../venue/startup-retry.js';
import { NetworkError } from '../exchange/errors.js';
import { openVenue, type OpenVenue } from '../venue/venue.js';
import { checkCredentials } from '../venue/credentials-check.js';
import { abortableSleep, throwIfStopping } from './start-abort.js';
import { stopCostMs } from '../config/shutdown-budget.js';

export interface MetricsServerHandle {
  readonly url: string;
  close(): Promise<void>;
}

export interface BotResources {
  readonly ledger: LedgerStore;
  /** Null when metrics are disabled. */
  readonly metricsServer: MetricsServerHandle | null;
  readonly venue: OpenVenue;
  readonly client: ExchangeClient;
  /** The traded markets (at least one for a static list of slugs; a selection by rules may start with none). */
  readonly markets: readonly Market[];
}

/** The resources opened so far (filled in as each one opens). */
export type OpenedResources = { -readonly [K in keyof BotResources]?: BotResources[K] };

export interface OpenResourcesDeps {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly log: Logger;
  readonly scheduler: Scheduler;
  readonly registry: Registry;
  readonly ledgerObserver: LedgerObserver;
  readonly httpObserver: TransportObserver;
  /** Readiness as the components report it (read on each /readyz). */
  readonly readiness: () => ReadinessState;
  /** The control endpoint's `resume`: true when a kill-switch pause was lifted. */
  readonly resume: () => boolean;
  /** The bot's status for `GET /status` (null while starting). */
  readonly status?: () => unknown;
  readonly onSecret?: (value: string) => void;
  readonly dryRun: boolean;
  /** Aborted when the bot is asked to stop while starting: every step and wait ends with StartAbortedError. */
  readonly signal?: AbortSignal;
  /** Runs once the metrics port is bound, before the ledger is opened (the paper session's ledger rotation). */
  readonly beforeLedger?: () => void;
  /** Where the metrics port came from when not the config file (`--metrics-port`, `OM_METRICS_PORT`), for errors. */
  readonly metricsPortSetBy?: string;
}

/**
 * The metrics port cannot be bound (in use, or not allowed): found before the ledger is opened or the venue spoken
 * to. Names `metrics.port` and the port, and where the port came from when not the file.
 */
export class MetricsPortError extends Error {
  override readonly name = 'MetricsPortError';
  constructor(
    readonly host: string,
    readonly port: number,
    readonly code: string,
    readonly setBy: string | null,
  ) {
    const why = code === 'EADDRINUSE' ? 'is in use by another process' : code === 'EACCES' ? 'may not be bound by this user' : `cannot be bound (${code})`;
    super(
      `metrics.port: ${port}${setBy === null ? '' : ` (set by ${setBy})`} on ${host} ${why}: ` +
        'give a free port with `--metrics-port N` (`npm start -- --metrics-port N`), or metrics.port in the config (0: any free port)',
    );
  }
}

/**
 * Opens every resource in order, recording each in `opened` as it comes (for `closeResources` on any failure): the
 * metrics port first (a busy one stops the bot before anything else is touched), then `beforeLedger` (the paper
 * session's ledger rotation), the ledger, and the venue's side.
 */
export async function openResources(config: AppConfig, deps: OpenResourcesDeps, opened: OpenedResources): Promise<BotResources> {
  const metricsServer = config.metrics.enabled ? await openMetricsServer(config, deps) : null;
  opened.metricsServer = metricsServer;
  throwIfStopping(deps.signal, 'the metrics server');
  deps.beforeLedger?.();
  // On a session clock (venue.startBeforeHourSec) the ledger's recorded times are the session's, as the simulator's are.
  const shared = sharesSessionClock(config);
  const ledger = openLedger({ path: config.database.path, observer: deps.ledgerObserver, ...(shared ? { now: () => deps.scheduler.now() } : {}) });
  opened.ledger = ledger;

  const { venue, client, markets } = await openExchange(config, deps, opened);
  // One signed read before anything is composed (the account's history, one entry: the cheapest signed read, and not
  // the positions the ledger's catch-up reads next): refused credentials stop the run here, having placed nothing.
  await retryStartup(config, deps, 'credentials', () => checkCredentials(() => client.api.getHistory({ limit: 1 }), venue.headerPrefix));
  throwIfStopping(deps.signal, 'the credentials check');
  return { ledger, metricsServer, venue, client, markets };
}

/** The config runs the embedded simulator on the bot's clock (src/venue/session-clock.ts): the ledger and the simulator read it. */
function sharesSessionClock(config: AppConfig): boolean {
  return config.venue.kind === 'sim' && config.venue.startBeforeHourMs !== undefined;
}

/** What the remote half of start-up needs (the recorder opens only this half). */
export type ExchangeDeps = Pick<OpenResourcesDeps, 'env' | 'log' | 'scheduler' | 'httpObserver' | 'onSecret' | 'dryRun' | 'signal'>;

/** The remote half: the venue, the exchange client (profile) and the traded markets, recorded in `opened` as they open. */
export async function openExchange(config: AppConfig, deps: ExchangeDeps, opened: OpenedResources): Promise<Pick<BotResources, 'venue' | 'client' | 'markets'>> {
  const { log } = deps;
  const venue = await openVenue(config, deps.env, sharesSessionClock(config) ? deps.scheduler : undefined);
  opened.venue = venue;
  throwIfStopping(deps.signal, 'the venue');
  for (const secret of [venue.credentials.secret, venue.privateKey]) deps.onSecret?.(secret);
  log.info({ venue: venue.kind, baseUrl: venue.baseUrl, dryRun: deps.dryRun }, 'venue open');

  const startupRead = <T>(what: string, read: () => Promise<T>): Promise<T> => retryStartup(config, deps, what, read);
  // A stop while connecting: the transport is closed at once, so a request in flight ends now, not at its timeout.
  let transport: HttpTransport | null = null;
  const closeOnStop = (): void => transport?.abort();
  deps.signal?.addEventListener('abort', closeOnStop, { once: true });
  try {
    return await connectAndSelect(config, deps, opened, venue, startupRead, (t) => {
      transport = t;
      if (deps.signal?.aborted === true) t.abort();
    });
  } finally {
    deps.signal?.removeEventListener('abort', closeOnStop);
  }
}

async function connectAndSelect(
  config: AppConfig,
  deps: ExchangeDeps,
  opened: OpenedResources,
  venue: OpenVenue,
  startupRead: <T>(what: string, read: () => Promise<T>) => Promise<T>,
  onTransport: (transport: HttpTransport) => void,
): Promise<Pick<BotResources, 'venue' | 'client' | 'markets'>> {
  const { log } = deps;
  const client = await connectExchange({
    onTransport,
    baseUrl: venue.baseUrl,
    credentials: venue.credentials,
    headerPrefix: venue.headerPrefix,
    signer: {
      privateKey: venue.privateKey,
      // Order signatures in a worker thread: a requote wave's secp256k1 work never holds the event loop (issue 43).
      signingThread: 'worker',
      onSigningFallback: (reason) => log.error({ reason }, 'order signing: the worker stopped; signing on the main thread'),
      signatureType: venue.signatureType,
      priceBand: config.venue.priceBand,
      ...(venue.domainName === undefined ? {} : { domainName: venue.domainName }),
      ...(venue.chainId === undefined ? {} : { chainId: venue.chainId }),
    },
    transport: {
      limits: { maxConcurrent: config.rateLimits.maxConcurrent, minTimeMs: config.rateLimits.minTimeMs },
      // One limit per API token across every bot on it (Redis), when configured: docs/rate-limits.md.
      ...sharedTransportOptions(config.rateLimits.shared, deps.env),
      retry: transportRetryPolicy(config.rateLimits.retry),
      timeoutMs: config.rateLimits.timeoutMs,
      observer: deps.httpObserver,
      // Signed timestamps on the session clock the embedded simulator checks them against.
      ...(sharesSessionClock(config) ? { now: () => deps.scheduler.now() } : {}),
    },
    ...(venue.onBehalfOf === null ? {} : { onBehalfOf: venue.onBehalfOf }),
    // One unit of history amounts for the run (configured, or detected once and said at INFO).
    historyAmounts: new HistoryAmounts(config.venue.units.historyAmounts, log.child({ component: 'account-history' })),
    startupRead: (read) => startupRead('profile', read),
  });
  opened.client = client;
  throwIfStopping(deps.signal, 'the profile');
  log.info({ ownerId: client.api.profileId, maker: client.signer.makerAddress }, 'profile loaded');

  const markets = await startupRead('markets', () => resolveMarkets(client.api, config.markets, log, { nowMs: deps.scheduler.now(), feedIds: config.pricing.feedIds }));
  throwIfStopping(deps.signal, 'the market selection');
  // A selection by rules (or every active market) may match nothing yet: the bot waits for new listings (discovery).
  // A static list of slugs that matches nothing never will.
  if (markets.length === 0 && isStaticSelection(config.markets)) throw new Error('markets: the selection matched no tradable market');
  if (markets.length === 0) log.warn('markets: no market matches the selection yet; waiting for new listings');
  else log.info({ markets: markets.map((m) => m.slug) }, 'markets selected');
  const stopNeedsMs = stopCostMs(markets.length, config.rateLimits.minTimeMs);
  if (config.shutdown.budgetMs < stopNeedsMs) {
    // One cancel request per market at the rate limit: a budget below it ends a stop with orders resting.
    log.warn({ budgetMs: config.shutdown.budgetMs, stopNeedsMs, markets: markets.length }, 'shutdown.budgetMs is below what a stop of these markets takes at the rate limit: raise it (or leave it unset: it is then derived)');
  }
  opened.markets = markets;
  return { venue, client, markets };
}

/** How long closing waits for requests already sent to get their answers before the venue closes. */
export const CLOSE_DRAIN_MS = 2_000;

/**
 * Closes what was opened, in the stated order. The client closes before the venue: from then on no request is sent
 * (one not yet sent is refused unsent), and the venue (the embedded simulator) closes only once the requests already
 * sent have their answers (at most `drainMs`), so no request meets a closed venue.
 */
export async function closeResources(opened: OpenedResources, drainMs = CLOSE_DRAIN_MS): Promise<void> {
  opened.ledger?.close();
  await opened.metricsServer?.close();
  const transport = opened.client?.transport;
  if (transport !== undefined) {
    transport.close();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([transport.whenIdle(), new Promise<void>((resolveWait) => (timer = setTimeout(resolveWait, drainMs)))]);
    clearTimeout(timer);
    // A request the venue did not answer within the drain is given up (it would hold the process to its timeout).
    transport.abort();
  }
  await opened.client?.signer.close();
  await opened.venue?.close();
}

/** The venue's address as logs and errors name it. */
export function venueUrlOf(config: AppConfig): string {
  return config.venue.kind === 'live' ? config.venue.baseUrl : 'the embedded simulator';
}

/**
 * A start-up read, retried with the limiter's backoff while the account is busy, and for at most
 * `startup.venueTimeoutSec` while the venue does not answer at all (src/venue/startup-retry.ts).
 */
export function retryStartup<T>(config: AppConfig, deps: Pick<OpenResourcesDeps, 'scheduler' | 'log' | 'signal'>, what: string, read: () => Promise<T>): Promise<T> {
  const retry = config.rateLimits.retry;
  const url = venueUrlOf(config);
  return retryStartupRead(what, read, {
    initialBackoffMs: retry.initialBackoffMs,
    maxBackoffMs: retry.maxBackoffMs,
    budgetMs: STARTUP_READ_BUDGET_MS,
    venue: { url, unreachableBudgetMs: config.startup.venueTimeoutMs, now: () => deps.scheduler.now() },
    sleep: (ms) => abortableSleep(deps.scheduler, ms, deps.signal, what),
    onRetry: (step, attempt, waitMs, error) =>
      deps.log.warn(
        { step, attempt, waitMs, venue: url, ...(error instanceof NetworkError ? { cause: noAnswerCause(error.failure, error.message) } : {}), err: errorText(error) },
        startupRetryMessage(error),
      ),
  });
}

/** Binds the metrics port and writes the control file (preflight: before the ledger and any request to the venue). */
async function openMetricsServer(config: AppConfig, deps: OpenResourcesDeps): Promise<MetricsServerHandle> {
  try {
    return await startMetrics(config, deps);
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : null;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new MetricsPortError(config.metrics.host, config.metrics.port, code, deps.metricsPortSetBy ?? null);
    throw error;
  }
}

async function startMetrics(config: AppConfig, deps: OpenResourcesDeps): Promise<MetricsServerHandle> {
  const controlPath = controlFilePath(config.database.path);
  const server = await startMetricsServer({
    host: config.metrics.host,
    port: config.metrics.port,
    registry: deps.registry,
    readiness: deps.readiness,
    ...(deps.status === undefined ? {} : { status: deps.status }),
    ...(controlPath === null
      ? {}
      : {
          control: {
            filePath: controlPath,
            resume: () => (deps.resume() ? { resumed: true as const, wasPaused: true } : { resumed: false as const, reason: 'not paused' }),
          },
        }),
  });
  deps.log.info({ url: server.url }, 'metrics server listening');
  return server;
}
