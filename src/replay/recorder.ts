/**
 * The recorder: the configured markets' books, public trades, resolutions, trading modes and gaps, written to a
 * replay stream. It reads market data through the bot's own feed and book store (src/venue/market-data.ts: same
 * resubscribe, watchdog and unit detection) and quotes and places nothing.
 *
 * Owns: what is recorded and when. Invariants:
 * - a book is recorded each time the book store applies a changed book (feed frame or REST snapshot), as the bot
 *   would see it, best levels first, in YES terms; `venueTs` is the venue's stamp of the last frame of that market
 *   (null for a REST snapshot);
 * - public trades are read with `GET /markets/{slug}/events` (finalized trades, newest first, up to 100 per page),
 *   each market no more often than the venue's 30 s cache, ONE market per `tradeReadIntervalMs` in turn, at the
 *   limiter's lowest priority: a recorder on a trading account never takes more than that share of the account's
 *   budget. A trade is written once (deduplicated across overlapping pages), only if it happened after the
 *   recorder started, with `t` = `venueTs` = the venue's time of the trade (it is written when read, so the stream
 *   is in receive order and a reader orders by `t`); a trade of the NO token is
 *   written as a YES trade at 1 − p with the taker's side flipped;
 * - the trading mode is written when it changes (and once at start); a disconnect, a stale market and a frozen
 *   feed's resync are written as gaps, so a replay can say which time it could not see;
 * - the underlying: every `oraclePriceData` frame of a recorded market whose ticker is known (its terms name one) and
 *   every Pyth Hermes price the shell passes on (`underlying`), with `t` = when it was received and `publishTs` = the
 *   source's own time; a frame that is not a finite positive price is not written (counted as `refusedPrices`);
 * - the recorded set changes while it runs (`addMarket`, `removeMarket`: src/replay/record-markets.ts decides): a
 *   market added is written as a `listed` event before any event of it; one removed gets no more trade reads or
 *   oracle frames, but its resolution is still written (it settles after it was left).
 */
import type { Logger } from 'pino';
import type { Scheduler } from '../core/clock.js';
import { errorText } from '../core/errors.js';
import { MAX_TICK, MIN_TICK, TICKS_PER_UNIT } from '../core/venue-rules/index.js';
import type { TradingMode } from '../core/trading-mode.js';
import type { BookView } from '../strategy/contract.js';
import type { MarketTrade } from '../exchange/wire.js';
import type { MarketResolvedFrame, OraclePriceFrame } from '../exchange/socket-wire.js';
import type { ReplayEvent, ReplayMarket, TradeEvent, UnderlyingEvent } from './format.js';

/** The feed and books as the recorder reads them (src/venue/market-data.ts builds the real ones). */
export interface RecorderMarketData {
  onBookFrame(listener: (slug: string, venueTs: number | null) => void): () => void;
  onMarketResolved(listener: (frame: MarketResolvedFrame) => void): () => void;
  onDisconnect(listener: () => void): () => void;
  /** The market's current YES book as the bot would see it; null before the first one. */
  books(slug: string): { readonly yes: Pick<BookView, 'bids' | 'asks'> } | null;
  onBookChange(listener: (slug: string) => void): () => void;
  onStale(listener: (slug: string) => void): () => void;
  /** The venue's `oraclePriceData` frames (absent: the underlying is not recorded from the venue). */
  onOraclePrice?(listener: (frame: OraclePriceFrame) => void): () => void;
}

export interface RecorderVenue {
  recentTrades(slug: string): Promise<readonly MarketTrade[]>;
  tradingMode(): Promise<TradingMode>;
}

export interface RecordedMarket {
  readonly slug: string;
  readonly yesTokenId: string | null;
  readonly noTokenId: string | null;
  /** The underlying's ticker when the market's terms name one (its oracle frames are recorded under it). */
  readonly ticker?: string | null;
}

export interface RecorderOptions {
  readonly markets: readonly RecordedMarket[];
  readonly data: RecorderMarketData;
  readonly venue: RecorderVenue;
  readonly sink: (event: ReplayEvent) => void;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  /** One market's trades are read this often, markets in turn (default 2000 ms). */
  readonly tradeReadIntervalMs?: number;
  /**
   * A market's trades are read again no sooner than this (default 30 s: the venue serves `GET /markets/{slug}/events`
   * with `Cache-Control: max-age=30`, so reading sooner spends budget on the same answer). A turn whose market was read
   * more recently sends nothing.
   */
  readonly marketTradeRefreshMs?: number;
  /** The trading mode is read this often (default: the config's maintenance poll interval). */
  readonly modeReadIntervalMs: number;
}

const SEEN_TRADES_KEPT = 10_000;

/**
 * A venue trade → a YES-terms trade event, or null when it is not of this market's tokens. Pure. Its `t` is the
 * trade's own time: the feed lists trades only once finalized and is cached for 30 s, so when it was read says
 * nothing about when it happened.
 */
export function tradeEvent(market: RecordedMarket, trade: MarketTrade): TradeEvent | null {
  const isNo = market.noTokenId !== null && trade.tokenId === market.noTokenId;
  const isYes = market.yesTokenId === null || trade.tokenId === market.yesTokenId;
  if (!isNo && !isYes) return null;
  if (trade.matchedSizeRaw <= 0 || !(trade.price > 0 && trade.price < 1)) return null;
  // The venue prints a weighted average (off the tick when a taker swept several levels): nearest tick.
  const ticks = Math.min(MAX_TICK, Math.max(MIN_TICK, Math.round(trade.price * TICKS_PER_UNIT)));
  return {
    kind: 'trade',
    t: trade.createdAtMs,
    venueTs: trade.createdAtMs,
    market: market.slug,
    priceTicks: isNo ? TICKS_PER_UNIT - ticks : ticks,
    sizeRaw: trade.matchedSizeRaw,
    takerSide: (trade.side === 'BUY') !== isNo ? 'BUY' : 'SELL',
    id: trade.txHash,
  };
}

function tradeKey(trade: MarketTrade): string {
  return [trade.createdAtMs, trade.tokenId, trade.side, trade.matchedSizeRaw, trade.collateralRaw, trade.txHash ?? ''].join('|');
}

export class Recorder {
  private readonly startedAtMs: number;
  /** The markets recorded now, in the order they joined. */
  private readonly markets = new Map<string, RecordedMarket>();
  /** Every market recorded since the start (a resolution of one left before it settled is still written). */
  private readonly everRecorded = new Set<string>();
  private readonly lastFrameTs = new Map<string, number | null>();
  private readonly seenTrades = new Set<string>();
  private readonly unsubscribe: (() => void)[] = [];
  private readonly timers = new Set<() => void>();
  private nextTradeMarket = 0;
  private readonly lastTradeRead = new Map<string, number>();
  private mode: TradingMode | null = null;
  private stopped = false;
  private readsInFlight = 0;
  readonly counts = { books: 0, trades: 0, gaps: 0, modes: 0, resolutions: 0, underlying: 0, listed: 0, refusedPrices: 0, readErrors: 0 };

  constructor(private readonly options: RecorderOptions) {
    this.startedAtMs = options.scheduler.now();
    for (const market of options.markets) this.track(market);
  }

  /** A market joined while recording: written as a `listed` event (its whole header entry), then recorded. */
  addMarket(market: RecordedMarket, entry: ReplayMarket): void {
    if (this.stopped || this.markets.has(market.slug)) return;
    this.emit({ kind: 'listed', t: this.now(), entry });
    this.track(market);
  }

  /** A market left: no more trade reads or oracle frames of it (its resolution is still written). */
  removeMarket(slug: string): void {
    this.markets.delete(slug);
    this.lastTradeRead.delete(slug);
    this.lastFrameTs.delete(slug);
  }

  /** The slugs recorded now. */
  recording(): readonly string[] {
    return [...this.markets.keys()];
  }

  private track(market: RecordedMarket): void {
    this.markets.set(market.slug, market);
    this.everRecorded.add(market.slug);
  }

  start(): void {
    const { data } = this.options;
    this.emit({ kind: 'gap', t: this.now(), market: null, cause: 'recorder-start' });
    this.unsubscribe.push(
      data.onBookFrame((slug, venueTs) => this.lastFrameTs.set(slug, venueTs)),
      data.onBookChange((slug) => this.recordBook(slug)),
      // A market left is unsubscribed, which the book store reports as stale: not a gap of the recording.
      data.onStale((slug) => {
        if (this.markets.has(slug)) this.emit({ kind: 'gap', t: this.now(), market: slug, cause: 'stale' });
      }),
      data.onDisconnect(() => this.emit({ kind: 'gap', t: this.now(), market: null, cause: 'disconnect' })),
      data.onMarketResolved((frame) => {
        if (this.everRecorded.has(frame.slug)) this.emit({ kind: 'resolved', t: this.now(), market: frame.slug, winner: frame.winningOutcome });
      }),
    );
    if (data.onOraclePrice) this.unsubscribe.push(data.onOraclePrice((frame) => this.oracleFrame(frame)));
    this.every(this.options.tradeReadIntervalMs ?? 2000, () => this.readTrades());
    void this.readMode();
    this.every(this.options.modeReadIntervalMs, () => this.readMode());
  }

  /** A gap the caller saw (a frozen feed's resync). */
  gap(market: string | null, cause: 'resync'): void {
    this.emit({ kind: 'gap', t: this.now(), market, cause });
  }

  /** A price of an underlying from a source other than the venue's frames (Pyth Hermes), as received. */
  underlying(price: { readonly ticker: string; readonly source: 'hermes'; readonly price: number; readonly conf: number | null; readonly publishTimeMs: number }): void {
    this.writePrice({ kind: 'underlying', t: this.now(), ticker: price.ticker, source: price.source, price: price.price, conf: price.conf, publishTs: price.publishTimeMs, market: null });
  }

  stop(): void {
    if (this.stopped) return;
    this.emit({ kind: 'gap', t: this.now(), market: null, cause: 'recorder-stop' });
    this.stopped = true;
    for (const off of this.unsubscribe.splice(0)) off();
    for (const cancel of this.timers) cancel();
    this.timers.clear();
  }

  /** Reads still running (the shell waits for them before closing the file). */
  get busy(): boolean {
    return this.readsInFlight > 0;
  }

  private now(): number {
    return this.options.scheduler.now();
  }

  private emit(event: ReplayEvent): void {
    if (this.stopped) return;
    if (event.kind === 'book') this.counts.books += 1;
    else if (event.kind === 'trade') this.counts.trades += 1;
    else if (event.kind === 'gap') this.counts.gaps += 1;
    else if (event.kind === 'mode') this.counts.modes += 1;
    else if (event.kind === 'underlying') this.counts.underlying += 1;
    else if (event.kind === 'listed') this.counts.listed += 1;
    else this.counts.resolutions += 1;
    this.options.sink(event);
  }

  private oracleFrame(frame: OraclePriceFrame): void {
    const ticker = this.markets.get(frame.slug)?.ticker;
    if (ticker === undefined || ticker === null) return;
    this.writePrice({ kind: 'underlying', t: this.now(), ticker, source: 'venue', price: frame.value, conf: null, publishTs: frame.timestampMs, market: frame.slug });
  }

  private writePrice(event: UnderlyingEvent): void {
    if (!(Number.isFinite(event.price) && event.price > 0) || !Number.isSafeInteger(event.publishTs) || event.publishTs < 0 || (event.conf !== null && !(event.conf >= 0))) {
      this.counts.refusedPrices += 1;
      return;
    }
    this.emit(event);
  }

  private recordBook(slug: string): void {
    if (!this.markets.has(slug)) return;
    const yes = this.options.data.books(slug)?.yes;
    if (yes === undefined) return;
    const venueTs = this.lastFrameTs.get(slug) ?? null;
    this.lastFrameTs.delete(slug);
    this.emit({
      kind: 'book',
      t: this.now(),
      venueTs,
      market: slug,
      bids: yes.bids.map((level) => [level.priceTicks, level.sizeRaw]),
      asks: yes.asks.map((level) => [level.priceTicks, level.sizeRaw]),
    });
  }

  private every(intervalMs: number, task: () => Promise<void>): void {
    const arm = (): void => {
      const cancel = this.options.scheduler.schedule(intervalMs, () => {
        this.timers.delete(cancel);
        void task().finally(() => {
          if (!this.stopped) arm();
        });
      });
      this.timers.add(cancel);
    };
    arm();
  }

  private async read<T>(what: string, request: () => Promise<T>): Promise<T | null> {
    this.readsInFlight += 1;
    try {
      return await request();
    } catch (error) {
      this.counts.readErrors += 1;
      this.options.log.warn({ what, err: errorText(error) }, 'recorder read failed; the next turn tries again');
      return null;
    } finally {
      this.readsInFlight -= 1;
    }
  }

  private async readTrades(): Promise<void> {
    const markets = [...this.markets.values()];
    const market = markets.length === 0 ? undefined : markets[this.nextTradeMarket % markets.length];
    this.nextTradeMarket += 1;
    if (market === undefined) return;
    const last = this.lastTradeRead.get(market.slug);
    if (last !== undefined && this.now() - last < (this.options.marketTradeRefreshMs ?? 30_000)) return;
    this.lastTradeRead.set(market.slug, this.now());
    const trades = await this.read(`trades of ${market.slug}`, () => this.options.venue.recentTrades(market.slug));
    if (trades === null) return;
    const fresh = trades
      .filter((trade) => trade.createdAtMs >= this.startedAtMs && !this.seenTrades.has(tradeKey(trade)))
      .sort((a, b) => a.createdAtMs - b.createdAtMs);
    for (const trade of fresh) {
      this.remember(tradeKey(trade));
      const event = tradeEvent(market, trade);
      if (event !== null) this.emit(event);
    }
  }

  private remember(key: string): void {
    this.seenTrades.add(key);
    if (this.seenTrades.size <= SEEN_TRADES_KEPT) return;
    const oldest = this.seenTrades.values().next();
    if (oldest.done !== true) this.seenTrades.delete(oldest.value);
  }

  private async readMode(): Promise<void> {
    const mode = await this.read('trading mode', () => this.options.venue.tradingMode());
    if (mode === null || mode === this.mode) return;
    this.mode = mode;
    this.emit({ kind: 'mode', t: this.now(), mode });
  }
}
