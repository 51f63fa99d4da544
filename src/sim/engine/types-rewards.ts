/**
 * Engine types, fees and rewards part (see types.ts): the options and views of taker fees (fees.ts), the reward
 * scorer's rules (reward-scoring.ts) and the reward book (rewards.ts). Imports nothing of the engine, so the modules
 * that implement them and the engine's other types files can all import it without a circle.
 *
 * Units: amounts raw integers (1e6 = one USDC), prices ticks, rates basis points.
 */

export type FeeModel = 'curve' | 'flat';

/** The curve's end points in basis points (the venue's documented ranges by default). */
export interface FeeCurve {
  readonly buyMinBps: number;
  readonly buyMaxBps: number;
  readonly sellMinBps: number;
  readonly sellMaxBps: number;
}

export interface FeeOptions {
  /** `curve` (the venue's dynamic fee, approximated) or `flat` (the signed feeRateBps on every fill). */
  readonly model?: FeeModel;
  readonly curve?: Partial<FeeCurve>;
}

export type RewardMidpoint = 'adjusted' | 'touch';

/** The unconfirmed parts of the reward scheme. */
export interface RewardRules {
  /** Lowest and highest midpoint (ticks) where a one-sided quote earns (documented 0.05–0.95). */
  readonly bandLowTicks: number;
  readonly bandHighTicks: number;
  /** Which midpoint distances are measured from. */
  readonly midpoint: RewardMidpoint;
}

export interface RewardOptions {
  /** Score and pay at all. Default: on in the crypto world (the venue's shape), off in the generic one. */
  readonly enabled?: boolean;
  /** Seconds between scoring rounds. Default 60 (the venue scores every minute). */
  readonly scoreIntervalSec?: number;
  /** Seconds between payouts. Default 86400 (the venue pays daily). */
  readonly payoutIntervalSec?: number;
  /** Seconds after 00:00 UTC the payouts fall on (plus whole intervals). Default 81000: 22:30 UTC, the venue's. */
  readonly payoutAtUtcSec?: number;
  /** The scheme's unconfirmed rules (band, midpoint). */
  readonly rules?: Partial<RewardRules>;
  /** Paid epochs kept per account. Default 60. */
  readonly epochsKept?: number;
}

/** Rewards and rebates of one market in one epoch, raw USDC. */
export interface MarketAccrual {
  rewardsRaw: number;
  rebatesRaw: number;
}

export interface RewardEpoch {
  /** Numbered from 1 in the order paid. */
  readonly epochId: number;
  readonly startMs: number;
  readonly endMs: number;
  /** When it was paid (the end of the epoch). */
  readonly paidAtMs: number;
  readonly rewardsRaw: number;
  readonly rebatesRaw: number;
  /** The epoch's pool: the rewards paid to every account, in total and per market. */
  readonly poolRaw: number;
  readonly poolByMarket: ReadonlyMap<string, number>;
  readonly byMarket: ReadonlyMap<string, Readonly<MarketAccrual>>;
}

/** What an account has earned: the open epoch and the paid ones (oldest first). */
export interface AccountRewards {
  readonly openEpochId: number;
  readonly openEpochStartMs: number;
  readonly open: ReadonlyMap<string, Readonly<MarketAccrual>>;
  readonly openRewardsRaw: number;
  readonly openRebatesRaw: number;
  readonly paid: readonly RewardEpoch[];
  readonly paidRewardsRaw: number;
  readonly paidRebatesRaw: number;
  /** Markets where the account's orders scored in the last round. */
  readonly earning: ReadonlySet<string>;
}

/** The reward and fee cycle in force. */
export interface RewardSchedule {
  readonly enabled: boolean;
  readonly scoreIntervalMs: number;
  readonly payoutIntervalMs: number;
  /** The time of day (ms after 00:00 UTC) the payout boundaries fall on (the venue: 22:30 UTC). */
  readonly payoutAtUtcMs: number;
  readonly feeModel: FeeModel;
}
