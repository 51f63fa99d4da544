/**
 * Ledger ↔ venue synchronisation: the REST side of "every fill reaches the ledger exactly once".
 *
 * - Catch-up (start-up, before quoting): the orders the ledger last knew as open, pending or unknown, and those
 *   active recently, are looked up by venue id (`POST /orders/status/batch`; by clientOrderId when the placement's
 *   answer was lost in a crash, and the ledger record is then linked and closed as the venue says); their filled size and the account's
 *   token balances (`GET /portfolio/positions`) are compared with the ledger and the ledger is repaired from the
 *   venue's answer. A fill that happened while the bot was down is recorded here.
 * - After a feed gap (reconnect): the orders' filled sizes over the recently active orders, repaired at once (the
 *   events sent during the gap are never redelivered).
 * - Periodic check: the same comparison. A fill booked from the feed after the status read left may be missing from the
 *   venue's answer and is allowed for (VenueView.ordersReadAtMs). A mismatch seen for the first time is most often a
 *   fill still in flight (matched at the venue, not yet delivered by the feed; or booked between the two reads): it
 *   is logged at info and counted apart (`sighting: 'first'`, no alert), and checked again on the next pass. The same
 *   mismatch on two consecutive checks is the error: logged WARN once per check, counted in the alerting metric
 *   (`sighting: 'persistent'`), and repaired; one the repair cannot fix stays persistent on the next check. So a fill
 *   still in flight on the socket is never recorded twice, nor alerted on.
 * - Stale provisional fills (MATCHED, then no MINED/FAILED for `staleProvisionalMs`, default 5 min: a killed process
 *   or a dropped frame). A key whose stale fills the venue balance counts, or excludes, agrees with the venue, so it
 *   is never a mismatch: the ledger's separate pass (`settleStaleProvisional`) handles it. The start-up catch-up
 *   settles them at once (inside `repairLedger`). The periodic check runs the pass every time: confirming a fill the
 *   venue already counts changes no balance, so it is safe at once; failing one (the venue balance excludes it)
 *   moves the balance, so it waits for the same verdict on two consecutive checks, like any other repair. The
 *   feed-gap repair has no balances, so it never settles them.
 *
 * - Several bots on one account (`markets.exclusive: false`, the default): `GET /portfolio/positions` is the whole
 *   account's, so it is only reported (`onAccount`: a metric, and the snapshot `report --account` reads); the ledger
 *   is compared with the venue through this bot's own orders' filled sizes alone and never adjusted from balances
 *   another process may have made. With `exclusive: true` the balances of the bot's markets are compared and
 *   repaired as above. After `close()` (shutdown) no pass writes to the ledger.
 *
 * Owns: nothing but the schedule; the comparison and repair rules are the ledger's (src/ledger/reconcile.ts).
 */
import type { Logger } from 'pino';
import { errorText } from '../core/errors.js';
import type { RequestPriority } from '../core/request-priority.js';
import type { ExchangeApi, OrderLookup } from '../exchange/api.js';
import type { OrderStatusResult } from '../exchange/wire.js';
import {
  reconcile,
  repairLedger,
  settleStaleProvisional,
  type LedgerStore,
  type Mismatch,
  type StaleProvisional,
  type VenueOrderFill,
  type VenuePosition,
  type VenueView,
} from '../ledger/index.js';

export interface LedgerSyncOptions {
  readonly ledger: LedgerStore;
  readonly api: ExchangeApi;
  /** The markets this bot trades, with their token ids. */
  readonly markets: ReadonlyMap<string, { readonly yes: string; readonly no: string }>;
  readonly now: () => number;
  readonly log: Logger;
  /** Orders active within this window are re-checked by each periodic pass. */
  readonly recentWindowMs?: number;
  /** A fill provisional this long is settled from the venue's balances (default: the ledger's, 5 min). */
  readonly staleProvisionalMs?: number;
  /**
   * The bot alone trades its markets on this account (`markets.exclusive`): the account's balances of those markets
   * are this bot's, compared and repaired. Default false: other bots of the account hold tokens too, so balances are
   * only reported (`onAccount`) and the ledger is compared with the venue by the bot's own orders only.
   */
  readonly exclusive?: boolean;
  /** Every read of the account's balances (whole account, every market listed), for reporting. */
  readonly onAccount?: (positions: readonly VenuePosition[]) => void;
  /**
   * The bot is stopping: a pass in flight sends no further read (the one waiting in the rate limiter is withheld as it
   * leaves, unsent) and ends without comparing or writing, so the shutdown's own requests never wait behind it (a
   * check of 50 markets reads about 30 batches of statuses: 9 s of the rate limit).
   */
  readonly stopping?: () => boolean;
}

/** A pass's read refused as it was about to leave: the bot is stopping (or the ledger closed). Nothing was sent. */
class PassStoppedError extends Error {
  override readonly name = 'PassStoppedError';
  constructor() {
    super('ledger pass stopped: the bot is stopping');
  }
}

const STATUS_BATCH = 50;

/** The passes that read the venue: at start-up (before quoting), after a feed gap, and the periodic check. */
type LedgerPass = 'catch-up' | 'after-gap' | 'check';

/**
 * The rate-limiter class of each pass's status reads. The periodic check is bookkeeping: `read`, behind the
 * placements (at 50 markets it reads about 30 batches, which in `probe` held every requote back about 9 s). The
 * start-up catch-up runs before any quote, and the read after a gap looks for fills the feed lost: `probe`.
 */
const READ_PRIORITY: Readonly<Record<LedgerPass, RequestPriority>> = { 'catch-up': 'probe', 'after-gap': 'probe', check: 'read' };

/** A pass's result, or null when the pass stopped because the bot is stopping (PassStoppedError). */
async function stoppedAsNull<T>(pass: Promise<T>): Promise<T | null> {
  try {
    return await pass;
  } catch (error) {
    if (error instanceof PassStoppedError) return null;
    throw error;
  }
}

/** Identity of a stale verdict across checks: the same key, balances and fills. */
function staleSighting(key: StaleProvisional): string {
  const fills = key.fills.map((f) => [f.tradeEventId, f.orderId, f.sizeRaw]);
  return JSON.stringify([key.verdict, key.marketSlug, key.token, key.venueRaw, key.ledgerRaw, key.pendingRaw, fills]);
}

export class LedgerSync {
  private previous = new Set<string>();
  /** Stale verdicts left undecided by the previous check: a 'failed' one seen again is acted on. */
  private previousStale = new Set<string>();
  /** Set by `close()` (the bot's shutdown): a pass whose venue reads come back later writes nothing. */
  private closed = false;

  constructor(private readonly options: LedgerSyncOptions) {}

  /** No pass touches the ledger after this (the ledger is about to be closed); passes in flight end quietly. */
  close(): void {
    this.closed = true;
  }

  /** Whether a pass must stop reading: the ledger is closed, or the bot is stopping. */
  private halted(): boolean {
    return this.closed || (this.options.stopping?.() ?? false);
  }

  /** Refuses a read about to leave once the pass must stop (a `beforeSend`: the read is withheld, unsent). */
  private readonly refuseIfHalted = (): void => {
    if (this.halted()) throw new PassStoppedError();
  };

  /** Start-up catch-up: compare and repair at once. Returns the number of repair actions. */
  async catchUp(): Promise<number> {
    const read = await stoppedAsNull(this.venueView('catch-up'));
    if (read === null) return 0;
    // Statuses and positions are two reads, and the previous run's orders still rest: one that fills between them
    // makes the positions disagree with the orders, and adjusting a position to that would count the fill twice once
    // its order's fill is caught up. The statuses are read again after the positions; if any moved, only the orders
    // are repaired now (the periodic check, with its two sightings, takes care of the positions).
    const again = await stoppedAsNull(this.readOrderFills(read.orders.map((o) => ({ orderId: o.orderId })), 'catch-up', false));
    if (again === null || this.closed) return 0;
    const view = this.scoped(read);
    const moved = again.orders.some((o) => view.orders.find((p) => p.orderId === o.orderId)?.filledRaw !== o.filledRaw);
    if (moved) this.options.log.info('orders filled during the start-up catch-up: positions are left to the periodic check');
    const result = repairLedger(this.options.ledger, moved ? again : view, { atMs: this.options.now(), ...this.staleOption() });
    for (const action of result.actions) this.options.log.warn({ action }, 'ledger caught up from the venue');
    for (const mismatch of result.remaining) this.options.log.error({ mismatch }, 'ledger mismatch left unrepaired');
    return result.actions.length;
  }

  /**
   * After a gap in the order-event stream (a feed reconnect): the events sent meanwhile are lost for good, so the
   * orders' filled sizes are compared and repaired at once (recently active orders only: orders in flight belong to
   * the executor). Only order-level repairs: a stand-in is superseded by the trade's own frame if that still
   * arrives, whereas a position adjustment made while fills stream in could count a fill twice — positions stay
   * with the periodic check and its two-sightings rule.
   */
  afterGap(): Promise<number> {
    // Several markets' gaps at once (an unattributable order event resyncs every market) share one read: a call
    // while one runs gets one more run after it (its reads may predate the lost event), shared by every such call.
    if (this.gapNext !== null) return this.gapNext;
    const running = this.gapRunning;
    if (running === null) return this.startGapRun();
    const next = running.then(
      () => undefined,
      () => undefined,
    ).then(() => {
      this.gapNext = null;
      return this.startGapRun();
    });
    this.gapNext = next;
    return next;
  }

  private gapRunning: Promise<number> | null = null;
  private gapNext: Promise<number> | null = null;

  private startGapRun(): Promise<number> {
    const run = this.afterGapOnce().finally(() => {
      if (this.gapRunning === run) this.gapRunning = null;
    });
    this.gapRunning = run;
    return run;
  }

  private async afterGapOnce(): Promise<number> {
    if (this.closed) return 0;
    const view = await stoppedAsNull(this.venueView('after-gap'));
    if (view === null || this.closed) return 0;
    const result = repairLedger(this.options.ledger, view, { atMs: this.options.now() });
    for (const action of result.actions) this.options.log.warn({ action }, 'ledger caught up from the venue after a feed gap');
    for (const mismatch of result.remaining) this.options.log.error({ mismatch }, 'ledger mismatch left unrepaired');
    this.previous = new Set();
    return result.actions.length;
  }

  /**
   * One periodic check (the composition root's timer), unless the previous one still runs or the bot is stopping; its
   * outcome logged. A check that shutdown cut short (its reads aborted, the ledger closed to it) is not a failure.
   */
  periodicCheck(stopping: () => boolean): void {
    if (this.checking || stopping()) return;
    this.checking = true;
    this.check()
      .then((result) => this.options.log.debug(result, 'ledger check done'))
      .catch((error: unknown) => {
        const err = errorText(error);
        if (stopping()) this.options.log.debug({ err }, 'ledger check cut short by shutdown');
        else this.options.log.warn({ err }, 'ledger check failed');
      })
      .finally(() => {
        this.checking = false;
      });
  }

  private checking = false;

  /**
   * Periodic check: settle stale provisional fills (confirm at once, fail on the second sighting), then report every
   * mismatch (a first sighting at info, a persistent one as a WARN) and repair the ones that persisted since the
   * previous check.
   */
  async check(): Promise<{ mismatches: number; repaired: number }> {
    if (this.closed) return { mismatches: 0, repaired: 0 };
    const read = await stoppedAsNull(this.venueView('check'));
    if (read === null || this.closed) return { mismatches: 0, repaired: 0 };
    const view = this.scoped(read);
    const seenStale = this.previousStale;
    const failStale = (key: StaleProvisional) => seenStale.has(staleSighting(key));
    const stale = settleStaleProvisional(this.options.ledger, view, { atMs: this.options.now(), failStale, ...this.staleOption() });
    for (const action of stale.actions) this.options.log.warn({ action }, 'stale provisional fill settled from the venue balance');
    // Undecided keys stay until they change (each logged once); a 'failed' one not acted on is failed if seen again.
    const undecided = stale.stale.filter((key) => key.verdict === 'ambiguous' || (key.verdict === 'failed' && !failStale(key)));
    for (const key of undecided) {
      if (seenStale.has(staleSighting(key))) continue;
      const what = key.verdict === 'failed' ? 'the venue does not count them: failed if seen again' : 'left undecided';
      this.options.log.warn({ stale: key }, `stale provisional fills: ${what}`);
    }
    this.previousStale = new Set(undecided.map(staleSighting));
    const seenBefore = this.previous;
    const persistent = (mismatch: Mismatch): boolean => seenBefore.has(JSON.stringify(mismatch));
    const { mismatches } = reconcile(this.options.ledger, view, { atMs: this.options.now(), seenBefore: persistent, ...this.staleOption() });
    for (const mismatch of mismatches) {
      if (persistent(mismatch)) this.options.log.warn({ mismatch }, 'ledger and venue disagree');
      else this.options.log.info({ mismatch }, 'ledger and venue differ, seen once (a fill in flight?): checked again on the next pass');
    }
    if (!mismatches.some(persistent)) {
      this.previous = new Set(mismatches.map((m) => JSON.stringify(m)));
      return { mismatches: mismatches.length, repaired: stale.actions.length };
    }
    // Only the mismatches seen on the previous check too are repaired (a first sighting may be a fill still in flight);
    // the stale pass inside the repair follows the same rule: a 'failed' verdict seen for the first time waits.
    const result = repairLedger(this.options.ledger, view, { atMs: this.options.now(), failStale, repairOnly: persistent, ...this.staleOption() });
    for (const action of result.actions) this.options.log.warn({ action }, 'ledger repaired from the venue');
    // What still differs is compared again next time: the first sightings, and a persistent one the repair could not fix.
    this.previous = new Set(result.remaining.map((m) => JSON.stringify(m)));
    return { mismatches: mismatches.length, repaired: stale.actions.length + result.actions.length };
  }

  /**
   * The positions answer is the whole ACCOUNT's, and other bots may share the account: it is reported on every read
   * (`onAccount`), and compared with (and repaired into) this ledger only when the bot owns its markets alone
   * (`exclusive`), and then for those markets only. Otherwise the ledger is checked by its own orders' fills alone.
   */
  private scoped(view: VenueView): VenueView {
    if (view.positions === undefined) return view;
    this.options.onAccount?.(view.positions);
    if (this.options.exclusive !== true) return { orders: view.orders, ordersReadAtMs: view.ordersReadAtMs };
    return { ...view, positions: view.positions.filter((p) => this.options.markets.has(p.marketSlug)), positionsComplete: false };
  }

  private staleOption(): { staleProvisionalMs?: number } {
    return this.options.staleProvisionalMs === undefined ? {} : { staleProvisionalMs: this.options.staleProvisionalMs };
  }

  /**
   * Start-up only (no order is tracked yet): brings a ledger order the previous run left open to what the venue
   * says — its venue id when it was found by clientOrderId, 'rejected' when the venue never received it, and its
   * final status when it ended while the bot was down (a live one is adopted by the executor instead).
   */
  private settleOrderRecord(lookup: OrderLookup, result: OrderStatusResult): void {
    const { ledger, now, log } = this.options;
    const atMs = now();
    if ('clientOrderId' in lookup && result.status === 'not_found') {
      ledger.updateOrder({ clientOrderId: lookup.clientOrderId }, { status: 'rejected', atMs });
      log.warn({ clientOrderId: lookup.clientOrderId }, 'placement left pending by the previous run never reached the venue');
      return;
    }
    const order = result.data?.order;
    if (result.status !== 'found' || !order) return;
    const ref = 'clientOrderId' in lookup ? { clientOrderId: lookup.clientOrderId } : { venueOrderId: lookup.orderId };
    const status = order.status === 'MATCHED' ? 'filled' : order.status === 'CANCELED' || order.status === 'UNMATCHED' ? 'canceled' : null;
    if (status === null && !('clientOrderId' in lookup)) return;
    ledger.updateOrder(ref, {
      venueOrderId: order.id,
      ...(status === null ? {} : { status }),
      ...(order.remainingSizeRaw === null ? {} : { remainingRaw: order.remainingSizeRaw }),
      atMs,
    });
  }

  /**
   * Filled size per order from `POST /orders/status/batch`, and when the read left on the ledger's clock (fills booked
   * after it may be missing from the answer); `settle` also brings the ledger's order records up to date.
   */
  private async readOrderFills(list: readonly OrderLookup[], pass: LedgerPass, settle: boolean): Promise<{ orders: VenueOrderFill[]; ordersReadAtMs: number }> {
    const ordersReadAtMs = this.options.ledger.now();
    const orders: VenueOrderFill[] = [];
    for (let start = 0; start < list.length; start += STATUS_BATCH) {
      const chunk = list.slice(start, start + STATUS_BATCH);
      // When the request (its last attempt) left: the trades the venue counts in its answer matched before it.
      let sentAtMs = ordersReadAtMs;
      const beforeSend = (): void => {
        this.refuseIfHalted();
        sentAtMs = this.options.ledger.now();
      };
      const results = await this.options.api.getOrderStatuses(chunk, { priority: READ_PRIORITY[pass], beforeSend });
      for (const result of results) {
        const lookup = chunk[result.index];
        if (settle && lookup !== undefined && !this.closed) this.settleOrderRecord(lookup, result);
        const order = result.data?.order;
        if (result.status !== 'found' || !order || order.originalSizeRaw === null || order.remainingSizeRaw === null) continue;
        orders.push({
          orderId: result.data?.orderId ?? order.id,
          ...(order.clientOrderId === null ? {} : { clientOrderId: order.clientOrderId }),
          filledRaw: Math.max(0, order.originalSizeRaw - order.remainingSizeRaw),
          countedBeforeMs: sentAtMs,
        });
      }
    }
    return { orders, ordersReadAtMs };
  }

  private async venueView(pass: LedgerPass): Promise<VenueView> {
    const includePending = pass === 'catch-up';
    const { ledger, api } = this.options;
    const ids = new Set<string>();
    // A placement whose answer was lost (the process died with it in flight) has no venue id in the ledger: it is
    // looked up by clientOrderId, linked to its venue id, and its fills are caught up like any other order's.
    const unlinked = new Set<string>();
    if (includePending) {
      for (const order of ledger.pendingCatchUp().orders) {
        if (order.venueOrderId) ids.add(order.venueOrderId);
        else unlinked.add(order.clientOrderId);
      }
    }
    const since = this.options.now() - (this.options.recentWindowMs ?? 10 * 60_000);
    for (const order of ledger.recentlyActiveOrders(since)) if (order.venueOrderId) ids.add(order.venueOrderId);
    const list: OrderLookup[] = [...[...ids].map((orderId) => ({ orderId })), ...[...unlinked].map((clientOrderId) => ({ clientOrderId }))];
    const read = await this.readOrderFills(list, pass, includePending);
    // After a gap, orders only: positions stay with the periodic check and its two-sightings rule.
    if (pass === 'after-gap') return read;
    this.refuseIfHalted();
    const positions: VenuePosition[] = [];
    for (const position of await api.getPositions()) {
      // Every market the venue lists with balances (`clob` and `group` lists), token ids where this bot knows them.
      const tokens = this.options.markets.get(position.marketSlug);
      positions.push({
        marketSlug: position.marketSlug,
        yesRaw: position.yesBalanceRaw,
        noRaw: position.noBalanceRaw,
        ...(tokens ? { yesTokenId: tokens.yes, noTokenId: tokens.no } : {}),
      });
    }
    // A market the answer lists nowhere is no evidence of a balance of 0 (the venue has several lists): it is
    // reported, and neither compared nor repaired (positionsComplete: false).
    if (this.closed) return read; // shutdown closed the ledger while the read was in flight
    const listed = new Set(positions.map((p) => p.marketSlug));
    const held = ledger.tokenBalances().filter((b) => b.balanceRaw !== 0 && !listed.has(b.marketSlug));
    if (held.length > 0) this.options.log.warn({ balances: held }, 'positions answer lists no balance for markets the ledger holds: no evidence, not compared');
    return { ...read, positions, positionsComplete: false };
  }
}
