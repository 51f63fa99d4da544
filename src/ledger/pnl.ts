/**
 * PnL per market and in total, and the UTC-day PnL the kill switch reads. Pure functions over position
 * states (from position-math), marks and resolutions; the store gathers the inputs.
 *
 * Definitions (all raw USDC integers, 1e6 = 1):
 * - realized = trading realized (average cost, per fill) + resolution PnL (Σ payout − basis, once resolved).
 * - fees are reported separately; net PnL = realized − fees + unrealized.
 * - unrealized = holding value − basis; null ("no mark") when part of the holding needs a mark and the
 *   ledger has none. A resolved market has no unrealized: its PnL was realized at resolution.
 * - daily PnL (UTC day D) = realized on D (fills and resolutions timed on D) − fees on D
 *   + (unrealized now − unrealized at 00:00 UTC of D). A market whose unrealized is unknown at either end
 *   contributes realized and fees only and is listed in `unmarkedMarkets`.
 */
import { holdingValue, resolutionPayout, type PositionState } from './position-math.js';

export const DAY_MS = 86_400_000;

export function utcDayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

export interface TokenTotals extends PositionState {
  /** Trading realized PnL (average cost) of this token's fills. */
  readonly realizedRaw: number;
  readonly feesRaw: number;
  /** Σ collateral of trades. */
  readonly volumeRaw: number;
  /** Number of trades (not adjustments) that have not failed. */
  readonly fillCount: number;
}

export const EMPTY_TOKEN: TokenTotals = {
  positionRaw: 0,
  costRaw: 0,
  realizedRaw: 0,
  feesRaw: 0,
  volumeRaw: 0,
  fillCount: 0,
};

export interface Payout {
  readonly payoutYes: number;
  readonly payoutNo: number;
}

export interface MarketState {
  readonly marketSlug: string;
  readonly yes: TokenTotals;
  readonly no: TokenTotals;
  readonly midMicros: number | null;
  readonly resolution: ResolvedPayout | null;
  readonly redeemedRaw: number;
}

export interface ResolvedPayout extends Payout {
  readonly resolvedAtMs: number;
}

/** Activity of a period (fills timed in it): the report's `--since` and the daily figures. */
export interface PeriodActivity {
  readonly fillCount: number;
  readonly volumeRaw: number;
  readonly feesRaw: number;
  /** Trading realized PnL of the period's fills. */
  readonly realizedRaw: number;
}

export interface MarketPnl {
  readonly marketSlug: string;
  readonly tradingRealizedRaw: number;
  readonly resolutionPnlRaw: number;
  readonly realizedRaw: number;
  readonly feesRaw: number;
  readonly volumeRaw: number;
  readonly fillCount: number;
  /** null = no mark. 0 once resolved. */
  readonly unrealizedRaw: number | null;
  /** realized − fees + unrealized; null when unrealized is. */
  readonly netPnlRaw: number | null;
  /** Resolved markets: what the holding pays; null otherwise. */
  readonly payoutRaw: number | null;
  /** Payout not yet redeemed (never negative). */
  readonly receivableRaw: number;
}

/** Payout and PnL of a resolution for the final YES/NO positions. */
export function resolutionResult(
  yes: PositionState,
  no: PositionState,
  payout: Payout,
): { payoutRaw: number; pnlRaw: number } {
  const denominator = payout.payoutYes + payout.payoutNo;
  const payoutRaw =
    resolutionPayout(yes.positionRaw, payout.payoutYes, denominator) +
    resolutionPayout(no.positionRaw, payout.payoutNo, denominator);
  return { payoutRaw, pnlRaw: payoutRaw - yes.costRaw - no.costRaw };
}

/** Unrealized PnL of a YES/NO holding at a YES mid; null when a mark is needed and missing. */
export function unrealizedPnl(yes: PositionState, no: PositionState, midMicros: number | null): number | null {
  const value = holdingValue(yes.positionRaw, no.positionRaw, midMicros);
  return value === null ? null : value - yes.costRaw - no.costRaw;
}

export function marketPnl(state: MarketState): MarketPnl {
  const tradingRealizedRaw = state.yes.realizedRaw + state.no.realizedRaw;
  const feesRaw = state.yes.feesRaw + state.no.feesRaw;
  const resolved = state.resolution === null ? null : resolutionResult(state.yes, state.no, state.resolution);
  const resolutionPnlRaw = resolved?.pnlRaw ?? 0;
  const realizedRaw = tradingRealizedRaw + resolutionPnlRaw;
  const unrealizedRaw = resolved ? 0 : unrealizedPnl(state.yes, state.no, state.midMicros);
  return {
    marketSlug: state.marketSlug,
    tradingRealizedRaw,
    resolutionPnlRaw,
    realizedRaw,
    feesRaw,
    volumeRaw: state.yes.volumeRaw + state.no.volumeRaw,
    fillCount: state.yes.fillCount + state.no.fillCount,
    unrealizedRaw,
    netPnlRaw: unrealizedRaw === null ? null : realizedRaw - feesRaw + unrealizedRaw,
    payoutRaw: resolved?.payoutRaw ?? null,
    receivableRaw: resolved ? Math.max(0, resolved.payoutRaw - state.redeemedRaw) : 0,
  };
}

/**
 * PnL of a market over a period starting at `sinceMs`: the period's fills (count, volume, fees, trading
 * realized), plus the resolution PnL if the market resolved in the period; unrealized is as of now.
 */
export function marketPnlSince(state: MarketState, activity: PeriodActivity, sinceMs: number): MarketPnl {
  const whole = marketPnl(state);
  const resolvedInPeriod = state.resolution !== null && state.resolution.resolvedAtMs >= sinceMs;
  const resolutionPnlRaw = resolvedInPeriod ? whole.resolutionPnlRaw : 0;
  const realizedRaw = activity.realizedRaw + resolutionPnlRaw;
  return {
    ...whole,
    tradingRealizedRaw: activity.realizedRaw,
    resolutionPnlRaw,
    realizedRaw,
    feesRaw: activity.feesRaw,
    volumeRaw: activity.volumeRaw,
    fillCount: activity.fillCount,
    netPnlRaw: whole.unrealizedRaw === null ? null : realizedRaw - activity.feesRaw + whole.unrealizedRaw,
  };
}

export interface PnlTotals {
  readonly realizedRaw: number;
  readonly feesRaw: number;
  readonly volumeRaw: number;
  readonly fillCount: number;
  /** Σ unrealized of the markets that have one. */
  readonly unrealizedRaw: number;
  /** realized − fees + unrealized (markets with no mark contribute realized − fees only). */
  readonly netPnlRaw: number;
  readonly receivableRaw: number;
  readonly unmarkedMarkets: readonly string[];
}

export function totalPnl(markets: readonly MarketPnl[]): PnlTotals {
  let realizedRaw = 0;
  let feesRaw = 0;
  let volumeRaw = 0;
  let fillCount = 0;
  let unrealizedRaw = 0;
  let receivableRaw = 0;
  const unmarkedMarkets: string[] = [];
  for (const market of markets) {
    realizedRaw += market.realizedRaw;
    feesRaw += market.feesRaw;
    volumeRaw += market.volumeRaw;
    fillCount += market.fillCount;
    receivableRaw += market.receivableRaw;
    if (market.unrealizedRaw === null) unmarkedMarkets.push(market.marketSlug);
    else unrealizedRaw += market.unrealizedRaw;
  }
  return {
    realizedRaw,
    feesRaw,
    volumeRaw,
    fillCount,
    unrealizedRaw,
    netPnlRaw: realizedRaw - feesRaw + unrealizedRaw,
    receivableRaw,
    unmarkedMarkets,
  };
}

export interface DailyMarketInput {
  readonly marketSlug: string;
  /** Positions at 00:00 UTC and the mark in force then (or the day's first mark). */
  readonly open: { readonly yes: PositionState; readonly no: PositionState; readonly midMicros: number | null };
  /** Positions now and the latest mark. */
  readonly now: { readonly yes: PositionState; readonly no: PositionState; readonly midMicros: number | null };
  /** Σ trading realized of fills timed today; Σ their fees. */
  readonly realizedTodayRaw: number;
  readonly feesTodayRaw: number;
  readonly resolution: ResolvedPayout | null;
}

export interface DailyPnl {
  readonly dayStartMs: number;
  /** Trading realized today plus resolution PnL of markets resolved today. */
  readonly realizedRaw: number;
  readonly feesRaw: number;
  readonly unrealizedChangeRaw: number;
  /** realized − fees + unrealized change: the figure a daily loss limit compares against. */
  readonly totalRaw: number;
  readonly unmarkedMarkets: readonly string[];
}

export function dailyPnl(dayStartMs: number, markets: readonly DailyMarketInput[]): DailyPnl {
  let realizedRaw = 0;
  let feesRaw = 0;
  let unrealizedChangeRaw = 0;
  const unmarkedMarkets: string[] = [];
  for (const market of markets) {
    realizedRaw += market.realizedTodayRaw;
    feesRaw += market.feesTodayRaw;
    const resolution = market.resolution;
    if (resolution !== null && resolution.resolvedAtMs < dayStartMs) continue; // all realized on an earlier day
    const openUnrealized = unrealizedPnl(market.open.yes, market.open.no, market.open.midMicros);
    let nowUnrealized: number | null;
    if (resolution === null) {
      nowUnrealized = unrealizedPnl(market.now.yes, market.now.no, market.now.midMicros);
    } else {
      realizedRaw += resolutionResult(market.now.yes, market.now.no, resolution).pnlRaw;
      nowUnrealized = 0;
    }
    if (openUnrealized === null || nowUnrealized === null) unmarkedMarkets.push(market.marketSlug);
    else unrealizedChangeRaw += nowUnrealized - openUnrealized;
  }
  return {
    dayStartMs,
    realizedRaw,
    feesRaw,
    unrealizedChangeRaw,
    totalRaw: realizedRaw - feesRaw + unrealizedChangeRaw,
    unmarkedMarkets,
  };
}
