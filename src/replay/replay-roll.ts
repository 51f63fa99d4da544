/**
 * Markets listed over time in a replay (format version 3): when each market of the stream is joined and when it is
 * left, planned from the stream before it plays. Pure.
 *
 * Owns: the plan. Invariants: a market of the first header is there from the start; a market a `listed` event names
 * (or a later part's header: src/replay/reader.ts turns it into one) is joined at that event's `t` (at the start when
 * that is not after the stream's first event); a market is left at its stop before settlement — `expiresAtMs` minus
 * the pricing stop (`pricing.stopBeforeSettlementSec`) for a priced market, minus `risk.stopBeforeExpirySec` for
 * another, unless `risk.perMarket` sets its own, then LEAVE_AFTER_STOP_MS later as the synthetic backtest leaves
 * (src/backtest/market-roll.ts) — or at its recorded resolution, whichever comes first; a market listed at or after
 * its stop, or at or after the stream's end, is never joined; a market listed twice is joined at its first listing.
 * A stream without `listed` events and `expiresAtMs` (versions 1-2) plans every market from the start, never left.
 */
import type { RiskConfig } from '../config/types.js';
import { expiryStopFor } from '../config/index.js';
import { leaveAtMs } from '../backtest/market-roll.js';
import type { ReplayEvent, ReplayMarket } from './format.js';

/** The budget of a leave: its orders canceled and confirmed gone within this (the synthetic backtest's default). */
export const REPLAY_LEAVE_BUDGET_MS = 10_000;

export interface PlannedMarket {
  readonly entry: ReplayMarket;
  /** null: traded from the start. */
  readonly joinAtMs: number | null;
  /** When it is left at its stop before settlement; null: not before the stream ends (resolutions are seen as played). */
  readonly leaveAtMs: number | null;
  /** Its stop before settlement (ms before `expiresAtMs`), as the risk config the trader reads says it. */
  readonly stopBeforeExpiryMs: number;
}

export interface ReplayPlanInput {
  readonly initial: readonly ReplayMarket[];
  readonly events: readonly ReplayEvent[];
  /** The stream's first and last event of a market (the replay's start and end). */
  readonly startMs: number;
  readonly endMs: number;
  readonly risk: RiskConfig;
  readonly stopBeforeSettlementMs: number;
  /** Whether the market is priced from the model (it has readable terms). */
  readonly priced: (entry: ReplayMarket) => boolean;
}

/** Every market of the stream and its life in the replay, in the order they are joined. */
export function planReplayMarkets(input: ReplayPlanInput): PlannedMarket[] {
  const plan: PlannedMarket[] = [];
  const seen = new Set<string>();
  const add = (entry: ReplayMarket, atMs: number | null): void => {
    if (seen.has(entry.slug)) return;
    seen.add(entry.slug);
    const stopMs = expiryStopFor(input.risk, input.stopBeforeSettlementMs, entry.slug, input.priced(entry)).ms;
    const leave = entry.expiresAtMs === undefined ? null : leaveAtMs(entry.expiresAtMs, stopMs);
    const joinAtMs = atMs === null || atMs <= input.startMs ? null : atMs;
    // Listed too late to be quoted: never joined (as the synthetic backtest and the bot refuse it).
    if (joinAtMs !== null && (joinAtMs >= input.endMs || (entry.expiresAtMs !== undefined && joinAtMs >= entry.expiresAtMs - stopMs))) return;
    plan.push({ entry, joinAtMs, leaveAtMs: leave, stopBeforeExpiryMs: stopMs });
  };
  for (const entry of input.initial) add(entry, null);
  const listings = input.events.flatMap((e) => (e.kind === 'listed' ? [e] : [])).sort((a, b) => a.t - b.t);
  for (const listed of listings) add(listed.entry, listed.t);
  return plan;
}

/**
 * The risk config the replay's trader reads: a priced market with a settlement time stops at the pricing stop unless
 * `risk.perMarket` sets its own (as the daemon's src/pricing/live-pricing.ts `riskConfig`); the config itself when no market
 * has a settlement time (the version-1/2 streams play as before).
 */
export function replayRisk(risk: RiskConfig, plan: readonly PlannedMarket[]): RiskConfig {
  const timed = plan.filter((p) => p.entry.expiresAtMs !== undefined);
  if (timed.length === 0) return risk;
  const perMarket = { ...risk.perMarket };
  for (const p of timed) perMarket[p.entry.slug] = { ...risk.perMarket[p.entry.slug], stopBeforeExpiryMs: p.stopBeforeExpiryMs };
  return { ...risk, perMarket };
}
