/**
 * Reconciliation of the ledger with the venue's view: pure diffs plus a repair step on the store.
 * The REST calls are the caller's: it passes the status-batch results (filled size per order, for the
 * orders `recentlyActiveOrders` / `pendingCatchUp` named) and GET /portfolio/positions balances.
 *
 * Rules:
 * - Order fills: ledger filled = Σ trades of the order that have not failed (provisional included: the
 *   venue counts a match at once). Venue ahead → a stand-in fill at the order's limit price (source
 *   'reconcile', dated when the read left (VenueOrderFill.countedBeforeMs), superseded automatically when the venue's
 *   own report of a trade it stood for arrives, so a late socket frame never double-counts: src/ledger/fills-repo.ts).
 *   Ledger ahead → reverse reconcile stand-ins, then provisional fills, newest first, while they fit the excess; a
 *   stand-in larger than what is left of the excess is cut down to it (reversed, its remainder booked as a new
 *   stand-in), so a stand-in that turned out too large always comes back to the venue's size; a mined excess is left
 *   for an operator. Fills the ledger
 *   recorded after the venue's read left (VenueView.ordersReadAtMs) may be missing from its answer: the order agrees
 *   when the venue's size is the ledger's less any last run of them in booking order (never a mismatch, never repaired).
 * - Stale provisional fills: a fill still provisional (MATCHED, no MINED or FAILED) for at least
 *   `staleProvisionalMs` (default DEFAULT_STALE_PROVISIONAL_MS, 5 min, counted from its trade time or its
 *   recording, whichever is later; settlement takes seconds) lost its settlement report: the process was killed
 *   before it, or the socket dropped it. For a (market, token) key whose provisional fills are ALL stale, the venue
 *   balance decides: equal to the ledger's balance with them → they settled: confirmed (state mined, economics
 *   unchanged); equal to it without them → they failed: failed like a FAILED report (reversed, row kept). Anything
 *   else is ambiguous and they stay provisional: a balance matching neither (the position check then reports the
 *   key unrepaired, for an operator), a net size of 0 (a buy and a sell of one size: the balance cannot tell), a
 *   resolved or redeemed market (its balance may already be redeemed). A key with any provisional fill younger than
 *   the threshold is left whole: its settlement is still in flight. No subset is guessed: either all of a key's
 *   stale fills settled or all failed, else nothing is decided.
 * - Positions: the venue balance may or may not include provisional fills yet, so a key agrees when the
 *   venue equals the ledger with or without them, and a key with provisional fills is never adjusted.
 *   Otherwise a position adjustment (realizes nothing) is recorded, priced at the ledger's average cost,
 *   else the mark, else the caller's fallback price; with none it is left unrepaired.
 * Every write carries its reason; mismatches (with their sighting: 'first', or 'persistent' when the caller's
 * `seenBefore` says the previous check saw it too) and repairs are reported through the observer.
 *
 * How stale fills are surfaced (schedule: src/booking/ledger-sync.ts). A key whose stale fills the venue counts, or
 * excludes, AGREES with the venue by the position rule above, so it is never a mismatch and the periodic check's
 * two-sightings rule would never reach it. It is therefore a pass of its own, `settleStaleProvisional`, with its
 * own result (`StaleProvisional`, also listed by `reconcile`), which `repairLedger` runs after the order repairs
 * (their per-order evidence is stronger and may itself reverse a provisional fill) and before the position check
 * (so a key settled here is judged with nothing pending; it was unrepairable while its fills were provisional).
 * Confirming is safe at once: the venue already counts the fill and the ledger's balance does not move, only the
 * fill's state, so the periodic check runs the pass every time. Failing moves the balance, so it follows the
 * two-sightings rule like any other repair: `failStale` names the 'failed' verdicts that may be acted on now
 * (default all, as the start-up catch-up wants; the periodic check passes "seen identically on the previous check").
 */
import { RAW_PER_UNIT } from '../core/venue-rules/index.js';
import type { Outcome } from '../core/venue-rules/index.js';
import { LedgerInputError } from './errors.js';
import { averageCostMicros, toSafe } from './position-math.js';
import { KV_LAST_RECONCILIATION } from './kv-repo.js';
import type { SyntheticFillInput } from './fills-repo.js';
import type { LedgerStore, LedgerTokenBalance } from './store.js';
import type { FillRecord, Mismatch, RepairAction } from './types.js';
import { checkId, checkOptionalId, checkRaw, checkTimeMs } from './validate.js';

export interface VenueOrderFill {
  /** Venue order id. */
  readonly orderId: string;
  readonly clientOrderId?: string | undefined;
  /** originalSize − remainingSize from the status batch, raw. */
  readonly filledRaw: number;
  /**
   * When the request that read `filledRaw` left for the venue, on the LEDGER's clock: every trade of the order matched
   * before it is counted in `filledRaw`. A stand-in made from this read is dated so (its `atMs`), and a trade of the
   * order first reported later as MATCHED with a match time at or before it is the trade the stand-in stood for
   * (src/ledger/fills-repo.ts). Omit: the stand-in is dated at the repair.
   */
  readonly countedBeforeMs?: number | undefined;
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
  /**
   * false: `positions` lists only the markets the venue's answer mentioned, and a market it lacks is NO EVIDENCE
   * (neither compared nor repaired), rather than a balance of 0. Default true (the list is complete).
   */
  readonly positionsComplete?: boolean | undefined;
  /**
   * When the order-status read left, on the LEDGER's clock (`LedgerStore.now()`). A fill the ledger recorded at or after
   * it may be missing from the venue's answer (matched after the venue computed it, then booked from the feed while
   * the answer travelled), so an order agrees when the venue's filled size is the ledger's less the LAST of those
   * fills in booking order (none of them to all). Omit: the ledger's whole total is compared.
   */
  readonly ordersReadAtMs?: number | undefined;
}

/** How long a fill may stay provisional before its key is settled from the venue's balance (see the header). */
export const DEFAULT_STALE_PROVISIONAL_MS = 5 * 60_000;

export interface ReconcileOptions {
  readonly atMs: number;
  /**
   * A fill provisional for at least this long (from its trade time or its recording, whichever is later) is stale.
   * Default DEFAULT_STALE_PROVISIONAL_MS.
   */
  readonly staleProvisionalMs?: number | undefined;
}

export interface CompareOptions extends ReconcileOptions {
  /**
   * The mismatches the previous check saw too (the periodic check's two-sightings rule): reported to the observer as
   * 'persistent', the others as 'first'. Default: every mismatch is 'persistent' (a caller with no schedule).
   */
  readonly seenBefore?: ((mismatch: Mismatch) => boolean) | undefined;
}

export interface StaleProvisionalOptions extends ReconcileOptions {
  /** Which 'failed' verdicts may be acted on now (default: all). 'settled' ones are always confirmed. */
  readonly failStale?: ((key: StaleProvisional) => boolean) | undefined;
}

export interface RepairOptions extends StaleProvisionalOptions {
  /** Price (millionths of a unit) for a position increase when the ledger has neither average cost nor mark. */
  readonly fallbackPriceMicros?: number | undefined;
  /** Repair only the mismatches this accepts (default: all), e.g. those seen on the previous check too. */
  readonly repairOnly?: ((mismatch: Mismatch) => boolean) | undefined;
}

export interface ReconcileResult {
  readonly mismatches: readonly Mismatch[];
  /** Keys whose provisional fills are all stale, with the venue balance's verdict (empty without positions). */
  readonly staleProvisional: readonly StaleProvisional[];
}

/** What the venue balance says of a key's stale provisional fills. */
export type StaleVerdict = 'settled' | 'failed' | 'ambiguous';

/** A (market, token) key whose provisional fills are all stale. */
export interface StaleProvisional {
  readonly marketSlug: string;
  readonly token: Outcome;
  readonly venueRaw: number;
  /** The ledger's balance counting the provisional fills. */
  readonly ledgerRaw: number;
  /** Their signed size: ledgerRaw − pendingRaw is the balance without them. */
  readonly pendingRaw: number;
  readonly verdict: StaleVerdict;
  /** Why, with the three balances. */
  readonly detail: string;
  /** The stale fills, oldest first. */
  readonly fills: readonly StaleFill[];
}

export interface StaleFill {
  readonly tradeEventId: string;
  readonly orderId: string;
  readonly side: FillRecord['side'];
  readonly sizeRaw: number;
  /** Its trade time or its recording, whichever is later: the age is counted from here. */
  readonly sinceMs: number;
}

export interface StaleProvisionalResult {
  readonly actions: readonly RepairAction[];
  /** Every key classified, whether acted on or not. */
  readonly stale: readonly StaleProvisional[];
}

export interface RepairResult {
  readonly actions: readonly RepairAction[];
  /** What still disagrees after the repair (each also appears as an 'unrepaired' action). */
  readonly remaining: readonly Mismatch[];
}

/** YES before NO wherever rows of a market are listed. */
export const TOKEN_ORDER: Record<Outcome, number> = { YES: 0, NO: 1 };

/**
 * Order-level fill differences (pure). Orders the venue did not report are not compared. `recordedLate` lists, per
 * order, the sizes of the ledger's fills recorded after the venue's read left, in booking order (see
 * VenueView.ordersReadAtMs): the venue's answer may lack any last run of them.
 */
export function diffOrderFills(
  venue: readonly VenueOrderFill[],
  ledgerFilled: ReadonlyMap<string, number>,
  recordedLate: ReadonlyMap<string, readonly number[]> = new Map(),
): Mismatch[] {
  const mismatches: Mismatch[] = [];
  for (const order of venue) {
    const ledgerFilledRaw = ledgerFilled.get(order.orderId) ?? 0;
    if (!agreesBarLate(order.filledRaw, ledgerFilledRaw, recordedLate.get(order.orderId) ?? [])) {
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

/** The venue's filled size is the ledger's, or the ledger's less its last `late` fills (booking order). */
function agreesBarLate(venueRaw: number, ledgerRaw: number, late: readonly number[]): boolean {
  let raw = ledgerRaw;
  for (let index = late.length; ; index -= 1) {
    if (raw === venueRaw) return true;
    if (index === 0) return false;
    raw -= late[index - 1] ?? 0;
  }
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

/**
 * Classifies the keys whose provisional fills are all stale (pure; see the header for the rule). The venue list is
 * complete (a market it lacks holds 0); `closedMarkets` are markets resolved or redeemed, whose balance no longer
 * tells. Sorted by market, then YES before NO.
 */
export function classifyStaleProvisional(
  venue: readonly VenuePosition[],
  ledger: readonly LedgerTokenBalance[],
  provisional: readonly FillRecord[],
  options: { readonly atMs: number; readonly staleProvisionalMs: number; readonly closedMarkets?: ReadonlySet<string> | undefined },
): StaleProvisional[] {
  const groups = new Map<string, { marketSlug: string; token: Outcome; fills: FillRecord[] }>();
  for (const fill of provisional) {
    if (fill.state !== 'provisional') continue;
    const name = `${fill.marketSlug}|${fill.token}`;
    const group = groups.get(name) ?? { marketSlug: fill.marketSlug, token: fill.token, fills: [] };
    group.fills.push(fill);
    groups.set(name, group);
  }
  const sinceOf = (fill: FillRecord) => Math.max(fill.atMs, fill.recordedAtMs);
  const keys: StaleProvisional[] = [];
  for (const { marketSlug, token, fills } of groups.values()) {
    if (fills.some((fill) => options.atMs - sinceOf(fill) < options.staleProvisionalMs)) continue;
    const venueRaw = venue
      .filter((position) => position.marketSlug === marketSlug)
      .reduce((sum, position) => sum + (token === 'YES' ? position.yesRaw : position.noRaw), 0);
    const ledgerRaw = ledger
      .filter((balance) => balance.marketSlug === marketSlug && balance.token === token)
      .reduce((sum, balance) => sum + balance.balanceRaw, 0);
    const pendingRaw = fills.reduce((sum, fill) => sum + (fill.side === 'BUY' ? fill.sizeRaw : -fill.sizeRaw), 0);
    const withoutRaw = ledgerRaw - pendingRaw;
    const balances = `venue balance ${venueRaw}, ledger ${ledgerRaw} with them, ${withoutRaw} without`;
    let verdict: StaleVerdict = 'ambiguous';
    let detail: string;
    if (options.closedMarkets?.has(marketSlug) === true) {
      detail = `the market is resolved or redeemed: its balance no longer tells (${balances})`;
    } else if (pendingRaw === 0) {
      detail = `their net size is 0: the balance cannot tell (${balances})`;
    } else if (venueRaw === ledgerRaw) {
      verdict = 'settled';
      detail = `the venue counts them (${balances})`;
    } else if (venueRaw === withoutRaw) {
      verdict = 'failed';
      detail = `the venue does not count them (${balances})`;
    } else {
      detail = `the venue balance matches the ledger neither with them nor without (${balances})`;
    }
    const ordered = [...fills].sort((a, b) => a.atMs - b.atMs || a.id - b.id);
    keys.push({
      marketSlug,
      token,
      venueRaw,
      ledgerRaw,
      pendingRaw,
      verdict,
      detail,
      fills: ordered.map((fill) => ({
        tradeEventId: fill.tradeEventId,
        orderId: fill.orderId,
        side: fill.side,
        sizeRaw: fill.sizeRaw,
        sinceMs: sinceOf(fill),
      })),
    });
  }
  return keys.sort((a, b) => a.marketSlug.localeCompare(b.marketSlug) || TOKEN_ORDER[a.token] - TOKEN_ORDER[b.token]);
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
    countedBeforeMs: order.countedBeforeMs === undefined ? undefined : checkTimeMs(`venue.orders[${index}].countedBeforeMs`, order.countedBeforeMs),
  }));
  const readAt = venue.ordersReadAtMs === undefined ? {} : { ordersReadAtMs: checkTimeMs('venue.ordersReadAtMs', venue.ordersReadAtMs) };
  if (venue.positions === undefined) return { orders, ...readAt };
  assertArray('venue.positions', venue.positions);
  const complete = venue.positionsComplete !== false;
  const positions = venue.positions.map((position, index) => ({
    marketSlug: checkId(`venue.positions[${index}].marketSlug`, position.marketSlug),
    yesRaw: checkRaw(`venue.positions[${index}].yesRaw`, position.yesRaw),
    noRaw: checkRaw(`venue.positions[${index}].noRaw`, position.noRaw),
    yesTokenId: checkOptionalId(`venue.positions[${index}].yesTokenId`, position.yesTokenId) ?? undefined,
    noTokenId: checkOptionalId(`venue.positions[${index}].noTokenId`, position.noTokenId) ?? undefined,
  }));
  return { orders, positions, positionsComplete: complete, ...readAt };
}

/** The ledger's balances the view can speak for: all of them, or (positionsComplete false) the listed markets only. */
function balancesInView(store: LedgerStore, view: VenueView): LedgerTokenBalance[] {
  const balances = store.tokenBalances();
  if (view.positionsComplete !== false || view.positions === undefined) return [...balances];
  const listed = new Set(view.positions.map((position) => position.marketSlug));
  return balances.filter((balance) => listed.has(balance.marketSlug));
}

/** The order-level differences against the ledger as it stands, fills recorded after the venue's read allowed for. */
function orderMismatches(store: LedgerStore, venue: VenueView): Mismatch[] {
  const ids = venue.orders.map((order) => order.orderId);
  const late = venue.ordersReadAtMs === undefined ? new Map<string, number[]>() : store.orderFillsRecordedSince(ids, venue.ordersReadAtMs);
  return diffOrderFills(venue.orders, store.orderFilledTotals(ids), late);
}

function findMismatches(store: LedgerStore, venue: VenueView): Mismatch[] {
  const mismatches = orderMismatches(store, venue);
  if (venue.positions !== undefined) mismatches.push(...diffPositions(venue.positions, balancesInView(store, venue)));
  return mismatches;
}

/** The stale keys of the ledger as it stands (empty when the view has no positions). */
function findStale(store: LedgerStore, view: VenueView, atMs: number, staleProvisionalMs: number): StaleProvisional[] {
  const positions = view.positions;
  if (positions === undefined) return [];
  const listed = new Set(positions.map((position) => position.marketSlug));
  const provisional = store.provisionalFills().filter((fill) => view.positionsComplete !== false || listed.has(fill.marketSlug));
  if (provisional.length === 0) return [];
  const closedMarkets = new Set(
    provisional
      .map((fill) => fill.marketSlug)
      .filter((slug) => store.getResolution(slug) !== null || store.hasRedemption(slug)),
  );
  return classifyStaleProvisional(positions, balancesInView(store, view), provisional, { atMs, staleProvisionalMs, closedMarkets });
}

/**
 * Compares; writes only the last-reconciliation time. Each mismatch goes to observer.onMismatch with its sighting
 * ('persistent' when `seenBefore` says the previous check saw it too, or when there is no `seenBefore`).
 */
export function reconcile(store: LedgerStore, venue: VenueView, options: CompareOptions): ReconcileResult {
  const view = checkVenueView(venue);
  const atMs = checkTimeMs('atMs', options.atMs);
  const staleMs = staleThreshold(options);
  const mismatches = findMismatches(store, view);
  const staleProvisional = findStale(store, view, atMs, staleMs);
  store.setKv(KV_LAST_RECONCILIATION, String(atMs));
  const seenBefore = options.seenBefore ?? (() => true);
  for (const mismatch of mismatches) {
    const sighting = seenBefore(mismatch) ? 'persistent' : 'first';
    store.notify((observer) => observer.onMismatch?.(mismatch, sighting));
  }
  return { mismatches, staleProvisional };
}

/**
 * Settles the stale provisional fills the venue's balances decide (confirms 'settled' keys, fails the 'failed' keys
 * `failStale` allows), in one transaction; each write goes to observer.onRepair. Needs the view's positions.
 */
export function settleStaleProvisional(store: LedgerStore, venue: VenueView, options: StaleProvisionalOptions): StaleProvisionalResult {
  const view = checkVenueView(venue);
  const atMs = checkTimeMs('atMs', options.atMs);
  const staleMs = staleThreshold(options);
  const result = store.atomically(() => settleStale(store, view, atMs, staleMs, options.failStale));
  for (const action of result.actions) store.notify((observer) => observer.onRepair?.(action));
  return result;
}

/** Brings the ledger to the venue's answer where it safely can, in one transaction. */
export function repairLedger(store: LedgerStore, venue: VenueView, options: RepairOptions): RepairResult {
  const view = checkVenueView(venue);
  const atMs = checkTimeMs('atMs', options.atMs);
  const staleMs = staleThreshold(options);
  const fallback =
    options.fallbackPriceMicros === undefined ? null : checkPriceMicros('fallbackPriceMicros', options.fallbackPriceMicros);
  const actions: RepairAction[] = [];
  const remaining = store.atomically(() => {
    const accepted = options.repairOnly ?? (() => true);
    const countedBefore = new Map(view.orders.flatMap((order) => (order.countedBeforeMs === undefined ? [] : [[order.orderId, order.countedBeforeMs] as const])));
    for (const mismatch of orderMismatches(store, view)) {
      if (mismatch.kind === 'order-filled' && accepted(mismatch)) actions.push(...repairOrder(store, mismatch, atMs, countedBefore.get(mismatch.orderId) ?? atMs));
    }
    if (view.positions !== undefined) {
      const settled = settleStale(store, view, atMs, staleMs, options.failStale);
      actions.push(...settled.actions);
      const undecided = new Map(
        settled.stale.filter((key) => key.verdict === 'ambiguous').map((key) => [`${key.marketSlug}|${key.token}`, key]),
      );
      for (const mismatch of diffPositions(view.positions, balancesInView(store, view))) {
        if (mismatch.kind !== 'position' || !accepted(mismatch)) continue;
        const stale = undecided.get(`${mismatch.marketSlug}|${mismatch.token}`);
        actions.push(
          stale === undefined
            ? repairPosition(store, mismatch, view.positions, atMs, fallback)
            : { kind: 'unrepaired', mismatch, reason: `stale provisional fills left undecided: ${stale.detail}` },
        );
      }
    }
    store.setKv(KV_LAST_RECONCILIATION, String(atMs));
    return findMismatches(store, view);
  });
  for (const action of actions) store.notify((observer) => observer.onRepair?.(action));
  return { actions, remaining };
}

/** The stale pass inside an open transaction: classify, then confirm or fail. */
function settleStale(
  store: LedgerStore,
  view: VenueView,
  atMs: number,
  staleProvisionalMs: number,
  failStale: ((key: StaleProvisional) => boolean) | undefined,
): StaleProvisionalResult {
  const stale = findStale(store, view, atMs, staleProvisionalMs);
  const actions: RepairAction[] = [];
  for (const key of stale) {
    if (key.verdict === 'ambiguous' || (key.verdict === 'failed' && failStale !== undefined && !failStale(key))) continue;
    for (const fill of key.fills) {
      const age = `provisional for ${Math.round((atMs - fill.sinceMs) / 1000)} s with no settlement report`;
      const common = { tradeEventId: fill.tradeEventId, orderId: fill.orderId, marketSlug: key.marketSlug, token: key.token, side: fill.side, sizeRaw: fill.sizeRaw };
      if (key.verdict === 'settled') {
        const reason = `${age}; confirmed: ${key.detail}`;
        if (store.confirmFill(fill, reason)) actions.push({ kind: 'fill-confirmed', ...common, reason });
      } else {
        const reason = `${age}; failed: ${key.detail}`;
        if (store.failFill(fill, { reason, atMs }) === 'updated') actions.push({ kind: 'fill-failed', ...common, reason });
      }
    }
  }
  return { actions, stale };
}

function staleThreshold(options: ReconcileOptions): number {
  const value = options.staleProvisionalMs ?? DEFAULT_STALE_PROVISIONAL_MS;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new LedgerInputError('staleProvisionalMs', value, 'must be a positive integer of milliseconds');
  }
  return value;
}

/**
 * One order's filled size brought to the venue's. `standInAtMs` dates a stand-in: the moment the read left (the trades
 * it stands for matched before it), else the repair's time.
 */
function repairOrder(store: LedgerStore, mismatch: Extract<Mismatch, { kind: 'order-filled' }>, atMs: number, standInAtMs: number): RepairAction[] {
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
    store.applySyntheticFill(standIn(order, order.priceTicks, { tradeEventId, orderId: mismatch.orderId, sizeRaw, atMs: standInAtMs, reason }));
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
  const reason = `venue reports ${mismatch.venueFilledRaw} filled, ledger had ${mismatch.ledgerFilledRaw}`;
  for (const fill of candidates) {
    if (excess === 0) break;
    if (fill.sizeRaw > excess) {
      // A stand-in is our own guess of a size, not a trade: one larger than the excess is cut down to what the venue
      // still counts (reversed, and its remainder booked anew), or the ledger could never come back to the venue.
      const cut = fill.source === 'reconcile' ? shrinkStandIn(store, fill, excess, reason) : [];
      if (cut.length > 0) excess = 0;
      actions.push(...cut);
      continue;
    }
    if (store.reverseFill(fill, reason)) {
      excess -= fill.sizeRaw;
      actions.push({ kind: 'fill-reversed', tradeEventId: fill.tradeEventId, orderId: fill.orderId, sizeRaw: fill.sizeRaw, reason });
    }
  }
  if (excess > 0) {
    actions.push({ kind: 'unrepaired', mismatch, reason: `${excess} raw of mined fills beyond the venue's filled size` });
  }
  return actions;
}

/** A stand-in fill of the order (or of the stand-in) `of`: its market, token and side, at limit price `priceTicks`. */
function standIn(
  of: Pick<FillRecord, 'clientOrderId' | 'marketSlug' | 'token' | 'tokenId' | 'side'>,
  priceTicks: number,
  fill: Pick<SyntheticFillInput, 'tradeEventId' | 'orderId' | 'sizeRaw' | 'atMs' | 'reason'>,
): SyntheticFillInput {
  return { clientOrderId: of.clientOrderId, marketSlug: of.marketSlug, token: of.token, tokenId: of.tokenId, side: of.side, priceTicks, ...fill };
}

/** Reverses stand-in `fill` and books its size less `excessRaw` as a new stand-in (same price and date); [] if it cannot. */
function shrinkStandIn(store: LedgerStore, fill: FillRecord, excessRaw: number, reason: string): RepairAction[] {
  if (fill.priceTicks === null || !store.reverseFill(fill, reason)) return [];
  const sizeRaw = fill.sizeRaw - excessRaw;
  const tradeEventId = `${fill.tradeEventId}/less:${excessRaw}`;
  const restReason = `${reason}; stand-in ${fill.tradeEventId} cut by ${excessRaw}`;
  store.applySyntheticFill(standIn(fill, fill.priceTicks, { tradeEventId, orderId: fill.orderId, sizeRaw, atMs: fill.atMs, reason: restReason }));
  return [
    { kind: 'fill-reversed', tradeEventId: fill.tradeEventId, orderId: fill.orderId, sizeRaw: fill.sizeRaw, reason },
    { kind: 'synthetic-fill', tradeEventId, orderId: fill.orderId, marketSlug: fill.marketSlug, token: fill.token, side: fill.side, priceTicks: fill.priceTicks, sizeRaw, reason: restReason },
  ];
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
