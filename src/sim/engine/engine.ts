/**
 * The simulator engine: markets, accounts, matching, settlement, lifecycle and synthetic flow, in memory
 * and deterministic for a seed and a clock. This module is the facade: it builds the engine (markets, the crypto
 * world, accounts, synthetic traders, in that order) and implements `SimEngine` by delegating each command to its
 * module over the shared core (core.ts): place.ts, cancel.ts, settle.ts (via execute.ts), resolve.ts,
 * lifecycle.ts, listing.ts, accounts.ts, reads.ts, fair-value.ts, invariants.ts.
 *
 * Every command validates first and then commits (a failure changes nothing); listener notifications are
 * queued during a command and delivered after it, when the state is consistent again (a listener may call
 * back into the engine). Taker fees (fees.ts: the venue's curve or a flat rate) are charged in USDC on top of a BUY and
 * out of the proceeds of a SELL; makers pay none. Rewards and rebates accrue and are paid on their cycle (rewards.ts). Balances move at match time; MINED (after settlementDelayMs) only publishes the trade.
 *
 * Invariants (see checkInvariants): no negative or over-locked balance; locks equal what resting orders
 * need; no crossed book at rest; Σ USDC + fees + Σ pair collateral is constant apart from deposits; per
 * market YES and NO supplies differ only by grants and redemption burns.
 */
import { getAddress } from 'viem';
import * as accounts from './accounts.js';
import * as capital from './capital.js';
import * as cancels from './cancel.js';
import { EngineCore } from './core.js';
import { cryptoMarketSet } from './crypto-markets.js';
import { EngineConfigError } from './errors.js';
import * as fairValue from './fair-value.js';
import { checkInvariants } from './invariants.js';
import { addMarket } from './lifecycle.js';
import { listStrikeMarket } from './listing.js';
import { place } from './place.js';
import { Prng } from './prng.js';
import * as reads from './reads.js';
import * as resolution from './resolve.js';
import { SyntheticTraders } from './synthetic.js';
import { resolveSynthetic } from './synthetic-config.js';
import { UnderlyingWorld } from './underlying.js';
import { toUserOrder } from './wire.js';
import type {
  AccountFill,
  AccountRewards,
  RewardSchedule,
  AccountSpec,
  Balances,
  BatchCancelOutcome,
  BookSnapshot,
  CancelOutcome,
  DepositInput,
  DepositOutcome,
  EngineFailure,
  EngineListener,
  EngineOptions,
  EngineStats,
  FairValueOutcome,
  ListStrikeMarketInput,
  ListStrikeMarketOutcome,
  MarketTrade,
  OrderStatus,
  PlaceInput,
  PlaceOutcome,
  PositionSummary,
  RedeemOutcome,
  MergeOutcome,
  SplitOutcome,
  CapitalAction,
  ResolveInput,
  ResolveOutcome,
  SimAccount,
  SimEngine,
  SimGroup,
  SimMarket,
  SimOrder,
  UserOrder,
} from './types.js';

export function createEngine(options: EngineOptions): SimEngine {
  return new Engine(options);
}

class Engine implements SimEngine {
  private readonly core: EngineCore;
  private readonly synthetic: SyntheticTraders | null;

  constructor(options: EngineOptions) {
    const core = new EngineCore(options);
    this.core = core;
    options.markets.forEach((spec, i) => addMarket(core, spec, `markets[${i}]`));
    if (options.world) {
      try {
        core.world = new UnderlyingWorld(options.world.underlying, new Prng(options.seed ^ 0x5e_7d1e), core.clock.now());
      } catch (error) {
        throw new EngineConfigError('world.underlying', options.world.underlying, error instanceof Error ? error.message : String(error));
      }
      const world = core.world;
      cryptoMarketSet(world, core.clock.now(), options.world.markets, core.worldIds).forEach((spec, i) => addMarket(core, spec, `world.markets[${i}]`));
    }
    options.accounts.forEach((spec, i) => {
      const result = accounts.createAccount(core, spec, false);
      if (typeof result === 'string') throw new EngineConfigError(`accounts[${i}]`, spec.profileId, result);
    });

    if (options.synthetic) {
      const config = resolveSynthetic(options.synthetic);
      for (const slug of config.markets ?? []) {
        if (!core.marketsBySlug.has(slug)) throw new EngineConfigError('synthetic.markets', slug, 'unknown market slug');
      }
      const addressRng = new Prng(options.seed ^ 0x51a7_1c);
      const ids = [config.profileIdBase, config.profileIdBase + 1, config.profileIdBase + 2];
      for (const profileId of ids) {
        const result = accounts.createAccount(
          core,
          // On the venue's fee curve the synthetic takers pay fees too (the makers' rebates come from them).
          { profileId, address: getAddress(`0x${addressRng.hex(20)}`), usdcRaw: config.usdcPerAccountRaw, feeRateBps: core.fees.model === 'curve' ? accounts.DEFAULT_FEE_RATE_BPS : 0 },
          true,
        );
        if (typeof result === 'string') throw new EngineConfigError('synthetic.profileIdBase', profileId, result);
      }
      this.synthetic = new SyntheticTraders(
        config,
        new Prng(options.seed ^ 0x7a3d_9e11),
        {
          now: () => core.clock.now(),
          world: () => core.world,
          markets: () => (config.markets ?? [...core.marketsBySlug.keys()]).flatMap((slug) => {
            const m = core.marketsBySlug.get(slug);
            return m ? [m] : [];
          }),
          account: (profileId) => core.accountsById.get(profileId),
          place: (input) => this.place(input),
          cancel: (profileId, orderId) => this.cancel(profileId, orderId),
          band: core.band,
          isLive: (orderId) => core.ordersById.get(orderId)?.status === 'LIVE',
        },
        { maker: ids[0] ?? 0, noise: ids[1] ?? 0, informed: ids[2] ?? 0 },
        core.observer,
      );
      if (config.autoStep) this.scheduleSynthetic(config.stepMs);
    } else {
      this.synthetic = null;
    }
    core.rewards.start();
  }

  private scheduleSynthetic(stepMs: number): void {
    this.core.schedule(stepMs, () => {
      this.syntheticStep();
      this.scheduleSynthetic(stepMs);
    });
  }

  underlying(): UnderlyingWorld | null {
    return this.core.world;
  }

  // ───────────────────────── reads ─────────────────────────

  markets(): readonly SimMarket[] {
    return reads.markets(this.core);
  }

  market(slug: string): SimMarket | undefined {
    return reads.market(this.core, slug);
  }

  marketById(id: number): SimMarket | undefined {
    return reads.marketById(this.core, id);
  }

  marketByConditionId(conditionId: string): SimMarket | undefined {
    return reads.marketByConditionId(this.core, conditionId);
  }

  groups(): readonly SimGroup[] {
    return reads.groups(this.core);
  }

  group(slug: string): SimGroup | undefined {
    return reads.group(this.core, slug);
  }

  accounts(): readonly SimAccount[] {
    return reads.accounts(this.core);
  }

  account(profileId: number): SimAccount | undefined {
    return reads.account(this.core, profileId);
  }

  accountByAddress(address: string): SimAccount | undefined {
    return reads.accountByAddress(this.core, address);
  }

  balances(profileId: number): Balances | undefined {
    return reads.balances(this.core, profileId);
  }

  book(slug: string): BookSnapshot | undefined {
    return reads.book(this.core, slug);
  }

  lastTradeTicks(slug: string): number | null {
    return reads.lastTradeTicks(this.core, slug);
  }

  orders(profileId: number, slug: string, statuses: readonly OrderStatus[], limit?: number): SimOrder[] {
    return reads.orders(this.core, profileId, slug, statuses, limit);
  }

  orderById(id: string): SimOrder | undefined {
    return reads.orderById(this.core, id);
  }

  orderByClientOrderId(profileId: number, clientOrderId: string): SimOrder | undefined {
    return reads.orderByClientOrderId(this.core, profileId, clientOrderId);
  }

  userOrder(order: SimOrder): UserOrder {
    return toUserOrder(order);
  }

  trades(slugs: readonly string[]): MarketTrade[] {
    return reads.trades(this.core, slugs);
  }

  accountTrades(profileId: number): AccountFill[] {
    return reads.accountTrades(this.core, profileId);
  }

  accountTradesOf(profileId: number, tradeEventId: string, orderId: string): AccountFill[] {
    return reads.accountTradesOf(this.core, profileId, tradeEventId, orderId);
  }

  positions(profileId: number): PositionSummary[] {
    return reads.positions(this.core, profileId);
  }

  stats(): EngineStats {
    return reads.stats(this.core);
  }

  rewards(profileId: number): AccountRewards {
    return this.core.rewards.view(profileId);
  }

  rewardSchedule(): RewardSchedule {
    const r = this.core.rewards;
    return { enabled: r.enabled, scoreIntervalMs: r.scoreIntervalMs, payoutIntervalMs: r.payoutIntervalMs, payoutAtUtcMs: r.payoutAtUtcMs, feeModel: this.core.fees.model };
  }

  scoreRewards(): void {
    this.core.command(() => this.core.rewards.scoreRound());
  }

  payRewards(): void {
    this.core.command(() => this.core.rewards.payout());
  }

  on(listener: EngineListener): () => void {
    return this.core.on(listener);
  }

  stop(): void {
    this.core.stop();
  }

  // ───────────────────────── accounts ─────────────────────────

  addAccount(spec: AccountSpec): { readonly ok: true; readonly account: SimAccount } | EngineFailure {
    return accounts.addAccount(this.core, spec);
  }

  deposit(profileId: number, input: DepositInput): DepositOutcome {
    return accounts.deposit(this.core, profileId, input);
  }

  // ───────────────────────── commands ─────────────────────────

  place(input: PlaceInput): PlaceOutcome {
    return place(this.core, input);
  }

  cancel(profileId: number, orderId: string): CancelOutcome {
    return cancels.cancel(this.core, profileId, orderId);
  }

  cancelBatch(profileId: number, orderIds: readonly string[]): BatchCancelOutcome {
    return cancels.cancelBatch(this.core, profileId, orderIds);
  }

  cancelAll(profileId: number, slug: string): BatchCancelOutcome {
    return cancels.cancelAll(this.core, profileId, slug);
  }

  listStrikeMarket(input: ListStrikeMarketInput): ListStrikeMarketOutcome {
    return listStrikeMarket(this.core, input);
  }

  resolve(slug: string, input: ResolveInput): ResolveOutcome {
    return resolution.resolve(this.core, slug, input);
  }

  payoutPosted(slug: string): boolean {
    return resolution.payoutPosted(this.core, slug);
  }

  redeem(profileId: number, conditionId: string): RedeemOutcome {
    return resolution.redeem(this.core, profileId, conditionId);
  }

  redeemOnChain(profileId: number, conditionId: string): RedeemOutcome {
    return capital.redeemOnChain(this.core, profileId, conditionId);
  }

  mergeSets(profileId: number, conditionId: string, amountRaw: number): MergeOutcome {
    return capital.mergeSets(this.core, profileId, conditionId, amountRaw);
  }

  splitSets(profileId: number, conditionId: string, amountRaw: number): SplitOutcome {
    return capital.splitSets(this.core, profileId, conditionId, amountRaw);
  }

  capitalActions(profileId: number): readonly CapitalAction[] {
    return this.core.accountsById.get(profileId)?.capitalActions() ?? [];
  }

  // ───────────────────────── fair value and synthetic flow ─────────────────────────

  fairValueTicks(slug: string): number | null {
    return fairValue.fairValueTicks(this.core, slug);
  }

  setFairValue(slug: string, ticks: number): FairValueOutcome {
    return fairValue.setFairValue(this.core, slug, ticks);
  }

  syntheticStep(): void {
    this.core.world?.advanceTo(this.core.clock.now());
    if (this.synthetic) this.core.command(() => this.synthetic?.step());
  }

  checkInvariants(): string[] {
    return checkInvariants(this.core);
  }
}
