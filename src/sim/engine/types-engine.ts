/**
 * Engine types, part 5 (see types.ts): the `SimEngine` interface, the engine's whole public surface.
 */
import type { BatchCancelOutcome, CancelOutcome, DepositInput, DepositOutcome, EngineFailure, FairValueOutcome, ListStrikeMarketInput, ListStrikeMarketOutcome, MergeOutcome, PlaceInput, SplitOutcome, PlaceOutcome, RedeemOutcome, ResolveInput, ResolveOutcome } from './types-commands.js';
import type { EngineListener, EngineStats } from './types-frames.js';
import type { AccountFill, Balances, CapitalAction, BookSnapshot, MarketTrade, OrderStatus, PositionSummary, SimAccount, SimGroup, SimMarket, SimOrder, UserOrder } from './types-views.js';
import type { AccountSpec } from './types-specs.js';
import type { UnderlyingWorld } from './underlying.js';
import type { AccountRewards, RewardSchedule } from './types-rewards.js';

// ───────────────────────────── the engine ─────────────────────────────

export interface SimEngine {
  /** The crypto world's underlyings (true and published prices); null in the generic world. */
  underlying(): UnderlyingWorld | null;
  markets(): readonly SimMarket[];
  market(slug: string): SimMarket | undefined;
  marketById(id: number): SimMarket | undefined;
  marketByConditionId(conditionId: string): SimMarket | undefined;
  groups(): readonly SimGroup[];
  group(slug: string): SimGroup | undefined;

  accounts(): readonly SimAccount[];
  account(profileId: number): SimAccount | undefined;
  /** Case-insensitive. */
  accountByAddress(address: string): SimAccount | undefined;
  /** Add an account at run time (admin). Fails on a duplicate profile id or address. */
  addAccount(spec: AccountSpec): { readonly ok: true; readonly account: SimAccount } | EngineFailure;
  /** Credit USDC and/or tokens (admin). Tokens granted without their complement break pair balance on purpose only in tests. */
  deposit(profileId: number, input: DepositInput): DepositOutcome;
  balances(profileId: number): Balances | undefined;

  /** YES book with NO orders folded in; undefined for an unknown slug. */
  book(slug: string): BookSnapshot | undefined;
  lastTradeTicks(slug: string): number | null;

  place(input: PlaceInput): PlaceOutcome;
  cancel(profileId: number, orderId: string): CancelOutcome;
  /** All ids must belong to one market. */
  cancelBatch(profileId: number, orderIds: readonly string[]): BatchCancelOutcome;
  cancelAll(profileId: number, slug: string): BatchCancelOutcome;

  /** The account's orders in one market with one of `statuses`, newest first, at most `limit`. */
  orders(profileId: number, slug: string, statuses: readonly OrderStatus[], limit?: number): SimOrder[];
  orderById(id: string): SimOrder | undefined;
  orderByClientOrderId(profileId: number, clientOrderId: string): SimOrder | undefined;
  userOrder(order: SimOrder): UserOrder;

  /** MINED trades of these markets, newest first. */
  trades(slugs: readonly string[]): MarketTrade[];
  /** Every fill of the account (both roles), newest first. */
  accountTrades(profileId: number): AccountFill[];
  /** The account's fills of one order in one trade event, newest first (what accountTrades filtered would give). */
  accountTradesOf(profileId: number, tradeEventId: string, orderId: string): AccountFill[];
  positions(profileId: number): PositionSummary[];

  /** Lists a crypto strike market at run time (admin; crypto world only): 400 naming the field, 409 a slug taken. */
  listStrikeMarket(input: ListStrikeMarketInput): ListStrikeMarketOutcome;
  resolve(slug: string, input: ResolveInput): ResolveOutcome;
  payoutPosted(slug: string): boolean;
  redeem(profileId: number, conditionId: string): RedeemOutcome;
  /** On-chain `redeemPositions` (any wallet kind; src/sim/engine/capital.ts). */
  redeemOnChain(profileId: number, conditionId: string): RedeemOutcome;
  /** On-chain `mergePositions`: one free YES and one free NO per set for 1 USDC. */
  mergeSets(profileId: number, conditionId: string, amountRaw: number): MergeOutcome;
  /** On-chain `splitPosition`: free USDC into one YES and one NO per USDC, before resolution. */
  splitSets(profileId: number, conditionId: string, amountRaw: number): SplitOutcome;
  /** The account's claims, merges and splits, oldest first (GET /portfolio/history lists them beside its trades). */
  capitalActions(profileId: number): readonly CapitalAction[];

  fairValueTicks(slug: string): number | null;
  setFairValue(slug: string, ticks: number): FairValueOutcome;
  /** One round of synthetic flow (no-op when synthetic is off). */
  syntheticStep(): void;

  /** What the account earned in liquidity rewards and maker rebates: the open epoch and the paid ones (rewards.ts). */
  rewards(profileId: number): AccountRewards;
  rewardSchedule(): RewardSchedule;
  /** One scoring round now / one payout now (tests, admin); the timers run them on their cycle anyway. */
  scoreRewards(): void;
  payRewards(): void;

  on(listener: EngineListener): () => void;
  stats(): EngineStats;
  /** Violated invariants (empty when sound): balances, locks, pairs, collateral, crossed books. O(state). */
  checkInvariants(): string[];
  /** Cancel every timer the engine scheduled. Idempotent. */
  stop(): void;
}
