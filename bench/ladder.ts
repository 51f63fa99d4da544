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
 * - markout1sUsdc / markout10sUsdc: mean markout per fill against the engine's true fair value;
 * - requestsPerSecond: every request through the rate limiter over the window;
 * - tradingPnlUsdc, rewardsUsdc, rebatesUsdc: the whole run's trading PnL (at the true fair value), the liquidity rewards
 *   the resting quotes scored (src/strategy/rewards.ts) and the maker rebates estimated at BENCH_REBATE_RATE.
 *
 *   npx tsx bench/ladder.ts [--json]        (BENCH_LADDER_SECONDS sets the window, default 300 virtual seconds)
 */
import { pathToFileURL } from 'node:url';
import fixedSpread from '../strategies/fixed-spread.js';
import { runBacktest, type BacktestOptions, type BacktestResult, type BacktestView, type SubmittedIntent } from '../src/backtest/index.js';
import { tryParseClientOrderId } from '../src/orders/client-order-id.js';
import { DEFAULT_PRICER_SETTINGS } from '../src/pricing/market-pricer.js';
import { DEFAULT_UNDERLYINGS, type Cadence } from '../src/sim/engine/index.js';
import { BENCH_REBATE_RATE } from './pricing.js';

const SEED = 17;
const START = Date.UTC(2026, 0, 1, 0, 0);
const STEP_MS = 1000;
const WARMUP_MS = 30_000;
const LEAD_MS = 1500;
const PENALTY_TICKS = 20;
const STALE_TICKS = 2;
const USDC = 1_000_000;

export type Policy = 'per-market' | 'cross-market';
export const POLICIES: readonly Policy[] = ['per-market', 'cross-market'];

/** A ladder: strikes per expiry of each cadence, on all four tickers. */
export interface Ladder {
  readonly markets: number;
  readonly strikes: Partial<Record<Cadence, number>>;
}

export const LADDERS: readonly Ladder[] = [
  { markets: 4, strikes: { hourly: 1 } },
  { markets: 12, strikes: { hourly: 2, daily: 1 } },
  { markets: 36, strikes: { hourly: 5, daily: 4 } },
  { markets: 60, strikes: { hourly: 9, daily: 6 } },
];

export interface LadderRow {
  readonly markets: number;
  readonly policy: Policy;
  readonly errorTicks: number;
  readonly staleShare: number;
  readonly moveToReplacedP50Ms: number;
  readonly moveToReplacedP99Ms: number;
  readonly markout1sUsdc: number;
  readonly markout10sUsdc: number;
  readonly requestsPerSecond: number;
  readonly tradingPnlUsdc: number;
  readonly rewardsUsdc: number;
  readonly rebatesUsdc: number;
}

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
  private totals = { errorTicks: 0, staleSlots: 0, slots: 0 };
  private integral = { errorTickMs: 0, staleSlotMs: 0, slotMs: 0 };
  private lastAtMs = 0;
  private measureFromMs = Number.POSITIVE_INFINITY;
  private requestsAtStart = 0;

  start(view: BacktestView, measureFromMs: number): void {
    this.view = view;
    this.measureFromMs = measureFromMs;
    for (const market of view.markets) if (market.oracle !== undefined) this.tickerOf.set(market.slug, market.oracle.ticker);
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
    for (const move of this.moves.values()) {
      if (move.doneAtMs !== null) continue;
      for (const key of move.pending) {
        const [market, slot] = key.split(' ');
        if (market !== slug || slot === undefined) continue;
        const intent = wanted.get(slot)?.intent;
        const orders = live.get(slot) ?? [];
        const served = intent === undefined || orders.some((o) => o.token === intent.token && o.side === intent.side && (o.createdAtMs >= move.atMs || o.priceTicks === intent.priceTicks));
        if (served) move.pending.delete(key);
      }
      if (move.pending.size === 0) move.doneAtMs = now;
    }
  }

  figures(endMs: number): Pick<LadderRow, 'errorTicks' | 'staleShare' | 'moveToReplacedP50Ms' | 'moveToReplacedP99Ms' | 'requestsPerSecond'> {
    const view = this.view;
    if (view !== null) {
      const dt = Math.max(0, endMs - Math.max(this.lastAtMs, this.measureFromMs));
      this.integral.errorTickMs += this.totals.errorTicks * dt;
      this.integral.staleSlotMs += this.totals.staleSlots * dt;
      this.integral.slotMs += this.totals.slots * dt;
    }
    const latencies = [...this.moves.values()].map((m) => (m.doneAtMs ?? endMs) - m.atMs).sort((a, b) => a - b);
    const quantile = (q: number): number => (latencies.length === 0 ? 0 : (latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)] ?? 0));
    const slotMs = this.integral.slotMs;
    const windowS = (endMs - this.measureFromMs) / 1000;
    return {
      errorTicks: slotMs > 0 ? this.integral.errorTickMs / slotMs : 0,
      staleShare: slotMs > 0 ? this.integral.staleSlotMs / slotMs : 0,
      moveToReplacedP50Ms: quantile(0.5),
      moveToReplacedP99Ms: quantile(0.99),
      requestsPerSecond: view === null || windowS <= 0 ? 0 : (view.requestsSent() - this.requestsAtStart) / windowS,
    };
  }
}

function options(ladder: Ladder, policy: Policy, windowMs: number, meter: LadderMeter): BacktestOptions {
  const cadences = (Object.keys(ladder.strikes) as Cadence[]).filter((c) => (ladder.strikes[c] ?? 0) > 0);
  return {
    strategy: { module: fixedSpread, params: { referencePrice: ['model', 'mid'], bidSpread: 0.01, askSpread: 0.01, levels: 1, orderSize: 100, inventoryRange: 1000 } },
    seed: SEED,
    startMs: START,
    durationMs: WARMUP_MS + windowMs,
    stepMs: STEP_MS,
    world: {
      underlying: { underlyings: DEFAULT_UNDERLYINGS, leadMs: LEAD_MS },
      markets: { cadences, strikesPerExpiry: 1, strikesPerCadence: ladder.strikes, strikeSpacingSigmas: 0.5, dailyHourUtc: 16, recurring: false },
    },
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

const horizon = (result: BacktestResult, ms: number): number => result.markouts.find((h) => h.horizonMs === ms)?.meanPerFillUsdc ?? Number.NaN;
const round = (value: number, digits: number): number => (Number.isFinite(value) ? Math.round(value * 10 ** digits) / 10 ** digits : value);

/** One market count under one policy. */
export async function runLadder(ladder: Ladder, policy: Policy, windowMs: number): Promise<LadderRow> {
  const meter = new LadderMeter();
  const result = await runBacktest(options(ladder, policy, windowMs, meter));
  if (result.engineInvariantViolations.length > 0) throw new Error(`engine invariants broken: ${result.engineInvariantViolations.join('; ')}`);
  if (result.markets.length !== ladder.markets) throw new Error(`expected ${ladder.markets} markets, the world listed ${result.markets.length}`);
  const figures = meter.figures(START + WARMUP_MS + windowMs);
  return {
    markets: ladder.markets,
    policy,
    errorTicks: round(figures.errorTicks, 3),
    staleShare: round(figures.staleShare, 4),
    moveToReplacedP50Ms: figures.moveToReplacedP50Ms,
    moveToReplacedP99Ms: figures.moveToReplacedP99Ms,
    markout1sUsdc: round(horizon(result, 1_000), 4),
    markout10sUsdc: round(horizon(result, 10_000), 4),
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

export async function rows(): Promise<LadderRow[]> {
  const out: LadderRow[] = [];
  for (const ladder of LADDERS) for (const policy of POLICIES) out.push(await runLadder(ladder, policy, windowMs()));
  return out;
}

/** For bench/all.ts: `<policy>-<markets>.<figure>`. */
export async function run(): Promise<Record<string, number | string>> {
  const figures: Record<string, number | string> = { seed: SEED, windowSeconds: windowMs() / 1000 };
  for (const row of await rows()) {
    const { markets, policy, ...values } = row;
    for (const [key, value] of Object.entries(values)) figures[`${policy}-${markets}.${key}`] = value;
  }
  return figures;
}

function table(all: readonly LadderRow[]): string {
  const header = ['markets', 'policy', 'error ticks', 'off > 2 ticks', 'move→replaced p50', 'p99', 'markout 1 s', 'markout 10 s', 'requests/s', 'trading PnL', 'rewards', 'rebates'];
  const lines = all.map((r) => [
    String(r.markets),
    r.policy,
    r.errorTicks.toFixed(2),
    `${(r.staleShare * 100).toFixed(1)} %`,
    `${r.moveToReplacedP50Ms} ms`,
    `${r.moveToReplacedP99Ms} ms`,
    r.markout1sUsdc.toFixed(4),
    r.markout10sUsdc.toFixed(4),
    r.requestsPerSecond.toFixed(2),
    r.tradingPnlUsdc.toFixed(2),
    r.rewardsUsdc.toFixed(2),
    r.rebatesUsdc.toFixed(2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...lines.map(line)].join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const all = await rows();
  if (process.argv.includes('--json')) console.log(JSON.stringify({ rows: all }));
  else {
    console.log(`ladder: seed ${SEED}, ${windowMs() / 1000} virtual s after a ${WARMUP_MS / 1000} s warm-up; limit 2 in flight, 320 ms apart, 50 ms one way; fixed-spread 1 level a side on the model's fair value`);
    console.log(table(all));
  }
}
