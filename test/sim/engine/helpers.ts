/**
 * Test helpers for the engine: a small deterministic world (manual clock, two markets, funded accounts)
 * and order builders that compute the exact signed amounts from ticks and shares.
 */
import { RAW_PER_UNIT, type Outcome, type Side, limitOrderAmounts, marketOrderAmounts } from '../../../src/core/venue-rules/index.js';
import {
  createEngine,
  generateMarkets,
  ManualClock,
  type AccountSpec,
  type EngineOptions,
  type MarketSpec,
  type OrderEventFrame,
  type OrderType,
  type PlaceInput,
  type PlaceOutcome,
  type SimEngine,
  type StpPolicy,
} from '../../../src/sim/engine/index.js';

export const USDC = RAW_PER_UNIT;
export const SHARE = RAW_PER_UNIT;
export const T0 = Date.UTC(2026, 0, 1);

export const ALICE = 1;
export const BOB = 2;
export const CAROL = 3;

export function account(profileId: number, usdc = 1000, extra: Partial<AccountSpec> = {}): AccountSpec {
  const hex = profileId.toString(16).padStart(40, '0');
  return { profileId, address: `0x${hex}`, usdcRaw: usdc * USDC, ...extra };
}

export interface World {
  readonly clock: ManualClock;
  readonly engine: SimEngine;
  readonly markets: readonly MarketSpec[];
  /** First (non-group) market. */
  readonly m: MarketSpec;
  readonly frames: { profileId: number; frame: OrderEventFrame }[];
}

export function world(overrides: Partial<EngineOptions> = {}, marketCount = 4): World {
  const clock = new ManualClock(T0);
  const markets = overrides.markets ?? generateMarkets(marketCount, 7, T0);
  const engine = createEngine({
    seed: 42,
    clock,
    settlementDelayMs: 2000,
    payoutDelayMs: 5000,
    markets,
    accounts: [account(ALICE), account(BOB), account(CAROL)],
    ...overrides,
  });
  const frames: { profileId: number; frame: OrderEventFrame }[] = [];
  engine.on({ orderEvent: (profileId, frame) => frames.push({ profileId, frame }) });
  const m = markets[0];
  if (!m) throw new Error('no market');
  return { clock, engine, markets, m, frames };
}

export interface OrderOpts {
  readonly type?: OrderType;
  readonly postOnly?: boolean;
  readonly clientOrderId?: string;
  readonly stp?: StpPolicy;
  readonly feeRateBps?: number;
}

/** A limit order (GTC unless told) of `shares` at `ticks` of the outcome's own token. */
export function limit(
  market: MarketSpec,
  profileId: number,
  outcome: Outcome,
  side: Side,
  ticks: number,
  shares: number,
  opts: OrderOpts = {},
): PlaceInput {
  const sizeRaw = Math.round(shares * SHARE);
  const amounts = limitOrderAmounts(side, ticks, sizeRaw);
  return {
    profileId,
    marketSlug: market.slug,
    orderType: opts.type ?? 'GTC',
    tokenId: outcome === 'YES' ? market.yesTokenId : market.noTokenId,
    side,
    makerAmount: amounts.makerAmount,
    takerAmount: amounts.takerAmount,
    priceTicks: ticks,
    feeRateBps: opts.feeRateBps ?? 300,
    salt: 1,
    postOnly: opts.postOnly ?? false,
    ...(opts.clientOrderId !== undefined ? { clientOrderId: opts.clientOrderId } : {}),
    stpPolicy: opts.stp ?? 'cancel_maker',
    signature: '0xsig',
    signedOrderEcho: { salt: 1 },
  };
}

/** A FOK (market) order: BUY spends `amountRaw` collateral, SELL sells `amountRaw` shares. */
export function fok(market: MarketSpec, profileId: number, outcome: Outcome, side: Side, amountRaw: number, opts: OrderOpts = {}): PlaceInput {
  const amounts = marketOrderAmounts(amountRaw);
  return {
    ...limit(market, profileId, outcome, side, 500, 1, opts),
    orderType: 'FOK',
    makerAmount: amounts.makerAmount,
    takerAmount: amounts.takerAmount,
    priceTicks: null,
  };
}

export function ok(outcome: PlaceOutcome): Extract<PlaceOutcome, { ok: true }> {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.status} ${JSON.stringify(outcome.body)}`);
  return outcome;
}

export function usdc(engine: SimEngine, profileId: number): { total: number; locked: number } {
  const b = engine.balances(profileId);
  if (!b) throw new Error(`no account ${profileId}`);
  return { total: b.usdc.totalRaw, locked: b.usdc.lockedRaw };
}

export function tokens(engine: SimEngine, profileId: number, tokenId: string): { total: number; locked: number } {
  const b = engine.balances(profileId)?.tokens[tokenId];
  return { total: b?.totalRaw ?? 0, locked: b?.lockedRaw ?? 0 };
}

export function expectSound(engine: SimEngine): void {
  const problems = engine.checkInvariants();
  if (problems.length > 0) throw new Error(`invariants violated:\n${problems.join('\n')}`);
}
