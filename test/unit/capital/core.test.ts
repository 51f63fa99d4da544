/**
 * The capital core (src/capital/core.ts) through its public entry, over a real in-memory ledger (migration 7, the
 * store's recordMerge / recordOnChainRedemption) and a fake port that obeys the conditional tokens' rules: a merge
 * burns one YES and one NO per set for 1 USDC; a redemption burns the holding and pays the winners once posted.
 * Bad input through the port (a revert from a missing approval, a wrong RPC URL or chain id, too little gas) is a
 * WARN naming it, nothing booked, and the core goes on.
 */
import { describe, expect, it } from 'vitest';
import { CapitalCore, type CapitalResult } from '../../../src/capital/core.js';
import type { CapitalBalances, CapitalPort, CapitalTxJournal, CapitalTxOutcome, CapitalTxRequest, Hex } from '../../../src/capital/port.js';
import type { MarketCapitalState } from '../../../src/capital/rules.js';
import { sellLocks } from '../../../src/capital/locks.js';
import { ManualClock } from '../../../src/core/clock.js';
import { openLedger, type LedgerStore } from '../../../src/ledger/index.js';
import { fillInput } from '../../support/ledger-fixtures.js';

const SLUG = 'btc-100k';
const CONDITION: Hex = `0x${'ab'.repeat(32)}`;
const EXCHANGE: Hex = `0x${'11'.repeat(20)}`;
const REF = { slug: SLUG, conditionId: CONDITION, negRisk: false, adapter: null, exchange: EXCHANGE, yesTokenId: '111', noTokenId: '222' };
const USDC = 1_000_000;

type Fault = 'revert' | 'throw' | 'gas' | 'lose-answer' | null;

/** The conditional tokens' rules over plain balances. */
class FakeCtfPort implements CapitalPort {
  readonly kind = 'chain' as const;
  readonly tokens = new Map<string, number>([['111', 0], ['222', 0]]);
  usdcRaw = 0;
  payoutPosted = false;
  payout: { yes: number; no: number } | null = null;
  fault: Fault = null;
  sends = 0;
  private nonce = 0;
  private readonly mined = new Map<string, CapitalTxOutcome>();

  submit(request: CapitalTxRequest, journal: CapitalTxJournal): Promise<CapitalTxOutcome> {
    if (this.fault === 'throw') return Promise.reject(new Error('chain id 1 answered, venue.chain expects 8453 (wrong RPC URL?)'));
    if (this.fault === 'gas') return Promise.resolve({ status: 'insufficient-gas', wallet: '0x00000000000000000000000000000000000000b0', needWei: '1500000000000', haveWei: '0' });
    if (request.kind === 'redeem' && (!this.payoutPosted || this.payout === null)) return Promise.resolve({ status: 'not-ready', reason: 'payout not posted' });
    const hash: Hex = `0x${(this.nonce + 1).toString(16).padStart(64, '0')}`;
    journal.broadcast(request.key, { hash, nonce: this.nonce++ });
    this.sends += 1;
    let outcome: CapitalTxOutcome;
    if (this.fault === 'revert') {
      outcome = { status: 'reverted', hash, block: 7, reason: 'ERC1155: caller is not owner nor approved', gasWei: '1000' };
    } else if (request.kind === 'merge') {
      const yes = this.tokens.get('111') ?? 0;
      const no = this.tokens.get('222') ?? 0;
      const n = request.amountRaw;
      if (yes < n || no < n) outcome = { status: 'reverted', hash, block: 7, reason: 'insufficient balance', gasWei: '1000' };
      else {
        this.tokens.set('111', yes - n);
        this.tokens.set('222', no - n);
        this.usdcRaw += n;
        outcome = { status: 'confirmed', hash, block: 7, usdcInRaw: n, yesBurnedRaw: n, noBurnedRaw: n, gasWei: '1500000000000' };
      }
    } else {
      const payout = this.payout ?? { yes: 0, no: 0 };
      const yes = this.tokens.get('111') ?? 0;
      const no = this.tokens.get('222') ?? 0;
      const paid = Math.floor((yes * payout.yes) / (payout.yes + payout.no)) + Math.floor((no * payout.no) / (payout.yes + payout.no));
      this.tokens.set('111', 0);
      this.tokens.set('222', 0);
      this.usdcRaw += paid;
      outcome = { status: 'confirmed', hash, block: 8, usdcInRaw: paid, yesBurnedRaw: yes, noBurnedRaw: no, gasWei: '1500000000000' };
    }
    this.mined.set(hash, outcome);
    if (this.fault === 'lose-answer') return Promise.reject(new Error('socket hang up (answer lost)'));
    return Promise.resolve(outcome);
  }

  recover(_request: CapitalTxRequest, tx: { readonly hash: Hex }): Promise<CapitalTxOutcome | 'unknown'> {
    return Promise.resolve(this.mined.get(tx.hash) ?? 'unknown');
  }

  balances(ids: readonly string[]): Promise<CapitalBalances> {
    return Promise.resolve({ tokens: new Map(ids.map((id) => [id, this.tokens.get(id) ?? 0])), usdcRaw: this.usdcRaw });
  }
}

interface Rig {
  readonly ledger: LedgerStore;
  readonly port: FakeCtfPort;
  readonly clock: ManualClock;
  readonly core: CapitalCore;
  readonly warnings: string[];
  readonly results: CapitalResult[];
  readonly sells: { marketSlug: string; token: 'YES' | 'NO'; side: 'SELL'; remainingRaw: number }[];
  readonly repaired: number[];
}

function rig(options: { settlesAtMs?: number; checkEveryMs?: number } = {}): Rig {
  const clock = new ManualClock(1_000_000);
  const ledger = openLedger({ path: ':memory:', now: () => clock.now() });
  const port = new FakeCtfPort();
  const warnings: string[] = [];
  const results: CapitalResult[] = [];
  const repaired: number[] = [];
  const sells: Rig['sells'] = [];
  const markets = (): MarketCapitalState[] => {
    const yes = ledger.marketPosition(SLUG);
    const lock = sellLocks(sells).get(SLUG);
    return [{ market: REF, yesRaw: yes.yesRaw, noRaw: yes.noRaw, lockedYesRaw: lock?.yesRaw ?? 0, lockedNoRaw: lock?.noRaw ?? 0, resolution: ledger.getResolution(SLUG), redeemed: ledger.hasRedemption(SLUG), settlesAtMs: options.settlesAtMs ?? null }];
  };
  const log = { info: () => undefined, debug: () => undefined, error: (_o: object, m: string): void => void warnings.push(m), warn: (o: object, m: string): void => void warnings.push(`${m} ${JSON.stringify(o)}`) };
  const core = new CapitalCore({
    port,
    book: ledger,
    markets,
    scheduler: clock,
    log,
    settings: { merge: { enabled: true, minSetsRaw: 5 * USDC, minTimeToSettleMs: 120_000 }, intervalMs: 5_000, checkEveryMs: options.checkEveryMs ?? 0, retry: { initialMs: 1_000, maxMs: 8_000 }, ethPriceUsdcRaw: 3_000 * USDC },
    observer: { onResult: (_kind, result) => results.push(result) },
    repair: (d) => repaired.push(d.length),
  });
  return { ledger, port, clock, core, warnings, results, sells, repaired };
}

/** The wallet bought `yes` YES at 0.40 and `no` NO at 0.55 (ledger and chain agree). */
function hold(r: Rig, yes: number, no: number): void {
  r.ledger.recordFill(fillInput({ tradeEventId: 'y', marketSlug: SLUG, token: 'YES', tokenId: '111', priceTicks: 400, sizeRaw: yes }));
  if (no > 0) r.ledger.recordFill(fillInput({ tradeEventId: 'n', marketSlug: SLUG, token: 'NO', tokenId: '222', priceTicks: 550, sizeRaw: no }));
  r.ledger.recordMark({ marketSlug: SLUG, mid: 0.45, atMs: r.clock.now() });
  r.port.tokens.set('111', yes);
  r.port.tokens.set('222', no);
}

describe('capital core', () => {
  it('merges the complete sets beyond what open SELL orders lock: cash in, PnL unchanged, booked once', async () => {
    const r = rig();
    hold(r, 30 * USDC, 20 * USDC);
    r.sells.push({ marketSlug: SLUG, token: 'NO', side: 'SELL', remainingRaw: 5 * USDC });
    const before = r.ledger.pnl().totals;
    await r.core.tick();
    expect(r.port.usdcRaw).toBe(15 * USDC); // min(30, 20 − 5) sets
    expect(r.ledger.marketPosition(SLUG)).toMatchObject({ yesRaw: 15 * USDC, noRaw: 5 * USDC });
    const after = r.ledger.pnl().totals;
    expect(after.netPnlRaw).toBe(before.netPnlRaw); // the pairs were worth 1 each: gain moved to realized
    expect(after.realizedRaw).toBe(before.realizedRaw + 15 * USDC - Math.round(15 * USDC * 0.95));
    expect(r.ledger.verify()).toEqual([]);
    const [row] = r.ledger.capital.booked(0);
    expect(row).toMatchObject({ kind: 'merge', usdcInRaw: 15 * USDC, yesBurnedRaw: 15 * USDC, noBurnedRaw: 15 * USDC, gasWei: '1500000000000', gasUsdcRaw: 4500 }); // 1.5e-6 ETH at 3,000 USDC
    // Below the minimum (5 free sets −5 locked = 0): nothing more.
    await r.core.tick();
    expect(r.port.sends).toBe(1);
  });

  it('no merge close to settlement; after resolution the winners are redeemed once the payout is posted (retried until then)', async () => {
    const r = rig({ settlesAtMs: 1_000_000 + 60_000 });
    hold(r, 30 * USDC, 10 * USDC);
    await r.core.tick();
    expect(r.port.sends).toBe(0);
    r.ledger.recordResolution(SLUG, { winningOutcomeIndex: 0 }, r.clock.now());
    r.port.payout = { yes: 1, no: 0 };
    await r.core.tick();
    expect(r.results).toEqual(['not-ready']);
    r.port.payoutPosted = true;
    await r.core.tick(); // backed off: 1 s
    expect(r.port.sends).toBe(0);
    r.clock.advance(1_000);
    await r.core.tick();
    expect(r.results).toEqual(['not-ready', 'redeemed']);
    expect(r.port.usdcRaw).toBe(30 * USDC);
    expect(r.ledger.settlement(SLUG)).toMatchObject({ payoutRaw: 30 * USDC, redeemedRaw: 30 * USDC, receivableRaw: 0 });
    expect(r.ledger.marketPosition(SLUG)).toMatchObject({ yesRaw: 0, noRaw: 0 });
    await r.core.tick();
    expect(r.port.sends).toBe(1);
  });

  it('a lost answer is recovered by hash: never sent twice, booked once (also across a restart of the core)', async () => {
    const r = rig();
    hold(r, 10 * USDC, 10 * USDC);
    r.port.fault = 'lose-answer';
    await r.core.tick();
    expect(r.ledger.pendingCapitalTx()).toHaveLength(1);
    expect(r.ledger.capital.booked(0)).toHaveLength(0);
    r.port.fault = null;
    // A new core over the same ledger (the restart): it recovers the journaled transaction before anything else.
    const restarted = new CapitalCore({ port: r.port, book: r.ledger, markets: () => [], scheduler: r.clock, log: { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined }, settings: { merge: { enabled: true, minSetsRaw: 1, minTimeToSettleMs: 0 }, intervalMs: 5_000, checkEveryMs: 0, retry: { initialMs: 1_000, maxMs: 8_000 }, ethPriceUsdcRaw: 3_000 * USDC } });
    await restarted.tick();
    expect(r.port.sends).toBe(1);
    expect(r.ledger.pendingCapitalTx()).toHaveLength(0);
    expect(r.ledger.capital.booked(0)).toHaveLength(1);
    expect(r.ledger.marketPosition(SLUG)).toMatchObject({ yesRaw: 0, noRaw: 0 });
    expect(r.ledger.bookCapitalTx({ ...r.ledger.capital.booked(0)[0]!, atMs: r.clock.now() })).toBe('duplicate');
    expect(r.ledger.verify()).toEqual([]);
  });

  it('bad input through the port: a revert (missing approval), a wrong RPC URL or chain id, too little gas: a WARN naming it, nothing booked', async () => {
    const r = rig();
    hold(r, 10 * USDC, 10 * USDC);
    r.port.fault = 'revert';
    await r.core.tick();
    expect(r.warnings.at(-1)).toContain('ERC1155: caller is not owner nor approved');
    r.clock.advance(1_000);
    r.port.fault = 'throw';
    await r.core.tick();
    expect(r.warnings.at(-1)).toContain('chain id 1 answered, venue.chain expects 8453');
    r.clock.advance(10_000);
    r.port.fault = 'gas';
    await r.core.tick();
    expect(r.warnings.at(-1)).toContain('0x00000000000000000000000000000000000000b0 has too little ETH for gas (needs 1500000000000 wei');
    expect(r.results).toEqual(['reverted', 'error', 'insufficient-gas']);
    expect(r.ledger.capital.booked(0)).toHaveLength(0);
    expect(r.ledger.marketPosition(SLUG)).toMatchObject({ yesRaw: 10 * USDC, noRaw: 10 * USDC });
    // The wallet backs off, then the merge goes through once the fault is gone (a new key: the reverted one is closed).
    r.port.fault = null;
    r.clock.advance(60_000);
    await r.core.tick();
    expect(r.results.at(-1)).toBe('merged');
    expect(r.ledger.capital.booked(0)[0]?.key).toBe(`merge:${SLUG}:2`);
  });

  it('the chain check: a difference is logged with both figures, repaired once seen twice', async () => {
    const r = rig({ checkEveryMs: 60_000 });
    hold(r, 3 * USDC, 0);
    r.port.tokens.set('111', 2 * USDC);
    await r.core.tick();
    expect(r.warnings.at(-1)).toContain('"ledgerRaw":3000000,"chainRaw":2000000');
    expect(r.repaired).toEqual([]);
    r.clock.advance(60_000);
    await r.core.tick();
    expect(r.repaired).toEqual([1]);
  });
});
