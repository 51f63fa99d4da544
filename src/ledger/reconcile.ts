/**
 * Reconciliation of the ledger with the venue's view: pure diffs plus a repair step on the store.
 * The REST calls are the caller's: it passes the status-batch results (filled size per order, for the
 * orders `recentlyActiveOrders` / `pendingCatchUp` named) and GET /portfolio/positions balances.
 *
 * Rules:
 * - Order fills: ledger filled = Σ trades of the order that have not failed (provisional included: the
 *   venue counts a match at once). Venue ahead → a stand-in fill at the order's limit price (source
 *   'reconcile', superseded automatically when the venue's own report of that trade arrives, so a late
 *   socket frame never double-counts). Ledger ahead → reverse reconcile stand-ins, then provisional
 *   fills, newest first, while they fit the excess; a mined excess is left for an operator.
 * - Positions: the venue balance may or may not include provisional fills yet, so a key agrees when the
 *   venue equals the ledger with or without them, and a key with provisional fills is never adjusted.
 *   Otherwise a position adjustment (realizes nothing) is recorded, priced at the ledger's average cost,
 *   else the mark, else the caller's fallback price; with none it is left unrepaired.
 * Every write carries its reason; mismatches and repairs are reported through the observer.
 */
import { RAW_PER_UNIT } from '../core/units.js';
import type { Outcome } from '../core/units.js';
import { LedgerInputError } from './errors.js';
import { averageCostMicros, toSafe } from './position-math.js';
import { KV_LAST_RECONCILIATION } from './kv-repo.js';
import type { LedgerStore, LedgerTokenBalance } from './store.js';
import type { Mismatch, RepairAction } from './types.js';
import { checkId, checkOptionalId, checkRaw, checkTimeMs } from './validate.js';

export interface VenueOrderFill {
  /** Venue order id. */
  readonly orderId: string;
  readonly clientOrderId?: string | undefined;
  /** originalSize − remainingSize from the status batch, raw. */
  readonly filledRaw: number;
}

export interface VenuePosition {
  readonly marketSlug: string;
  /** tokensBalance.yes / .no, raw. */
  readonly yesRaw: number;
  readonly noRaw: number;
  readonly yesTokenId?: string | undefined;
  readonly noTokenId?: string | undefined;
}

export interface VenueView {
  readonly orders: readonly VenueOrderFill[];
  /**
   * Balances per market. Omit to skip the position check. When given, the list is taken as complete:
   * a market the ledger holds and the list lacks counts as a venue balance of 0.
   */
  readonly positions?: readonly VenuePosition[] | undefined;
}

export interface ReconcileOptions {
  readonly atMs: number;
}

export interface RepairOptions extends ReconcileOptions {
  /** Price (millionths of a unit) for a position increase when the ledger has neither average cost nor mark. */
  readonly fallbackPriceMicros?: number | undefined;
}

export interface ReconcileResult {
  readonly mismatches: readonly Mismatch[];
}

export interface RepairResult {
  readonly actions: readonly RepairAction[];
  /** What still disagrees after the repair (each also appears as an 'unrepaired' action). */
  readonly remaining: readonly Mismatch[];
}

const TOKEN_ORDER: Record<Outcome, number> = { YES: 0, NO: 1 };

/** Order-level fill differences (pure). Orders the venue did not report are not compared. */
export function diffOrderFills(venue: readonly VenueOrderFill[], ledgerFilled: ReadonlyMap<string, number>): Mismatch[] {
  const mismatches: Mismatch[] = [];
  for (const order of venue) {
    const ledgerFilledRaw = ledgerFilled.get(order.orderId) ?? 0;
    if (ledgerFilledRaw !== order.filledRaw) {
      mismatches.push({
        kind: 'order-filled',
        orderId: order.orderId,
        clientOrderId: order.clientOrderId ?? null,
        venueFilledRaw: order.filledRaw,
        ledgerFilledRaw,
      });
    }
  }
  return mismatches;
}

/** Token balance differences (pure); the venue list is complete. Sorted by market, then YES before NO. */
export function diffPositions(venue: readonly VenuePosition[], ledger: readonly LedgerTokenBalance[]): Mismatch[] {
  const keys = new Map<string, { marketSlug: string; token: Outcome; venueRaw: number; ledgerRaw: number; pendingRaw: number }>();
  const entry = (marketSlug: string, token: Outcome) => {
    const name = `${marketSlug}|${token}`;
    let found = keys.get(name);
    if (found === undefined) {
      found = { marketSlug, token, venueRaw: 0, ledgerRaw: 0, pendingRaw: 0 };
      keys.set(name, found);
    }
    return found;
  };
  for (const position of venue) {
    entry(position.marketSlug, 'YES').venueRaw += position.yesRaw;
    entry(position.marketSlug, 'NO').venueRaw += position.noRaw;
  }
  for (const balance of ledger) {
    const found = entry(balance.marketSlug, balance.token);
    found.ledgerRaw += balance.balanceRaw;
    found.pendingRaw += balance.pendingRaw;
  }
  return [...keys.values()]
    .filter((key) => key.venueRaw !== key.ledgerRaw && key.venueRaw !== key.ledgerRaw - key.pendingRaw)
    .sort((a, b) => a.marketSlug.localeCompare(b.marketSlug) || TOKEN_ORDER[a.token] - TOKEN_ORDER[b.token])
    .map((key) => ({ kind: 'position', ...key }));
}

function assertArray(field: string, value: unknown): void {
  if (!Array.isArray(value)) throw new LedgerInputError(field, value, 'must be an array');
}

function checkVenueView(venue: VenueView): VenueView {
  assertArray('venue.orders', venue.orders);
  const orders = venue.orders.map((order, index) => ({
    orderId: checkId(`venue.orders[${index}].orderId`, order.orderId),
    clientOrderId: checkOptionalId(`venue.orders[${index}].clientOrderId`, order.clientOrderId) ?? undefined,
    filledRaw: checkRaw(`venue.orders[${index}].filledRaw`, order.filledRaw),
  }));
  if (venue.positions === undefined) return { orders };
  assertArray('venue.positions', venue.positions);
  const positions = venue.positions.map((position, index) => ({
    marketSlug: checkId(`venue.positions[${index}].marketSlug`, position.marketSlug),
    yesRaw: checkRaw(`venue.positions[${index}].yesRaw`, position.yesRaw),
    noRaw: checkRaw(`venue.positions[${index}].noRaw`, position.noRaw),
    yesTokenId: checkOptionalId(`venue.positions[${index}].yesTokenId`, position.yesTokenId) ?? undefined,
    noTokenId: checkOptionalId(`venue.positions[${index}].noTokenId`, position.noTokenId) ?? undefined,
  }));
  return { orders, positions };
}

function findMismatches(store: LedgerStore, venue: VenueView): Mismatch[] {
  const filled = store.orderFilledTotals(venue.orders.map((order) => order.orderId));
  const mismatches = diffOrderFills(venue.orders, filled);
  if (venue.positions !== undefined) mismatches.push(...diffPositions(venue.positions, store.tokenBalances()));
  return mismatches;
}

/** Compares; writes only the last-reconciliation time. Each mismatch goes to observer.onMismatch. */
export function reconcile(store: LedgerStore, venue: VenueView, options: ReconcileOptions): ReconcileResult {
  const view = checkVenueView(venue);
  const atMs = checkTimeMs('atMs', options.atMs);
  const mismatches = findMismatches(store, view);
  store.setKv(KV_LAST_RECONCILIATION, String(atMs));
  for (const mismatch of mismatches) store.notify((observer) => observer.onMismatch?.(mismatch));
  return { mismatches };
}

/** Brings the ledger to the venue's answer where it safely can, in one transaction. */
export function repairLedger(store: LedgerStore, venue: VenueView, options: RepairOptions): RepairResult {
  const view = checkVenueView(venue);
  const atMs = checkTimeMs('atMs', options.atMs);
  const fallback =
    options.fallbackPriceMicros === undefined ? null : checkPriceMicros('fallbackPriceMicros', options.fallbackPriceMicros);
  const actions: RepairAction[] = [];
  const remaining = store.atomically(() => {
    const filled = store.orderFilledTotals(view.orders.map((order) => order.orderId));
    for (const mismatch of diffOrderFills(view.orders, filled)) {
      if (mismatch.kind === 'order-filled') actions.push(...repairOrder(store, mismatch, atMs));
    }
    if (view.positions !== undefined) {
      for (const mismatch of diffPositions(view.positions, store.tokenBalances())) {
        if (mismatch.kind === 'position') actions.push(repairPosition(store, mismatch, view.positions, atMs, fallback));
      }
    }
    store.setKv(KV_LAST_RECONCILIATION, String(atMs));
    return findMismatches(store, view);
  });
  for (const action of actions) store.notify((observer) => observer.onRepair?.(action));
  return { actions, remaining };
}

function repairOrder(store: LedgerStore, mismatch: Extract<Mismatch, { kind: 'order-filled' }>, atMs: number): RepairAction[] {
  const order =
    store.getOrder({ venueOrderId: mismatch.orderId }) ??
    (mismatch.clientOrderId === null ? null : store.getOrder({ clientOrderId: mismatch.clientOrderId }));
  if (mismatch.venueFilledRaw > mismatch.ledgerFilledRaw) {
    if (order === null) return [{ kind: 'unrepaired', mismatch, reason: 'the order is unknown to the ledger' }];
    if (mismatch.venueFilledRaw > order.sizeRaw) {
      return [{ kind: 'unrepaired', mismatch, reason: `venue filled size exceeds the order size ${order.sizeRaw}` }];
    }
    const sizeRaw = mismatch.venueFilledRaw - mismatch.ledgerFilledRaw;
    const tradeEventId = `reconcile:${mismatch.orderId}:${mismatch.ledgerFilledRaw}+${sizeRaw}`;
    const reason = `venue reports ${mismatch.venueFilledRaw} filled, ledger had ${mismatch.ledgerFilledRaw}; stand-in at the order's limit price`;
    store.applySyntheticFill({
      tradeEventId,
      orderId: mismatch.orderId,
      clientOrderId: order.clientOrderId,
      marketSlug: order.marketSlug,
      token: order.token,
      tokenId: order.tokenId,
      side: order.side,
      priceTicks: order.priceTicks,
      sizeRaw,
      atMs,
      reason,
    });
    store.updateOrder({ clientOrderId: order.clientOrderId }, { remainingRaw: order.sizeRaw - mismatch.venueFilledRaw, atMs });
    return [
      {
        kind: 'synthetic-fill',
        tradeEventId,
        orderId: mismatch.orderId,
        marketSlug: order.marketSlug,
        token: order.token,
        side: order.side,
        priceTicks: order.priceTicks,
        sizeRaw,
        reason,
      },
    ];
  }
  // The ledger counts more than the venue: retire our own guesses first, then unconfirmed matches.
  let excess = mismatch.ledgerFilledRaw - mismatch.venueFilledRaw;
  const live = store.fillsForOrder(mismatch.orderId).filter((fill) => fill.kind === 'trade' && fill.state !== 'failed');
  const candidates = [
    ...live.filter((fill) => fill.source === 'reconcile').reverse(),
    ...live.filter((fill) => fill.source === 'venue' && fill.state === 'provisional').reverse(),
  ];
  const actions: RepairAction[] = [];
  for (const fill of candidates) {
    if (fill.sizeRaw > excess) continue;
    const reason = `venue reports ${mismatch.venueFilledRaw} filled, ledger had ${mismatch.ledgerFilledRaw}`;
    if (store.reverseFill(fill, reason)) {
      excess -= fill.sizeRaw;
      actions.push({ kind: 'fill-reversed', tradeEventId: fill.tradeEventId, orderId: fill.orderId, sizeRaw: fill.sizeRaw, reason });
    }
    if (excess === 0) break;
  }
  if (excess > 0) {
    actions.push({ kind: 'unrepaired', mismatch, reason: `${excess} raw of mined fills beyond the venue's filled size` });
  }
  return actions;
}

function repairPosition(
  store: LedgerStore,
  mismatch: Extract<Mismatch, { kind: 'position' }>,
  venue: readonly VenuePosition[],
  atMs: number,
  fallbackPriceMicros: number | null,
): RepairAction {
  if (mismatch.pendingRaw !== 0) {
    return { kind: 'unrepaired', mismatch, reason: 'provisional fills pending: retry once they settle' };
  }
  if (store.getResolution(mismatch.marketSlug) !== null) {
    return { kind: 'unrepaired', mismatch, reason: 'the market is resolved: redemption balances need an operator' };
  }
  const deltaRaw = mismatch.venueRaw - mismatch.ledgerRaw;
  const priceMicros = adjustmentPrice(store, mismatch, fallbackPriceMicros);
  if (priceMicros === null) {
    return { kind: 'unrepaired', mismatch, reason: 'no average cost, mark or fallback price to value the increase' };
  }
  const venueEntry = venue.find((position) => position.marketSlug === mismatch.marketSlug);
  const tokenId =
    (mismatch.token === 'YES' ? venueEntry?.yesTokenId : venueEntry?.noTokenId) ??
    store.tokenIdFor(mismatch.marketSlug, mismatch.token) ??
    '';
  const tradeEventId = `adjust:${mismatch.marketSlug}:${mismatch.token}:${mismatch.ledgerRaw}->${mismatch.venueRaw}@${atMs}`;
  const reason = `venue balance ${mismatch.venueRaw}, ledger ${mismatch.ledgerRaw}`;
  store.applyAdjustment({ tradeEventId, marketSlug: mismatch.marketSlug, token: mismatch.token, tokenId, deltaRaw, priceMicros, atMs, reason });
  return { kind: 'position-adjusted', tradeEventId, marketSlug: mismatch.marketSlug, token: mismatch.token, deltaRaw, priceMicros, reason };
}

/** Average cost of the ledger's same-direction position, else the token's mark, else the fallback. */
function adjustmentPrice(
  store: LedgerStore,
  mismatch: Extract<Mismatch, { kind: 'position' }>,
  fallbackPriceMicros: number | null,
): number | null {
  const deltaRaw = mismatch.venueRaw - mismatch.ledgerRaw;
  const position = store.tokenPosition(mismatch.marketSlug, mismatch.token);
  if (position.positionRaw !== 0 && Math.sign(position.positionRaw) === Math.sign(deltaRaw)) {
    return toSafe(averageCostMicros(position), 'average cost');
  }
  if (deltaRaw < 0) return 0; // a decrease is taken out at the average cost; its price is unused
  const mark = store.getMark(mismatch.marketSlug);
  if (mark !== null) return mismatch.token === 'YES' ? mark.midMicros : RAW_PER_UNIT - mark.midMicros;
  return fallbackPriceMicros;
}

function checkPriceMicros(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > RAW_PER_UNIT) {
    throw new LedgerInputError(field, value, 'must be an integer price in millionths, 0..1000000');
  }
  return value;
}
