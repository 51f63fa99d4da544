/**
 * The `rewards` section: how the bot ESTIMATES what the venue pays makers beside trading PnL (docs/rewards.md) —
 * the per-minute reward accrual and the per-fill rebate accrual into the ledger, the slow read of the venue's own
 * figures, the fee curve the rebate estimate uses where a fill's report carries no taker fee, the rebate rate where
 * the market does not say, and the reward scheme's unconfirmed parts (exchange-facts §8).
 *
 * Invariants: every figure is validated here (a wrong one is a config error naming its path); the defaults are the
 * venue's documented scheme and fee guide.
 */
import { z } from 'zod';
import type { FeeCurve } from '../core/venue-rules/index.js';
import type { RewardRules } from '../strategy/contract.js';

export interface RewardsConfig {
  /** Accrue reward minutes and maker rebates into the ledger. */
  readonly accrual: boolean;
  /** How often the venue's own reward figures are read (lowest priority); 0: never. */
  readonly venuePollMs: number;
  /** The rebate rate of a market whose listing carries none (a fraction); null: no rebate estimate there. */
  readonly rebateRateFallback: number | null;
  readonly feeCurve: FeeCurve;
  readonly scoring: RewardRules;
}

const bps = z.number().min(0).max(10_000);

export const rewardsSchema = z
  .strictObject({
    accrual: z.boolean().default(true),
    venuePollSec: z.number().min(0).max(86_400).default(900),
    rebateRateFallback: z.number().min(0).max(1).nullable().default(null),
    feeCurve: z
      .strictObject({ buyMinBps: bps.default(40), buyMaxBps: bps.default(300), sellMinBps: bps.default(42), sellMaxBps: bps.default(150) })
      .prefault({})
      .superRefine((c, ctx) => {
        if (c.buyMaxBps < c.buyMinBps) ctx.addIssue({ code: 'custom', path: ['buyMaxBps'], message: 'must be at least buyMinBps', input: c.buyMaxBps });
        if (c.sellMaxBps < c.sellMinBps) ctx.addIssue({ code: 'custom', path: ['sellMaxBps'], message: 'must be at least sellMinBps', input: c.sellMaxBps });
      }),
    scoring: z
      .strictObject({
        exponent: z.number().gt(0).max(10).default(2),
        singleSidedMin: z.number().min(0).max(1).default(0.05),
        singleSidedMax: z.number().min(0).max(1).default(0.95),
      })
      .prefault({})
      .superRefine((r, ctx) => {
        if (r.singleSidedMax < r.singleSidedMin) ctx.addIssue({ code: 'custom', path: ['singleSidedMax'], message: 'must be at least singleSidedMin', input: r.singleSidedMax });
      }),
  })
  .prefault({});

export function toRewardsConfig(r: z.infer<typeof rewardsSchema>): RewardsConfig {
  return { accrual: r.accrual, venuePollMs: Math.round(r.venuePollSec * 1000), rebateRateFallback: r.rebateRateFallback, feeCurve: r.feeCurve, scoring: r.scoring };
}
