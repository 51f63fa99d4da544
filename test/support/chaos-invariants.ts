/**
 * The invariants the chaos suite checks after (and during) every scenario, as pure functions over plain data
 * read from the simulator (the venue's truth) and the bot's ledger (the bot's belief). Each returns a list of
 * violations, one readable sentence each naming the ids and values involved; an empty list means the invariant
 * holds. Kept pure so test/chaos/invariants.test.ts can show each one fails on a bad input.
 *
 * Invariants (DESIGN.md §4):
 * 1. at most one live order per (market, slot) among the bot's tagged orders, and no live tagged order the
 *    ledger does not hold as open (no orphan);
 * 2. every fill the venue recorded for the account is in the ledger exactly once (by tradeEventId + orderId),
 *    and the ledger's token positions equal the venue's balances;
 * 3. exposure (positions + live orders, worst case) within the configured limits at every sample;
 * 4. no request refused by the venue's rate limiter; no placement sent once the bot knew a mode forbade it.
 */
import { collateralRaw, type Outcome, type Side } from '../../src/core/venue-rules/index.js';
import { tryParseClientOrderId } from '../../src/orders/client-order-id.js';

/** A live order of the account on the venue. */
export interface VenueLiveOrder {
  readonly marketSlug: string;
  readonly orderId: string;
  readonly clientOrderId: string | null;
  readonly outcome: Outcome;
  readonly side: Side;
  readonly priceTicks: number;
  readonly remainingRaw: number;
}

/** 1a. At most one live order per (market, slot) of the bot's tag. */
export function slotViolations(live: readonly VenueLiveOrder[], botTag: string): string[] {
  const bySlot = new Map<string, string[]>();
  for (const order of live) {
    const parts = order.clientOrderId === null ? null : tryParseClientOrderId(order.clientOrderId);
    if (parts === null || parts.botTag !== botTag) continue;
    const key = `${order.marketSlug}|${parts.slot}`;
    bySlot.set(key, [...(bySlot.get(key) ?? []), order.clientOrderId ?? order.orderId]);
  }
  return [...bySlot.entries()].filter(([, ids]) => ids.length > 1).map(([key, ids]) => `slot ${key} holds ${ids.length} live orders: ${ids.join(', ')}`);
}

/** An order the ledger holds, as far as the orphan check needs it. */
export interface LedgerOpenOrder {
  readonly clientOrderId: string;
  readonly venueOrderId: string | null;
}

/** 1b. Every live order of the bot's tag is open in the ledger (by clientOrderId or venue id). */
export function orphanViolations(live: readonly VenueLiveOrder[], ledgerOpen: readonly LedgerOpenOrder[], botTag: string): string[] {
  const cids = new Set(ledgerOpen.map((o) => o.clientOrderId));
  const ids = new Set(ledgerOpen.flatMap((o) => (o.venueOrderId === null ? [] : [o.venueOrderId])));
  return live
    .filter((o) => o.clientOrderId !== null && tryParseClientOrderId(o.clientOrderId)?.botTag === botTag)
    .filter((o) => !cids.has(o.clientOrderId ?? '') && !ids.has(o.orderId))
    .map((o) => `orphan: live order ${o.orderId} (${o.clientOrderId}) in ${o.marketSlug} is not open in the ledger`);
}

/** One fill of the account as the venue recorded it. */
export interface VenueFill {
  readonly tradeEventId: string;
  readonly orderId: string;
  readonly sizeRaw: number;
}

/** One fill row of the ledger. */
export interface LedgerFillRow {
  readonly tradeEventId: string;
  readonly orderId: string;
  readonly sizeRaw: number;
  readonly state: 'provisional' | 'mined' | 'failed';
  readonly source: 'venue' | 'reconcile';
  readonly kind: 'trade' | 'adjustment';
}

/**
 * 2a. Every venue fill is in the ledger exactly once, and the ledger holds no trade the venue does not.
 *
 * A fill whose socket report was lost while the bot was down can only be learnt over REST as an order's filled
 * size (the venue has no per-account trade list with ids): the ledger then holds a reconciliation stand-in for
 * that order. Such a fill is accepted when the order's stand-ins cover exactly the size its unmatched fills miss;
 * `standIns` says how many fills were accepted that way, so a scenario can tell a crash recovery from the rule.
 */
export function fillViolations(venue: readonly VenueFill[], ledger: readonly LedgerFillRow[]): { violations: string[]; standIns: number } {
  const violations: string[] = [];
  const trades = ledger.filter((row) => row.kind === 'trade' && row.state !== 'failed');
  const byKey = new Map<string, LedgerFillRow[]>();
  for (const row of trades) {
    if (row.source !== 'venue') continue;
    const key = `${row.tradeEventId}|${row.orderId}`;
    byKey.set(key, [...(byKey.get(key) ?? []), row]);
  }
  const missingByOrder = new Map<string, number>();
  const venueKeys = new Set<string>();
  for (const fill of venue) {
    const key = `${fill.tradeEventId}|${fill.orderId}`;
    venueKeys.add(key);
    const rows = byKey.get(key) ?? [];
    if (rows.length > 1) violations.push(`fill ${key} is in the ledger ${rows.length} times`);
    else if (rows.length === 1 && rows[0]!.sizeRaw !== fill.sizeRaw) violations.push(`fill ${key}: ledger size ${rows[0]!.sizeRaw}, venue size ${fill.sizeRaw}`);
    else if (rows.length === 0) missingByOrder.set(fill.orderId, (missingByOrder.get(fill.orderId) ?? 0) + fill.sizeRaw);
  }
  for (const [key, rows] of byKey) {
    if (!venueKeys.has(key)) violations.push(`ledger fill ${key} (${rows[0]!.sizeRaw} raw) is not a fill the venue recorded`);
  }
  const standInByOrder = new Map<string, number>();
  for (const row of trades) if (row.source === 'reconcile') standInByOrder.set(row.orderId, (standInByOrder.get(row.orderId) ?? 0) + row.sizeRaw);
  let standIns = 0;
  for (const orderId of new Set([...missingByOrder.keys(), ...standInByOrder.keys()])) {
    const missing = missingByOrder.get(orderId) ?? 0;
    const covered = standInByOrder.get(orderId) ?? 0;
    if (missing !== covered) {
      violations.push(`order ${orderId}: venue fills missing from the ledger total ${missing} raw, reconciliation stand-ins total ${covered} raw`);
    } else {
      standIns += venue.filter((f) => f.orderId === orderId && !byKey.has(`${f.tradeEventId}|${f.orderId}`)).length;
    }
  }
  return { violations, standIns };
}

export interface TokenBalance {
  readonly marketSlug: string;
  readonly token: Outcome;
  readonly balanceRaw: number;
}

/** 2b. The ledger's token positions equal the venue's balances (tokens absent on one side count as 0). */
export function positionViolations(venue: readonly TokenBalance[], ledger: readonly TokenBalance[]): string[] {
  const key = (b: TokenBalance): string => `${b.marketSlug}|${b.token}`;
  const sums = new Map<string, { venue: number; ledger: number }>();
  for (const b of venue) sums.set(key(b), { venue: (sums.get(key(b))?.venue ?? 0) + b.balanceRaw, ledger: sums.get(key(b))?.ledger ?? 0 });
  for (const b of ledger) sums.set(key(b), { venue: sums.get(key(b))?.venue ?? 0, ledger: (sums.get(key(b))?.ledger ?? 0) + b.balanceRaw });
  return [...sums.entries()]
    .filter(([, s]) => s.venue !== s.ledger)
    .map(([k, s]) => `position ${k}: venue ${s.venue} raw, ledger ${s.ledger} raw`);
}

/** The configured limits, raw. */
export interface ExposureLimits {
  readonly maxPositionPerTokenRaw: number;
  readonly maxNetPositionRaw: number;
  readonly maxOpenOrders: number;
  readonly maxNotionalRaw: number;
}

/** One market's holdings and live orders at one instant, read from the venue. */
export interface MarketExposure {
  readonly marketSlug: string;
  readonly yesRaw: number;
  readonly noRaw: number;
  /** Cost basis of what is held, raw USDC. */
  readonly costRaw: number;
  readonly live: readonly VenueLiveOrder[];
}

/**
 * 3. Worst-case exposure within the limits (every live order fills): per token holding, |YES − NO| either way,
 * live order count per market, and across markets position cost + collateral of live BUYs.
 */
export function exposureViolations(markets: readonly MarketExposure[], limits: ExposureLimits, atLabel: string): string[] {
  const out: string[] = [];
  let notional = 0;
  for (const m of markets) {
    let buyYes = 0;
    let buyNo = 0;
    let up = 0;
    let down = 0;
    let buyCollateral = 0;
    for (const o of m.live) {
      if (o.side === 'BUY') {
        if (o.outcome === 'YES') buyYes += o.remainingRaw;
        else buyNo += o.remainingRaw;
        buyCollateral += collateralRaw(o.remainingRaw, o.priceTicks, 'BUY');
      }
      if ((o.outcome === 'YES') === (o.side === 'BUY')) up += o.remainingRaw;
      else down += o.remainingRaw;
    }
    const net = m.yesRaw - m.noRaw;
    const where = `${atLabel} ${m.marketSlug}`;
    if (m.yesRaw + buyYes > limits.maxPositionPerTokenRaw) out.push(`${where}: YES held ${m.yesRaw} + live BUY YES ${buyYes} > ${limits.maxPositionPerTokenRaw}`);
    if (m.noRaw + buyNo > limits.maxPositionPerTokenRaw) out.push(`${where}: NO held ${m.noRaw} + live BUY NO ${buyNo} > ${limits.maxPositionPerTokenRaw}`);
    if (net + up > limits.maxNetPositionRaw) out.push(`${where}: worst-case YES − NO ${net + up} > ${limits.maxNetPositionRaw}`);
    if (-net + down > limits.maxNetPositionRaw) out.push(`${where}: worst-case NO − YES ${-net + down} > ${limits.maxNetPositionRaw}`);
    if (m.live.length > limits.maxOpenOrders) out.push(`${where}: ${m.live.length} live orders > ${limits.maxOpenOrders}`);
    notional += m.costRaw + buyCollateral;
  }
  if (notional > limits.maxNotionalRaw) out.push(`${atLabel}: notional ${notional} raw > ${limits.maxNotionalRaw}`);
  return out;
}

/** The highest share of a limit the worst case used (1 = at a limit): shows the exposure check had teeth. */
export function exposureUtilization(markets: readonly MarketExposure[], limits: ExposureLimits): number {
  let highest = 0;
  for (const m of markets) {
    const sum = (pick: (o: VenueLiveOrder) => boolean): number => m.live.filter(pick).reduce((total, o) => total + o.remainingRaw, 0);
    const net = m.yesRaw - m.noRaw;
    highest = Math.max(
      highest,
      (m.yesRaw + sum((o) => o.side === 'BUY' && o.outcome === 'YES')) / limits.maxPositionPerTokenRaw,
      (m.noRaw + sum((o) => o.side === 'BUY' && o.outcome === 'NO')) / limits.maxPositionPerTokenRaw,
      (net + sum((o) => (o.outcome === 'YES') === (o.side === 'BUY'))) / limits.maxNetPositionRaw,
      (-net + sum((o) => (o.outcome === 'YES') !== (o.side === 'BUY'))) / limits.maxNetPositionRaw,
    );
  }
  return highest;
}

/** A request the venue logged. */
export interface LoggedRequest {
  readonly atMs: number;
  readonly durationMs: number;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly outcome: 'handled' | 'rate_limited' | 'injected' | 'error';
  /** When the bot built and signed it (its signed timestamp; absent on an unsigned request). */
  readonly signedAtMs?: number;
}

/**
 * A stretch during which the simulator's event loop did not come round to its timers (so it stamped arrivals late):
 * from `endMs - ms` to `endMs`. The process was descheduled or busy in a long callback; a request whose callback ran
 * inside the stretch was stamped up to the stretch's start later than it arrived.
 */
export interface LoopStall {
  /** When the loop ran its timers again (ms since epoch, the simulator's clock). */
  readonly endMs: number;
  readonly ms: number;
}

/** How many ms of `stalls` fall within [fromMs, toMs] (each stall is the stretch endMs - ms .. endMs). Pure. */
export function stalledMs(stalls: readonly LoopStall[], fromMs: number, toMs: number): number {
  let total = 0;
  for (const stall of stalls) total += Math.max(0, Math.min(stall.endMs, toMs) - Math.max(stall.endMs - stall.ms, fromMs));
  return total;
}

/**
 * 4a. No request refused by the venue's rate limiter (injected 429s are the scenario's, not the bot's).
 *
 * The simulator stamps an arrival when its event loop gets to the request; in a test process on a small box that
 * loop stalls now and then (GC, CPU shared with the bot and other suites), so a request can be stamped late and
 * the next one, sent on time, then looks early. The previous admitted request's stamp can be late by at most the
 * stalled time before it: a stall that ended before the stamp, or one the stamp fell inside (the loop ran the
 * request's callback in the middle of a stretch in which it did not come round to its timers: measured under load,
 * a stamp 188 ms into a 705 ms stretch). A limiter 429 is therefore the bot's fault unless the stalled time within
 * one interval (minIntervalMs) before the previous admitted request's stamp adds up to at least the shortfall. A
 * short gap with no stall before the previous stamp is always the bot's; so is one whose stalls came after that
 * stamp (they delayed only the 429's own stamp, which widens the gap). Through a hop in front of the simulator (a
 * proxy of the test: `hop`, when each request reached it, from hopArrivals), a short gap is also explained when the
 * two requests reached the hop at least minIntervalMs apart: the hop's own latency, different per request (its
 * upstream connection, its loop), compressed it (seen in badinput/rest: sent 300 ms apart, 60 ms apart at the
 * simulator). Explained ones are returned separately (`noise`), for the record.
 */
export function rateLimitViolations(
  requests: readonly LoggedRequest[],
  options: { readonly minIntervalMs: number; readonly stalls: readonly LoopStall[]; readonly slackMs?: number; readonly hop?: ReadonlyMap<LoggedRequest, number> },
): { violations: string[]; noise: string[] } {
  const slack = options.slackMs ?? 5;
  const violations: string[] = [];
  const noise: string[] = [];
  const ordered = [...requests].sort((a, b) => a.atMs - b.atMs);
  ordered.forEach((r, index) => {
    if (r.outcome !== 'rate_limited') return;
    const previous = ordered.slice(0, index).reverse().find((p) => p.outcome !== 'rate_limited');
    const gap = previous === undefined ? Number.POSITIVE_INFINITY : r.atMs - previous.atMs;
    const shortfall = options.minIntervalMs - gap;
    const describe = `rate limited: ${r.method} ${r.path} at ${r.atMs}, ${Number.isFinite(gap) ? `${gap} ms after the previous request` : 'first request'}`;
    if (previous === undefined || shortfall <= 0) {
      // Spacing was kept, so the limiter refused it for concurrency: 2 requests still open by its count.
      const open = ordered.slice(0, index).filter((p) => p.outcome !== 'rate_limited' && p.atMs + p.durationMs > r.atMs - slack);
      const explained = open.length > 0 && options.stalls.some((s) => Math.abs(s.endMs - r.atMs) <= slack + 1 && s.ms >= slack);
      (explained ? noise : violations).push(`${describe}; ${open.length} requests open`);
      return;
    }
    // On a loaded machine the process loses the CPU several times in a row, so the loop comes back, runs a few ms,
    // stalls again: the stalled time of the interval before the previous stamp is the lateness it can explain.
    const stalled = stalledMs(options.stalls, previous.atMs - options.minIntervalMs, previous.atMs);
    const atHop = options.hop?.get(r);
    const previousAtHop = options.hop?.get(previous);
    const hopGap = atHop === undefined || previousAtHop === undefined ? null : atHop - previousAtHop;
    const explained = stalled + slack >= shortfall || (hopGap !== null && hopGap + slack >= options.minIntervalMs);
    (explained ? noise : violations).push(`${describe} (${shortfall} ms short${hopGap === null ? '' : `; ${hopGap} ms apart at the hop`})`);
  });
  return { violations, noise };
}

/** A request as it reached a hop in front of the simulator (a proxy of the test): test/support/chaos-hostile-proxy.ts. */
export interface HopReceipt {
  readonly atMs: number;
  readonly method: string;
  readonly path: string;
  readonly signedAtMs: number | null;
}

/**
 * When each request reached a hop in front of the simulator (matched by method, path and signed timestamp; each
 * receipt used once), for the requests the hop saw. Pure.
 */
export function hopArrivals(requests: readonly LoggedRequest[], receipts: readonly HopReceipt[]): Map<LoggedRequest, number> {
  const unused = new Map<string, number[]>();
  for (const receipt of receipts) {
    if (receipt.signedAtMs === null) continue;
    const key = `${receipt.method} ${receipt.path} ${receipt.signedAtMs}`;
    unused.set(key, [...(unused.get(key) ?? []), receipt.atMs]);
  }
  const arrivals = new Map<LoggedRequest, number>();
  for (const request of requests) {
    if (request.signedAtMs === undefined) continue;
    const at = unused.get(`${request.method} ${request.path} ${request.signedAtMs}`)?.shift();
    if (at !== undefined) arrivals.set(request, at);
  }
  return arrivals;
}

export type RestrictiveMode = 'post_only' | 'cancel_only' | 'disabled';

/** A trading-mode window the scenario set on the venue. */
export interface ModeWindow {
  readonly mode: RestrictiveMode;
  readonly startsAtMs: number;
  readonly resumeAtMs: number;
}

/** A cancel-replace request (POST /orders/cancel-replace[/batch]): both a cancel and a placement. */
export const isCancelReplace = (r: Pick<LoggedRequest, 'method' | 'path'>): boolean => r.method === 'POST' && r.path.startsWith('/orders/cancel-replace');
/** A placement request (POST /orders, or a cancel-replace: its replacements are placements). */
export const isPlacement = (r: Pick<LoggedRequest, 'method' | 'path'>): boolean => (r.method === 'POST' && r.path === '/orders') || isCancelReplace(r);
/** A cancel request (one order, all of a market, a batch, or a cancel-replace). Status lookups (POST /orders/status/batch) are reads. */
export const isCancel = (r: Pick<LoggedRequest, 'method' | 'path'>): boolean =>
  (r.method === 'DELETE' && r.path.startsWith('/orders/')) || (r.method === 'POST' && r.path === '/orders/cancel-batch') || isCancelReplace(r);

/**
 * 4b. Once the bot could know a window's mode (the first answer inside the window that told it: a 425, or a
 * maintenance-status read), it sends no request the mode forbids until resumeAt. Requests already in flight when
 * it learnt are allowed (at most `maxInFlight` of them). In flight then: built before it could know — signed (its
 * signed timestamp, `signedAtMs`) at most `graceMs` after that answer left the venue — however late it arrived (on a
 * loaded machine a request checked and built before may reach the venue 0.7 s later: measured); an unsigned request,
 * arrived at most `graceMs` after that answer.
 * post_only forbids non-post-only placements: the venue answers those 425, so a forbidden placement shows as a
 * 425 on POST /orders past discovery. disabled forbids placements; cancels are still tried (the bot never blocks its
 * own cancels), but once the venue refused one (425) at most `maxInFlight` more (queued or in flight then, e.g. other
 * markets' plans) may follow in the window: no retry loop. The teller itself is not counted among those in flight.
 */
export function modeViolations(requests: readonly LoggedRequest[], windows: readonly ModeWindow[], options: { maxInFlight: number; graceMs: number }): string[] {
  const out: string[] = [];
  for (const w of windows) {
    const inside = requests.filter((r) => r.atMs >= w.startsAtMs && r.atMs < w.resumeAtMs).sort((a, b) => a.atMs - b.atMs);
    const teller = inside.find((r) => r.status === 425 || (r.method === 'GET' && r.path === '/maintenance/status' && r.status === 200));
    if (teller === undefined) continue;
    const learntAt = teller.atMs + teller.durationMs;
    const refused = inside.find((r) => isCancel(r) && r.status === 425);
    const heldFrom = refused === undefined ? Number.POSITIVE_INFINITY : refused.atMs + refused.durationMs;
    const afterHold = inside.filter((r) => isCancel(r) && !isPlacement(r) && r.atMs > heldFrom);
    const excessCancels = new Set(afterHold.slice(options.maxInFlight));
    const forbidden = (r: LoggedRequest): boolean => {
      if (r === teller) return false;
      if (w.mode === 'post_only') return isPlacement(r) && r.status === 425;
      if (w.mode === 'cancel_only') return isPlacement(r);
      return isPlacement(r) || excessCancels.has(r);
    };
    const offending = inside.filter(forbidden);
    const builtBefore = (r: LoggedRequest): boolean => (r.signedAtMs ?? r.atMs) <= learntAt + options.graceMs;
    const late = offending.filter((r) => !builtBefore(r));
    for (const r of late) {
      const built = r.signedAtMs === undefined ? '' : `, built ${r.signedAtMs - learntAt} ms after`;
      out.push(`${w.mode} window: ${r.method} ${r.path} sent at ${r.atMs} (${r.atMs - learntAt} ms after the bot learnt the mode${built}), answered ${r.status}`);
    }
    const early = offending.filter(builtBefore);
    if (early.length > options.maxInFlight) out.push(`${w.mode} window: ${early.length} forbidden requests around discovery (more than ${options.maxInFlight} in flight)`);
  }
  return out;
}
