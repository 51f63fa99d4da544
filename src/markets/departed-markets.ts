/**
 * Markets the bot left (src/markets/market-roster.ts) stay known until they resolve and settle: a late order event still
 * finds its market and the payout still reaches the ledger. This sweep, run every DEPARTED_SWEEP_MS, forgets a
 * departed market once it resolved and the settler has no job for it (every map keyed by it, and its metric series,
 * which its redemption or a late fill may have written after it left), and reads over REST one whose resolution never
 * came on the socket, RESOLUTION_OVERDUE_MS after its settlement.
 *
 * Owns: when a departed market is forgotten or read. Invariants: a traded market is never forgotten; nothing is read or
 * forgotten once the bot is stopping; a failed read changes nothing (retried at the next sweep).
 */
import type { Logger } from 'pino';
import { errorText } from '../core/errors.js';
import type { Market } from '../exchange/wire.js';
import { resolutionOfMarket } from '../capital/settlement-rules.js';
import type { TradedMarkets } from './traded-markets.js';

/** Departed markets are checked this often: forgotten once resolved and settled; read over REST when overdue. */
export const DEPARTED_SWEEP_MS = 60_000;
/** A departed market not known resolved this long after its settlement is read over REST. */
export const RESOLUTION_OVERDUE_MS = 120_000;

export interface DepartedSweepDeps {
  readonly markets: TradedMarkets;
  /** Markets whose payout the settler still works on. */
  readonly settling: () => readonly string[];
  /** Drops every map and series keyed by the market (signing terms, ledger tokens, clientOrderId key, metrics). */
  readonly forget: (slug: string) => void;
  readonly getMarket: (slug: string) => Promise<Pick<Market, 'winningOutcomeIndex' | 'payoutNumerators'>>;
  /** The venue says it resolved: the same path as a `marketResolved` frame. */
  readonly resolved: (slug: string, winningIndex: number | null) => void;
  readonly now: () => number;
  readonly stopping: () => boolean;
  readonly log: Logger;
}

export async function sweepDepartedMarkets(deps: DepartedSweepDeps): Promise<void> {
  const { markets } = deps;
  const settling = new Set(deps.settling());
  for (const slug of markets.departedSlugs()) {
    if (deps.stopping()) return;
    if (markets.isResolved(slug)) {
      if (settling.has(slug)) continue;
      markets.forget(slug);
      deps.forget(slug);
      continue;
    }
    const expiresAt = markets.market(slug)?.expirationMs ?? null;
    if (expiresAt === null || deps.now() < expiresAt + RESOLUTION_OVERDUE_MS) continue;
    try {
      const read = await deps.getMarket(slug);
      if (resolutionOfMarket(read) !== null) deps.resolved(slug, read.winningOutcomeIndex);
    } catch (error) {
      deps.log.debug({ market: slug, err: errorText(error) }, 'reading a departed market failed; retried at the next sweep');
    }
  }
}
