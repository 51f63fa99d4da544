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
 * - disabled: nothing, not even cancels (the venue refuses them with 425); plans wait for `resumeAt`.
 * Cancels are never blocked by the bot itself outside `disabled`.
 *
 * Invariants: a restriction with a resumeAt ends by itself at that time (confirmed by an immediate poll when a
 * poller is configured; if that poll fails the gate resumes); every change is reported once to the observer and
 * to listeners; a failed poll keeps the last known mode.
 */
import type { CancelTimer, Scheduler } from '../book/scheduler.js';
import type { OrderType } from '../core/units.js';
import type { Plan, PlannedPlace } from './reconcile.js';
import type { MaintenanceStatus, TradingMode, TradingModeError } from './venue-port.js';

export type ModeSource = 'poll' | 'venue-error' | 'resume-time' | 'manual' | 'initial';

export interface ModeChange {
  readonly from: TradingMode;
  readonly to: TradingMode;
  readonly resumeAtMs: number | null;
  readonly source: ModeSource;
}

export interface TradingModeObserver {
  onModeChange?(change: ModeChange): void;
  onPollError?(error: unknown): void;
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
  /** Cancels removed by the mode (only in `disabled`). */
  readonly blockedCancels: number;
  /** Placements turned into post-only. */
  readonly convertedToPostOnly: number;
}

/** Whether `mode` lets an action through. */
export function modeAllows(mode: TradingMode, action: 'cancel'): boolean;
export function modeAllows(mode: TradingMode, action: 'place', placement: PlacementShape): boolean;
export function modeAllows(mode: TradingMode, action: 'place' | 'cancel', placement?: PlacementShape): boolean {
  if (mode === 'disabled') return false;
  if (action === 'cancel') return true;
  if (mode === 'cancel_only') return false;
  if (mode === 'post_only') return placement !== undefined && placement.postOnly && placement.orderType === 'GTC';
  return true;
}

/** Applies a mode to a plan: post_only converts placements, cancel_only drops them, disabled drops everything. */
export function gatePlan(mode: TradingMode, plan: Plan): GatedPlan {
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
      return { plan: { ...plan, places: [] }, blockedPlaces: plan.places.length, blockedCancels: 0, convertedToPostOnly: 0 };
    case 'disabled':
      return {
        plan: { ...plan, places: [], cancels: [] },
        blockedPlaces: plan.places.length,
        blockedCancels: plan.cancels.length,
        convertedToPostOnly: 0,
      };
  }
}

export type ModeListener = (change: ModeChange) => void;

export class TradingModeGate {
  private currentMode: TradingMode = 'normal';
  private currentResumeAtMs: number | null = null;
  private expiryTimer: CancelTimer | null = null;
  private pollTimer: CancelTimer | null = null;
  private polling = false;
  private readonly listeners = new Set<ModeListener>();

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

  allowsCancel(): boolean {
    return modeAllows(this.currentMode, 'cancel');
  }

  allowsPlacement(placement: PlacementShape): boolean {
    return modeAllows(this.currentMode, 'place', placement);
  }

  gate(plan: Plan): GatedPlan {
    return gatePlan(this.currentMode, plan);
  }

  onChange(listener: ModeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A 425 body: applied at once. */
  fromError(error: TradingModeError): void {
    this.update({ mode: error.mode, resumeAtMs: error.resumeAtMs }, 'venue-error');
  }

  update(status: MaintenanceStatus, source: ModeSource): void {
    const now = this.options.scheduler.now();
    const resumeAtMs = status.mode === 'normal' ? null : status.resumeAtMs;
    this.expiryTimer?.();
    this.expiryTimer = null;
    if (resumeAtMs !== null && resumeAtMs > now) {
      this.expiryTimer = this.options.scheduler.schedule(resumeAtMs - now, () => {
        this.expiryTimer = null;
        void this.onResumeTime();
      });
    }
    const from = this.currentMode;
    const changed = from !== status.mode || this.currentResumeAtMs !== resumeAtMs;
    this.currentMode = status.mode;
    this.currentResumeAtMs = resumeAtMs;
    if (!changed) return;
    const change: ModeChange = { from, to: status.mode, resumeAtMs, source };
    this.options.observer?.onModeChange?.(change);
    for (const listener of this.listeners) listener(change);
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
  }

  private async onResumeTime(): Promise<void> {
    const expectedResume = this.currentResumeAtMs;
    const confirmed = await this.refresh();
    // Nothing newer arrived meanwhile and the venue could not be asked: resume as announced.
    if (!confirmed && this.currentResumeAtMs === expectedResume && this.currentMode !== 'normal') {
      this.update({ mode: 'normal', resumeAtMs: null }, 'resume-time');
    }
  }
}
