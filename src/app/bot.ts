/**
 * The bot: one running instance of a validated config. Start: the strategy is loaded and checked → resources are
 * opened (src/app/resources.ts: ledger, metrics port and control file before any request to the venue; then venue,
 * client, markets) → every component is composed and started in its boot order (src/app/compose.ts). Stop: the
 * components stop in their stop order (quoting stops, the executor cancels the bot's orders within the budget, feed
 * and books close, ledger writers close) → the run summary → resources close (ledger, metrics server, client,
 * venue).
 *
 * Owns: the lifecycle (idle → started → stopping) and the run summary. Invariants: stop is idempotent and safe at any
 * point of a failed start (exactly what was opened is closed); a stop requested while the bot is still starting ends the
 * start at its next step (every start-up wait is aborted: src/app/start-abort.ts, the start then rejects with
 * StartAbortedError), cancels whatever the start had already adopted or placed, and closes what was opened; the summary's counts come from their owners
 * (telemetry: requests; the fill recorder: fills and volume; the ledger: PnL; the executor: open orders).
 */
import { Registry } from 'prom-client';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/types.js';
import { validateStrategy } from '../config/index.js';
import { systemScheduler, type Scheduler } from '../core/clock.js';
import { sessionClockFor } from '../venue/session-clock.js';
import { sharedLimitDegraded } from '../exchange/shared-limiter-config.js';
import { createMetrics, type Metrics, type ReadinessState } from '../metrics/index.js';
import { composeBot, type ComposedBot } from './compose.js';
import { liveChainPort } from '../capital/chain-port-config.js';
import { errorText } from '../core/errors.js';
import { packageVersion, runningCode } from '../core/package-info.js';
import { CLOSE_DRAIN_MS, closeResources, openResources, venueUrlOf, type OpenedResources } from './resources.js';
import { VenueReachability } from '../venue/venue-reachability.js';
import { wireTelemetry, type Telemetry } from '../operator/telemetry.js';
import type { OpenVenue } from '../venue/venue.js';
import { throwIfStopping } from './start-abort.js';
import type { QuotingTotals } from '../operator/quoting-time.js';
import { AuthRefusalCounter, CredentialsRefusedError, likelyCredentialCause, type RefusalSource } from '../venue/credentials-check.js';

export interface BotOptions {
  readonly dryRun: boolean;
  readonly logger: Logger;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly scheduler?: Scheduler;
  /** Called with each secret once resolved, so the log censor can mask it. */
  readonly onSecret?: (value: string) => void;
  /** How often the daily loss is checked besides on every fill (default 5 s; tests lengthen it to pin the moment). */
  readonly killSwitchCheckIntervalMs?: number;
  /** How often positions, PnL and marks are published besides soon after a fill (default PUBLISH_POSITIONS_EVERY_MS; tests lengthen it to pin the moment). */
  readonly positionsPublishEveryMs?: number;
  /** Runs once the metrics port is bound, before the ledger is opened (the paper session's ledger rotation). */
  readonly beforeLedger?: () => void;
  /** Where `metrics.port` came from when not the file (`--metrics-port`, `OM_METRICS_PORT`), for the busy-port error. */
  readonly metricsPortSetBy?: string;
}

export interface BotSummary {
  readonly fills: number;
  readonly volumeRaw: number;
  readonly realizedPnlRaw: number;
  readonly unrealizedPnlRaw: number;
  readonly requests: number;
  readonly rateLimited: number;
  /** Orders the venue accepted this run. */
  readonly placed: number;
  readonly openOrders: number;
  /** Where the run's time went, from the strategy runner's start to the stop (null: quoting never started). */
  readonly quoting: QuotingTotals | null;
}

/** How long a stop waits for a start that is still opening resources to reach its next step. */
export const STOP_WAITS_FOR_START_MS = 2_000;

export class Bot {
  readonly registry = new Registry();
  readonly metrics: Metrics;
  private readonly telemetry: Telemetry;
  /** Whether the venue answers the bot's requests (/readyz, and one plain log line per outage). */
  private readonly reachability: VenueReachability;
  private readonly scheduler: Scheduler;
  private readonly log: Logger;
  /** Resources as they are opened (a failed start closes exactly these). */
  private readonly opened: OpenedResources = {};
  /** The composed components, once every resource is open. */
  private app: ComposedBot | null = null;
  private stopping = false;
  /** Where the run's time went, read when the stop began. */
  private quotingAtStop: QuotingTotals | null = null;
  /** Aborted by `stop`: a start in progress goes no further. */
  private readonly abort = new AbortController();
  /** The start in progress (settled or not), for `stop` to wait on before closing what it opened. */
  private starting: Promise<void> | null = null;
  /** 401/403 answers and feed refusals in a row (metric; at risk.maxAuthRefusals placements stop). */
  private readonly refusals: AuthRefusalCounter;
  /** Until the first quote cycle is done, a feed refusal is a start-up refusal: the run stops (exit 2). */
  private startPhase = true;
  private failWith!: (error: CredentialsRefusedError) => void;
  /** Resolves with the error that ends the run (credentials refused by the feed at start-up). */
  private readonly failed = new Promise<CredentialsRefusedError>((resolve) => {
    this.failWith = resolve;
  });
  private stopRequested!: () => void;
  /** Resolves when a stop is requested. */
  private readonly stopRequestedPromise = new Promise<void>((resolve) => {
    this.stopRequested = resolve;
  });

  constructor(
    readonly config: AppConfig,
    private readonly options: BotOptions,
  ) {
    // A paper session may run on a clock shared with its simulator (venue.startBeforeHourSec: src/venue/session-clock.ts).
    this.scheduler = options.scheduler ?? sessionClockFor(config.venue) ?? systemScheduler;
    this.log = options.logger;
    this.metrics = createMetrics({ registry: this.registry, version: packageVersion(), code: runningCode() });
    this.telemetry = wireTelemetry(this.metrics, this.log);
    this.reachability = new VenueReachability({ url: venueUrlOf(config), log: this.log, now: () => this.scheduler.now() });
    this.refusals = new AuthRefusalCounter({
      limit: config.risk.maxAuthRefusals,
      onRefusal: (source) => {
        if (source === 'rest') this.metrics.restAuthRefused();
      },
      onLimit: (count, source) => this.refusalLimitReached(count, source),
    });
  }

  /** Resolves when the run must end on an error of its own (the feed refused the credentials at start-up). */
  whenFailed(): Promise<CredentialsRefusedError> {
    return this.failed;
  }

  private get headerPrefix(): string {
    return this.opened.venue?.headerPrefix ?? (this.config.venue.kind === 'live' ? this.config.venue.headerPrefix : 'svc');
  }

  private feedRefused(message: string): void {
    this.refusals.feedRefused();
    if (!this.startPhase || this.stopping) return;
    const cause = likelyCredentialCause({ status: null, message, headerPrefix: this.headerPrefix });
    this.failWith(new CredentialsRefusedError('feed', null, cause, message));
  }

  /** Mid-run: the venue refused the credentials `count` times in a row: no more placements until an operator resumes. */
  private refusalLimitReached(count: number, source: RefusalSource): void {
    const cause = likelyCredentialCause({ status: null, message: '', headerPrefix: this.headerPrefix });
    const detail = `credentials refused ${count} times in a row (last on the ${source === 'rest' ? 'REST API' : 'market feed'}): ${cause}`;
    this.log.error({ refusals: count, limit: this.config.risk.maxAuthRefusals, source }, `${detail}; placements stopped (kill switch), resume once fixed`);
    this.app?.components.killSwitch.trip(detail, 'credentials');
  }

  get simulator(): OpenVenue['simulator'] {
    return this.opened.venue?.simulator ?? null;
  }

  /** Whether start-up got as far as opening the venue (before that, no order can exist and nothing was sent). */
  get venueTouched(): boolean {
    return this.opened.venue !== undefined;
  }

  get metricsUrl(): string | null {
    return this.opened.metricsServer?.url ?? null;
  }

  /**
   * Starts everything; resolves once the strategy runner started (see `whenQuoting` for the first quotes). Rejects with
   * StartAbortedError when `stop` is called before that.
   */
  start(): Promise<void> {
    this.starting ??= this.startSequence();
    return this.starting;
  }

  private async startSequence(): Promise<void> {
    const config = this.config;
    const signal = this.abort.signal;
    const strategyCheck = await validateStrategy(config);
    if (!strategyCheck.ok) throw new Error(`strategy: ${strategyCheck.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
    const strategy = strategyCheck.module.create(strategyCheck.params);
    const resources = await openResources(
      config,
      {
        env: this.options.env,
        log: this.log,
        scheduler: this.scheduler,
        registry: this.registry,
        ledgerObserver: this.telemetry.ledger,
        httpObserver: {
          ...this.telemetry.http,
          onRequestEnd: (endpoint, status, ms, attempt) => {
            this.telemetry.http.onRequestEnd?.(endpoint, status, ms, attempt);
            this.refusals.answer(endpoint, status);
            this.reachability.observer.onRequestEnd(endpoint, status, ms, attempt);
          },
          onNoAnswer: this.reachability.observer.onNoAnswer,
        },
        readiness: () => this.readiness(),
        resume: () => this.resume(),
        status: () => this.app?.status() ?? null,
        ...(this.options.onSecret === undefined ? {} : { onSecret: this.options.onSecret }),
        ...(this.options.beforeLedger === undefined ? {} : { beforeLedger: this.options.beforeLedger }),
        ...(this.options.metricsPortSetBy === undefined ? {} : { metricsPortSetBy: this.options.metricsPortSetBy }),
        dryRun: this.options.dryRun,
        signal,
      },
      this.opened,
    );
    throwIfStopping(signal, 'the composition');
    // Live, the wallet's winnings and complete sets come back on-chain (src/capital/); without a port the core is off.
    const chain = liveChainPort(config, this.options.env, this.log, { dryRun: this.options.dryRun });
    if (chain.port !== null) void chain.port.check().catch((error: unknown) => this.log.warn({ err: errorText(error) }, 'on-chain settlement: the chain check failed; redemptions and merges wait for it (quoting goes on)'));
    else if (config.venue.kind === 'live' && !this.options.dryRun && config.capital.mode !== 'off') this.log.warn({ reason: chain.reason }, 'on-chain settlement off: resolved winnings and complete sets stay in their tokens');
    const app = composeBot(config, {
      resources,
      strategy,
      metrics: this.metrics,
      telemetry: this.telemetry,
      scheduler: this.scheduler,
      log: this.log,
      dryRun: this.options.dryRun,
      stopping: () => this.stopping,
      signal,
      ...(chain.port === null ? {} : { chainPort: chain.port }),
      ...(this.options.killSwitchCheckIntervalMs === undefined ? {} : { killSwitchCheckIntervalMs: this.options.killSwitchCheckIntervalMs }),
      ...(this.options.positionsPublishEveryMs === undefined ? {} : { positionsPublishEveryMs: this.options.positionsPublishEveryMs }),
    });
    this.app = app;
    app.components.feed.onAuthChange((state, message) => (state === 'failed' ? this.feedRefused(message ?? '') : this.refusals.accepted()));
    void app.components.runner.whenFirstCycleDone().then(() => (this.startPhase = false));
    await app.start();
    this.reachability.running();
  }

  /** Resolves after the first quote cycle in every market with a book, or once a stop is requested. */
  whenQuoting(): Promise<void> {
    return Promise.race([this.app?.components.runner.whenFirstCycleDone() ?? Promise.resolve(), this.stopRequestedPromise]);
  }

  /** Lifts a kill-switch pause (the `resume` command and SIGUSR2 land here). */
  resume(): boolean {
    const killSwitch = this.app?.components.killSwitch;
    if (!killSwitch?.status().tripped) return false;
    killSwitch.resume();
    return true;
  }

  /** Stop quoting, cancel the bot's orders (unless configured to leave them), flush, close. Idempotent. */
  async stop(): Promise<{ clean: boolean; summary: BotSummary }> {
    if (this.stopping) return { clean: false, summary: this.summary() };
    const stopStartedAt = this.scheduler.now();
    this.stopping = true;
    this.abort.abort();
    this.stopRequested();
    // Still opening resources: let that step end (its waits are aborted) so nothing opens after the close below; a
    // request in flight that the venue does not answer is not waited for past STOP_WAITS_FOR_START_MS.
    if (this.app === null && this.starting !== null) {
      let cancel = (): void => undefined;
      const bound = new Promise<void>((resolve) => {
        cancel = this.scheduler.schedule(Math.min(STOP_WAITS_FOR_START_MS, this.config.shutdown.budgetMs / 4), resolve);
      });
      await Promise.race([this.starting.catch(() => undefined), bound]);
      cancel();
    }
    // One deadline for the whole stop (app.ts exits hard at the budget + 0.5 s): each step after the cancels gets
    // what is left of it, so none can hold the stop past the budget and cost the summary.
    const deadline = stopStartedAt + this.config.shutdown.budgetMs;
    // The run's time is counted to the stop's start: the cancels are not time quoting.
    this.quotingAtStop = this.app?.quoting() ?? null;
    const { clean } = this.app === null ? { clean: true } : await this.app.stop(deadline);
    const summary = this.summary();
    await closeResources(this.opened, Math.min(CLOSE_DRAIN_MS, Math.max(0, deadline - this.scheduler.now() - 250)));
    return { clean, summary };
  }

  summary(): BotSummary {
    let realized = 0;
    let unrealized = 0;
    try {
      const pnl = this.opened.ledger?.pnl();
      realized = pnl?.totals.realizedRaw ?? 0;
      unrealized = pnl?.totals.unrealizedRaw ?? 0;
    } catch {
      // a closed ledger: figures stay 0
    }
    const fills = this.app?.components.fills.tally() ?? { fills: 0, volumeRaw: 0 };
    return {
      ...fills,
      realizedPnlRaw: realized,
      unrealizedPnlRaw: unrealized,
      ...this.telemetry.tally(),
      openOrders: this.app?.components.executor.openOrders().length ?? 0,
      quoting: this.quotingAtStop ?? this.app?.quoting() ?? null,
    };
  }

  /** Readiness for /readyz: the components' once composed; before that, not connected. */
  private readiness(): ReadinessState {
    const venueUnreachable = this.reachability.readinessReason();
    if (this.app !== null) return { ...this.app.readiness(), venueUnreachable };
    return { feedConnected: false, staleMarkets: [], paused: false, pauseReason: null, venueUnreachable, degraded: sharedLimitDegraded(this.opened.client?.transport.limiter.sharedState() ?? null) };
  }
}
