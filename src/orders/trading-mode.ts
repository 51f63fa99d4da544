/**
 * The one trading-mode gate. Fed by polling `maintenanceStatus()` and, at once, by every TradingModeError
 * (425 body) the venue answers.
 *
 * Modes and what they let through:
 * - normal: everything;
 * - post_only: only post-only GTC placements. Placements that are not post-only are CONVERTED to post-only GTC
 *   (a maker quote that would not cross rests the same either way; one that would cross is refused by the venue
 *   instead of taking), so quoting goes on; FAK/FOK placements are refused by `allows`;
 * - cancel_only: cancels only; placements are dropped;
 * - disabled: placements are dropped; cancels are still ATTEMPTED (the bot itself never blocks a cancel: quotes must
 *   not rest unmanaged while the venue may still match them).
 * An unknown or missing mode string is read as `cancel_only` and reported (`onUnknownMode`, once per value as first).
 *
 * Holds: when the venue refuses an action (a 425 with the trading-mode body, or a 425 without it: an unexplained
 * maintenance block; or a bare 503 of a placement that the refreshed mode does not explain), that action is HELD: not sent again until the mode changes, `resumeAt` passes, or (for an
 * unexplained block, after which the status is refreshed at once) one poll interval has passed. A released hold
 * notifies `onRelease` listeners, which re-run what was held. So a disabled venue sees one refused cancel per market,
 * not a retry loop.
 *
 * Invariants: a restriction with a resumeAt ends by itself at that time (confirmed by an immediate poll when a
 * poller is configured; if that poll fails the gate resumes); every change is reported once to the observer and
 * to listeners; a failed poll keeps the last known mode. A restriction whose resumeAt has already passed when it is
 * read (the venue answered a moment before its own end, or stamped the poll late) is asked again soon: after
 * OVERDUE_RECHECK_MS, doubling up to the poll interval while the venue keeps saying so — never left until the next
 * regular poll, never a retry loop.
 */
import type { CancelTimer, Scheduler } from '../core/clock.js';
import { tradingModeRank, type TradingMode } from '../core/trading-mode.js';
import type { OrderType } from '../core/venue-rules/index.js';
import type { Plan, PlannedPlace } from './reconcile.js';
import type { MaintenanceStatus, TradingModeError } from './venue-port.js';

export type ModeSource = 'poll' | 'venue-error' | 'resume-time' | 'manual' | 'initial';

export interface ModeChange {
  readonly from: TradingMode;
  readonly to: TradingMode;
  readonly resumeAtMs: number | null;
  readonly source: ModeSource;
}

export type GatedAction = 'cancel' | 'place';
/** `unavailable-503`: a bare 503 of a placement that the refreshed mode did not explain (src/venue/unavailable-answer.ts). */
export type HoldReason = 'trading-mode' | 'unexplained-425' | 'unavailable-503';

export interface TradingModeObserver {
  onModeChange?(change: ModeChange): void;
  onPollError?(error: unknown): void;
  /** A mode string that is none of the four (read as cancel_only); `first` on its first sighting (log it then). */
  onUnknownMode?(raw: string, first: boolean): void;
  /** The venue refused `action`: it is held (see the header). */
  onHold?(action: GatedAction, reason: HoldReason): void;
}

export interface TradingModeGateOptions {
  readonly scheduler: Scheduler;
  /** Polls `fetchStatus` this often once `start()` is called. */
  readonly pollIntervalMs: number;
  readonly fetchStatus?: () => Promise<MaintenanceStatus>;
  readonly observer?: TradingModeObserver;
  readonly initial?: MaintenanceStatus;
}

export interface PlacementShape {
  readonly postOnly: boolean;
  readonly orderType: OrderType;
}

export interface GatedPlan {
  readonly plan: Plan;
  /** Placements removed by the mode. */
  readonly blockedPlaces: number;
  /** Cancels removed because the venue refused cancels in this mode (a hold). */
  readonly blockedCancels: number;
  /** Placements turned into post-only. */
  readonly convertedToPostOnly: number;
}

/** Whether `mode` lets an action through. Cancels always: the bot never blocks its own cancels. */
export function modeAllows(mode: TradingMode, action: 'cancel'): boolean;
export function modeAllows(mode: TradingMode, action: 'place', placement: PlacementShape): boolean;
export function modeAllows(mode: TradingMode, action: 'place' | 'cancel', placement?: PlacementShape): boolean {
  if (action === 'cancel') return true;
  if (mode === 'disabled' || mode === 'cancel_only') return false;
  if (mode === 'post_only') return placement !== undefined && placement.postOnly && placement.orderType === 'GTC';
  return true;
}

/**
 * Applies a mode (and the held actions) to a plan: post_only converts placements, cancel_only and disabled drop them;
 * cancels are dropped only while held (the venue refused them).
 */
export function gatePlan(mode: TradingMode, plan: Plan, held: ReadonlySet<GatedAction> = new Set()): GatedPlan {
  const gated = gateByMode(mode, plan);
  const dropPlaces = held.has('place') && gated.plan.places.length > 0;
  const dropCancels = held.has('cancel') && gated.plan.cancels.length > 0;
  if (!dropPlaces && !dropCancels) return gated;
  return {
    plan: { ...gated.plan, places: dropPlaces ? [] : gated.plan.places, cancels: dropCancels ? [] : gated.plan.cancels },
    blockedPlaces: gated.blockedPlaces + (dropPlaces ? gated.plan.places.length : 0),
    blockedCancels: gated.blockedCancels + (dropCancels ? gated.plan.cancels.length : 0),
    convertedToPostOnly: gated.convertedToPostOnly,
  };
}

function gateByMode(mode: TradingMode, plan: Plan): GatedPlan {
  switch (mode) {
    case 'normal':
      return { plan, blockedPlaces: 0, blockedCancels: 0, convertedToPostOnly: 0 };
    case 'post_only': {
      let converted = 0;
      const places: PlannedPlace[] = plan.places.map((place) => {
        if (place.intent.postOnly === true) return place;
        converted += 1;
        return { slot: place.slot, intent: { ...place.intent, postOnly: true } };
      });
      return { plan: { ...plan, places }, blockedPlaces: 0, blockedCancels: 0, convertedToPostOnly: converted };
    }
    case 'cancel_only':
    case 'disabled':
      return { plan: { ...plan, places: [] }, blockedPlaces: plan.places.length, blockedCancels: 0, convertedToPostOnly: 0 };
  }
}

export type ModeListener = (change: ModeChange) => void;

const MAX_REMEMBERED_UNKNOWN_MODES = 100;

/** The first re-ask of a restriction read after its own resumeAt (doubles while the venue still says so). */
export const OVERDUE_RECHECK_MS = 500;

export class TradingModeGate {
  private currentMode: TradingMode = 'normal';
  private currentResumeAtMs: number | null = null;
  private expiryTimer: CancelTimer | null = null;
  private pollTimer: CancelTimer | null = null;
  private polling = false;
  private readonly listeners = new Set<ModeListener>();
  private readonly releaseListeners = new Set<() => void>();
  private readonly held = new Set<GatedAction>();
  private holdTimer: CancelTimer | null = null;
  private readonly unknownModesSeen = new Set<string>();
  /** Re-asks in a row of a restriction read after its resumeAt (the backoff's exponent). */
  private overdueRechecks = 0;

  constructor(private readonly options: TradingModeGateOptions) {
    if (!(options.pollIntervalMs > 0)) throw new RangeError(`pollIntervalMs: must be positive (got ${options.pollIntervalMs})`);
    if (options.initial) this.update(options.initial, 'initial');
  }

  get mode(): TradingMode {
    return this.currentMode;
  }

  get resumeAtMs(): number | null {
    return this.currentResumeAtMs;
  }

  /** False only while the venue's refusal of a cancel is held (see the header). */
  allowsCancel(): boolean {
    return !this.held.has('cancel');
  }

  allowsPlacement(placement: PlacementShape): boolean {
    return !this.held.has('place') && modeAllows(this.currentMode, 'place', placement);
  }

  /** The actions currently held. */
  get holds(): ReadonlySet<GatedAction> {
    return this.held;
  }

  gate(plan: Plan): GatedPlan {
    return gatePlan(this.currentMode, plan, this.held);
  }

  onChange(listener: ModeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called when something blocked may now go through (the mode relaxed, or a hold ended). */
  onRelease(listener: () => void): () => void {
    this.releaseListeners.add(listener);
    return () => this.releaseListeners.delete(listener);
  }

  /**
   * A 425 trading-mode body: applied at once. With `action`, the venue refused that action. A refused cancel is held
   * until the mode changes or resumeAt passes (the mode itself never blocks cancels). A refused placement is governed
   * by the mode just learnt; it is held only when that mode would still let the same `placement` through (the venue
   * and its body disagree: no loop of the same refusal).
   */
  fromError(error: TradingModeError, action?: GatedAction, placement?: PlacementShape): void {
    if (error.unknownMode !== null) this.reportUnknownMode(error.unknownMode);
    this.update({ mode: error.mode, resumeAtMs: error.resumeAtMs }, 'venue-error');
    if (action === 'cancel') this.hold('cancel', 'trading-mode', null);
    else if (action === 'place' && placement !== undefined && modeAllows(this.currentMode, 'place', placement)) this.hold('place', 'trading-mode', this.options.pollIntervalMs);
  }

  /**
   * A 425 without the trading-mode body (not a receive-window failure): the venue is blocking `action` for a reason it
   * did not name. The action is held, the maintenance status refreshed at once; the hold ends with a mode change, or
   * after one poll interval (then one more attempt), never in a blind retry loop.
   */
  fromUnexplainedBlock(action: GatedAction, reason: Exclude<HoldReason, 'trading-mode'> = 'unexplained-425'): Promise<boolean> {
    this.hold(action, reason, this.options.pollIntervalMs);
    return this.refresh();
  }

  update(status: MaintenanceStatus, source: ModeSource): void {
    for (const raw of status.unknownModes ?? []) this.reportUnknownMode(raw);
    const now = this.options.scheduler.now();
    const resumeAtMs = status.mode === 'normal' ? null : status.resumeAtMs;
    this.armExpiry(resumeAtMs, now);
    const from = this.currentMode;
    const changed = from !== status.mode || this.currentResumeAtMs !== resumeAtMs;
    this.currentMode = status.mode;
    this.currentResumeAtMs = resumeAtMs;
    if (!changed) return;
    const change: ModeChange = { from, to: status.mode, resumeAtMs, source };
    this.options.observer?.onModeChange?.(change);
    for (const listener of this.listeners) listener(change);
    // A new mode (or a new end) is news: what the venue refused under the old one may be tried again.
    const released = this.releaseHolds();
    if (released || tradingModeRank(status.mode) < tradingModeRank(from)) this.notifyRelease();
  }

  private hold(action: GatedAction, reason: HoldReason, forMs: number | null): void {
    this.held.add(action);
    this.options.observer?.onHold?.(action, reason);
    if (forMs === null) return;
    this.holdTimer?.();
    this.holdTimer = this.options.scheduler.schedule(forMs, () => {
      this.holdTimer = null;
      void this.refresh().finally(() => {
        if (this.releaseHolds()) this.notifyRelease();
      });
    });
  }

  /** True when something was held. */
  private releaseHolds(): boolean {
    this.holdTimer?.();
    this.holdTimer = null;
    if (this.held.size === 0) return false;
    this.held.clear();
    return true;
  }

  private notifyRelease(): void {
    for (const listener of this.releaseListeners) listener();
  }

  private reportUnknownMode(raw: string): void {
    const first = !this.unknownModesSeen.has(raw);
    if (first && this.unknownModesSeen.size < MAX_REMEMBERED_UNKNOWN_MODES) this.unknownModesSeen.add(raw);
    this.options.observer?.onUnknownMode?.(raw, first);
  }

  /** Polls once now. Resolves true when the poll succeeded. Never throws. */
  async refresh(): Promise<boolean> {
    const fetchStatus = this.options.fetchStatus;
    if (fetchStatus === undefined) return false;
    try {
      const status = await fetchStatus();
      this.update(status, 'poll');
      return true;
    } catch (error) {
      this.options.observer?.onPollError?.(error);
      return false;
    }
  }

  /** Starts polling every `pollIntervalMs` (the first poll at once). */
  start(): void {
    if (this.polling) return;
    this.polling = true;
    const tick = (): void => {
      if (!this.polling) return;
      void this.refresh().finally(() => {
        if (this.polling) this.pollTimer = this.options.scheduler.schedule(this.options.pollIntervalMs, tick);
      });
    };
    tick();
  }

  stop(): void {
    this.polling = false;
    this.pollTimer?.();
    this.pollTimer = null;
    this.expiryTimer?.();
    this.expiryTimer = null;
    this.holdTimer?.();
    this.holdTimer = null;
  }

  /**
   * The timer that ends a restriction at its resumeAt; one already past it (`overdue`) re-asks the venue after
   * OVERDUE_RECHECK_MS, doubling up to the poll interval.
   */
  private armExpiry(resumeAtMs: number | null, now: number): void {
    this.expiryTimer?.();
    this.expiryTimer = null;
    if (resumeAtMs === null) {
      this.overdueRechecks = 0;
      return;
    }
    const overdue = resumeAtMs <= now;
    const dueInMs = overdue ? Math.min(this.options.pollIntervalMs, OVERDUE_RECHECK_MS * 2 ** this.overdueRechecks) : resumeAtMs - now;
    this.overdueRechecks = overdue ? this.overdueRechecks + 1 : 0;
    this.expiryTimer = this.options.scheduler.schedule(dueInMs, () => {
      this.expiryTimer = null;
      void this.onResumeTime(overdue);
    });
  }

  private async onResumeTime(overdue: boolean): Promise<void> {
    const expectedResume = this.currentResumeAtMs;
    const confirmed = await this.refresh();
    if (confirmed || this.currentResumeAtMs !== expectedResume || this.currentMode === 'normal') return;
    // Nothing newer arrived meanwhile and the venue could not be asked: resume as announced — unless the venue itself
    // said so after its announced end (overdue): then it is asked again later, never resumed on a guess.
    if (overdue) this.armExpiry(expectedResume, this.options.scheduler.now());
    else this.update({ mode: 'normal', resumeAtMs: null }, 'resume-time');
  }
}
