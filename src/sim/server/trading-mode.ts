/**
 * Trading modes of the venue (exchange-facts §6, exchange-api.md § Errors 425): `post_only`,
 * `cancel_only`, `disabled`, each a window [startsAt, resumeAt) that may be scheduled ahead.
 *
 * Owns: the schedule of windows and the pure decision "does the mode in force forbid this action".
 * Invariants: a window ends by itself at `resumeAt` (the schedule is evaluated against the injected clock,
 * no timers); when windows overlap the most restrictive one is in force (disabled > cancel_only >
 * post_only); cancels are forbidden only by `disabled`; `post_only` admits only post-only GTC placements.
 */
import { RESTRICTION_MODES, tradingModeRank, type RestrictionMode } from '../../core/trading-mode.js';
import { frameworkError, HttpError } from './http-errors.js';

/** The `code` of the 425 body per mode. `trading_disabled` is the spec's; the other two are ours. */
export const TRADING_MODE_CODES: Readonly<Record<RestrictionMode, string>> = {
  disabled: 'trading_disabled',
  cancel_only: 'trading_cancel_only',
  post_only: 'trading_post_only',
};

const TRADING_MODE_MESSAGES: Readonly<Record<RestrictionMode, string>> = {
  disabled: 'Trading is temporarily disabled',
  cancel_only: 'Trading is in cancel-only mode: only cancellations are accepted',
  post_only: 'Trading is in post-only mode: only post-only GTC orders are accepted',
};

/** How a refusal by the mode is answered (settings.ts `placementModeRefusal`; cancels always the 425). */
export type ModeRefusalForm = '425' | '503' | '503-with-mode';

export interface TradingModeWindow {
  readonly id: number;
  readonly mode: RestrictionMode;
  readonly startsAtMs: number;
  readonly resumeAtMs: number;
}

export type TradingAction =
  | { readonly kind: 'place'; readonly orderType: 'GTC' | 'FAK' | 'FOK'; readonly postOnly: boolean }
  | { readonly kind: 'cancel' };

/** A trading-mode window the control API was asked to set is invalid (a 400 to the caller, not a venue refusal). */
export class TradingModeInputError extends Error {
  override readonly name = 'TradingModeInputError';
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${field}: ${reason} (got ${JSON.stringify(value)})`);
  }
}

/** Does `mode` forbid `action`? Pure. */
export function modeForbids(mode: RestrictionMode, action: TradingAction): boolean {
  switch (mode) {
    case 'disabled':
      return true;
    case 'cancel_only':
      return action.kind === 'place';
    case 'post_only':
      return action.kind === 'place' && !(action.orderType === 'GTC' && action.postOnly);
  }
}

/** The 425 trading-mode body `{code, message, mode, resumeAt}`. */
export function tradingModeBody(window: TradingModeWindow): { code: string; message: string; mode: RestrictionMode; resumeAt: string } {
  return {
    code: TRADING_MODE_CODES[window.mode],
    message: TRADING_MODE_MESSAGES[window.mode],
    mode: window.mode,
    resumeAt: new Date(window.resumeAtMs).toISOString(),
  };
}

export interface MaintenanceEntry {
  readonly mode: RestrictionMode;
  readonly code: string;
  readonly message: string;
  readonly startsAt: string;
  readonly resumeAt: string;
}

export interface MaintenanceStatus {
  readonly active: MaintenanceEntry[];
  readonly scheduled: MaintenanceEntry[];
}

function entry(window: TradingModeWindow): MaintenanceEntry {
  const body = tradingModeBody(window);
  return { mode: body.mode, code: body.code, message: body.message, startsAt: new Date(window.startsAtMs).toISOString(), resumeAt: body.resumeAt };
}

export class TradingModeSchedule {
  private windows: TradingModeWindow[] = [];
  private nextId = 1;

  /** Adds a window. `startsAtMs` defaults to now; `resumeAtMs` must be after the start and in the future. */
  set(mode: RestrictionMode, resumeAtMs: number, nowMs: number, startsAtMs: number = nowMs): TradingModeWindow {
    if (!RESTRICTION_MODES.includes(mode)) throw new TradingModeInputError('mode', mode, `must be one of ${RESTRICTION_MODES.join(', ')}`);
    if (!Number.isSafeInteger(startsAtMs)) throw new TradingModeInputError('startsAt', startsAtMs, 'not a valid time');
    if (!Number.isSafeInteger(resumeAtMs)) throw new TradingModeInputError('resumeAt', resumeAtMs, 'not a valid time');
    if (resumeAtMs <= startsAtMs) throw new TradingModeInputError('resumeAt', new Date(resumeAtMs).toISOString(), 'must be after startsAt');
    if (resumeAtMs <= nowMs) throw new TradingModeInputError('resumeAt', new Date(resumeAtMs).toISOString(), 'must be in the future');
    this.prune(nowMs);
    const window: TradingModeWindow = { id: this.nextId++, mode, startsAtMs, resumeAtMs };
    this.windows.push(window);
    return window;
  }

  /** Removes one window by id, or every window when no id is given. Returns how many were removed. */
  clear(id?: number): number {
    const before = this.windows.length;
    this.windows = id === undefined ? [] : this.windows.filter((w) => w.id !== id);
    return before - this.windows.length;
  }

  /** The window in force at `nowMs` (the most restrictive of the active ones), or null. */
  inForce(nowMs: number): TradingModeWindow | null {
    let best: TradingModeWindow | null = null;
    for (const w of this.windows) {
      if (w.startsAtMs <= nowMs && nowMs < w.resumeAtMs && (best === null || tradingModeRank(w.mode) > tradingModeRank(best.mode))) best = w;
    }
    return best;
  }

  /**
   * Throws the refusal when the mode in force forbids `action`: the specification's 425 trading-mode answer, or (a
   * placement by POST /orders in `cancel_only` or `disabled`, `refusal` from the settings) the API reference's 503,
   * with or without the mode's body. `post_only` refuses with the 425 (the reference names only the other two).
   */
  assertAllowed(action: TradingAction, nowMs: number, refusal: ModeRefusalForm = '425'): void {
    const window = this.inForce(nowMs);
    if (window === null || !modeForbids(window.mode, action)) return;
    const body = tradingModeBody(window);
    switch (window.mode === 'post_only' ? '425' : refusal) {
      case '425':
        throw new HttpError(425, body);
      case '503-with-mode':
        throw new HttpError(503, body);
      case '503':
        throw frameworkError(503, body.message);
    }
  }

  status(nowMs: number): MaintenanceStatus {
    this.prune(nowMs);
    const sorted = [...this.windows].sort((a, b) => a.startsAtMs - b.startsAtMs || a.id - b.id);
    return {
      active: sorted.filter((w) => w.startsAtMs <= nowMs).map(entry),
      scheduled: sorted.filter((w) => w.startsAtMs > nowMs).map(entry),
    };
  }

  windowsAt(nowMs: number): readonly TradingModeWindow[] {
    this.prune(nowMs);
    return [...this.windows];
  }

  private prune(nowMs: number): void {
    this.windows = this.windows.filter((w) => w.resumeAtMs > nowMs);
  }
}
