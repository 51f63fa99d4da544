/**
 * Soak: the real bot (a child process: `outcome-maker run` on a `live` config) against the simulator in this process,
 * N markets (default 50) of synthetic flow for M minutes (default 2), at the venue's real rate limits. The bot's own
 * figures come from its /metrics (its process alone: prom-client's process and Node metrics, and the bot's), so the
 * simulator's cost does not pollute them:
 *   SQLite milliseconds per wall second on the bot's main thread (outcome_maker_ledger_sqlite_seconds_total: the
 *   ledger's write transactions whole, its reads per statement),
 *   RSS over time and its slope after warm-up (memory must not grow; also the slope of each minute's lowest RSS, the
 *   floor the GC returns to, which a saw-tooth cannot fake — it needs ≥ 3 minutes after warm-up), CPU seconds per
 *   wall second, event-loop delay
 *   p50/p99 (nodejs_eventloop_lag_*), book updates/s, requests/s, 429s (the bot's count and the venue limiter's),
 *   requote latency p50/p99 (outcome_maker_requote_latency_seconds, after warm-up: book change → plan, so it includes
 *   waiting for the market's previous plan, which waits for the venue's rate limit); `allQuotedWithinS`: from the
 *   bot's process start until every market has held a live order of the bot at the simulator (each market's first,
 *   polled every 250 ms; the target is 20 s for 50 markets); `allQuotedAtOnceWithinS`: until every market holds one at
 *   the same poll (the figure before session 37: the takers fill the first markets' orders while the last ones are
 *   placed, so it also measures that churn: 12–38 s in runs whose start-up was the same); `ownOrderListingsDoneWithinS`: from the same start until the bot's own-order listings,
 *   deferred behind the first quotes (orders.startupListing), are all applied (the window in which an order of the bot
 *   its ledger did not know could rest unnoticed).
 * Event-loop delay is prom-client's monitorEventLoopDelay with a 10 ms sampling timer: the figures include those 10 ms
 * (an idle loop reads ≈ 10.1 ms); `eventLoopExcess*` subtract them. A 429 from the venue's limiter is also checked
 * against stalls of the simulator's own loop here (test/support/chaos-invariants.ts), which stamp arrivals late.
 *
 *   npx tsx bench/soak.ts [markets] [minutes]        (or SOAK_MARKETS / SOAK_MINUTES; exports run() for bench/all.ts)
 *   SOAK_CPU_PROF=/tmp/prof npx tsx bench/soak.ts 50 2   (also a CPU profile of the bot: its top self-time functions)
 *   SOAK_STOP_IN_WAVE=1 npx tsx bench/soak.ts 50 2       (the stop comes in a requote wave of every market: the stop's worst
 *     case; SOAK_STOP_TRACE=1 also prints the requests the simulator received after the signal, by endpoint)
 *   SOAK_WORLD=crypto npx tsx bench/soak.ts 48 2         (the simulator's crypto world instead of generic markets: BTC, ETH,
 *     SOL, XRP × hourly and daily ladders × 6 strikes = 48 strike markets priced from the underlying, the Hermes stand-in;
 *     issue 43's profiling setup)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stringify } from 'yaml';
import { z } from 'zod';
import { openLedger } from '../src/ledger/index.js';
import { startSimulator, type RunningSimulator } from '../src/sim/index.js';
import type { RequestLogEntry } from '../src/sim/server/request-log.js';
import { cryptoWorldOptions } from '../src/sim/engine/index.js';
import { rateLimitViolations } from '../test/support/chaos-invariants.js';
import { startStallRecorder } from '../test/support/chaos-stalls.js';

const ROOT = resolve(import.meta.dirname, '..');
const SAMPLE_EVERY_MS = 5_000;

/** One scrape of the bot's /metrics: every sample as name{labels} → value. */
type Scrape = Map<string, number>;

interface Sample {
  readonly atS: number;
  readonly rssMb: number;
  readonly cpuSeconds: number;
  readonly lagP50Ms: number;
  readonly lagP99Ms: number;
  readonly bookUpdates: number;
  readonly requests: number;
  readonly limited: number;
  /** The ledger's SQLite seconds on the bot's main thread so far (outcome_maker_ledger_sqlite_seconds_total). */
  readonly sqliteSeconds: number;
}

function parseExposition(text: string): Scrape {
  const out: Scrape = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?)\s+(\S+)/.exec(line);
    if (match) out.set(match[1]!, Number(match[2]));
  }
  return out;
}

/** Sum of a metric's samples whose labels include every `labels` pair. */
function total(scrape: Scrape, name: string, labels: Readonly<Record<string, string>> = {}): number {
  let sum = 0;
  for (const [key, value] of scrape) {
    const brace = key.indexOf('{');
    const base = brace === -1 ? key : key.slice(0, brace);
    if (base !== name) continue;
    if (Object.entries(labels).every(([k, v]) => key.includes(`${k}="${v}"`))) sum += value;
  }
  return sum;
}

/** Cumulative histogram buckets (le → count) of one metric, all label sets summed. */
function buckets(scrape: Scrape, name: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const [key, value] of scrape) {
    if (!key.startsWith(`${name}_bucket{`)) continue;
    const le = /le="([^"]+)"/.exec(key)?.[1];
    if (le === undefined) continue;
    const bound = le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le);
    out.set(bound, (out.get(bound) ?? 0) + value);
  }
  return out;
}

/** Quantile of the observations between two scrapes (upper bucket bound: a conservative estimate). */
function quantileBetween(before: Map<number, number>, after: Map<number, number>, q: number): number {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const count = (after.get(Number.POSITIVE_INFINITY) ?? 0) - (before.get(Number.POSITIVE_INFINITY) ?? 0);
  if (count <= 0) return Number.NaN;
  for (const bound of bounds) if ((after.get(bound) ?? 0) - (before.get(bound) ?? 0) >= q * count) return bound;
  return Number.POSITIVE_INFINITY;
}

/** Least-squares slope of RSS over time, MB per minute. */
function slopeMbPerMin(samples: readonly Sample[]): number {
  if (samples.length < 3) return Number.NaN;
  const n = samples.length;
  const mx = samples.reduce((s, p) => s + p.atS, 0) / n;
  const my = samples.reduce((s, p) => s + p.rssMb, 0) / n;
  const num = samples.reduce((s, p) => s + (p.atS - mx) * (p.rssMb - my), 0);
  const den = samples.reduce((s, p) => s + (p.atS - mx) ** 2, 0);
  return den === 0 ? 0 : (num / den) * 60;
}

/** Slope of the lowest RSS of each minute (after warm-up), MB per minute: the floor the GC returns to. */
function floorSlopeMbPerMin(samples: readonly Sample[]): number {
  const floors = new Map<number, Sample>();
  for (const sample of samples) {
    const minute = Math.floor(sample.atS / 60);
    const floor = floors.get(minute);
    if (floor === undefined || sample.rssMb < floor.rssMb) floors.set(minute, sample);
  }
  return slopeMbPerMin([...floors.values()]);
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].filter(Number.isFinite).sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor(sorted.length / 2)]!;
};
const round = (value: number, digits = 2): number => (Number.isFinite(value) ? Math.round(value * 10 ** digits) / 10 ** digits : value);

/**
 * A ledger with history: one order of an earlier run, long canceled. A ledger that never recorded an order lists every
 * market first (src/markets/startup-listing.ts); the soak measures the default path of a bot restarted on its own ledger.
 */
function seedLedgerHistory(path: string, slug: string, tokenId: string): void {
  const ledger = openLedger({ path });
  try {
    const atMs = Date.now() - 86_400_000;
    ledger.recordOrder({ clientOrderId: 'soak-earlier-run-1', marketSlug: slug, slot: 'bid-0', token: 'YES', tokenId, side: 'BUY', priceTicks: 400, sizeRaw: 5_000_000, atMs });
    ledger.updateOrder({ clientOrderId: 'soak-earlier-run-1' }, { status: 'canceled', atMs: atMs + 1000 });
  } finally {
    ledger.close();
  }
}

function botConfig(sim: RunningSimulator, slugs: readonly string[], dir: string): string {
  const config = {
    version: 1,
    venue: { kind: 'live', baseUrl: sim.baseUrl, socketUrl: sim.socketUrl, headerPrefix: sim.headerPrefix },
    credentials: { apiTokenId: 'OM_SOAK_TOKEN_ID', apiSecret: 'OM_SOAK_SECRET', privateKey: 'OM_SOAK_PRIVATE_KEY' },
    markets: { slugs: [...slugs] },
    strategy: { name: 'fixed-spread', params: { bidSpread: 0.01, askSpread: 0.01, levels: 1, orderSize: 5, inventoryRange: 50 } },
    orders: { botTag: 'soak', refreshTolerance: { priceTicks: 2, size: '20%' } },
    risk: { maxPositionPerToken: 200, maxNetPosition: 100, maxOpenOrders: 4, maxNotional: 50_000, dailyLossLimit: 10_000 },
    metrics: { enabled: true, port: 0 },
    // The simulator's Pyth Hermes stand-in (a crypto world's markets are priced from it), never the public service.
    pricing: { hermes: { endpoint: sim.hermesUrl } },
    database: { path: join(dir, 'soak.db') },
    // info: the 'quoting' line carries the metrics URL.
    log: { level: 'info', pretty: false },
  };
  const path = join(dir, 'soak.yaml');
  writeFileSync(path, stringify(config));
  return path;
}

const quotingLine = z.object({ msg: z.literal('quoting'), metrics: z.string() }).loose();
const listingsDoneLine = z.object({ msg: z.literal('deferred own-order listings done') }).loose();

/**
 * Starts the bot and resolves with its /metrics base URL once it quotes; `onListingsDone` when its deferred own-order
 * listings are all applied. SOAK_LOG=FILE appends the bot's log lines to FILE.
 */
function spawnBot(sim: RunningSimulator, configPath: string, onListingsDone: () => void): { child: ChildProcess; ready: Promise<string> } {
  const logFile = process.env['SOAK_LOG'];
  const demo = sim.demoAccount;
  // SOAK_CPU_PROF=DIR: the bot writes a V8 CPU profile there when it exits (node --cpu-prof).
  const profile = process.env['SOAK_CPU_PROF'];
  const nodeArgs = profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profile}`];
  const child = spawn(process.execPath, [...nodeArgs, join(ROOT, 'bin', 'outcome-maker.mjs'), 'run', '--config', configPath], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      OM_SOAK_TOKEN_ID: demo.tokenId,
      OM_SOAK_SECRET: demo.secret,
      OM_SOAK_PRIVATE_KEY: demo.privateKey,
      PYTH_API_KEY: 'soak-key',
      OM_LOG_FORMAT: 'json',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The bot must not starve the venue's arrival clock (the simulator in this process): it yields the CPU first.
  if (child.pid !== undefined) setPriority(child.pid, 5);
  const ready = new Promise<string>((resolveReady, reject) => {
    const tail: string[] = [];
    const onLine = (buffer: Buffer): void => {
      for (const line of buffer.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        tail.push(line);
        if (tail.length > 20) tail.shift();
        if (logFile !== undefined) appendFileSync(logFile, `${line}\n`);
        try {
          const json: unknown = JSON.parse(line);
          const parsed = quotingLine.safeParse(json);
          if (parsed.success) resolveReady(parsed.data.metrics);
          if (listingsDoneLine.safeParse(json).success) onListingsDone();
        } catch {
          // not JSON (the summary on exit)
        }
      }
    };
    child.stdout?.on('data', onLine);
    child.stderr?.on('data', onLine);
    child.once('exit', (code) => reject(new Error(`the bot exited (${code}) before quoting:\n${tail.join('\n')}`)));
    setTimeout(() => reject(new Error(`the bot did not quote within 120 s:\n${tail.join('\n')}`)), 120_000).unref();
  });
  return { child, ready };
}

/** A request that takes orders off the book: the cancel endpoints (a requote's cancel-replace is not one). */
function isCancel(entry: RequestLogEntry): boolean {
  return entry.method === 'DELETE' || (entry.method === 'POST' && /^\/orders\/(batch-cancel|cancel-batch|cancel)(\?|$)/.test(entry.path));
}

/** What the simulator received after the signal: requests counted by method and path (ids and queries folded), first and last. */
function stopTrace(entries: readonly RequestLogEntry[], stoppedAt: number): string {
  const counts = new Map<string, { n: number; firstMs: number; lastMs: number }>();
  for (const entry of entries) {
    const key = `${entry.method} ${entry.path.replace(/\?.*$/, '').replace(/\/markets\/[^/]+\//, '/markets/{slug}/').replace(/^\/orders\/(?!batch-cancel|cancel|status|cancel-batch)[^/]+$/, '/orders/{id}').replace(/\/orders\/all\/[^/]+/, '/orders/all/{slug}')}`;
    const atMs = entry.atMs - stoppedAt;
    const seen = counts.get(key) ?? { n: 0, firstMs: atMs, lastMs: atMs };
    counts.set(key, { n: seen.n + 1, firstMs: seen.firstMs, lastMs: atMs });
  }
  const first = entries[0];
  const lines = [...counts].map(([key, c]) => `  ${c.n} × ${key} (+${c.firstMs} … +${c.lastMs} ms)`);
  return `soak stop: ${entries.length} requests after the signal${first === undefined ? '' : ` (the first ${first.atMs - stoppedAt} ms after it)`}:\n${lines.join('\n')}\n`;
}

/**
 * SIGTERM and the wait for the bot's exit (its shutdown sweep: shutdown.budgetMs, 10 s by default): how long from the
 * signal to the exit, the exit code, the bot's orders still LIVE at the venue afterwards (0 when the sweep was clean),
 * and how long from the signal until the simulator received the first cancel request (SOAK_STOP_TRACE=1: every request
 * received after the signal, counted by endpoint, on stderr).
 */
async function stopBot(
  child: ChildProcess,
  sim: RunningSimulator,
  slugs: readonly string[],
): Promise<{ readonly durationMs: number; readonly exitCode: number | null; readonly openOrders: number; readonly firstCancelMs: number | null }> {
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  if (process.env['SOAK_STOP_IN_WAVE'] === '1') await startWave(sim, slugs);
  const stoppedAt = Date.now();
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const exitCode = await exited;
  const durationMs = Date.now() - stoppedAt;
  clearTimeout(timer);
  const openOrders = slugs.reduce((sum, slug) => sum + sim.engine.orders(sim.demoAccount.profileId, slug, ['LIVE']).length, 0);
  const after = sim.control.requestLog().filter((entry) => entry.atMs >= stoppedAt);
  const firstCancel = after.find(isCancel);
  const firstCancelMs = firstCancel === undefined ? null : firstCancel.atMs - stoppedAt;
  process.stderr.write(`soak stop: ${durationMs} ms from SIGTERM to exit (code ${exitCode}), the first cancel request ${firstCancelMs ?? '(none)'} ms after it, ${openOrders} orders of the bot left live\n`);
  if (process.env['SOAK_STOP_TRACE'] === '1') process.stderr.write(stopTrace(after, stoppedAt));
  return { durationMs, exitCode, openOrders, firstCancelMs };
}

/**
 * SOAK_STOP_IN_WAVE=1: the stop comes in a requote wave. Every market's fair value jumps 40 ticks (toward the middle)
 * and the synthetic makers requote at once; the signal follows once the bot's first requote request (a cancel-replace,
 * a cancel or a placement) reached the simulator and 150 ms more, so most markets' plans still wait in its rate limiter (the worst case of issue 43's stop).
 */
async function startWave(sim: RunningSimulator, slugs: readonly string[]): Promise<void> {
  const since = Date.now();
  for (const slug of slugs) {
    const fair = sim.engine.fairValueTicks(slug) ?? 500;
    sim.control.setFairValue(slug, fair < 500 ? fair + 40 : fair - 40);
  }
  sim.control.syntheticStep();
  const requote = (): boolean => sim.control.requestLog({ limit: 20 }).some((e) => e.atMs >= since && e.method === 'POST' && /^\/orders(\/(cancel-replace|batch-cancel|cancel-batch)|\?|$)/.test(e.path));
  for (let waited = 0; !requote() && waited < 5_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 150));
  process.stderr.write(`soak stop in a wave: the first requote request ${requote() ? 'reached the simulator' : 'did not come within 5 s'}, signal ${Date.now() - since} ms after the move\n`);
}

/** From the bot's start until the simulator received the last market's first own-order listing (GET …/user-orders). */
function listingsSentWithinS(sim: RunningSimulator, slugs: readonly string[], spawnedAt: number): number | string {
  const firstAt = new Map<string, number>();
  for (const entry of sim.control.requestLog()) {
    const match = /^\/markets\/([^/?]+)\/user-orders/.exec(entry.path);
    if (entry.method === 'GET' && match !== null && !firstAt.has(match[1]!)) firstAt.set(match[1]!, entry.atMs);
  }
  if (!slugs.every((slug) => firstAt.has(slug))) return `${firstAt.size}/${slugs.length} listed`;
  return round((Math.max(...firstAt.values()) - spawnedAt) / 1000, 1);
}

async function scrape(url: string): Promise<Scrape> {
  const response = await fetch(`${url}/metrics`);
  return parseExposition(await response.text());
}

function sampleOf(scrapeNow: Scrape, atS: number): Sample {
  return {
    atS,
    rssMb: total(scrapeNow, 'process_resident_memory_bytes') / 2 ** 20,
    cpuSeconds: total(scrapeNow, 'process_cpu_seconds_total'),
    lagP50Ms: total(scrapeNow, 'nodejs_eventloop_lag_p50_seconds') * 1000,
    lagP99Ms: total(scrapeNow, 'nodejs_eventloop_lag_p99_seconds') * 1000,
    bookUpdates: total(scrapeNow, 'outcome_maker_book_updates_total'),
    requests: total(scrapeNow, 'outcome_maker_http_requests_total'),
    limited: total(scrapeNow, 'outcome_maker_http_requests_total', { status: '429' }),
    sqliteSeconds: total(scrapeNow, 'outcome_maker_ledger_sqlite_seconds_total'),
  };
}

export async function run(
  markets = Number(process.env['SOAK_MARKETS'] ?? 50),
  minutes = Number(process.env['SOAK_MINUTES'] ?? 2),
): Promise<Record<string, number | string>> {
  if (!Number.isInteger(markets) || markets < 1 || markets > 200) throw new RangeError(`markets: an integer in [1, 200] (got ${markets})`);
  if (!(minutes > 0) || minutes > 24 * 60) throw new RangeError(`minutes: a positive number of minutes (got ${minutes})`);
  const crypto = process.env['SOAK_WORLD'] === 'crypto';
  // The simulator groups its last markets; ask for a few more so the bot gets `markets` single ones. The crypto world
  // (what the standalone `outcome-maker sim --world crypto` serves): 4 tickers × hourly and daily ladders × 6 strikes.
  const world = cryptoWorldOptions({ tickers: ['BTC', 'ETH', 'SOL', 'XRP'], cadences: ['hourly', 'daily'], strikesPerExpiry: 6 });
  const sim = await startSimulator({ port: 0, seed: 3, markets: crypto ? 0 : markets + 3, settlementDelayMs: 500, synthetic: { stepMs: 1000 }, demo: { usdc: '100000' }, ...(crypto ? { world } : {}) });
  const slugs = sim.engine
    .markets()
    .filter((m) => (crypto ? m.oracle !== undefined : m.groupSlug === undefined))
    .slice(0, markets)
    .map((m) => m.slug);
  const stalls = startStallRecorder();
  const dir = mkdtempSync(join(tmpdir(), 'om-soak-'));
  const first = sim.engine.markets().find((m) => m.slug === slugs[0]);
  if (first !== undefined) seedLedgerHistory(join(dir, 'soak.db'), first.slug, first.yesTokenId);
  const spawnedAt = Date.now();
  // When every market's own-order listing ran (they follow the first quotes: orders.startupListing deferred).
  let listingsDoneAt: number | null = null;
  const { child, ready } = spawnBot(sim, botConfig(sim, slugs, dir), () => (listingsDoneAt ??= Date.now()));
  // Every market with a live order of the bot at the venue: the first quotes of all of them are out.
  let allQuotedAt: number | null = null;
  let allAtOnceAt: number | null = null;
  const quotedOnce = new Set<string>();
  const quotedPoll = setInterval(() => {
    const quotedNow = slugs.filter((slug) => sim.engine.orders(sim.demoAccount.profileId, slug, ['LIVE']).length > 0);
    for (const slug of quotedNow) quotedOnce.add(slug);
    if (allQuotedAt === null && quotedOnce.size === slugs.length) allQuotedAt = Date.now();
    if (allAtOnceAt === null && quotedNow.length === slugs.length) allAtOnceAt = Date.now();
  }, 250);
  try {
    const url = await ready;
    const started = Date.now();
    const samples: Sample[] = [];
    const scrapes: Scrape[] = [];
    const warmUpS = Math.min(60, (minutes * 60) / 3);
    while (Date.now() - started < minutes * 60_000) {
      await new Promise((r) => setTimeout(r, SAMPLE_EVERY_MS));
      const now = await scrape(url);
      const sample = sampleOf(now, (Date.now() - started) / 1000);
      samples.push(sample);
      scrapes.push(now);
      process.stderr.write(
        `soak t=${sample.atS.toFixed(0).padStart(4)} s  rss ${sample.rssMb.toFixed(1)} MB  cpu ${sample.cpuSeconds.toFixed(1)} s  ` +
          `loop p50/p99 ${sample.lagP50Ms.toFixed(1)}/${sample.lagP99Ms.toFixed(1)} ms  book updates ${sample.bookUpdates}  requests ${sample.requests}\n`,
      );
    }
    const first = samples[0];
    const last = samples.at(-1);
    if (first === undefined || last === undefined) throw new Error('no sample taken');
    const warmIndex = Math.max(0, samples.findIndex((s) => s.atS >= warmUpS));
    const warm = samples.slice(warmIndex);
    const spanS = last.atS - first.atS;
    const requote = [buckets(scrapes[warmIndex] ?? new Map<string, number>(), 'outcome_maker_requote_latency_seconds'), buckets(scrapes.at(-1) ?? new Map<string, number>(), 'outcome_maker_requote_latency_seconds')] as const;
    const venueLimited = Object.values(sim.control.requestStats()).reduce((sum, s) => sum + s.rateLimited, 0);
    const token = sim.demoAccount.tokenId;
    const limited = rateLimitViolations(
      sim.control.requestLog().filter((r) => r.tokenId === token),
      { minIntervalMs: 300, stalls: stalls.stalls },
    );
    const latency = (q: number): number | string => {
      const seconds = quantileBetween(requote[0], requote[1], q);
      return seconds === Number.POSITIVE_INFINITY ? '> 2500' : round(seconds * 1000, 1);
    };
    const quotedWithinS = allQuotedAt === null ? `> ${round((Date.now() - spawnedAt) / 1000, 0)}` : round((allQuotedAt - spawnedAt) / 1000, 1);
    const stop = await stopBot(child, sim, slugs);
    return {
      markets,
      minutes,
      allQuotedWithinS: quotedWithinS,
      allQuotedAtOnceWithinS: allAtOnceAt === null ? `> ${round((Date.now() - spawnedAt) / 1000, 0)}` : round((allAtOnceAt - spawnedAt) / 1000, 1),
      ownOrderListingsDoneWithinS: listingsDoneAt === null ? 'not deferred' : round((listingsDoneAt - spawnedAt) / 1000, 1),
      ownOrderListingsDoneAfterAllQuotedS: listingsDoneAt === null || allQuotedAt === null ? 'n/a' : round((listingsDoneAt - allQuotedAt) / 1000, 1),
      ownOrderListingsSentWithinS: listingsSentWithinS(sim, slugs, spawnedAt),
      rssStartMb: round(first.rssMb, 1),
      rssEndMb: round(last.rssMb, 1),
      rssMaxMb: round(Math.max(...samples.map((s) => s.rssMb)), 1),
      rssSlopeAfterWarmupMbPerMin: round(slopeMbPerMin(warm), 2),
      rssFloorSlopeMbPerMin: round(floorSlopeMbPerMin(warm), 2),
      cpuSecondsPerWallSecond: round((last.cpuSeconds - first.cpuSeconds) / spanS, 3),
      eventLoopDelayP50Ms: round(median(samples.map((s) => s.lagP50Ms)), 2),
      eventLoopDelayP99Ms: round(median(samples.map((s) => s.lagP99Ms)), 2),
      eventLoopDelayP99WorstMs: round(Math.max(...samples.map((s) => s.lagP99Ms)), 2),
      eventLoopExcessP50Ms: round(median(samples.map((s) => s.lagP50Ms)) - 10, 2),
      eventLoopExcessP99Ms: round(median(samples.map((s) => s.lagP99Ms)) - 10, 2),
      sqliteMsPerSecond: round(((last.sqliteSeconds - first.sqliteSeconds) * 1000) / spanS, 2),
      bookUpdatesPerSecond: round((last.bookUpdates - first.bookUpdates) / spanS, 1),
      requestsPerSecond: round((last.requests - first.requests) / spanS, 2),
      rateLimited429: last.limited,
      venueLimiter429: venueLimited,
      venueLimiter429NotExplainedByStalls: limited.violations.length,
      requoteLatencyP50Ms: latency(0.5),
      requoteLatencyP99Ms: latency(0.99),
      stopToExitS: round(stop.durationMs / 1000, 1),
      stopToFirstCancelS: stop.firstCancelMs === null ? 'none' : round(stop.firstCancelMs / 1000, 1),
      stopExitCode: stop.exitCode ?? 'none',
      openOrdersAfterStop: stop.openOrders,
    };
  } finally {
    clearInterval(quotedPoll);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    stalls.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [marketsArg, minutesArg] = process.argv.slice(2);
  const figures = await run(marketsArg ? Number(marketsArg) : undefined, minutesArg ? Number(minutesArg) : undefined);
  console.table(figures);
}
