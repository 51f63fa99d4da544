/**
 * The replay backtest: a replay stream (./format.ts) played on a virtual clock through the configured strategy, the
 * real account view (gate and budget) and the real order executor, wired as the bot wires them
 * (src/backtest/trader.ts), against the replay venue (./replay-venue.ts: the queue model over the recorded books and
 * trades) behind the backtest's latency and rate-limit decorator (src/backtest/latency-venue.ts).
 *
 * Owns: the schedule of the recorded events, the sampling of the report's series and the figures. Invariants:
 * deterministic for its inputs (virtual clock, no wall time, no randomness); recorded events act at their time `t`
 * (file order among equal times); the last recorded book is carried forward until the next one, and the time a book older
 * than `feed.quietThresholdMs` was used is reported; the books end equal to what the venue filled (checked).
 */
import type { AppConfig } from '../config/types.js';
import { effectivePriceBand, REQUOTE_INTERVAL_MS } from '../config/index.js';
import { TICKS_PER_UNIT } from '../core/venue-rules/index.js';
import { BookState } from '../book/book-state.js';
import { parseFillPartId } from '../orders/fill-part-id.js';
import type { OrderEventInput } from '../orders/order-events.js';
import type { BookView, MarketInfo, Strategy } from '../strategy/contract.js';
import { BotAccounting } from '../backtest/accounting.js';
import { LatencyVenue } from '../backtest/latency-venue.js';
import { Trader, traderOrdersOf } from '../backtest/trader.js';
import { VirtualTime } from '../backtest/virtual-time.js';
import type { ReplayEvent, ReplayHeader } from './format.js';
import { QueueMatcher, type QueueModel } from './queue-matcher.js';
import { ReplayVenue, type ReplayFill } from './replay-venue.js';
import type { ReplayFillPoint, ReplayReport } from './report.js';

export interface ReplayBacktestOptions {
  readonly config: AppConfig;
  readonly strategy: Strategy;
  readonly header: ReplayHeader;
  readonly events: readonly ReplayEvent[];
  /** Default: the stream's first market. */
  readonly market?: string;
  /** One way; a request acts this long after it leaves the limiter, and its answer is back as long after. */
  readonly latencyMs: number;
  readonly queueModel: QueueModel;
  /** Taker fee rate of the account (maker fills are free). */
  readonly feeRateBps: number;
  /** Series points this often (default 1000 ms). */
  readonly sampleEveryMs?: number;
}

export class ReplayBacktestError extends Error {
  override readonly name = 'ReplayBacktestError';
}

/** Inclusive tick levels → the book store's snapshot shape. */
function bookView(bids: readonly (readonly [number, number])[], asks: readonly (readonly [number, number])[]): { yes: BookView; no: BookView } {
  const yes = BookState.fromSnapshot({
    bids: bids.map(([priceTicks, sizeRaw]) => ({ priceTicks, sizeRaw })),
    asks: asks.map(([priceTicks, sizeRaw]) => ({ priceTicks, sizeRaw })),
  });
  return { yes, no: yes.complement() };
}

export async function runReplayBacktest(options: ReplayBacktestOptions): Promise<ReplayReport> {
  const { config, header, events } = options;
  const entry = options.market === undefined ? header.markets[0] : header.markets.find((m) => m.slug === options.market);
  if (entry === undefined) throw new ReplayBacktestError(`market ${options.market ?? '(first)'} is not in the stream (it has ${header.markets.map((m) => m.slug).join(', ')})`);
  const slug = entry.slug;
  const played = events.filter((e) => !('market' in e) || e.market === null || e.market === slug);
  if (played.length === 0) throw new ReplayBacktestError(`the stream has no events for ${slug}`);
  // Trades of a recording were written when read, after the books of their time: the replay orders by `t`.
  const startMs = Math.min(...played.map((e) => e.t));
  const endMs = Math.max(...played.map((e) => e.t));
  const tokens = { yes: entry.yesTokenId ?? `${slug}:yes`, no: entry.noTokenId ?? `${slug}:no` };
  const info: MarketInfo = {
    slug,
    tokens,
    minSizeRaw: 0,
    maxSpreadTicks: 0,
    rewardC: 3,
    dailyRewardRaw: 0,
    rewardable: false,
    expiresAtMs: null,
    band: effectivePriceBand(config, slug),
  };

  const time = new VirtualTime(startMs);
  const accounting = new BotAccounting([{ slug, tokens }]);
  const matcher = new QueueMatcher(options.queueModel);
  const unbooked = new Map<string, ReplayFill>();
  const fillPoints: ReplayFillPoint[] = [];
  let trader: Trader | null = null;
  const venue = new ReplayVenue({
    marketSlug: slug,
    tokens,
    matcher,
    now: () => time.now(),
    feeRateBps: options.feeRateBps,
    // The socket's frames arrive after the engine command that caused them, never inside it.
    onOrderEvent: (event: OrderEventInput) => void time.schedule(0, () => trader?.executor.onOrderEvent(event)),
    onFill: (fill) => {
      unbooked.set(fill.tradeEventId, fill);
      const yesPrice = fill.outcome === 'YES' ? fill.priceTicks : TICKS_PER_UNIT - fill.priceTicks;
      const yesSide = fill.outcome === 'YES' ? fill.side : fill.side === 'BUY' ? 'SELL' : 'BUY';
      fillPoints.push({ t: (fill.atMs - startMs) / 1000, price: yesPrice / TICKS_PER_UNIT, side: yesSide, size: fill.sizeRaw / 1e6, liquidity: fill.liquidity });
    },
  });
  const book = (fill: ReplayFill): void => {
    if (!unbooked.delete(fill.tradeEventId)) return;
    accounting.apply({ marketSlug: fill.marketSlug, outcome: fill.outcome, side: fill.side, sizeRaw: fill.sizeRaw, collateralRaw: fill.collateralRaw, feeRaw: fill.feeRaw });
  };
  const latency = new LatencyVenue(venue, time, { oneWayMs: options.latencyMs, maxConcurrent: config.rateLimits.maxConcurrent, minRequestSpacingMs: config.rateLimits.minTimeMs });

  let views: { yes: BookView; no: BookView } | null = null;
  const listeners = new Set<(slug: string) => void>();
  let resolved = false;
  trader = new Trader({
    venue: latency,
    scheduler: time,
    strategy: options.strategy,
    markets: [info],
    isResolved: () => resolved,
    ledger: accounting,
    books: {
      books: (s) => (s === slug ? views : null),
      onChange: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    risk: config.risk,
    orders: traderOrdersOf(config),
    requoteIntervalMs: REQUOTE_INTERVAL_MS,
    quoteOnBookChange: true,
    midHistory: { horizonMs: 3_600_000, max: 2000 },
    // Only late events of finished orders read them; a replay's events are never that late (keeps lookups short).
    retainTerminalMs: 60_000,
    observer: {
      onFill: (fill) => {
        const booked = unbooked.get(parseFillPartId(fill.tradeEventId).tradeEventId);
        if (booked !== undefined) book(booked);
      },
    },
  });

  // ── the recorded events, at their receive times ──
  let lastBookAtMs: number | null = null;
  let unusableBooks = 0;
  let carriedForwardMs = 0;
  const quiet = config.feed.quietThresholdMs;
  const noteBookAge = (atMs: number): void => {
    if (lastBookAtMs !== null) carriedForwardMs += Math.max(0, atMs - lastBookAtMs - quiet);
  };
  for (const event of played) {
    time.schedule(event.t - startMs, () => {
      switch (event.kind) {
        case 'book': {
          noteBookAge(event.t);
          lastBookAtMs = event.t;
          matcher.onBook({ bids: event.bids, asks: event.asks });
          try {
            views = bookView(event.bids, event.asks);
          } catch {
            views = null; // a crossed or locked recorded book: nothing is quoted on it (counted in the report)
            unusableBooks += 1;
          }
          for (const listener of [...listeners]) listener(slug);
          break;
        }
        case 'trade':
          venue.onTrade({ priceTicks: event.priceTicks, sizeRaw: event.sizeRaw, takerSide: event.takerSide });
          break;
        case 'mode':
          venue.setMode(event.mode);
          break;
        case 'resolved':
          resolved = true;
          trader?.runner.trigger(slug, false);
          break;
        case 'gap':
          break;
      }
    });
  }

  // ── sampling ──
  const every = options.sampleEveryMs ?? 1000;
  const series = { t: [] as number[], mid: [] as (number | null)[], bid: [] as (number | null)[], ask: [] as (number | null)[], pnl: [] as number[], inventory: [] as number[] };
  let quotedMs = 0;
  let spreadTickMs = 0;
  let twoSidedMs = 0;
  let inventoryRawMs = 0;
  let lastSampleAt = startMs;
  const ownTouch = (): { bid: number | null; ask: number | null } => {
    let bid: number | null = null;
    let ask: number | null = null;
    for (const order of venue.resting()) {
      const isNo = order.tokenId === tokens.no;
      const side = isNo ? (order.side === 'BUY' ? 'SELL' : 'BUY') : order.side;
      const price = isNo ? TICKS_PER_UNIT - order.priceTicks : order.priceTicks;
      if (side === 'BUY') bid = bid === null ? price : Math.max(bid, price);
      else ask = ask === null ? price : Math.min(ask, price);
    }
    return { bid, ask };
  };
  const markMicros = (): number | null => {
    const mid = views?.yes.mid ?? null;
    return mid === null ? null : Math.round(mid * 1e6);
  };
  const sample = (): void => {
    const now = time.now();
    const dt = now - lastSampleAt;
    lastSampleAt = now;
    const touch = ownTouch();
    const net = accounting.holding(slug, 'YES') - accounting.holding(slug, 'NO');
    if (touch.bid !== null || touch.ask !== null) quotedMs += dt;
    if (touch.bid !== null && touch.ask !== null) {
      twoSidedMs += dt;
      spreadTickMs += (touch.ask - touch.bid) * dt;
    }
    inventoryRawMs += Math.abs(net) * dt;
    const pnl = accounting.pnl(slug, markMicros());
    series.t.push((now - startMs) / 1000);
    series.mid.push(views?.yes.mid ?? null);
    series.bid.push(touch.bid === null ? null : touch.bid / TICKS_PER_UNIT);
    series.ask.push(touch.ask === null ? null : touch.ask / TICKS_PER_UNIT);
    series.pnl.push((pnl.realizedRaw + (pnl.unrealizedRaw ?? 0)) / 1e6);
    series.inventory.push(net / 1e6);
  };
  for (let at = startMs; at <= endMs; at += every) time.schedule(at - startMs, sample);

  // ── run ──
  const adopting = trader.adopt();
  await time.runUntil(startMs);
  await adopting;
  latency.begin();
  trader.quote();
  await time.runUntil(endMs);
  sample();
  trader.stop();
  await time.runUntil(endMs);
  for (const fill of [...unbooked.values()]) book(fill); // fills the executor never reported (none expected)

  const pnl = accounting.pnl(slug, markMicros());
  const yes = accounting.tokenPosition(slug, 'YES');
  const no = accounting.tokenPosition(slug, 'NO');
  const duration = Math.max(1, endMs - startMs);
  return {
    figures: {
      market: slug,
      queueModel: options.queueModel,
      latencyMs: options.latencyMs,
      durationMs: endMs - startMs,
      fills: yes.fillCount + no.fillCount,
      makerFills: fillPoints.length - venue.takerFills,
      volumeRaw: venue.filledRaw,
      feesRaw: yes.feesRaw + no.feesRaw,
      realizedPnlRaw: pnl.realizedRaw,
      unrealizedPnlRaw: pnl.unrealizedRaw ?? 0,
      maxInventoryRaw: accounting.extremes(slug).maxAbsNetRaw,
      timeWeightedInventoryRaw: inventoryRawMs / duration,
      quotedSpreadTicks: twoSidedMs === 0 ? null : spreadTickMs / twoSidedMs,
      fillRatio: venue.placedRaw === 0 ? 0 : venue.filledRaw / venue.placedRaw,
      requests: latency.requests,
      timeQuotedMs: quotedMs,
      timeCarriedForwardMs: carriedForwardMs,
      unusableBooks,
      queue: matcher.queueStats(),
    },
    series,
    fills: fillPoints,
  };
}
