/**
 * What the bot does on each feed event beyond the books: order frames → the executor (their fill economics → the
 * fill recorder), an order stream gap → a resync, a refused authentication → every market halted, a resolution →
 * the market's orders canceled and the settler told, a (re)connection → orders re-read and the ledger caught up,
 * a socket unit settled → orders re-read; and the amount-unit evidence the feed asks of the bot's own orders.
 *
 * Owns: the reaction to each feed event, and whether the feed connected before (a RE-connect resyncs every market;
 * the first connect only catches the ledger up). Invariants: a market this bot does not trade is none of its
 * business (ignored); nothing resyncs or catches up once the bot is stopping; an unattributable or unreadable order
 * frame of a traded market (or of an unknown one: every market) is a gap, counted, and resynced at once.
 */
import type { Logger } from 'pino';
import type { FeedConnectionState } from '../book/feed-port.js';
import { amountUnitFromSize, type UnitSettlement } from '../book/size-units.js';
import { errorText } from '../core/errors.js';
import type { MarketResolvedFrame } from '../exchange/socket-wire.js';
import type { FeedAuthState, UnreadableOrderEvent } from '../exchange/socket.js';
import type { Metrics } from '../metrics/index.js';
import type { MarketSyncReport } from '../orders/executor-types.js';
import type { OrderExecutor } from '../orders/executor.js';
import type { OrderStreamWatch } from '../orders/order-stream-watch.js';
import type { Settler } from '../capital/settler.js';
import type { StaleGuard } from '../risk/stale-guard.js';
import type { FillRecorder } from '../booking/fill-recorder.js';
import type { LedgerSync } from '../booking/ledger-sync.js';
import { orderEventHints, type OrderEventAdapter, type OrderEventHints, type OrderIds } from '../venue/order-event-adapter.js';
import type { TradedMarkets } from '../markets/traded-markets.js';
import type { OrderEvent } from '../core/venue-rules/index.js';

export interface FeedReactionsOptions {
  readonly executor: Pick<OrderExecutor, 'openOrders' | 'onOrderEvent' | 'submit' | 'resync' | 'whenStarted'>;
  readonly adapter: Pick<OrderEventAdapter, 'adapt'>;
  /** The market of one of the bot's orders, by venue or client order id; null when unknown. */
  readonly marketOfOrder: (ids: OrderIds) => string | null;
  readonly fills: Pick<FillRecorder, 'rememberDetail'>;
  readonly markets: TradedMarkets;
  readonly watch: Pick<OrderStreamWatch, 'reportGap'>;
  readonly settler: Pick<Settler, 'resolved'>;
  readonly staleGuard: Pick<StaleGuard, 'socketDown' | 'socketUp'>;
  readonly ledgerSync: Pick<LedgerSync, 'afterGap'>;
  /** Requote a market now (the strategy runner). */
  readonly requote: (slug: string) => void;
  readonly metrics: Metrics;
  readonly log: Logger;
  readonly now: () => number;
  readonly stopping: () => boolean;
  /** `orders.foreignOrders`, for the log line. */
  readonly foreignPolicy: string;
}

export class FeedReactions {
  private connectedBefore = false;

  constructor(private readonly options: FeedReactionsOptions) {}

  /** A socket order frame: adapted, its fill economics remembered, then applied by the executor (or a gap). */
  orderEvent(frame: OrderEvent): void {
    const adapted = this.options.adapter.adapt(frame);
    if (adapted.kind === 'none') return;
    if (adapted.kind === 'gap') {
      this.gap(adapted.marketSlug, adapted.reason, 'unattributable');
      return;
    }
    for (const d of adapted.details) {
      this.options.fills.rememberDetail(d.tradeEventId, d.orderId, {
        collateralRaw: d.collateralRaw,
        feeRaw: d.feeRaw,
        role: d.role,
        ...(d.feeContractsRaw === undefined ? {} : { feeContractsRaw: d.feeContractsRaw }),
        ...(d.takerFeeBps === undefined ? {} : { takerFeeBps: d.takerFeeBps }),
        ...(d.txHash === undefined ? {} : { txHash: d.txHash }),
      });
    }
    this.options.executor.onOrderEvent(adapted.event);
  }

  /** An order frame that fails validation is a lost event: resync its market (every market when it names none). */
  unreadableOrderEvent(lost: UnreadableOrderEvent): void {
    this.gap(this.marketOfHints(orderEventHints(lost.payload)), `unreadable order event (${lost.path}: ${lost.reason})`, 'unreadable');
  }

  /** A refused socket authentication: no order event can reach the bot, so no market is quoted until it is accepted. */
  authChanged(state: FeedAuthState, message: string | null): void {
    const { log, metrics, markets } = this.options;
    if (state === 'failed') {
      log.error({ message }, 'feed authentication refused: no order events can arrive; every market halted and its orders canceled');
      for (const slug of markets.slugs()) {
        metrics.riskBlocked(slug, 'feed-auth');
        void this.options.executor.submit(slug, []);
      }
      return;
    }
    log.warn('feed authenticated again: quoting resumes');
    for (const slug of markets.slugs()) this.options.requote(slug);
  }

  /**
   * A market resolved: its orders canceled, no more quotes. The ledger values the holdings at the payout from now on
   * (winner 1, loser 0) instead of the last mid; the settler records it (reading the venue when the frame names no
   * winner) and redeems once the payout is posted.
   */
  resolved(frame: Pick<MarketResolvedFrame, 'slug' | 'winningIndex' | 'resolutionDateMs'>): void {
    if (!this.options.markets.markResolved(frame.slug)) return;
    this.options.log.info({ market: frame.slug }, 'market resolved: canceling its orders, no more quotes');
    void this.options.executor.submit(frame.slug, []);
    this.options.settler.resolved(frame.slug, frame.winningIndex, frame.resolutionDateMs ?? this.options.now());
  }

  /**
   * Units of the socket's sizes settled from evidence: one line per settlement. Info on the normal path (the book
   * unit is settled before any socket book is applied, so nothing was misread, whichever unit it is); WARN only when
   * order amounts turn out to be in another unit than assumed: amounts read meanwhile were wrong and are re-read from
   * REST (`venue.units.socketAmounts` set to the unit avoids it).
   */
  unitsSettled(settled: UnitSettlement): void {
    const misread = settled.what === 'amounts' && settled.switched;
    this.options.log[misread ? 'warn' : 'info']({ what: settled.what, unit: settled.unit, switched: settled.switched, evidence: settled.evidence }, 'socket unit settled from evidence');
    if (settled.switched) this.options.metrics.feedUnitSwitch(settled.what);
    if (settled.what === 'amounts' && settled.switched) for (const slug of this.options.markets.slugs()) this.options.watch.reportGap(slug, 'socket amount unit switched');
  }

  /**
   * Order events sent while the socket was down (or frozen until the watchdog reconnected it) are never redelivered:
   * after every RE-connect the executor re-reads its orders and the ledger catches up from REST. After the FIRST
   * connect the ledger catches up once more too: fills between the start-up catch-up and the subscription had no
   * socket to arrive on.
   */
  connectionChanged(state: FeedConnectionState): void {
    const { staleGuard, executor, log } = this.options;
    if (state.status !== 'connected') {
      staleGuard.socketDown();
      return;
    }
    staleGuard.socketUp();
    if (!this.options.stopping()) {
      // The ledger's repair reads the venue's filled sizes: it must come after the events held for orders not yet
      // tracked were applied, or a trade whose MATCHED frame waits for its order's adoption is counted twice (a
      // stand-in from the read, then the frame). After a reconnect the resyncs adopt; on the first connect the
      // executor's start-up sync does.
      const synced = this.connectedBefore
        ? Promise.all(
            this.options.markets.slugs().map((slug) =>
              executor
                .resync(slug)
                .then((report) => this.noteForeign(report))
                .catch((error: unknown) => log.warn({ market: slug, err: errorText(error) }, 'resync after reconnect failed')),
            ),
          )
        : executor.whenStarted();
      void synced
        .then(() => (this.options.stopping() ? 0 : this.options.ledgerSync.afterGap()))
        .catch((error: unknown) => log.warn({ err: errorText(error) }, 'ledger catch-up after (re)connect failed; the periodic check will retry'));
    }
    this.connectedBefore = true;
  }

  /** Orders of other bot tags (or without clientOrderId) seen in a market's listing: counted and logged. */
  noteForeign(report: MarketSyncReport): void {
    if (!report.ok) return;
    this.options.metrics.foreignOrders(report.marketSlug, report.foreign);
    if (report.foreign > 0) {
      this.options.log.info(
        { market: report.marketSlug, foreign: report.foreign, policy: this.options.foreignPolicy },
        'orders of other bots (other tags or no clientOrderId) in this market: not adopted, canceled or booked',
      );
    }
  }

  /**
   * The unit of the socket's amounts shown by a PLACEMENT frame of one of the bot's own orders: its remaining size is
   * the order's size, known exactly. Null for any other frame.
   */
  amountEvidence(payload: unknown): { unit: 'raw' | 'shares'; evidence: Record<string, unknown> } | null {
    if (payload === null || typeof payload !== 'object') return null;
    if (Reflect.get(payload, 'source') !== 'OME' || String(Reflect.get(payload, 'type')).toUpperCase() !== 'PLACEMENT') return null;
    const hints = orderEventHints(payload);
    const order = this.options.executor
      .openOrders()
      .find((o) => (hints.clientOrderId !== null && o.clientOrderId === hints.clientOrderId) || (o.orderId !== null && hints.orderIds.includes(o.orderId)));
    if (order === undefined) return null;
    const sent: unknown = Reflect.get(payload, 'remainingSize');
    const unit = amountUnitFromSize(sent, order.sizeRaw);
    return unit === null ? null : { unit, evidence: { clientOrderId: order.clientOrderId, remainingSizeSent: sent, orderSizeRaw: order.sizeRaw } };
  }

  /** The market an unreadable order frame was about, from what it still names; null when unknown. */
  private marketOfHints(hints: OrderEventHints): string | null {
    if (hints.marketSlug !== null) return hints.marketSlug;
    if (hints.marketId !== null) {
      const slug = this.options.markets.slugOfMarketId(hints.marketId);
      if (slug !== null) return slug;
    }
    for (const orderId of hints.orderIds) {
      const slug = this.options.marketOfOrder({ orderId });
      if (slug !== null) return slug;
    }
    return hints.clientOrderId === null ? null : this.options.marketOfOrder({ clientOrderId: hints.clientOrderId });
  }

  /**
   * Order events lost or unreadable (src/venue/order-event-adapter.ts): the market's orders are re-read and the ledger
   * caught up at once (src/orders/order-stream-watch.ts), every market's when the market is unknown.
   */
  private gap(slug: string | null, reason: string, cause: 'unreadable' | 'unattributable'): void {
    const { markets, log } = this.options;
    if (slug !== null && !markets.isTraded(slug)) {
      log.debug({ market: slug, reason }, 'order event of a market this bot does not trade ignored');
      return;
    }
    this.options.metrics.orderEventGap(cause);
    const slugs = slug === null ? markets.slugs() : [slug];
    log.warn({ market: slug, reason, resync: slugs }, 'order event lost or unreadable: resyncing and catching the ledger up');
    if (this.options.stopping()) return;
    for (const market of slugs) this.options.watch.reportGap(market, reason);
  }
}
