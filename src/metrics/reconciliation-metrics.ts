/**
 * The metrics of the venue's PAID rewards and rebates and of the estimate's error against them
 * (src/rewards/venue-rewards.ts books the payouts; src/ledger/reconcile-rewards.ts reconciles): per market ('*': the
 * account's total) and kind (rewards, rebates), the total paid over the reconciled epochs, the estimate's error
 * (estimate − paid) in USDC and as a ratio of the paid; and the epoch-list elements the bot could not read.
 *
 * Owns: these metrics' names, help and labels. Invariants: labels are bounded (markets through the caller's bounded
 * label, kinds the two known); a ratio whose paid is 0 is removed rather than set to an infinity; a non-finite figure
 * is dropped and counted by the caller's `finite`.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

export const RECONCILED_KINDS = ['rewards', 'rebates'] as const;
export type ReconciledKind = (typeof RECONCILED_KINDS)[number];

export interface ReconciliationMetrics {
  /** A market's reconciliation over every paid epoch: raw USDC estimated and paid (null: the venue does not say). */
  rewardReconciled(market: string, kind: ReconciledKind, estimateRaw: number, paidRaw: number | null): void;
  /** Elements of the venue's epoch lists that could not be read (src/exchange/wire-reward-epochs.ts). */
  venueEpochsUnreadable(count: number): void;
}

export function createReconciliationMetrics(
  registers: Registry[],
  label: (market: string) => string,
  finite: (metric: string, value: number) => boolean,
): ReconciliationMetrics {
  const labelNames = ['market', 'kind'] as const;
  const paid = new Gauge({ name: 'outcome_maker_venue_paid_usdc', help: 'Rewards or rebates the venue PAID over the reconciled epochs (market "*": the account total), USDC.', labelNames, registers });
  const error = new Gauge({ name: 'outcome_maker_reward_estimate_error_usdc', help: 'The estimate\'s error against what the venue paid for the same epochs (estimate − paid), USDC.', labelNames, registers });
  const ratio = new Gauge({ name: 'outcome_maker_reward_estimate_error_ratio', help: 'The estimate\'s error as a fraction of what the venue paid for the same epochs ((estimate − paid) / paid).', labelNames, registers });
  const unreadable = new Counter({ name: 'outcome_maker_venue_reward_epochs_unreadable_total', help: 'Elements of the venue\'s reward-epoch lists the bot could not read (no amount under any configured name).', registers });
  unreadable.inc(0);
  return {
    rewardReconciled(market, kind, estimateRaw, paidRaw) {
      const at = { market: label(market), kind };
      if (paidRaw === null) {
        for (const metric of [paid, error, ratio]) metric.remove(at);
        return;
      }
      if (!finite('outcome_maker_reward_estimate_error_usdc', estimateRaw - paidRaw)) return;
      paid.set(at, paidRaw / 1e6);
      error.set(at, (estimateRaw - paidRaw) / 1e6);
      if (paidRaw === 0) ratio.remove(at);
      else ratio.set(at, (estimateRaw - paidRaw) / paidRaw);
    },
    venueEpochsUnreadable(count) {
      if (Number.isSafeInteger(count) && count > 0) unreadable.inc(count);
    },
  };
}
