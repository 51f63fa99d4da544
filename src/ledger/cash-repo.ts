/**
 * The ledger's cash account: the USDC flows the ledger has booked, so the bot has its own figure of the wallet's USDC
 * to hold against the chain's `balanceOf` (src/capital/cash-check.ts; docs/settlement.md "The wallet's USDC").
 *
 * A flow, signed (+ into the wallet, − out of it), raw 1e6 USDC:
 * - a trade fill that did not fail: a BUY pays its collateral (its taker fee is taken in outcome tokens, not USDC:
 *   exchange-facts.md §8); a SELL receives its collateral less its fee (a SELL's fee is taken in USDC);
 * - a redemption, through the API or on-chain (`redemptions`): its payout;
 * - a booked complete-set merge (`capital_tx`): the USDC it paid (its merge-leg fills are adjustments, not counted);
 * - an outside cash flow the account's history booked (`account_history`, booked = 1: a claim or merge done outside
 *   the bot +, a split −);
 * - rewards and rebates the venue paid (`venue_payouts`): the account's total of an epoch (market '*') where the
 *   ledger has it, else the sum of the epoch's market rows.
 * Position adjustments (reconciliation, fee contracts) move tokens, never USDC, and are not flows. Gas is paid in ETH.
 *
 * "In flight": a flow the chain may not show yet at a read started at `sinceMs + window`: a provisional fill (matched,
 * not mined), or any flow written at or after `sinceMs` (a fill mined or booked while the read was under way, a node
 * a block behind). Owns: that SQL. Invariants: read-only; integers only; a failed fill is never a flow.
 */
import { z } from 'zod';
import type { LedgerContext } from './context.js';
import { checkTimeMs } from './validate.js';

export interface CashFlows {
  /** Σ every flow booked, signed (raw). */
  readonly totalRaw: number;
  /** The flows in flight (see the module comment): the USDC in (positive flows) and out (negative, as a positive figure). */
  readonly inFlight: { readonly inRaw: number; readonly outRaw: number; readonly count: number };
}

const flowsSchema = z.object({ total: z.number().int(), in_raw: z.number().int(), out_raw: z.number().int(), n: z.number().int() });
const sumSchema = z.object({ total: z.number().int() });

const FLOWS_SQL = `
WITH flows (amount, in_flight) AS (
  SELECT CASE side WHEN 'BUY' THEN -collateral_raw ELSE collateral_raw - fee_raw END,
         state = 'provisional' OR updated_at_ms >= @since
    FROM fills WHERE kind = 'trade' AND state != 'failed'
  UNION ALL
  SELECT amount_raw, recorded_at_ms >= @since FROM redemptions
  UNION ALL
  SELECT usdc_in_raw, settled_at_ms >= @since FROM capital_tx WHERE status = 'booked' AND kind = 'merge'
  UNION ALL
  SELECT cash_flow_raw, recorded_at_ms >= @since FROM account_history WHERE booked = 1
  UNION ALL
  SELECT COALESCE(rewards_raw, 0) + COALESCE(rebates_raw, 0), recorded_at_ms >= @since
    FROM venue_payouts p
   WHERE market_slug = '*'
      OR NOT EXISTS (SELECT 1 FROM venue_payouts t WHERE t.market_slug = '*' AND t.epoch_end_ms = p.epoch_end_ms)
)
SELECT COALESCE(SUM(amount), 0) AS total,
       COALESCE(SUM(CASE WHEN in_flight AND amount > 0 THEN amount ELSE 0 END), 0) AS in_raw,
       COALESCE(SUM(CASE WHEN in_flight AND amount < 0 THEN -amount ELSE 0 END), 0) AS out_raw,
       COALESCE(SUM(CASE WHEN in_flight AND amount != 0 THEN 1 ELSE 0 END), 0) AS n
  FROM flows`;

export class CashRepo {
  private readonly flowsQuery;
  private readonly redeemedQuery;

  constructor(ctx: LedgerContext) {
    this.flowsQuery = ctx.db.prepare(FLOWS_SQL);
    // A redemption the capital core booked carries its transaction's hash; any other came through the API (or was inferred).
    this.redeemedQuery = ctx.db.prepare(
      `SELECT COALESCE(SUM(amount_raw), 0) AS total FROM redemptions r
        WHERE at_ms >= ? AND NOT EXISTS (SELECT 1 FROM capital_tx c WHERE c.status = 'booked' AND c.hash = r.tx_hash)`,
    );
  }

  /** Every flow booked, and those in flight for a read that sees what was written before `sinceMs`. */
  flows(sinceMs: number): CashFlows {
    const row = flowsSchema.parse(this.flowsQuery.get({ since: checkTimeMs('cash.sinceMs', sinceMs) }));
    return { totalRaw: row.total, inFlight: { inRaw: row.in_raw, outRaw: row.out_raw, count: row.n } };
  }

  /** The USDC redeemed through the API (not by an on-chain transaction of the capital core) at or after `sinceMs` (raw). */
  apiRedeemedSince(sinceMs: number): number {
    return sumSchema.parse(this.redeemedQuery.get(checkTimeMs('cash.sinceMs', sinceMs))).total;
  }
}
