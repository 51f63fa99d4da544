/**
 * The REST reads of the account and the venue's state: maintenance windows, the profile (fee rate), the positions'
 * balances (the portfolio itself: wire-portfolio.ts), and the redeem answer. (The doctor's allowance and API-token
 * reads are account-wire.ts.)
 *
 * Owns: these wire shapes and their domain values. Invariants: a profile without a fee rate takes
 * DEFAULT_FEE_RATE_BPS.
 *
 * Part of the REST wire format (wire.ts re-exports every part; callers import wire.ts). Rules of every part: extra
 * fields are tolerated (and dropped); numbers sent as strings are accepted; wrong types are rejected with a
 * ResponseValidationError naming the field path and value (parseAnswer); prices become integer ticks and amounts raw
 * 1e6 integers wherever the bot signs, books or compares them.
 */
import type { Address } from 'viem';
import { z } from 'zod';
import { toTradingMode, tradingModeRank, type TradingMode } from '../core/trading-mode.js';
import type { EndpointRef } from './errors.js';
import { address, integer, orNull, parseAnswer } from './wire-fields.js';
import { parsePortfolio, type ClobPosition } from './wire-portfolio.js';

const MaintenanceEntryWire = z.object({
  mode: z.string().nullish(),
  tradingMode: z.string().nullish(),
  message: z.string().nullish(),
  startAt: z.string().nullish(),
  startsAt: z.string().nullish(),
  endAt: z.string().nullish(),
  endsAt: z.string().nullish(),
  resumeAt: z.string().nullish(),
});
const MaintenanceWire = z.object({
  active: z.array(MaintenanceEntryWire).nullish(),
  scheduled: z.array(MaintenanceEntryWire).nullish(),
});

export interface MaintenanceWindow {
  /** The venue's mode string (`post_only`, `cancel_only`, `disabled`, or something new). */
  readonly mode: string | null;
  readonly message: string | null;
  readonly startsAtMs: number | null;
  /** When the window ends (its resumeAt), ms since epoch. */
  readonly endsAtMs: number | null;
}

export interface MaintenanceStatus {
  readonly active: readonly MaintenanceWindow[];
  readonly scheduled: readonly MaintenanceWindow[];
  /** The most restrictive active mode; an active entry with an unknown or missing mode counts as `cancel_only`. */
  readonly mode: TradingMode;
  /** Latest end among the active windows that set `mode`, when known. */
  readonly resumeAtMs: number | null;
}

function dateMs(value: string | null | undefined): number | null {
  const ms = value ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? ms : null;
}

export function parseMaintenance(data: unknown, endpoint: EndpointRef, status: number): MaintenanceStatus {
  const wire = parseAnswer(MaintenanceWire, data, endpoint, status);
  const toWindow = (e: z.output<typeof MaintenanceEntryWire>): MaintenanceWindow => ({
    mode: e.mode ?? e.tradingMode ?? null,
    message: orNull(e.message),
    startsAtMs: dateMs(e.startsAt ?? e.startAt),
    endsAtMs: dateMs(e.resumeAt ?? e.endsAt ?? e.endAt),
  });
  const active = (wire.active ?? []).map(toWindow);
  let mode: TradingMode = 'normal';
  let resumeAtMs: number | null = null;
  for (const window of active) {
    const windowMode = toTradingMode(window.mode);
    if (tradingModeRank(windowMode) > tradingModeRank(mode)) {
      mode = windowMode;
      resumeAtMs = window.endsAtMs;
    } else if (windowMode === mode && mode !== 'normal' && window.endsAtMs !== null) {
      resumeAtMs = Math.max(resumeAtMs ?? 0, window.endsAtMs);
    }
  }
  return { active, scheduled: (wire.scheduled ?? []).map(toWindow), mode, resumeAtMs };
}

const ProfileWire = z.object({
  id: integer,
  account: address,
  rank: z.object({ feeRateBps: integer.nullish() }).nullish(),
});

export const DEFAULT_FEE_RATE_BPS = 300;

export interface Profile {
  /** The profile id: the `ownerId` of orders. */
  readonly id: number;
  readonly account: Address;
  /** `rank.feeRateBps`, or the venue default 300 when absent. */
  readonly feeRateBps: number;
}

export function parseProfile(data: unknown, endpoint: EndpointRef, status: number): Profile {
  const wire = parseAnswer(ProfileWire, data, endpoint, status);
  return { id: wire.id, account: wire.account, feeRateBps: wire.rank?.feeRateBps ?? DEFAULT_FEE_RATE_BPS };
}

/** The token balances of `parsePortfolio` (wire-portfolio.ts: CLOB and group lists). */
export function parsePositions(data: unknown, endpoint: EndpointRef, status: number): ClobPosition[] {
  return [...parsePortfolio(data, endpoint, status).clob];
}

/** POST /portfolio/redeem: the answer's shape is not published; an object is returned as is, anything else as null. */
export function parseRedeem(data: unknown, endpoint: EndpointRef, status: number): Readonly<Record<string, unknown>> | null {
  if (data === undefined || data === '' || data === null) return null;
  return parseAnswer(z.record(z.string(), z.unknown()), data, endpoint, status);
}
