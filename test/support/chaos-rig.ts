/**
 * The chaos rig: one simulator in the test process (synthetic flow driven by the rig's own timer, so it can be
 * paused to let the account settle), the real bot as a child process on a `live` config pointing at it, an
 * exposure sampler, and the readers that turn the venue's and the ledger's state into the plain data of
 * chaos-invariants.ts.
 *
 * Owns: the scenario lifecycle (start, launch/kill/restart the bot, flow on/off, settle, final checks, close).
 * Invariants: every process the rig spawns is stopped by `close()`; the simulator outlives every bot process;
 * `settle()` polls until every invariant holds or its timeout passes and then reports what still fails.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { z } from 'zod';
import { sharesToRaw } from '../../src/core/venue-rules/index.js';
import { openLedger } from '../../src/ledger/index.js';
import type { RunningSimulator, StartSimulatorOptions } from '../../src/sim/index.js';
import type { SyntheticOptions } from '../../src/sim/engine/index.js';
import { isQuotingLine, simMarketSlugs, spawnBot, startProcessSimulator, writeBotConfig, type BotConfigOverrides, type BotProcess } from './bot-process.js';
import {
  exposureUtilization,
  exposureViolations,
  fillViolations,
  modeViolations,
  orphanViolations,
  positionViolations,
  rateLimitViolations,
  slotViolations,
  hopArrivals,
  type ExposureLimits,
  type HopReceipt,
  type LedgerFillRow,
  type LedgerOpenOrder,
  type LoggedRequest,
  type LoopStall,
  type MarketExposure,
  type ModeWindow,
  type TokenBalance,
  type VenueFill,
  type VenueLiveOrder,
} from './chaos-invariants.js';
import { startStallRecorder, type StallRecorder } from './chaos-stalls.js';

export const CHAOS_BOT_TAG = 'chaos';

/** Limits of the chaos config, in shares/USDC as written in the YAML; tight enough that fills reach them. */
export const CHAOS_RISK = { maxPositionPerToken: 30, maxNetPosition: 20, maxOpenOrders: 4, maxNotional: 60, dailyLossLimit: 1000 } as const;

export const CHAOS_LIMITS: ExposureLimits = {
  maxPositionPerTokenRaw: sharesToRaw('maxPositionPerToken', CHAOS_RISK.maxPositionPerToken),
  maxNetPositionRaw: sharesToRaw('maxNetPosition', CHAOS_RISK.maxNetPosition),
  maxOpenOrders: CHAOS_RISK.maxOpenOrders,
  maxNotionalRaw: sharesToRaw('maxNotional', CHAOS_RISK.maxNotional),
};

/** Synthetic flow busy enough that the bot's quotes trade within seconds. */
export const CHAOS_FLOW: SyntheticOptions = {
  stepMs: 200,
  fairValue: { volatilityPerSqrtHour: 1, jumpsPerHour: 10, jumpStdLogOdds: 0.2 },
  noise: { ratePerMinute: 90, minSizeRaw: 1_000_000, maxSizeRaw: 6_000_000 },
  informed: { ratePerMinute: 30, edgeTicks: 4, maxSizeRaw: 8_000_000 },
};

export interface ChaosRigOptions {
  readonly name: string;
  readonly seed: number;
  /** Markets the bot trades (default 2 of the simulator's 6; the last ones form a group the bot leaves out). */
  readonly botMarkets?: number;
  readonly flow?: SyntheticOptions;
  readonly sim?: StartSimulatorOptions;
  readonly overrides?: BotConfigOverrides;
}

export interface InvariantReport {
  readonly violations: readonly string[];
  readonly liveOrders: number;
  readonly venueFills: number;
  readonly standIns: number;
  /** Limiter 429s explained by a stall of the simulator's own loop (see rateLimitViolations). */
  readonly rateLimitNoise: readonly string[];
}

const quotingLineSchema = z.object({ metrics: z.string().nullable() }).loose();
const fillRowSchema = z.object({
  trade_event_id: z.string(),
  order_id: z.string(),
  size_raw: z.number().int(),
  state: z.enum(['provisional', 'mined', 'failed']),
  source: z.enum(['venue', 'reconcile']),
  kind: z.enum(['trade', 'adjustment']),
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Error lines that mean a bug whatever the scenario (a hook or a component threw): the chaos faults explain venue
 * failures, never these.
 */
const BUG_MESSAGES = [
  'onFill failed',
  'onOrderChange failed',
  'order event failed',
  'plan failed',
  'observer hook failed',
  'quote cycle failed',
  'status lookup loop failed',
  'could not record the resolution in the ledger',
  'strategy threw',
];

/** The bot's config for chaos: tight limits, fast polls and watchdogs, the chaos tag. */
export function chaosOverrides(extra: BotConfigOverrides = {}): BotConfigOverrides {
  return {
    botTag: CHAOS_BOT_TAG,
    strategy: { name: 'fixed-spread', params: { bidSpread: 0.01, askSpread: 0.01, levels: 1, orderSize: 5, inventoryRange: 20 } },
    risk: { ...CHAOS_RISK, staleGraceSec: 1, socketDownGraceSec: 2 },
    orders: { filledOrderDelaySec: 1, refreshTolerance: { priceTicks: 2 } },
    maintenance: { pollIntervalSec: 1 },
    // Short enough that an injected delay turns answers into timeouts (outcome unknown) within a scenario.
    rateLimits: { timeoutMs: 2000 },
    feed: { watchdogIntervalSec: 0.5, quietThresholdSec: 2, staleAfterSec: 4 },
    shutdown: { budgetMs: 8000 },
    ...extra,
  };
}

export class ChaosRig {
  bot: BotProcess | null = null;
  metricsUrl: string | null = null;
  readonly exposure: string[] = [];
  readonly windows: ModeWindow[] = [];
  private flowTimer: NodeJS.Timeout | null = null;
  private sampleTimer: NodeJS.Timeout | null = null;
  private samples = 0;
  /** Highest share of a position limit the worst case reached in any sample (1 = at the limit). */
  peakUtilization = 0;
  private readonly processes: BotProcess[] = [];
  /** Stalls of this process's event loop (the simulator's), for telling rate-limit noise from real 429s. */
  private readonly stallRecorder: StallRecorder = startStallRecorder();
  /** A hop in front of the simulator's REST API (useRestBaseUrl), whose receipts the rate-limit rule judges. */
  private hop: { receipts(): readonly HopReceipt[] } | null = null;

  private constructor(
    readonly name: string,
    readonly seed: number,
    readonly sim: RunningSimulator,
    readonly slugs: readonly string[],
    readonly paths: { readonly configPath: string; readonly dbPath: string; readonly dir: string },
    private readonly flowStepMs: number,
    private readonly connections: { readonly count: number },
  ) {}

  get stalls(): readonly LoopStall[] {
    return this.stallRecorder.stalls;
  }

  static async start(options: ChaosRigOptions): Promise<ChaosRig> {
    const flow = { ...(options.flow ?? CHAOS_FLOW), autoStep: false };
    const connections = { count: 0 };
    const sim = await startProcessSimulator({
      seed: options.seed,
      markets: 6,
      settlementDelayMs: 300,
      synthetic: flow,
      hooks: { onSocketConnection: () => (connections.count += 1) },
      ...options.sim,
    });
    const slugs = simMarketSlugs(sim, options.botMarkets ?? 2);
    const paths = writeBotConfig(sim, chaosOverrides({ markets: slugs, ...options.overrides }));
    const rig = new ChaosRig(options.name, options.seed, sim, slugs, paths, flow.stepMs ?? 200, connections);
    // A few rounds so the synthetic makers have a book before the bot looks.
    for (let i = 0; i < 3; i += 1) sim.control.syntheticStep();
    return rig;
  }

  /**
   * A rig in the state most scenarios start from: exposure sampled, synthetic flow on, the bot launched and quoting.
   * Closed again if the launch fails.
   */
  static async launched(options: ChaosRigOptions): Promise<ChaosRig> {
    const rig = await ChaosRig.start(options);
    try {
      rig.startSampling();
      rig.flowOn();
      await rig.launch();
    } catch (error) {
      await rig.close();
      throw error;
    }
    return rig;
  }

  get profileId(): number {
    return this.sim.demoAccount.profileId;
  }

  /**
   * Points the bot's REST calls at `baseUrl` (e.g. a hostile proxy in front of the simulator); the socket stays. With
   * `hop` (the proxy's receipts), the rate-limit invariant also judges when the requests reached the proxy
   * (`hopArrivals`).
   */
  useRestBaseUrl(baseUrl: string, hop?: { receipts(): readonly HopReceipt[] }): void {
    this.hop = hop ?? null;
    const config = z.object({ venue: z.object({}).loose() }).loose().parse(parse(readFileSync(this.paths.configPath, 'utf8')));
    writeFileSync(this.paths.configPath, stringify({ ...config, venue: { ...config.venue, baseUrl } }));
  }

  /** Spawns the bot without waiting for anything (to kill it at a random moment of its start-up). */
  spawn(): BotProcess {
    // At the test's own priority: a lower one starves the bot behind any other load on the machine (its start-up then
    // outlasts the launch bound); the simulator's late stamps are told by its recorded stalls (`stalls`).
    const bot = spawnBot(this.sim, this.paths.configPath);
    this.bot = bot;
    this.processes.push(bot);
    this.metricsUrl = null;
    return bot;
  }

  /** Spawns the bot and waits for its first quote cycle. */
  async launch(timeoutMs = 30_000): Promise<BotProcess> {
    const bot = this.spawn();
    const line = await bot.waitForLine(isQuotingLine, timeoutMs);
    const parsed = quotingLineSchema.safeParse(JSON.parse(line));
    this.metricsUrl = parsed.success ? parsed.data.metrics : null;
    return bot;
  }

  /** SIGKILL: no cleanup at all, the bot's orders stay on the venue. */
  async kill(): Promise<void> {
    if (this.bot) await this.bot.stop('SIGKILL');
    this.bot = null;
  }

  /** SIGTERM; resolves with the exit code and how long the exit took. */
  async terminate(): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
    const bot = this.bot;
    if (!bot) throw new Error('no bot running');
    const result = await bot.stop('SIGTERM');
    this.bot = null;
    return result;
  }

  flowOn(): void {
    if (this.flowTimer) return;
    this.flowTimer = setInterval(() => this.sim.control.syntheticStep(), this.flowStepMs);
  }

  flowOff(): void {
    if (this.flowTimer) clearInterval(this.flowTimer);
    this.flowTimer = null;
  }

  /** Samples the venue's view of the account's exposure every `everyMs`; violations collect in `exposure`. */
  startSampling(everyMs = 150): void {
    if (this.sampleTimer) return;
    this.sampleTimer = setInterval(() => {
      this.samples += 1;
      const markets = this.marketExposure();
      this.exposure.push(...exposureViolations(markets, CHAOS_LIMITS, `sample ${this.samples}`));
      this.peakUtilization = Math.max(this.peakUtilization, exposureUtilization(markets, CHAOS_LIMITS));
    }, everyMs);
  }

  /** Exposure samples taken so far. */
  get sampleCount(): number {
    return this.samples;
  }

  stopSampling(): number {
    if (this.sampleTimer) clearInterval(this.sampleTimer);
    this.sampleTimer = null;
    return this.samples;
  }

  /** Sets a trading-mode window on the venue (now + startsInMs → + durationMs) and remembers it for the mode check. */
  setMode(mode: ModeWindow['mode'], durationMs: number, startsInMs = 0): ModeWindow {
    const startsAtMs = this.sim.clock.now() + startsInMs;
    const resumeAtMs = startsAtMs + durationMs;
    this.sim.control.setTradingMode({ mode, resumeAtMs, ...(startsInMs > 0 ? { startsAtMs } : {}) });
    const window: ModeWindow = { mode, startsAtMs, resumeAtMs };
    this.windows.push(window);
    return window;
  }

  /** The bot's orders on the venue (any status) in one market created at or after `sinceMs`. */
  ordersCreatedSince(marketSlug: string, sinceMs: number): { readonly id: string; readonly postOnly: boolean; readonly createdAtMs: number }[] {
    return this.sim.engine
      .orders(this.profileId, marketSlug, ['LIVE', 'MATCHED', 'CANCELED', 'UNMATCHED'])
      .filter((o) => o.createdAtMs >= sinceMs)
      .map((o) => ({ id: o.id, postOnly: o.postOnly, createdAtMs: o.createdAtMs }));
  }

  /** Settles, and throws with the seed, the violations and the bot's recent output unless every invariant holds. */
  async verify(label: string, timeoutMs = 12_000): Promise<InvariantReport> {
    const report = await this.settle(timeoutMs);
    const requests = this.requests();
    console.log(
      `[chaos] ${this.name} / ${label}: ${report.violations.length === 0 ? 'ok' : `${report.violations.length} VIOLATIONS`}; ` +
        `${report.venueFills} fills (${report.standIns} via reconciliation stand-ins), ${report.liveOrders} live orders, ` +
        `${requests.length} requests, ${this.sampleCount} exposure samples (peak ${Math.round(this.peakUtilization * 100)}% of a position limit), ` +
        `${report.rateLimitNoise.length} limiter 429s explained by simulator stalls`,
    );
    if (report.violations.length > 0) {
      throw new Error(`[${this.name} / ${label}, seed ${this.seed}] invariants violated:\n  ${report.violations.slice(0, 30).join('\n  ')}\n${this.tail(20)}`);
    }
    return report;
  }

  /** Socket connections the simulator accepted so far (every bot process, every reconnect). */
  get socketConnections(): number {
    return this.connections.count;
  }

  /**
   * Freezes the push stream (the connection stays open, nothing arrives) until the bot gives up on that connection
   * and opens a new one, or `maxMs` passes; a new connection gets a working stream, as it would from a venue whose
   * old connection hung. Resolves with how long the bot took to reconnect (null if it never did).
   */
  async freezeUntilReconnect(scope: 'books' | 'all', maxMs: number): Promise<number | null> {
    const before = this.connections.count;
    const started = Date.now();
    this.sim.control.freezeFeed(scope);
    try {
      while (this.connections.count === before && Date.now() - started < maxMs) await sleep(20);
    } finally {
      this.sim.control.unfreezeFeed();
    }
    return this.connections.count === before ? null : Date.now() - started;
  }

  // ─────────────── reads ───────────────

  liveOrders(): VenueLiveOrder[] {
    return this.slugs.flatMap((slug) =>
      this.sim.engine.orders(this.profileId, slug, ['LIVE']).map((o) => ({
        marketSlug: slug,
        orderId: o.id,
        clientOrderId: o.clientOrderId,
        outcome: o.outcome,
        side: o.side,
        priceTicks: o.priceTicks ?? 0,
        remainingRaw: o.remainingSizeRaw,
      })),
    );
  }

  marketExposure(): MarketExposure[] {
    const positions = this.sim.control.positions(this.profileId);
    const live = this.liveOrders();
    return this.slugs.map((slug) => {
      const p = positions.find((x) => x.marketSlug === slug);
      return {
        marketSlug: slug,
        yesRaw: p?.yes.balanceRaw ?? 0,
        noRaw: p?.no.balanceRaw ?? 0,
        costRaw: (p?.yes.costBasisRaw ?? 0) + (p?.no.costBasisRaw ?? 0),
        live: live.filter((o) => o.marketSlug === slug),
      };
    });
  }

  venueFills(): VenueFill[] {
    return this.sim.control.accountTrades(this.profileId).map((f) => ({ tradeEventId: f.tradeEventId, orderId: f.orderId, sizeRaw: f.sizeRaw }));
  }

  venueBalances(): TokenBalance[] {
    const balances = this.sim.control.balances(this.profileId);
    return this.sim.engine.markets().flatMap((m) => [
      { marketSlug: m.slug, token: 'YES' as const, balanceRaw: balances.tokens[m.yesTokenId]?.totalRaw ?? 0 },
      { marketSlug: m.slug, token: 'NO' as const, balanceRaw: balances.tokens[m.noTokenId]?.totalRaw ?? 0 },
    ]);
  }

  requests(): LoggedRequest[] {
    const token = this.sim.demoAccount.tokenId;
    return this.sim.control
      .requestLog()
      .filter((r) => r.tokenId === token)
      .map((r) => ({ atMs: r.atMs, durationMs: r.durationMs, method: r.method, path: r.path, status: r.status, outcome: r.outcome, ...(r.signedAtMs === undefined ? {} : { signedAtMs: r.signedAtMs }) }));
  }

  /** The ledger's open orders, fills and balances (a separate read connection: safe while the bot runs). */
  ledgerView(): { open: LedgerOpenOrder[]; fills: LedgerFillRow[]; balances: TokenBalance[]; verify: string[] } {
    const ledger = openLedger({ path: this.paths.dbPath, mustExist: true });
    try {
      const rows = z.array(fillRowSchema).parse(ledger.db.prepare('SELECT trade_event_id, order_id, size_raw, state, source, kind FROM fills').all());
      return {
        open: ledger.openOrders().map((o) => ({ clientOrderId: o.clientOrderId, venueOrderId: o.venueOrderId })),
        fills: rows.map((r) => ({ tradeEventId: r.trade_event_id, orderId: r.order_id, sizeRaw: r.size_raw, state: r.state, source: r.source, kind: r.kind })),
        balances: ledger.tokenBalances().map((b) => ({ marketSlug: b.marketSlug, token: b.token, balanceRaw: b.balanceRaw })),
        verify: ledger.verify(),
      };
    } finally {
      ledger.close();
    }
  }

  /** Every invariant once, now. */
  check(): InvariantReport {
    const live = this.liveOrders();
    const ledger = this.ledgerView();
    const venueFills = this.venueFills();
    const fills = fillViolations(venueFills, ledger.fills);
    const requests = this.requests();
    const limited = rateLimitViolations(requests, { minIntervalMs: 300, stalls: this.stalls, ...(this.hop === null ? {} : { hop: hopArrivals(requests, this.hop.receipts()) }) });
    const violations = [
      ...slotViolations(live, CHAOS_BOT_TAG),
      ...orphanViolations(live, ledger.open, CHAOS_BOT_TAG),
      ...fills.violations,
      ...positionViolations(this.venueBalances(), ledger.balances),
      ...ledger.verify.map((v) => `ledger verify: ${v}`),
      ...limited.violations,
      ...modeViolations(requests, this.windows, { maxInFlight: 2, graceMs: 250 }),
      ...this.exposure,
      ...this.sim.control.invariants().map((v) => `simulator invariant: ${v}`),
      ...this.processes.flatMap((p) => p.lines.filter((line) => BUG_MESSAGES.some((m) => line.includes(`"msg":"${m}`))).map((line) => `bot error: ${line.slice(0, 400)}`)),
    ];
    return { violations, liveOrders: live.length, venueFills: venueFills.length, standIns: fills.standIns, rateLimitNoise: limited.noise };
  }

  /** Flow off, then polls `check()` until it passes (fills in flight land) or `timeoutMs` passes. */
  async settle(timeoutMs = 10_000): Promise<InvariantReport> {
    this.flowOff();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const report = this.check();
      if (report.violations.length === 0 || Date.now() > deadline) return report;
      await sleep(200);
    }
  }

  /** Polls until `probe` is true or fails after `timeoutMs` naming `what`. */
  async until(probe: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await probe())) {
      if (Date.now() > deadline) throw new Error(`[${this.name} seed ${this.seed}] timed out after ${timeoutMs} ms waiting for ${what}; last bot lines:\n${this.bot?.lines.slice(-10).join('\n') ?? '(no bot)'}`);
      await sleep(100);
    }
  }

  /** Reads the bot's /metrics (text exposition). */
  async metricsText(): Promise<string> {
    if (this.metricsUrl === null) throw new Error('the bot reported no metrics URL');
    const response = await fetch(`${this.metricsUrl}/metrics`);
    return response.text();
  }

  /** The bot's recent output, for failure messages. */
  tail(lines = 25): string {
    return this.processes.flatMap((p, i) => [`--- bot process ${i + 1} ---`, ...p.lines.slice(-lines)]).join('\n');
  }

  async close(): Promise<void> {
    // OM_CHAOS_LOG_DIR=<dir> keeps every bot process's output for a post-mortem.
    const logDir = process.env['OM_CHAOS_LOG_DIR'];
    if (logDir !== undefined && logDir !== '') {
      mkdirSync(logDir, { recursive: true });
      writeFileSync(join(logDir, `${this.name.replace(/[^a-z0-9-]/gi, '_')}-${this.seed}.log`), this.tail(Number.MAX_SAFE_INTEGER));
    }
    this.stallRecorder.stop();
    this.flowOff();
    this.stopSampling();
    for (const bot of this.processes) await bot.stop('SIGKILL', 2_000);
    await this.sim.close();
    rmSync(this.paths.dir, { recursive: true, force: true });
  }
}

/** Sum of one metric's samples whose label set contains every `labels` pair (0 when absent). */
export function metricValue(text: string, name: string, labels: Readonly<Record<string, string>> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    // Label values are quoted and may hold braces (`endpoint="GET /markets/{slug}"`).
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[^}"]|"(?:[^"\\]|\\.)*")*\})?\s+(\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const labelText = match[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => labelText.includes(`${k}="${v}"`))) total += Number(match[3]);
  }
  return total;
}
