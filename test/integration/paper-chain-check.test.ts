/**
 * A real chain difference, repaired by the bot's chain check (src/capital/core.ts over the simulator engine's port,
 * the paper "chain"): the bot holds 5 YES of a market from a fill; then, behind its back, 3 YES and 7 USDC arrive in
 * the wallet (an ERC-1155 transfer and a USDC transfer from outside: the engine's deposit). The chain check logs
 * both figures of each (the token holding: ledger 5 / chain 8; the wallet's USDC: the ledger's cash account against
 * `balanceOf`, raw and formatted), counts them in /metrics, and repairs them as a REST difference is: one position
 * adjustment of +3 YES (this bot alone trades the account's markets: `markets.exclusive`), the chain's USDC adopted by
 * the cash account. Nothing is booked twice: later checks agree, no second adjustment, no second USDC difference.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { cashAnchorOf, KV_CASH_ANCHOR } from '../../src/capital/cash-check.js';
import { openLedger } from '../../src/ledger/index.js';
import { addThirdParty, cleanupAfterTest, LADDER_500, ladderOf, sameLadder, setThirdPartyQuotes, singleMarkets, thirdPartyPlace, waitFor, when } from '../support/bot-harness.js';
import { getText, sample, startPaper, writePaperConfig } from '../support/paper-capital.js';

const USDC = 1_000_000;

interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [key: string]: unknown;
}

describe('paper: the chain check finds a real difference and repairs it once', () => {
  it('tokens and USDC sent to the wallet behind the bot\'s back: both figures logged, counted, repaired, nothing booked twice', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const dir = mkdtempSync(join(tmpdir(), 'om-paper-chain-'));
    cleanup.add(async () => rmSync(dir, { recursive: true, force: true }));
    const configPath = writePaperConfig(dir, 1000, {
      venue: { rewards: { enabled: false } },
      // The chain check every 0.5 s; a flow is in flight for 1 s (the simulator mines a fill 100 ms after it matched).
      capital: { chainUsdcInFlightSec: 1 },
      // Only the chain check compares the holdings here (the REST check would repair the same difference first).
      maintenance: { pollIntervalSec: 1, ledgerCheckSec: 3600 },
      markets: { select: { top: 3, rewardableOnly: false }, exclusive: true },
    });
    const running = await startPaper(configPath, cleanup);
    const sim = running.bot.simulator;
    if (sim === null) throw new Error('the embedded simulator is missing');
    const profileId = sim.demoAccount.profileId;
    const slug = singleMarkets(sim)[0]!;
    const market = sim.engine.market(slug);
    if (market === undefined) throw new Error(`no market ${slug}`);
    const yesTokenId = market.yesTokenId;
    addThirdParty(sim);
    setThirdPartyQuotes(sim, slug, { bidTicks: 460, askTicks: 540 });
    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), LADDER_500)), 15_000, 'the bot\'s ladder', () => ladderOf(sim, slug, 'it'));
    const base = running.bot.metricsUrl!;
    const metrics = (): Promise<string> => getText(`${base}/metrics`);

    // The bot buys 5 YES at 0.480 (the third party sells into its bid).
    expect(thirdPartyPlace(sim, slug, { outcome: 'NO', side: 'BUY', priceTicks: 520, sizeRaw: 5 * USDC, orderType: 'FAK' }).filledSizeRaw).toBe(5 * USDC);
    await waitFor(async () => when(sample(await metrics(), 'outcome_maker_position_shares', `market="${slug}",token="YES"`) === 5), 10_000, 'the fill in the ledger');
    // The cash account anchored on a settled check, and agreeing since the fill mined.
    await waitFor(async () => when((sample(await metrics(), 'outcome_maker_chain_usdc_checks_total', 'verdict="agrees"') ?? 0) >= 2), 15_000, 'the USDC agreeing after the fill', () => running.logs.slice(-3));
    const text = await metrics();
    expect(sample(text, 'outcome_maker_chain_usdc_checks_total', 'verdict="anchored"')).toBe(1);
    expect(sample(text, 'outcome_maker_chain_usdc_differences_total', '')).toBe(0);
    expect(sample(text, 'outcome_maker_chain_differences_total', '')).toBe(0);
    const walletBefore = sim.engine.balances(profileId)!.usdc.totalRaw;

    // Behind the bot's back: 3 YES and 7 USDC arrive in the wallet.
    sim.control.deposit(profileId, { usdcRaw: 7 * USDC, tokens: { [yesTokenId]: 3 * USDC } });
    const repaired = await waitFor(
      async () => {
        const now = await metrics();
        const repairedTokens = running.logs.some((l) => l.includes('"msg":"capital: the ledger repaired from the chain\'s balances"'));
        return sample(now, 'outcome_maker_chain_usdc_differences_total', '') === 1 && repairedTokens ? now : undefined;
      },
      15_000,
      'the chain check\'s repair',
      () => running.warnings(),
    );
    expect(sample(repaired, 'outcome_maker_chain_usdc_difference_usdc', '')).toBe(7);
    expect(sample(repaired, 'outcome_maker_chain_differences_total', '')).toBeGreaterThanOrEqual(2); // seen on two checks
    const lines = running.logs.map((l) => JSON.parse(l) as LogLine);
    const tokenWarn = lines.find((l) => l.msg === 'capital: the ledger\'s holding differs from the chain');
    expect(tokenWarn).toMatchObject({ level: 40, market: slug, token: 'YES', ledgerRaw: 5 * USDC, chainRaw: 8 * USDC });
    const usdcWarns = lines.filter((l) => l.level === 40 && l.msg.startsWith('capital: the wallet\'s USDC on the chain'));
    expect(usdcWarns).toHaveLength(1);
    const walletAfter = walletBefore + 7 * USDC;
    expect(usdcWarns[0]).toMatchObject({ chainUsdcRaw: walletAfter, ledgerUsdcRaw: walletBefore, differenceRaw: 7 * USDC, differenceUsdc: '7' });
    expect(usdcWarns[0]!.msg).toContain(`differs from the ledger's cash account (${String(walletBefore / USDC)} USDC) by 7 USDC on two checks: the chain's figure adopted, nothing booked`);

    // Later checks agree; nothing is booked twice.
    const agreesAt = sample(repaired, 'outcome_maker_chain_usdc_checks_total', 'verdict="agrees"') ?? 0;
    await waitFor(async () => when((sample(await metrics(), 'outcome_maker_chain_usdc_checks_total', 'verdict="agrees"') ?? 0) >= agreesAt + 2), 10_000, 'two more agreeing checks');
    const later = await metrics();
    expect(sample(later, 'outcome_maker_chain_usdc_differences_total', '')).toBe(1);
    expect(sample(later, 'outcome_maker_chain_differences_total', '')).toBe(sample(repaired, 'outcome_maker_chain_differences_total', ''));
    await running.bot.stop();
    const ledger = openLedger({ path: join(dir, 'paper.db'), mustExist: true });
    try {
      const adjustments = ledger.db.prepare(`SELECT token, side, size_raw, source FROM fills WHERE market_slug = ? AND kind = 'adjustment'`).all(slug);
      expect(adjustments).toEqual([{ token: 'YES', side: 'BUY', size_raw: 3 * USDC, source: 'reconcile' }]);
      expect(cashAnchorOf(ledger.getKv(KV_CASH_ANCHOR))?.usdcRaw).toBe(walletAfter);
      expect(ledger.marketPosition(slug).yesRaw).toBe(8 * USDC);
    } finally {
      ledger.close();
    }
  });
});
