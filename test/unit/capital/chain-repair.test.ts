/**
 * The chain check's repair (src/capital/chain-repair.ts) through the capital core's public entry, over a real
 * in-memory ledger: a holding the chain's balanceOfBatch contradicts is logged with both figures and counted at each
 * check, repaired as a REST difference is (a position adjustment at the ledger's average cost) once seen on two
 * consecutive checks, and only when this bot alone trades the account's markets (`markets.exclusive`); the wallet's
 * USDC read by the check reaches the observer. Plus the pure view handed to the ledger.
 */
import { describe, expect, it } from 'vitest';
import { chainPositions, chainRepairer } from '../../../src/capital/chain-repair.js';
import { CapitalCore } from '../../../src/capital/core.js';
import type { CapitalBalances, CapitalMarketRef, CapitalPort, CapitalTxOutcome } from '../../../src/capital/port.js';
import type { MarketCapitalState } from '../../../src/capital/rules.js';
import { ManualClock } from '../../../src/core/clock.js';
import { openLedger } from '../../../src/ledger/index.js';
import { fillInput } from '../../support/ledger-fixtures.js';

const SLUG = 'btc-100k';
const USDC = 1_000_000;
const REF: CapitalMarketRef = { slug: SLUG, conditionId: `0x${'ab'.repeat(32)}`, negRisk: false, adapter: null, exchange: `0x${'11'.repeat(20)}`, yesTokenId: '111', noTokenId: '222' };

/** A chain that only answers balances (nothing to redeem or merge here). */
class BalancesOnly implements CapitalPort {
  readonly kind = 'chain' as const;
  readonly tokens = new Map<string, number>();
  usdcRaw = 900 * USDC;
  submit(): Promise<CapitalTxOutcome> {
    return Promise.reject(new Error('nothing should be sent'));
  }
  recover(): Promise<'unknown'> {
    return Promise.resolve('unknown');
  }
  balances(ids: readonly string[]): Promise<CapitalBalances> {
    return Promise.resolve({ tokens: new Map(ids.map((id) => [id, this.tokens.get(id) ?? 0])), usdcRaw: this.usdcRaw });
  }
}

function rig(exclusive: boolean) {
  const clock = new ManualClock(1_000_000);
  const ledger = openLedger({ path: ':memory:', now: () => clock.now() });
  const port = new BalancesOnly();
  const warnings: string[] = [];
  const infos: string[] = [];
  const usdc: number[] = [];
  const differences: number[] = [];
  const log = { info: (_o: object, m: string): void => void infos.push(m), debug: () => undefined, error: (_o: object, m: string): void => void warnings.push(m), warn: (o: object, m: string): void => void warnings.push(`${m} ${JSON.stringify(o)}`) };
  const markets = (): MarketCapitalState[] => {
    const p = ledger.marketPosition(SLUG);
    return [{ market: REF, yesRaw: p.yesRaw, noRaw: p.noRaw, lockedYesRaw: 0, lockedNoRaw: 0, resolution: null, redeemed: false, settlesAtMs: null }];
  };
  const core = new CapitalCore({
    port,
    book: ledger,
    markets,
    scheduler: clock,
    log,
    settings: { merge: { enabled: true, minSetsRaw: 5 * USDC, minTimeToSettleMs: 120_000 }, intervalMs: 5_000, checkEveryMs: 60_000, retry: { initialMs: 1_000, maxMs: 8_000 }, ethPriceUsdcRaw: 3_000 * USDC },
    observer: { onChainUsdc: (raw) => usdc.push(raw), onChainDifferences: (n) => differences.push(n) },
    repair: chainRepairer({ ledger, exclusive, now: () => clock.now(), log }),
  });
  // The ledger holds 3 YES bought at 0.40; the chain says 2.
  ledger.recordFill(fillInput({ tradeEventId: 'y', marketSlug: SLUG, token: 'YES', tokenId: '111', priceTicks: 400, sizeRaw: 3 * USDC }));
  port.tokens.set('111', 2 * USDC);
  return { clock, ledger, port, core, warnings, infos, usdc, differences };
}

describe('the chain check repairs the ledger as a REST difference is', () => {
  it('exclusive: logged with both figures at each check, repaired once seen twice (at the average cost), then agrees', async () => {
    const r = rig(true);
    await r.core.tick();
    expect(r.warnings.at(-1)).toContain('"ledgerRaw":3000000,"chainRaw":2000000');
    expect(r.ledger.marketPosition(SLUG).yesRaw).toBe(3 * USDC);
    expect(r.usdc).toEqual([900 * USDC]);
    r.clock.advance(60_000);
    await r.core.tick();
    expect(r.ledger.marketPosition(SLUG)).toMatchObject({ yesRaw: 2 * USDC, yesAvgCost: 0.4 });
    expect(r.infos).toContain('capital: the ledger repaired from the chain\'s balances');
    r.clock.advance(60_000);
    await r.core.tick();
    expect(r.differences).toEqual([1, 1, 0]);
    expect(r.usdc).toHaveLength(3);
  });

  it('not exclusive (other bots of the account may hold the tokens): logged and counted, never repaired', async () => {
    const r = rig(false);
    await r.core.tick();
    r.clock.advance(60_000);
    await r.core.tick();
    expect(r.ledger.marketPosition(SLUG).yesRaw).toBe(3 * USDC);
    expect(r.warnings.at(-1)).toMatch(/^capital: the chain differs from the ledger on two checks; not repaired \(markets.exclusive is false/);
    expect(r.differences).toEqual([1, 1]);
  });

  it('chainPositions: the differing tokens from the chain, the agreeing one from the ledger', () => {
    const positions = chainPositions([{ slug: SLUG, token: 'NO', tokenId: '222', ledgerRaw: 4, chainRaw: 1 }], (slug, token) => (token === 'YES' ? 7 : 99));
    expect(positions).toEqual([{ marketSlug: SLUG, yesRaw: 7, noRaw: 1, yesTokenId: undefined, noTokenId: '222' }]);
  });
});
