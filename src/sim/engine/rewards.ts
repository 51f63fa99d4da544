/**
 * Liquidity rewards and maker rebates: each scoring round (a minute by default) every rewardable market's resting
 * orders are scored (reward-scoring.ts) and the round's pool is accrued to the accounts pro rata; each taker fee of a
 * fill accrues `rebateRate` × that fee to the fill's maker; on each payout (daily by default, at whole multiples of
 * the interval since the epoch: 00:00 UTC) the accrued amounts are credited to the accounts' USDC and the epoch is
 * recorded. Paper runs shorten both intervals (`rewards.scoreIntervalSec`, `rewards.payoutIntervalSec`).
 *
 * Owns: the accruals (open epoch per account and market), the paid epochs (the last `epochsKept` per account) and the
 * last round's earning flag per account and market. Invariants: amounts are raw integers; a round never accrues more
 * than its pool; rewards paid enter the engine as new USDC (counted in `usdcInRaw`, like a deposit) and rebates paid
 * come out of the fees collected, so collateral stays conserved; a payout credits each account once per epoch.
 */
import { adjustedMidpoint } from '../../core/venue-rules/index.js';
import { EngineConfigError } from './errors.js';
import { credit } from './ledger.js';
import type { AccountState } from './ledger.js';
import { accountScores, DEFAULT_REWARD_RULES, priceToMidTicks, roundPoolRaw, splitPool, touchMidTicks } from './reward-scoring.js';
import type { MarketState } from './state.js';
import type { AccountRewards, MarketAccrual, RewardEpoch, RewardOptions, RewardRules } from './types-rewards.js';
import type { SimClock } from './types-options.js';

/** What the reward book needs of the engine's core (core.ts holds it; a narrow view keeps the modules out of a circle). */
export interface RewardHost {
  readonly clock: SimClock;
  readonly marketsBySlug: ReadonlyMap<string, MarketState>;
  readonly accountsById: ReadonlyMap<number, AccountState>;
  usdcInRaw: number;
  feesCollectedRaw: number;
  schedule(delayMs: number, fn: () => void): void;
  command<T>(fn: () => T): T;
}

interface AccountBook {
  open: Map<string, MarketAccrual>;
  paid: RewardEpoch[];
  paidRewardsRaw: number;
  paidRebatesRaw: number;
  earning: Set<string>;
}

interface Resolved {
  readonly enabled: boolean;
  readonly scoreMs: number;
  readonly payoutMs: number;
  readonly payoutAtMs: number;
  readonly rules: RewardRules;
  readonly epochsKept: number;
}

function seconds(field: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1 || value > 7 * 86_400) throw new EngineConfigError(`rewards.${field}`, value, 'must be an integer number of seconds in [1, 604800]');
  return value * 1000;
}

function resolveRewards(options: RewardOptions | undefined, enabledByDefault: boolean): Resolved {
  const rules = { ...DEFAULT_REWARD_RULES, ...options?.rules };
  if (!Number.isInteger(rules.bandLowTicks) || !Number.isInteger(rules.bandHighTicks) || rules.bandLowTicks < 0 || rules.bandHighTicks > 1000 || rules.bandLowTicks > rules.bandHighTicks) {
    throw new EngineConfigError('rewards.rules.bandLowTicks', [rules.bandLowTicks, rules.bandHighTicks], 'must be integer ticks with 0 <= bandLowTicks <= bandHighTicks <= 1000');
  }
  if (rules.midpoint !== 'adjusted' && rules.midpoint !== 'touch') throw new EngineConfigError('rewards.rules.midpoint', rules.midpoint, 'must be adjusted or touch');
  const epochsKept = options?.epochsKept ?? 60;
  if (!Number.isSafeInteger(epochsKept) || epochsKept < 1) throw new EngineConfigError('rewards.epochsKept', epochsKept, 'must be a positive integer');
  return {
    enabled: options?.enabled ?? enabledByDefault,
    scoreMs: seconds('scoreIntervalSec', options?.scoreIntervalSec ?? 60),
    payoutMs: seconds('payoutIntervalSec', options?.payoutIntervalSec ?? 86_400),
    payoutAtMs: payoutAtOf(options?.payoutAtUtcSec),
    rules,
    epochsKept,
  };
}

/** The venue pays LP rewards daily at 22:30 UTC (its user guide, "LP rewards"). */
export const DEFAULT_PAYOUT_AT_UTC_SEC = 22.5 * 3600;

function payoutAtOf(sec: number | undefined): number {
  const value = sec ?? DEFAULT_PAYOUT_AT_UTC_SEC;
  if (!Number.isSafeInteger(value) || value < 0 || value >= 86_400) throw new EngineConfigError('rewards.payoutAtUtcSec', value, 'must be whole seconds after 00:00 UTC, below 86400');
  return value * 1000;
}

/** The last boundary (`atMs` plus whole multiples of `intervalMs`) at or before `nowMs`. */
function lastBoundary(nowMs: number, intervalMs: number, atMs = 0): number {
  return Math.floor((nowMs - atMs) / intervalMs) * intervalMs + atMs;
}

/** The next boundary (`atMs` plus whole multiples of `intervalMs`) after `nowMs`. */
function nextBoundary(nowMs: number, intervalMs: number, atMs = 0): number {
  return lastBoundary(nowMs, intervalMs, atMs) + intervalMs;
}

export class RewardBook {
  private readonly config: Resolved;
  private readonly accounts = new Map<number, AccountBook>();
  private openEpochStartMs: number;
  /** Raw USDC paid so far: rewards and rebates. */
  paidRewardsRaw = 0;
  paidRebatesRaw = 0;
  rounds = 0;
  /** Epochs paid so far: the open epoch's id is the next. */
  private epochSeq = 0;

  constructor(
    private readonly core: RewardHost,
    options: RewardOptions | undefined,
    enabledByDefault: boolean,
  ) {
    this.config = resolveRewards(options, enabledByDefault);
    // Epochs are the venue's: whole cycles between payout boundaries, the first one too (begun before the start).
    this.openEpochStartMs = lastBoundary(core.clock.now(), this.config.payoutMs, this.config.payoutAtMs);
  }

  get enabled(): boolean {
    return this.config.enabled;
  }

  get scoreIntervalMs(): number {
    return this.config.scoreMs;
  }

  get payoutIntervalMs(): number {
    return this.config.payoutMs;
  }

  /** The time of day (ms after 00:00 UTC) the payout boundaries fall on. */
  get payoutAtUtcMs(): number {
    return this.config.payoutAtMs;
  }

  /** Starts the scoring and payout timers (once, from the engine's constructor). */
  start(): void {
    if (!this.config.enabled) return;
    // Each run gets the boundary it is due at; a timer that fires before it (a host timer may fire a millisecond
    // early) waits out the rest: nothing is scored or paid before its boundary.
    const loop = (intervalMs: number, atMs: number, run: (dueMs: number) => void): void => {
      const dueMs = nextBoundary(this.core.clock.now(), intervalMs, atMs);
      const fire = (): void => {
        const now = this.core.clock.now();
        if (now < dueMs) {
          this.core.schedule(dueMs - now, fire);
          return;
        }
        this.core.command(() => run(dueMs));
        loop(intervalMs, atMs, run);
      };
      this.core.schedule(dueMs - this.core.clock.now(), fire);
    };
    loop(this.config.scoreMs, 0, () => this.scoreRound());
    loop(this.config.payoutMs, this.config.payoutAtMs, (dueMs) => this.payout(dueMs));
  }

  private book(profileId: number): AccountBook {
    let book = this.accounts.get(profileId);
    if (!book) {
      book = { open: new Map(), paid: [], paidRewardsRaw: 0, paidRebatesRaw: 0, earning: new Set() };
      this.accounts.set(profileId, book);
    }
    return book;
  }

  private accrue(profileId: number, slug: string, rewardsRaw: number, rebatesRaw: number): void {
    const open = this.book(profileId).open;
    const entry = open.get(slug) ?? { rewardsRaw: 0, rebatesRaw: 0 };
    entry.rewardsRaw += rewardsRaw;
    entry.rebatesRaw += rebatesRaw;
    open.set(slug, entry);
  }

  /** The midpoint scores are measured from (ticks, a half tick possible); null when a side is empty. */
  private midTicks(market: MarketState): number | null {
    const book = market.book.snapshot();
    if (this.config.rules.midpoint === 'touch') return touchMidTicks(book.bids[0]?.priceTicks, book.asks[0]?.priceTicks);
    const mid = adjustedMidpoint(book, market.spec.settings.minSizeRaw);
    return mid === null ? null : priceToMidTicks(mid);
  }

  /** One scoring round over every rewardable, tradable market. */
  scoreRound(): void {
    this.rounds += 1;
    for (const book of this.accounts.values()) book.earning.clear();
    for (const market of this.core.marketsBySlug.values()) {
      const s = market.spec.settings;
      if (!market.spec.isRewardable || s.dailyRewardRaw <= 0 || !market.tradable || market.book.size === 0) continue;
      const mid = this.midTicks(market);
      if (mid === null) continue;
      const scores = accountScores(market.book.entries(), mid, { minSizeRaw: s.minSizeRaw, maxSpreadTicks: s.maxSpreadTicks, c: s.c }, this.config.rules);
      for (const profileId of scores.keys()) this.book(profileId).earning.add(market.spec.slug);
      for (const [profileId, amount] of splitPool(roundPoolRaw(s.dailyRewardRaw, this.config.scoreMs), scores)) {
        this.accrue(profileId, market.spec.slug, amount, 0);
      }
    }
  }

  /** A taker fee of `feeRaw` on a fill against `makerProfileId`'s order in `market`: the maker's rebate accrues. */
  onTakerFee(market: MarketState, makerProfileId: number, feeRaw: number): void {
    const rate = market.spec.settings.rebateRate ?? 0;
    if (!this.config.enabled || rate <= 0 || feeRaw <= 0) return;
    const rebate = Math.floor(feeRaw * rate);
    if (rebate > 0) this.accrue(makerProfileId, market.spec.slug, 0, rebate);
  }

  /** Pays every open accrual into the accounts' USDC and closes the epoch. */
  payout(dueMs?: number): void {
    const now = this.core.clock.now();
    // The epoch ends at the payout boundary it was due at, not when a late timer ran: its `timestamp` stays on the
    // venue's boundaries (a client judges an epoch paid from its start plus the epoch's length). A payout asked for by
    // hand (`payRewards`, no boundary) ends the epoch at once.
    const endMs = dueMs !== undefined && dueMs > this.openEpochStartMs ? dueMs : now;
    // The epoch's pool: the rewards paid to every account, per market and in total (the venue's `totalRewards`).
    const poolByMarket = new Map<string, number>();
    for (const book of this.accounts.values()) for (const [slug, entry] of book.open) poolByMarket.set(slug, (poolByMarket.get(slug) ?? 0) + entry.rewardsRaw);
    const poolRaw = [...poolByMarket.values()].reduce((a, b) => a + b, 0);
    this.epochSeq += 1;
    for (const [profileId, book] of this.accounts) {
      if (book.open.size === 0) continue;
      const account = this.core.accountsById.get(profileId);
      let rewardsRaw = 0;
      let rebatesRaw = 0;
      for (const entry of book.open.values()) {
        rewardsRaw += entry.rewardsRaw;
        rebatesRaw += entry.rebatesRaw;
      }
      if (account && rewardsRaw + rebatesRaw > 0) {
        credit(account.usdc, rewardsRaw + rebatesRaw, 'rewards payout');
        this.core.usdcInRaw += rewardsRaw;
        this.core.feesCollectedRaw -= rebatesRaw;
        this.paidRewardsRaw += rewardsRaw;
        this.paidRebatesRaw += rebatesRaw;
      }
      book.paid.push({ epochId: this.epochSeq, startMs: this.openEpochStartMs, endMs, paidAtMs: now, rewardsRaw, rebatesRaw, poolRaw, poolByMarket, byMarket: book.open });
      if (book.paid.length > this.config.epochsKept) book.paid.splice(0, book.paid.length - this.config.epochsKept);
      book.paidRewardsRaw += rewardsRaw;
      book.paidRebatesRaw += rebatesRaw;
      book.open = new Map();
    }
    this.openEpochStartMs = endMs;
  }

  /** What `profileId` has earned (an empty record for an account that never earned). */
  view(profileId: number): AccountRewards {
    const book = this.accounts.get(profileId);
    let openRewardsRaw = 0;
    let openRebatesRaw = 0;
    for (const entry of book?.open.values() ?? []) {
      openRewardsRaw += entry.rewardsRaw;
      openRebatesRaw += entry.rebatesRaw;
    }
    const copy = (m: ReadonlyMap<string, MarketAccrual>): Map<string, MarketAccrual> => new Map([...m].map(([slug, a]) => [slug, { ...a }]));
    return {
      openEpochId: this.epochSeq + 1,
      openEpochStartMs: this.openEpochStartMs,
      open: copy(book?.open ?? new Map()),
      openRewardsRaw,
      openRebatesRaw,
      paid: [...(book?.paid ?? [])],
      paidRewardsRaw: book?.paidRewardsRaw ?? 0,
      paidRebatesRaw: book?.paidRebatesRaw ?? 0,
      earning: new Set(book?.earning ?? []),
    };
  }
}
