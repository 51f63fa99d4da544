/**
 * The operator's view of the capital, for the status line and /metrics: the capital by state read from the ledger
 * (src/capital/capital-state.ts), the markets whose quoting is trimmed for want of capital (`CapitalTrims`, from the
 * risk gate's funding decisions and the venue's refusals for want of USDC), and the capital core's observer (its
 * steps counted, the wallet's USDC from the chain check kept in the ledger, a wallet short of gas logged by the core).
 *
 * Owns: the trims per market (each market's LAST gate decision: a decision without a capital trim clears it).
 * Invariants: reads are done when a line or a scrape asks, never cached beyond it; a hook never throws into its caller.
 */
import { collateralRaw } from '../core/venue-rules/index.js';
import { errorText } from '../core/errors.js';
import type { CapitalObserver } from '../capital/core.js';
import { readCapitalState, recordChainUsdc, type CapitalByState, type CapitalStateLedger } from '../capital/capital-state.js';
import type { CapitalMetrics, CapitalMetricsSnapshot } from '../metrics/capital-metrics.js';
import type { GateOutcome } from '../risk/gate.js';
import { INSUFFICIENT_BALANCE } from '../risk/balance-shortfall.js';

export interface TrimmedCapital {
  /** Traded markets whose last quotes were trimmed or dropped for want of USDC. */
  readonly markets: number;
  /** The BUY collateral those quotes lacked, raw USDC. */
  readonly shortRaw: number;
}

/** The BUY collateral a gate decision could not fund (funding trims and drops for want of USDC), raw. Pure. */
export function capitalShortRaw(outcome: Pick<GateOutcome, 'funding'>): number | null {
  let short = 0;
  let trimmed = false;
  for (const a of outcome.funding) {
    if (a.original.side !== 'BUY' || a.reason === 'no-inventory') continue;
    trimmed = true;
    const kept = a.result !== null && a.result.side === 'BUY' ? collateralRaw(a.result.sizeRaw, a.result.priceTicks, 'BUY') : 0;
    short += Math.max(0, collateralRaw(a.original.sizeRaw, a.original.priceTicks, 'BUY') - kept);
  }
  return trimmed ? short : null;
}

/** Per market, the capital its last quotes lacked. */
export class CapitalTrims {
  private readonly byMarket = new Map<string, number>();

  /** A gate decision of the market: trimmed for want of USDC, or not (which clears the market). */
  noteGate(slug: string, outcome: Pick<GateOutcome, 'funding'>): void {
    const short = capitalShortRaw(outcome);
    if (short === null) this.byMarket.delete(slug);
    else this.byMarket.set(slug, short);
  }

  /** A quote kept from the book (a risk block, a refusal): the venue's refusal for want of USDC is a trim. */
  noteBlocked(slug: string, reason: string): void {
    if (reason === INSUFFICIENT_BALANCE && !this.byMarket.has(slug)) this.byMarket.set(slug, 0);
  }

  /** The trims among the markets traded now. */
  status(traded: readonly string[]): TrimmedCapital {
    let markets = 0;
    let shortRaw = 0;
    for (const slug of traded) {
      const short = this.byMarket.get(slug);
      if (short === undefined) continue;
      markets += 1;
      shortRaw += short;
    }
    return { markets, shortRaw };
  }
}

/** The status line's capital: the state (null when the ledger could not be read) and the trims. */
export interface CapitalStatus {
  readonly state: CapitalByState | null;
  readonly trimmed: TrimmedCapital;
}

export interface CapitalViewOptions {
  readonly ledger: CapitalStateLedger & { setKv(key: string, value: string): void };
  readonly metrics: CapitalMetrics;
  readonly now: () => number;
  readonly tradedMarkets: () => readonly string[];
  readonly log: { debug(obj: object, msg: string): void };
}

export interface CapitalView {
  readonly trims: CapitalTrims;
  /** The capital core's observer (src/capital/bot-capital.ts). */
  readonly observer: CapitalObserver;
  readonly status: () => CapitalStatus;
}

/** The metrics' snapshot of a status. Pure. */
export function capitalMetricsSnapshot(status: CapitalStatus): CapitalMetricsSnapshot | null {
  const s = status.state;
  if (s === null) return null;
  return {
    usdcRaw: {
      ...(s.freeUsdcRaw === null ? {} : { free: s.freeUsdcRaw }),
      open_orders: s.openOrdersRaw,
      open_positions: s.openPositionsRaw,
      unredeemed: s.unredeemedRaw,
      redeemed_today: s.redeemedTodayRaw,
      merged_today: s.mergedTodayRaw,
    },
    gas: { today: s.gasToday, total: s.gasTotal },
    trimmed: status.trimmed,
  };
}

export function createCapitalView(o: CapitalViewOptions): CapitalView {
  const trims = new CapitalTrims();
  const status = (): CapitalStatus => {
    let state: CapitalByState | null = null;
    try {
      state = readCapitalState(o.ledger, o.now());
    } catch (error) {
      o.log.debug({ err: errorText(error) }, 'capital by state unavailable');
    }
    return { state, trimmed: trims.status(o.tradedMarkets()) };
  };
  o.metrics.capitalSource(() => capitalMetricsSnapshot(status()));
  return {
    trims,
    status,
    observer: {
      onResult: (kind, result) => o.metrics.capitalTx(kind, result),
      onChainDifferences: (count) => o.metrics.chainDifferences(count),
      onChainUsdcVerdict: (kind, differenceRaw) => o.metrics.chainUsdc(kind, differenceRaw),
      onChainUsdc: (usdcRaw, atMs) => {
        try {
          recordChainUsdc(o.ledger, usdcRaw, atMs);
        } catch (error) {
          o.log.debug({ err: errorText(error) }, 'the wallet\'s USDC could not be kept in the ledger');
        }
      },
    },
  };
}
