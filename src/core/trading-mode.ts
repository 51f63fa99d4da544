/**
 * The venue's trading modes: the one definition of the mode set, of how a venue mode string is read, and of which
 * mode is stricter.
 *
 * Owns: `TRADING_MODES` / `TradingMode`, `RestrictionMode` (every mode but `normal`: what a maintenance window or a
 * 425 body can set), the one mode parser and the mode rank.
 * Invariants: the set of venue mode strings is open (exchange-api.md § Errors: codes other than `trading_disabled`
 * are not shown), so `toTradingMode` is total: an unrecognised or missing mode of a restriction reads as
 * `cancel_only` (placements stop; cancels are still tried, and a refusal teaches the real mode); only `normal` /
 * `none` lift a restriction; `trading_disabled` (the 425 body's code for `disabled`) reads as `disabled`. Case is
 * ignored. The rank orders the modes by what they forbid: normal < post_only < cancel_only < disabled.
 */

export const TRADING_MODES = ['normal', 'post_only', 'cancel_only', 'disabled'] as const;
export type TradingMode = (typeof TRADING_MODES)[number];

/** A mode that restricts trading: what a maintenance window or a 425 trading-mode body sets. */
export type RestrictionMode = Exclude<TradingMode, 'normal'>;
export const RESTRICTION_MODES = ['post_only', 'cancel_only', 'disabled'] as const satisfies readonly RestrictionMode[];

/** Fails to compile when RESTRICTION_MODES misses one of the restriction modes. */
type MissingRestrictionMode = Exclude<RestrictionMode, (typeof RESTRICTION_MODES)[number]>;
const restrictionModesComplete: [MissingRestrictionMode] extends [never] ? true : never = true;
void restrictionModesComplete;

export function isTradingMode(value: unknown): value is TradingMode {
  return typeof value === 'string' && (TRADING_MODES as readonly string[]).includes(value);
}

/** Venue spellings that are not one of the four mode names but name one. */
const ALIASES: Readonly<Record<string, TradingMode>> = { none: 'normal', trading_disabled: 'disabled' };

/** A venue mode string → TradingMode, or null when it is unrecognised or missing (the caller reports it). */
export function recognizeTradingMode(raw: string | null | undefined): TradingMode | null {
  const lower = raw?.toLowerCase() ?? '';
  if (isTradingMode(lower)) return lower;
  return ALIASES[lower] ?? null;
}

/** True when `raw` is a mode string this module recognises (see `recognizeTradingMode`). */
export function isKnownTradingMode(raw: string | null | undefined): boolean {
  return recognizeTradingMode(raw) !== null;
}

/**
 * A restriction's mode string (maintenance entry, 425 body) → TradingMode. An unrecognised or missing mode is read as
 * `cancel_only` (see the header).
 */
export function toTradingMode(raw: string | null | undefined): TradingMode {
  return recognizeTradingMode(raw) ?? 'cancel_only';
}

const RANK: Readonly<Record<TradingMode, number>> = { normal: 0, post_only: 1, cancel_only: 2, disabled: 3 };

/** How much `mode` forbids: normal 0 < post_only 1 < cancel_only 2 < disabled 3. */
export function tradingModeRank(mode: TradingMode): number {
  return RANK[mode];
}

/** The stricter of two modes (the first when they are equal). */
export function strictestMode<M extends TradingMode>(a: M, b: M): M {
  return RANK[b] > RANK[a] ? b : a;
}
