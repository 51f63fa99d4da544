/**
 * Ladder capacity: how well one account keeps many crypto strike markets quoted when one underlying move changes the
 * fair value of every strike of that underlying at once — per-market cancel-replace batches (one request per market's
 * plan and one POST /orders per placement: the bot before cross-market batches) against cross-market batches
 * (src/orders/cross-market-venue.ts: several markets' operations in one request, placements included, most urgent
 * first).
 *
 * Set-up, identical for both policies: the backtest engine on virtual time with the synthetic crypto world (4 tickers
 * BTC ETH SOL XRP, an hourly and a daily ladder of strikes 0.5 σ apart; informed traders see the underlying
 * LEAD_MS ahead of the published price, the synthetic maker lags it), the bot's real trading path (runner, account
 * gate, executor) and pricer (the digital on the published underlying, fed once a second), fixed-spread quoting one
 * level a side around the model's fair value (2 slots a market, 100 shares each), the venue's limit on (2 in flight, 320 ms between
 * starts, 50 ms one way). Market counts: 4 (hourly, 1 strike), 12 (hourly 2 + daily 1), 36 (hourly 5 + daily 4),
 * 60 (hourly 9 + daily 6).
 *
 * Figures per market count and policy, over the window after a warm-up of WARMUP_MS (the first quotes):
 * - errorTicks: mean quote error against the strategy's current intents, ticks per slot, time-weighted as
 *   bench/requote.ts measures it: for each wanted slot, the distance between the live order in that slot (same token
 *   and side) and the intent's price; a wanted slot without one, or a live order in a slot not wanted, counts
 *   PENALTY_TICKS; integrated over virtual time at every intent and order change;
 * - staleShare: share of wanted slot-time off by more than 2 ticks (missing included);
 * - moveToReplacedP50Ms / P99Ms: a move is a step at which a ticker's markets got new intents; its latency runs
 *   until every slot whose intent changed holds an order placed at or after the step, or one matching its current
 *   intent (a slot whose intent went away is dropped; a move still open at the end counts to the end);
 * - commonSlotReplacedP50Ms / P99Ms: the same per slot of the common markets (below): how long the at-the-money
 *   strikes wait after a move, whatever the other strikes do;
 * - markout1sUsdc / markout10sUsdc: mean markout per fill against the engine's true fair value, over every fill;
 * - markout1sCommonUsdc / markout10sCommonUsdc: the same over the fills of the markets every row quotes — each
 *   ticker's at-the-money hourly strike (the middle strike of its hourly ladder; every ladder has an odd number of
 *   hourly strikes for that) — so rows compare the same books (the markout target is judged on these);
 * - requestsPerSecond: every request through the rate limiter over the window;
 * - tradingPnlUsdc, rewardsUsdc, rebatesUsdc: the whole run's trading PnL (at the true fair value), the liquidity rewards
 *   the resting quotes scored (src/strategy/rewards.ts) and the maker rebates estimated at BENCH_REBATE_RATE.
 * Each figure is the mean over SEEDS (one run per seed; `range` holds the smallest and largest), and a `targets` line
 * says whether issue 29's targets hold at 36 markets with cross-market batches, judged on the means. The worlds draw
 * each ticker's path and each market's flow from streams of their own (common random numbers), so on one seed every
 * row's common markets see the same underlying and arrivals: the `paired` lines (and `--json`'s `paired`) compare the
 * 36- and the 4-market markouts seed by seed (bench/ladder-stats.ts `paired`), which judges the markout target without
 * the across-seeds spread of the flow. Statistics: bench/ladder-stats.ts; printing: bench/ladder-report.ts.
 *
 *   npx tsx bench/ladder.ts [--json]   (BENCH_LADDER_SECONDS: the window, default 300 virtual seconds;
 *                                       BENCH_LADDER_SEEDS: how many seeds from 17 on, default 3;
 *                                       BENCH_LADDER_MARKETS: a comma list of market counts, default all;
 *                                       BENCH_LADDER_POLICIES: a comma list of policies, default both;
 *                                       BENCH_LADDER_CACHE: a folder keeping each run's figures, see cachedRun)
 * Exits 0 whether or not the targets hold (it is a benchmark).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fixedSpread from '../strategies/fixed-spread.js';
import { runBacktest, type BacktestOptions, type BacktestView, type SubmittedIntent } from '../src/backtest/index.js';
import { tryParseClientOrderId } from '../src/orders/client-order-id.js';
import { DEFAULT_PRICER_SETTINGS } from '../src/pricing/market-pricer.js';
import { mergeMarkoutSummaries, type HorizonSummary } from '../src/markouts/markout.js';
import { DEFAULT_UNDERLYINGS, type Cadence, type MarketSpec } from '../src/sim/engine/index.js';
import { aggregate, FIGURES, MARKOUT_KEYS, paired, round, standardError, targets, type LadderRow, type LadderRun, type MarkoutTally, type Policy, POLICIES } from './ladder-stats.js';
import { pairedLines, table, targetsLine } from './ladder-report.js';
import { BENCH_REBATE_RATE } from './pricing.js';

export * from './ladder-stats.js';

const FIRST_SEED = 17;
const START = Date.UTC(2026, 0, 1, 0, 0);
const STEP_MS = 1000;
const WARMUP_MS = 30_000;
const LEAD_MS = 1500;
const PENALTY_TICKS = 20;
const STALE_TICKS = 2;
const USDC = 1_000_000;


/** A ladder: strikes per expiry of each cadence, on all four tickers. */
export interface Ladder {
  readonly markets: number;
  readonly strikes: Partial<Record<Cadence, number>>;
}

export const LADDERS: readonly Ladder[] = [
  { markets: 4, strikes: { hourly: 1 } },
  // Odd hourly counts everywhere: each ticker's at-the-money hourly strike is in every row (the common markets).
  { markets: 12, strikes: { hourly: 1, daily: 2 } },
  { markets: 36, strikes: { hourly: 5, daily: 4 } },
  { markets: 60, strikes: { hourly: 9, daily: 6 } },
];

interface Slot {
  readonly intent: SubmittedIntent;
}

/** A market's share of the error, recomputed at each of its changes. */
interface MarketError {
  errorTicks: number;
  staleSlots: number;
  slots: number;
}

interface Move {
  readonly atMs: number;
  /** `slug slot` still waiting for a fresh order. */
  readonly pending: Set<string>;
  doneAtMs: number | null;
}

/** Integrates the quote error over virtual time and follows each move until its slots are replaced. */
class LadderMeter {
  private view: BacktestView | null = null;
  private readonly intents = new Map<string, Map<string, Slot>>();
  private readonly perMarket = new Map<string, MarketError>();
  private readonly tickerOf = new Map<string, string>();
  private readonly moves = new Map<string, Move>();
  /** The moves not yet replaced (settleMoves runs at every order change: it must not walk the finished ones). */
  private readonly openMoves = new Set<Move>();
  /** The common markets (each ticker's at-the-money hourly strike) and how long each of their slots waited after a move. */
  private common = new Set<string>();
  private readonly commonSlotWaitsMs: number[] = [];
  private totals = { errorTicks: 0, staleSlots: 0, slots: 0 };
  private integral = { errorTickMs: 0, staleSlotMs: 0, slotMs: 0 };
  private lastAtMs = 0;
  private measureFromMs = Number.POSITIVE_INFINITY;
  private requestsAtStart = 0;

  /** The markets of the run (empty before it starts). */
  markets(): readonly MarketSpec[] {
    return this.view?.markets ?? [];
  }

  start(view: BacktestView, measureFromMs: number): void {
    this.view = view;
    this.measureFromMs = measureFromMs;
    for (const market of view.markets) if (market.oracle !== undefined) this.tickerOf.set(market.slug, market.oracle.ticker);
    this.common = commonMarkets(view.markets);
    view.onOrderChange((slug) => this.changed(slug));
  }

  submitted(slug: string, nowMs: number, intents: readonly SubmittedIntent[]): void {
    const previous = this.intents.get(slug) ?? new Map<string, Slot>();
    const next = new Map(intents.map((intent) => [intent.slot, { intent }]));
    this.intents.set(slug, next);
    if (nowMs >= this.measureFromMs) {
      const stepMs = Math.floor(nowMs / STEP_MS) * STEP_MS;
      const key = `${this.tickerOf.get(slug) ?? slug}@${stepMs}`;
      for (const [slot, { intent }] of next) {
        const before = previous.get(slot)?.intent;
        if (before !== undefined && before.priceTicks === intent.priceTicks && before.sizeRaw === intent.sizeRaw && before.token === intent.token && before.side === intent.side) continue;
        let move = this.moves.get(key);
        if (move === undefined) {
          move = { atMs: stepMs, pending: new Set(), doneAtMs: null };
          this.moves.set(key, move);
          this.openMoves.add(move);
        }
        move.pending.add(`${slug} ${slot}`);
      }
    }
    this.changed(slug);
  }

  /** Accumulates the error held since the last change, then reads the market's new state. */
  private changed(slug: string): void {
    const view = this.view;
    if (view === null) return;
    const now = view.now();
    if (now >= this.measureFromMs) {
      const from = Math.max(this.lastAtMs, this.measureFromMs);
      const dt = Math.max(0, now - from);
      this.integral.errorTickMs += this.totals.errorTicks * dt;
      this.integral.staleSlotMs += this.totals.staleSlots * dt;
      this.integral.slotMs += this.totals.slots * dt;
      if (this.requestsAtStart === 0) this.requestsAtStart = view.requestsSent();
    }
    this.lastAtMs = now;
    const old = this.perMarket.get(slug) ?? { errorTicks: 0, staleSlots: 0, slots: 0 };
    const fresh = this.marketError(slug, now);
    this.perMarket.set(slug, fresh);
    this.totals = {
      errorTicks: this.totals.errorTicks - old.errorTicks + fresh.errorTicks,
      staleSlots: this.totals.staleSlots - old.staleSlots + fresh.staleSlots,
      slots: this.totals.slots - old.slots + fresh.slots,
    };
  }

  private marketError(slug: string, now: number): MarketError {
    const view = this.view;
    const wanted = this.intents.get(slug) ?? new Map<string, Slot>();
    const live = new Map<string, { priceTicks: number; token: string; side: string; createdAtMs: number }[]>();
    for (const order of view?.restingOrders(slug) ?? []) {
      const slot = order.clientOrderId === null ? null : (tryParseClientOrderId(order.clientOrderId)?.slot ?? null);
      if (slot === null) continue;
      live.set(slot, [...(live.get(slot) ?? []), { priceTicks: order.priceTicks ?? 0, token: order.outcome, side: order.side, createdAtMs: order.createdAtMs }]);
    }
    let errorTicks = 0;
    let staleSlots = 0;
    for (const [slot, { intent }] of wanted) {
      const match = (live.get(slot) ?? []).find((o) => o.token === intent.token && o.side === intent.side);
      const off = match === undefined ? PENALTY_TICKS : Math.abs(match.priceTicks - intent.priceTicks);
      errorTicks += off;
      if (off > STALE_TICKS) staleSlots += 1;
    }
    for (const [slot, orders] of live) if (!wanted.has(slot)) errorTicks += PENALTY_TICKS * orders.length;
    this.settleMoves(slug, wanted, live, now);
    return { errorTicks, staleSlots, slots: wanted.size };
  }

  /** Slots of open moves that now hold an order placed since the move (or one matching the intent), or are no longer wanted. */
  private settleMoves(slug: string, wanted: ReadonlyMap<string, Slot>, live: ReadonlyMap<string, readonly { priceTicks: number; token: string; side: string; createdAtMs: number }[]>, now: number): void {
    for (const move of this.openMoves) {
      for (const key of move.pending) {
        const [market, slot] = key.split(' ');
        if (market !== slug || slot === undefined) continue;
        const intent = wanted.get(slot)?.intent;
        const orders = live.get(slot) ?? [];
        const served = intent === undefined || orders.some((o) => o.token === intent.token && o.side === intent.side && (o.createdAtMs >= move.atMs || o.priceTicks === intent.priceTicks));
        if (!served) continue;
        move.pending.delete(key);
        if (this.common.has(slug)) this.commonSlotWaitsMs.push(now - move.atMs);
      }
      if (move.pending.size === 0) {
        move.doneAtMs = now;
        this.openMoves.delete(move);
      }
    }
  }

  figures(endMs: number): Pick<LadderRow, 'errorTicks' | 'staleShare' | 'moveToReplacedP50Ms' | 'moveToReplacedP99Ms' | 'commonSlotReplacedP50Ms' | 'commonSlotReplacedP99Ms' | 'requestsPerSecond'> {
    const view = this.view;
    if (view !== null) {
      const dt = Math.max(0, endMs - Math.max(this.lastAtMs, this.measureFromMs));
      this.integral.errorTickMs += this.totals.errorTicks * dt;
      this.integral.staleSlotMs += this.totals.staleSlots * dt;
      this.integral.slotMs += this.totals.slots * dt;
    }
    const latencies = [...this.moves.values()].map((m) => (m.doneAtMs ?? endMs) - m.atMs).sort((a, b) => a - b);
    const commonWaits = [...this.commonSlotWaitsMs].sort((a, b) => a - b);
    const quantile = (q: number, sorted: readonly number[] = latencies): number => (sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0));
    const slotMs = this.integral.slotMs;
    const windowS = (endMs - this.measureFromMs) / 1000;
    return {
      errorTicks: slotMs > 0 ? this.integral.errorTickMs / slotMs : 0,
      staleShare: slotMs > 0 ? this.integral.staleSlotMs / slotMs : 0,
      moveToReplacedP50Ms: quantile(0.5),
      moveToReplacedP99Ms: quantile(0.99),
      commonSlotReplacedP50Ms: quantile(0.5, commonWaits),
      commonSlotReplacedP99Ms: quantile(0.99, commonWaits),
      requestsPerSecond: view === null || windowS <= 0 ? 0 : (view.requestsSent() - this.requestsAtStart) / windowS,
    };
  }
}

function options(ladder: Ladder, policy: Policy, windowMs: number, seed: number, meter: LadderMeter): BacktestOptions {
  const cadences = (Object.keys(ladder.strikes) as Cadence[]).filter((c) => (ladder.strikes[c] ?? 0) > 0);
  return {
    strategy: { module: fixedSpread, params: { referencePrice: ['model', 'mid'], bidSpread: 0.01, askSpread: 0.01, levels: 1, orderSize: 100, inventoryRange: 1000 } },
    seed,
    startMs: START,
    durationMs: WARMUP_MS + windowMs,
    stepMs: STEP_MS,
    world: {
      // Common random numbers: a ticker's path and a market's flow draw from streams of their own, so every row's common
      // markets see the same underlying and arrivals on a seed (the paired comparison, bench/ladder-stats.ts).
      underlying: { underlyings: DEFAULT_UNDERLYINGS, leadMs: LEAD_MS, streams: 'per-ticker' },
      markets: { cadences, strikesPerExpiry: 1, strikesPerCadence: ladder.strikes, strikeSpacingSigmas: 0.5, dailyHourUtc: 16, recurring: false },
    },
    synthetic: { streams: 'per-market' },
    pricing: DEFAULT_PRICER_SETTINGS,
    account: { usdcRaw: 10_000_000 * USDC, rebateRate: BENCH_REBATE_RATE },
    risk: { maxNotionalRaw: 10_000_000 * USDC, maxPositionPerTokenRaw: 100_000 * USDC, maxNetPositionRaw: 100_000 * USDC, stopBeforeExpiryMs: 600_000 },
    // No cool-off after a fill: a slot the executor holds back after a fill would count as unquoted, which measures the
    // quoting policy (orders.filledOrderDelaySec), not the account's capacity.
    orders: { coolOffMs: 0 },
    crossMarketBatches: policy === 'cross-market',
    observer: {
      onStart: (view) => meter.start(view, START + WARMUP_MS),
      onSubmit: (slug, nowMs, intents) => meter.submitted(slug, nowMs, intents),
    },
  };
}

const horizon = (summaries: readonly HorizonSummary[], ms: number): number => summaries.find((h) => h.horizonMs === ms)?.meanPerFillUsdc ?? Number.NaN;

/** What commonMarkets reads of a market. */
export type LadderMarket = Pick<MarketSpec, 'slug'> & { readonly oracle?: Pick<NonNullable<MarketSpec['oracle']>, 'ticker' | 'strike' | 'cadence'> };

/** Each ticker's at-the-money hourly strike: the middle of its hourly ladder (odd-sized in every row). */
export function commonMarkets(markets: readonly LadderMarket[]): Set<string> {
  const hourly = new Map<string, LadderMarket[]>();
  for (const market of markets) {
    if (market.oracle?.cadence !== 'hourly') continue;
    hourly.set(market.oracle.ticker, [...(hourly.get(market.oracle.ticker) ?? []), market]);
  }
  const common = new Set<string>();
  for (const ladder of hourly.values()) {
    if (ladder.length % 2 === 0) continue;
    const sorted = [...ladder].sort((a, b) => Number(a.oracle?.strike) - Number(b.oracle?.strike));
    const middle = sorted[(sorted.length - 1) / 2];
    if (middle !== undefined) common.add(middle.slug);
  }
  return common;
}

/** One market count under one policy and seed. */
export async function runLadder(ladder: Ladder, policy: Policy, windowMs: number, seed: number = FIRST_SEED): Promise<LadderRun> {
  const meter = new LadderMeter();
  const result = await runBacktest(options(ladder, policy, windowMs, seed, meter));
  if (result.engineInvariantViolations.length > 0) throw new Error(`engine invariants broken: ${result.engineInvariantViolations.join('; ')}`);
  if (result.markets.length !== ladder.markets) throw new Error(`expected ${ladder.markets} markets, the world listed ${result.markets.length}`);
  const common = commonMarkets(meter.markets());
  if (common.size !== 4) throw new Error(`expected one at-the-money hourly strike per ticker, found ${common.size}`);
  const commonMarkouts = mergeMarkoutSummaries(result.markets.filter((m) => common.has(m.slug)).map((m) => m.markouts));
  const figures = meter.figures(START + WARMUP_MS + windowMs);
  const tally = (summaries: readonly HorizonSummary[], ms: number): MarkoutTally => {
    const h = summaries.find((x) => x.horizonMs === ms);
    return { fills: h?.fills ?? 0, totalUsdc: h?.totalUsdc ?? 0, sumSquaresUsdc: h?.sumSquaresUsdc ?? 0 };
  };
  return {
    markouts: { common1s: tally(commonMarkouts, 1_000), common10s: tally(commonMarkouts, 10_000), all1s: tally(result.markouts, 1_000), all10s: tally(result.markouts, 10_000) },
    errorTicks: round(figures.errorTicks, 3),
    staleShare: round(figures.staleShare, 4),
    moveToReplacedP50Ms: figures.moveToReplacedP50Ms,
    moveToReplacedP99Ms: figures.moveToReplacedP99Ms,
    commonSlotReplacedP50Ms: figures.commonSlotReplacedP50Ms,
    commonSlotReplacedP99Ms: figures.commonSlotReplacedP99Ms,
    markout1sUsdc: round(horizon(result.markouts, 1_000), 4),
    markout10sUsdc: round(horizon(result.markouts, 10_000), 4),
    markout1sCommonUsdc: round(horizon(commonMarkouts, 1_000), 4),
    markout10sCommonUsdc: round(horizon(commonMarkouts, 10_000), 4),
    fills: result.markouts.find((h) => h.horizonMs === 1_000)?.fills ?? 0,
    fillsCommon: commonMarkouts.find((h) => h.horizonMs === 1_000)?.fills ?? 0,
    requestsPerSecond: round(figures.requestsPerSecond, 2),
    tradingPnlUsdc: round(result.pnlRaw / 1e6, 2),
    rewardsUsdc: round(result.scoredRewardUsdc, 2),
    rebatesUsdc: round(result.rebatesRaw / 1e6, 2),
  };
}

function windowMs(): number {
  const seconds = Number(process.env['BENCH_LADDER_SECONDS'] ?? 300);
  return Math.max(10, Number.isFinite(seconds) ? seconds : 300) * 1000;
}

function seeds(): number[] {
  const count = Number(process.env['BENCH_LADDER_SEEDS'] ?? 3);
  return Array.from({ length: Number.isFinite(count) && count >= 1 ? Math.floor(count) : 3 }, (_, i) => FIRST_SEED + i);
}

/** The entries of `all` an environment variable's comma list names (all of them when it is unset or empty). */
function listed<T>(variable: string, all: readonly T[], name: (item: T) => string): T[] {
  const wanted = process.env[variable];
  if (wanted === undefined || wanted.trim() === '') return [...all];
  const names = new Set(wanted.split(',').map((w) => w.trim()));
  return all.filter((item) => names.has(name(item)));
}

const ladders = (): Ladder[] => listed('BENCH_LADDER_MARKETS', LADDERS, (l) => String(l.markets));
const policies = (): Policy[] => listed('BENCH_LADDER_POLICIES', POLICIES, (p) => p);

/**
 * One run, read from BENCH_LADDER_CACHE (a folder) when it holds it, else run and written there: a long bench on a
 * busy machine resumes where it stopped, and the rows can be printed again from the runs. The file name says the market
 * count, policy, seed and window, not the code: empty the folder after changing the bot.
 */
async function cachedRun(ladder: Ladder, policy: Policy, window: number, seed: number): Promise<LadderRun> {
  const folder = process.env['BENCH_LADDER_CACHE'];
  if (folder === undefined || folder.trim() === '') return runLadder(ladder, policy, window, seed);
  const file = join(folder, `ladder-${ladder.markets}-${policy}-${seed}-${window / 1000}s-keyed.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as LadderRun;
  const run = await runLadder(ladder, policy, window, seed);
  mkdirSync(folder, { recursive: true });
  writeFileSync(file, JSON.stringify(run));
  return run;
}

export async function rows(): Promise<LadderRow[]> {
  const out: LadderRow[] = [];
  const seedList = seeds();
  for (const ladder of ladders()) {
    for (const policy of policies()) {
      const runs: LadderRun[] = [];
      for (const seed of seedList) runs.push(await cachedRun(ladder, policy, windowMs(), seed));
      out.push(aggregate(ladder.markets, policy, seedList, runs));
    }
  }
  return out;
}

/** For bench/all.ts: `<policy>-<markets>.<figure>` (the means over the seeds). */
export async function run(): Promise<Record<string, number | string>> {
  const all = await rows();
  const figures: Record<string, number | string> = { seeds: seeds().join(' '), windowSeconds: windowMs() / 1000 };
  for (const row of all) {
    for (const figure of FIGURES) figures[`${row.policy}-${row.markets}.${figure}`] = row[figure];
    for (const key of MARKOUT_KEYS) {
      figures[`${row.policy}-${row.markets}.markout.${key}.perFillUsdc`] = row.markoutStats[key].meanPerFillUsdc;
      figures[`${row.policy}-${row.markets}.markout.${key}.standardErrorUsdc`] = standardError(row.markoutStats[key]);
    }
  }
  const pair = paired(all);
  if (pair !== null) {
    figures['paired.seeds'] = pair.seeds.join(' ');
    figures['paired.diff1sUsdc'] = pair.diff1s.meanUsdc;
    figures['paired.diff1sStandardErrorUsdc'] = pair.diff1s.seUsdc;
    figures['paired.diff10sUsdc'] = pair.diff10s.meanUsdc;
    figures['paired.ratio1s'] = pair.ratio1s;
    figures['paired.markout1sTarget'] = `${pair.met ? 'met' : 'not met'}${pair.decided ? '' : ' (not decided)'}`;
  }
  const verdicts = targets(all);
  if (verdicts !== null) figures['targetsMetAt36'] = verdicts.errorTicks && verdicts.moveToReplacedP99Ms && verdicts.markout1sCommon ? 'yes' : 'no';
  return figures;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const all = await rows();
  if (process.argv.includes('--json')) console.log(JSON.stringify({ rows: all, targets: targets(all), paired: paired(all) }));
  else {
    console.log(`ladder: seeds ${seeds().join(', ')}, ${windowMs() / 1000} virtual s after a ${WARMUP_MS / 1000} s warm-up; limit 2 in flight, 320 ms apart, 50 ms one way; fixed-spread 1 level a side on the model's fair value; mean over the seeds (smallest…largest); markouts per fill pooled over every fill of the seeds (USDC, positive = the maker gained) ± the larger of the per-fill and across-seeds standard errors`);
    console.log(table(all));
    console.log(targetsLine(all));
    for (const line of pairedLines(all)) console.log(line);
  }
}
