/**
 * Event routing: takes the socket's order events (OME and settlement frames) to the tracked orders.
 *
 * Owns: the dedupe of events (bounded), the split of a settlement frame into one part per order, the orphan parts
 * (events for an order not linked yet) and their replay, and the stray cancels (orders of the bot resting although
 * the bot has given them up).
 *
 * Invariants: an event is applied at most once (by its key, within the dedupe's capacity); an invalid event is
 * counted and dropped; an event for a foreign clientOrderId is counted and dropped; one for an order of ours that is
 * not (yet) tracked waits in the orphans until its order is linked (and an untracked order of ours resyncs its
 * market), or expires; a stray venue id is canceled once (bounded memory), when the trading mode allows cancels
 * (a cancel the mode refused is held until it does; one that failed otherwise resyncs the market, which adopts or
 * cancels whatever still rests: src/orders/cancel-errors.ts says which is which);
 * every change goes through the executor's writer with origin `venue-event`.
 */
import { errorText } from '../core/errors.js';
import { classifyCancelError } from './cancel-errors.js';
import { refusedByMode, type ExecutorContext } from './executor-context.js';
import { formatFillPartId } from './fill-part-id.js';
import { isOwnClientOrderId, tryParseClientOrderId } from './client-order-id.js';
import type { MarketState } from './market-state.js';
import { BoundedDedupe, eventKey, validateOrderEvent, type OmeEventInput, type OrderEventInput, type SettlementEventInput, type SettlementFillInput } from './order-events.js';
import { applyFill, applyReport, type OrderReport, type TrackedOrder } from './order-record.js';
import { isResting, isTerminal, type IllegalTransitionError } from './order-state.js';
import { OrphanEvents, type OrphanPart } from './orphan-events.js';
import type { SettlementState } from './venue-port.js';

const SETTLEMENT_OF: Readonly<Record<SettlementEventInput['type'], SettlementState>> = { MATCHED: 'provisional', MINED: 'mined', FAILED: 'failed' };

/**
 * One part per order in a settlement frame. Should one order appear more than once in a trade (several matches),
 * its later entries are kept as separate fills under their part id (src/orders/fill-part-id.ts; stable for the MINED/FAILED frames as
 * long as the venue lists matches in the same order), so no size is lost to the per-trade deduplication.
 */
export function splitSettlement(event: SettlementEventInput): [SettlementEventInput, SettlementFillInput][] {
  const seen = new Map<string, number>();
  return event.fills.map((fill) => {
    const key = fill.orderId ? `o:${fill.orderId}` : `c:${fill.clientOrderId ?? ''}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    const tradeEventId = formatFillPartId(event.tradeEventId, n);
    return [{ ...event, tradeEventId, fills: [fill] }, fill];
  });
}

export interface EventRouterOptions {
  readonly dedupeCapacity: number;
  readonly orphanCapacity: number;
  readonly orphanTtlMs: number;
  /** Resyncs a market that an event shows holds an order of ours this process does not track. */
  readonly requestResync: (market: MarketState) => void;
}

export class EventRouter {
  private readonly dedupe: BoundedDedupe;
  private readonly orphans: OrphanEvents;
  private readonly strayCancels = new BoundedDedupe(1000);

  constructor(
    private readonly ctx: ExecutorContext,
    private readonly options: EventRouterOptions,
  ) {
    this.dedupe = new BoundedDedupe(options.dedupeCapacity);
    this.orphans = new OrphanEvents(options.orphanCapacity, options.orphanTtlMs);
  }

  /** Applies one socket order event. Never throws. */
  route(event: OrderEventInput): void {
    const { observer, log } = this.ctx;
    try {
      const problem = validateOrderEvent(event);
      if (problem !== null) {
        observer.onUntrackedEvent('invalid', problem.message);
        log.warn({ err: problem.message }, 'order event dropped');
        return;
      }
      const key = eventKey(event);
      if (this.dedupe.seen(key)) {
        observer.onDuplicateEvent(key);
        return;
      }
      if (event.source === 'OME') this.routeOme(event);
      else for (const [part, fill] of splitSettlement(event)) this.routeSettlementFill(part, fill);
    } catch (error) {
      log.error({ err: errorText(error, { withName: true }) }, 'order event failed');
    }
  }

  /** Replays the parked events of an order that just got linked to its venue id. */
  replayOrphans(orderId: string): void {
    for (const part of this.orphans.take(`o:${orderId}`)) {
      if (part.kind === 'ome') this.routeOme(part.event, true);
      else this.routeSettlementFill(part.event, part.fill, true);
    }
  }

  /** The venue says an order we consider finished is resting: cancel it (no order of ours rests unknown to us). */
  handleIllegal(order: TrackedOrder, error: IllegalTransitionError): void {
    if (!isTerminal(error.from) || !isResting(error.to) || order.orderId === null) return;
    this.cancelStray(order.marketSlug, order.orderId, `venue reports ${error.to} for a ${error.from} order`);
  }

  /** Cancels the market's strays when the mode allows (else they wait for the mode to relax). */
  flushStrays(market: MarketState): void {
    const { gate, venue, observer, log } = this.ctx;
    if (!market.hasStrays || !gate.allowsCancel()) return;
    market.queue
      .add(async () => {
        if (!market.hasStrays || !gate.allowsCancel()) return;
        const ids = market.takeStrays();
        try {
          await venue.cancelOrders(market.slug, ids);
        } catch (error) {
          observer.onRequestError('cancelOrders', market.slug, error);
          if (classifyCancelError(error).modeRefusal) {
            // Held until the mode allows cancels: the gate's release flushes them again.
            refusedByMode(this.ctx, error, 'cancel');
            for (const id of ids) market.addStray(id);
          } else {
            // Refused, rate limited or of unknown outcome: the market's listing finds whatever still rests, and the
            // resync adopts or cancels it (no order of ours rests unknown to us).
            this.options.requestResync(market);
          }
        }
      })
      .catch((error: unknown) => log.error({ market: market.slug, err: errorText(error, { withName: true }) }, 'stray cancel failed'));
  }

  private cancelStray(marketSlug: string, orderId: string, reason: string): void {
    const market = this.ctx.markets.get(marketSlug);
    if (market === undefined || this.strayCancels.seen(orderId)) return;
    this.ctx.observer.onStrayOrder(marketSlug, orderId, reason);
    this.ctx.log.warn({ market: marketSlug, orderId, reason }, 'canceling stray order');
    market.addStray(orderId);
    this.flushStrays(market);
  }

  private routeOme(event: OmeEventInput, replay = false): void {
    const order = this.ctx.orders.find(event.orderId, event.clientOrderId);
    if (order === undefined) {
      this.park(event.orderId, event.clientOrderId ?? null, { kind: 'ome', event }, replay);
      return;
    }
    const status = event.type === 'CANCELLATION' || event.status === 'KILLED' ? 'CANCELED' : event.status === 'FILLED' ? 'MATCHED' : 'LIVE';
    const report: OrderReport = { orderId: event.orderId, status, remainingRaw: event.remainingRaw, reason: event.reason ?? null };
    this.ctx.writer.commit(order, applyReport(order, report, this.ctx.scheduler.now()), 'venue-event');
  }

  private routeSettlementFill(event: SettlementEventInput, fill: SettlementFillInput, replay = false): void {
    const { orders, writer, scheduler } = this.ctx;
    const order = orders.find(fill.orderId, fill.clientOrderId);
    if (order === undefined) {
      this.park(fill.orderId ?? null, fill.clientOrderId ?? null, { kind: 'settlement', event, fill }, replay);
      return;
    }
    // A taker fill that names both ids before the placement answer: link them now.
    const current = order.orderId === null && fill.orderId ? writer.linkOrderId(order, fill.orderId) : order;
    const settlement = SETTLEMENT_OF[event.type];
    const applied = applyFill(current, { tradeEventId: event.tradeEventId, sizeRaw: fill.sizeRaw, priceTicks: fill.priceTicks, settlement }, event.atMs, scheduler.now());
    writer.commit(current, applied, 'venue-event');
    if (current.state === 'rejected' && current.orderId !== null && settlement !== 'failed') {
      // An order given up as lost traded after all: it may still rest.
      this.cancelStray(current.marketSlug, current.orderId, 'fill for an order marked rejected');
    }
    if (current !== order && current.orderId !== null) this.replayOrphans(current.orderId);
  }

  /** An event for an order not (yet) tracked: foreign ones are counted, ours wait for their order to be linked. */
  private park(orderId: string | null, clientOrderId: string | null, part: OrphanPart, replay: boolean): void {
    if (clientOrderId !== null && !isOwnClientOrderId(clientOrderId, this.ctx.ids.botTag)) {
      this.ctx.observer.onUntrackedEvent('foreign', `clientOrderId ${clientOrderId}`);
      return;
    }
    if (clientOrderId !== null) {
      // One of ours that this process does not track (placed before a restart, or forgotten): resync its market.
      const market = this.ctx.markets.withKey(tryParseClientOrderId(clientOrderId)?.marketKey ?? '');
      if (market !== undefined && !replay) this.options.requestResync(market);
    }
    const key = orderId !== null ? `o:${orderId}` : `c:${clientOrderId ?? ''}`;
    const dropped = this.orphans.add(key, part, this.ctx.scheduler.now());
    for (const lost of dropped) this.ctx.observer.onUntrackedEvent('expired', `${lost.event.source} ${lost.event.eventId}`);
  }
}
