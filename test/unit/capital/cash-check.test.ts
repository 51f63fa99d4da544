/**
 * The wallet's USDC against the ledger's cash account (src/capital/cash-check.ts, src/ledger/cash-repo.ts): the pure
 * verdicts, the ledger's flows (what is cash and what is in flight), and the check through the capital core's public
 * entry over a real in-memory ledger: anchored on the first settled read, a fill between two reads never a difference,
 * a USDC transfer behind the bot's back suspected once, then logged with both figures (raw and formatted), counted and
 * repaired (the chain's figure adopted) with nothing booked, then agreeing.
 */
import { describe, expect, it } from 'vitest';
import { cashAnchorOf, checkUsdc, ChainUsdcCheck, KV_CASH_ANCHOR, type UsdcVerdictKind } from '../../../src/capital/cash-check.js';
import { CapitalCore } from '../../../src/capital/core.js';
import type { CapitalBalances, CapitalPort, CapitalTxOutcome } from '../../../src/capital/port.js';
import { ManualClock } from '../../../src/core/clock.js';
import { openLedger, VENUE_TOTAL_MARKET } from '../../../src/ledger/index.js';
import { fillInput } from '../../support/ledger-fixtures.js';

const USDC = 1_000_000;
const TOL = 10_000;
const settledFlows = (totalRaw: number) => ({ totalRaw, inFlight: { inRaw: 0, outRaw: 0, count: 0 } });

describe('checkUsdc (pure)', () => {
  const anchor = { usdcRaw: 1000 * USDC, cashRaw: 0, atMs: 1 };
  const verdict = (chain: number, flows: Parameters<typeof checkUsdc>[0]['flows'], pendingRaw: number | null = null, a: typeof anchor | null = anchor) =>
    checkUsdc({ chainUsdcRaw: chain, atMs: 5, flows, anchor: a, pendingRaw, toleranceRaw: TOL });

  it('anchors on the first settled read, waits while flows are in flight', () => {
    expect(verdict(700 * USDC, settledFlows(-3 * USDC), null, null)).toEqual({ kind: 'anchored', anchor: { usdcRaw: 700 * USDC, cashRaw: -3 * USDC, atMs: 5 } });
    expect(verdict(700 * USDC, { totalRaw: 0, inFlight: { inRaw: 0, outRaw: 5, count: 1 } }, null, null).kind).toBe('waiting');
  });

  it('within the tolerance: agrees, and re-anchors only when nothing is in flight', () => {
    expect(verdict(995 * USDC + TOL, settledFlows(-5 * USDC))).toEqual({ kind: 'agrees', expectedRaw: 995 * USDC, differenceRaw: TOL, anchor: { usdcRaw: 995 * USDC + TOL, cashRaw: -5 * USDC, atMs: 5 } });
    expect(verdict(995 * USDC, { totalRaw: -5 * USDC, inFlight: { inRaw: 0, outRaw: 5 * USDC, count: 1 } })).toMatchObject({ kind: 'agrees', anchor: null });
  });

  it('flows in flight explain a difference (either way), else it is unsettled; neither is a difference', () => {
    // A BUY of 5 USDC booked, not on the chain yet: the chain still shows 1000.
    const buying = { totalRaw: -5 * USDC, inFlight: { inRaw: 0, outRaw: 5 * USDC, count: 1 } };
    expect(verdict(1000 * USDC, buying)).toMatchObject({ kind: 'in-flight', expectedRaw: 995 * USDC, differenceRaw: 5 * USDC });
    // A redemption of 8 booked, not credited yet.
    const redeeming = { totalRaw: 8 * USDC, inFlight: { inRaw: 8 * USDC, outRaw: 0, count: 1 } };
    expect(verdict(1000 * USDC, redeeming).kind).toBe('in-flight');
    expect(verdict(990 * USDC, buying)).toMatchObject({ kind: 'unsettled', differenceRaw: -5 * USDC });
  });

  it('settled: suspect the first time, a difference when the next settled check sees the same (within the tolerance)', () => {
    expect(verdict(993 * USDC, settledFlows(0))).toMatchObject({ kind: 'suspect', differenceRaw: -7 * USDC });
    expect(verdict(993 * USDC, settledFlows(0), -7 * USDC + TOL)).toEqual({ kind: 'difference', expectedRaw: 1000 * USDC, differenceRaw: -7 * USDC, anchor: { usdcRaw: 993 * USDC, cashRaw: 0, atMs: 5 } });
    // A different difference the second time is a new sighting, not a confirmation.
    expect(verdict(990 * USDC, settledFlows(0), -7 * USDC).kind).toBe('suspect');
  });

  it('cashAnchorOf: only a whole anchor', () => {
    expect(cashAnchorOf('{"usdcRaw":1,"cashRaw":-2,"atMs":3}')).toEqual({ usdcRaw: 1, cashRaw: -2, atMs: 3 });
    expect(cashAnchorOf('{"usdcRaw":1.5,"cashRaw":0,"atMs":3}')).toBeNull();
    expect(cashAnchorOf('nope')).toBeNull();
    expect(cashAnchorOf(null)).toBeNull();
  });
});

describe('the ledger\'s cash flows', () => {
  it('fills (a BUY pays its collateral, a SELL receives it less its fee), redemptions, paid rewards; failed fills and adjustments are no cash', () => {
    let now = 1_000_000;
    const ledger = openLedger({ path: ':memory:', now: () => now });
    ledger.recordFill(fillInput({ tradeEventId: 'b', side: 'BUY', priceTicks: 400, sizeRaw: 10 * USDC }));
    ledger.recordFill(fillInput({ tradeEventId: 's', side: 'SELL', priceTicks: 600, sizeRaw: 5 * USDC, feeRaw: 30_000, role: 'taker' }));
    ledger.recordFill(fillInput({ tradeEventId: 'f', side: 'BUY', priceTicks: 500, sizeRaw: 2 * USDC, state: 'failed' }));
    ledger.applyAdjustment({ tradeEventId: 'adj', marketSlug: 'btc-100k', token: 'YES', tokenId: '111', deltaRaw: -USDC, priceMicros: 400_000, atMs: now, reason: 'test' });
    ledger.recordRedemption('old-market', 4 * USDC, { atMs: now });
    ledger.payouts.recordPayout({ marketSlug: VENUE_TOTAL_MARKET, epochEndMs: 60_000, epochStartMs: 0, rewardsRaw: 300_000, rebatesRaw: 20_000, paidAtMs: 60_000, source: 'test' });
    // A market row of an epoch the account's total covers is not counted again; one without a total is.
    ledger.payouts.recordPayout({ marketSlug: 'btc-100k', epochEndMs: 60_000, epochStartMs: 0, rewardsRaw: 300_000, rebatesRaw: 0, paidAtMs: 60_000, source: 'test' });
    ledger.payouts.recordPayout({ marketSlug: 'btc-100k', epochEndMs: 120_000, epochStartMs: 60_000, rewardsRaw: 100_000, rebatesRaw: null, paidAtMs: 120_000, source: 'test' });
    const total = -4 * USDC + (3 * USDC - 30_000) + 4 * USDC + 320_000 + 100_000;
    now += 60_000;
    expect(ledger.cash.flows(now - 30_000)).toEqual({ totalRaw: total, inFlight: { inRaw: 0, outRaw: 0, count: 0 } });
    // Written at or after the window's start, or matched and not mined: in flight.
    expect(ledger.cash.flows(1_000_000).inFlight).toEqual({ inRaw: 3 * USDC - 30_000 + 4 * USDC + 420_000, outRaw: 4 * USDC, count: 5 });
    ledger.recordFill(fillInput({ tradeEventId: 'p', side: 'BUY', priceTicks: 250, sizeRaw: 4 * USDC, state: 'provisional' }));
    expect(ledger.cash.flows(now + 1)).toEqual({ totalRaw: total - USDC, inFlight: { inRaw: 0, outRaw: USDC, count: 1 } });
    expect(ledger.cash.apiRedeemedSince(now - 60_000)).toBe(4 * USDC);
    expect(ledger.cash.apiRedeemedSince(now)).toBe(0);
    ledger.close();
  });
});

/** A chain that answers balances only; its USDC is set by the test. */
class Wallet implements CapitalPort {
  readonly kind = 'chain' as const;
  usdcRaw = 1000 * USDC;
  submit(): Promise<CapitalTxOutcome> {
    return Promise.reject(new Error('nothing should be sent'));
  }
  recover(): Promise<'unknown'> {
    return Promise.resolve('unknown');
  }
  balances(ids: readonly string[]): Promise<CapitalBalances> {
    return Promise.resolve({ tokens: new Map(ids.map((id) => [id, 0])), usdcRaw: this.usdcRaw });
  }
}

describe('the chain check holds the wallet\'s USDC against the ledger (through the capital core)', () => {
  it('anchors, lets a fill in flight pass, reports a transfer behind its back once with both figures, adopts the chain\'s figure, books nothing', async () => {
    const clock = new ManualClock(10_000_000);
    const ledger = openLedger({ path: ':memory:', now: () => clock.now() });
    const wallet = new Wallet();
    const warnings: { obj: Record<string, unknown>; msg: string }[] = [];
    const verdicts: UsdcVerdictKind[] = [];
    const log = { info: () => undefined, debug: () => undefined, error: () => undefined, warn: (obj: object, msg: string): void => void warnings.push({ obj: obj as Record<string, unknown>, msg }) };
    const core = new CapitalCore({
      port: wallet,
      book: ledger,
      markets: () => [],
      scheduler: clock,
      log,
      settings: { merge: { enabled: true, minSetsRaw: 5 * USDC, minTimeToSettleMs: 0 }, intervalMs: 5_000, checkEveryMs: 60_000, retry: { initialMs: 1_000, maxMs: 8_000 }, ethPriceUsdcRaw: 3_000 * USDC },
      usdcCheck: new ChainUsdcCheck({ ledger, settings: { toleranceRaw: TOL, inFlightMs: 30_000 }, log, onVerdict: (v) => verdicts.push(v.kind) }),
    });
    const check = async (): Promise<void> => {
      clock.advance(60_000);
      await core.tick();
    };
    await core.tick();
    expect(cashAnchorOf(ledger.getKv(KV_CASH_ANCHOR))).toEqual({ usdcRaw: 1000 * USDC, cashRaw: 0, atMs: 10_000_000 });

    // A BUY of 10 at 0.40 matched (provisional) just before the read; the chain does not show it yet.
    ledger.recordFill(fillInput({ tradeEventId: 'b1', side: 'BUY', priceTicks: 400, sizeRaw: 10 * USDC, state: 'provisional' }));
    await check();
    // Mined; the chain shows it; the read 60 s later is settled and agrees.
    ledger.recordFill(fillInput({ tradeEventId: 'b1', side: 'BUY', priceTicks: 400, sizeRaw: 10 * USDC, state: 'mined' }));
    wallet.usdcRaw -= 4 * USDC;
    await check();
    expect(verdicts).toEqual(['anchored', 'in-flight', 'agrees']);

    // 7 USDC leave the wallet behind the bot's back (a transfer out); the ledger booked nothing.
    const pnlBefore = ledger.pnl().totals;
    wallet.usdcRaw -= 7 * USDC;
    await check();
    expect(verdicts.at(-1)).toBe('suspect');
    expect(warnings).toEqual([]);
    await check();
    expect(verdicts.at(-1)).toBe('difference');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.obj).toMatchObject({ chainUsdcRaw: 989 * USDC, ledgerUsdcRaw: 996 * USDC, differenceRaw: -7 * USDC, chainUsdc: '989', ledgerUsdc: '996', differenceUsdc: '-7' });
    expect(warnings[0]!.msg).toMatch(/the wallet's USDC on the chain \(989 USDC\) differs from the ledger's cash account \(996 USDC\) by -7 USDC on two checks: the chain's figure adopted, nothing booked/);
    expect(cashAnchorOf(ledger.getKv(KV_CASH_ANCHOR))).toMatchObject({ usdcRaw: 989 * USDC, cashRaw: -4 * USDC });
    expect(ledger.pnl().totals).toEqual(pnlBefore);
    // Repaired: the next checks agree, nothing counted again.
    await check();
    await check();
    expect(verdicts.slice(-2)).toEqual(['agrees', 'agrees']);
    expect(warnings).toHaveLength(1);
    ledger.close();
  });
});
