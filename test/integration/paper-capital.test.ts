/**
 * Paper across an hour's settlement, on the embedded simulator's DEFAULT account (externally owned: the API redeem
 * is refused with a 403, as on the venue for the going-live guide's wallet): the bot holds winning YES of a market
 * that resolves (the simulator's control resolves it, as the hour's settlement would: the test takes seconds, not an
 * hour), and the winnings come back through the on-chain path (the capital core over the engine's port), booked once.
 * Then, through the public entries: `report --config` shows the redemption in the capital by state, `status --config`
 * and the bot's GET /status (a real server on 127.0.0.1, port 0) say the capital, and /metrics serves it by state.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { runCliInProcess } from '../support/cli-process.js';
import { addThirdParty, cleanupAfterTest, LADDER_500, ladderOf, sameLadder, setThirdPartyQuotes, singleMarkets, thirdPartyPlace, waitFor, when } from '../support/bot-harness.js';
import { getText, sample, startPaper, writePaperConfig } from '../support/paper-capital.js';

const SHARES = 5_000_000;

describe('paper: capital that comes back across a settlement', () => {
  it('the default (externally owned) account: winnings redeemed on-chain through the engine port; report, status and /metrics show the capital by state', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const dir = mkdtempSync(join(tmpdir(), 'om-paper-capital-'));
    cleanup.add(async () => rmSync(dir, { recursive: true, force: true }));
    const configPath = writePaperConfig(dir);
    const running = await startPaper(configPath, cleanup);
    const sim = running.bot.simulator;
    if (sim === null) throw new Error('the embedded simulator is missing');
    expect(sim.engine.account(sim.demoAccount.profileId)?.serverManagedWallet ?? false).toBe(false);
    const slug = singleMarkets(sim)[0]!;
    addThirdParty(sim);
    setThirdPartyQuotes(sim, slug, { bidTicks: 460, askTicks: 540 });
    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), LADDER_500)), 15_000, 'the bot\'s ladder', () => ladderOf(sim, slug, 'it'));

    // The third party sells 5 YES into the bot's 0.480 bid: the bot holds 5 winning YES once the market resolves YES.
    const taker = thirdPartyPlace(sim, slug, { outcome: 'NO', side: 'BUY', priceTicks: 520, sizeRaw: SHARES, orderType: 'FAK' });
    expect(taker.filledSizeRaw).toBe(SHARES);
    const metricsUrl = running.bot.metricsUrl;
    if (metricsUrl === null) throw new Error('no metrics server');
    const base = metricsUrl;
    await waitFor(async () => when(sample(await getText(`${base}/metrics`), 'outcome_maker_position_shares', `market="${slug}",token="YES"`) === 5), 10_000, 'the fill in the ledger');
    const usdcBefore = sim.engine.balances(sim.demoAccount.profileId)!.usdc.totalRaw;

    sim.control.resolveMarket(slug, { winningOutcomeIndex: 0 });
    // The API refuses the redeem (403, externally owned); the capital core redeems on-chain once the payout is posted.
    const redeemed = await waitFor(
      async () => {
        const text = await getText(`${base}/metrics`);
        return sample(text, 'outcome_maker_capital_transactions_total', 'kind="redeem",result="redeemed"') === 1 ? text : undefined;
      },
      20_000,
      'the on-chain redemption',
      () => running.logs.slice(-5),
    );
    expect(sim.engine.balances(sim.demoAccount.profileId)!.usdc.totalRaw - usdcBefore).toBe(SHARES);
    expect(sim.control.requestLog().filter((e) => e.method === 'POST' && e.path === '/portfolio/redeem').map((e) => e.status)).toEqual([403]);
    const ledger = openLedger({ path: join(dir, 'paper.db'), mustExist: true });
    try {
      const booked = ledger.capital.booked(0);
      expect(booked).toHaveLength(1);
      expect(booked[0]).toMatchObject({ kind: 'redeem', marketSlug: slug, usdcInRaw: SHARES, yesBurnedRaw: SHARES });
      expect(ledger.settlement(slug)).toMatchObject({ payoutRaw: SHARES, redeemedRaw: SHARES, receivableRaw: 0 });
    } finally {
      ledger.close();
    }
    expect(sample(redeemed, 'outcome_maker_capital_usdc', 'state="redeemed_today"')).toBe(5);
    expect(sample(redeemed, 'outcome_maker_capital_usdc', 'state="unredeemed"')).toBe(0);
    expect(sample(redeemed, 'outcome_maker_capital_gas_spent', 'unit="usdc",period="today"')).toBe(0);
    expect(sample(redeemed, 'outcome_maker_quoting_trimmed_markets', '')).toBe(0);
    // The wallet's USDC from the chain check: free = the wallet's less what the open BUYs lock.
    await waitFor(async () => when(sample(await getText(`${base}/metrics`), 'outcome_maker_capital_usdc', 'state="free"') !== undefined), 10_000, 'the chain check\'s USDC');

    const report = await runCliInProcess(['report', '--config', configPath]);
    expect(report.code, report.err).toBe(0);
    expect(report.out).toContain('capital by state (USDC, as of ');
    expect(report.out).toMatch(/redeemed today \(on-chain and API, UTC day\) +5\.00\n/);
    expect(report.out).toMatch(/in resolved markets, not yet redeemed \(0 markets\) +0\.00\n/);
    expect(report.out).toMatch(/free \(wallet at the chain check [0-9: -]+, less open BUYs\) +[0-9]+\.[0-9]{2}\n/);
    expect(report.out).toContain('gas today: 0.000000000 ETH = 0.0000 USDC (1 transaction)');
    const section = report.out.slice(report.out.indexOf('capital by state')).split('\n\n')[0]!.split('\n');
    expect(section).toHaveLength(9);
    expect(Math.max(...section.map((l) => l.length))).toBeLessThanOrEqual(120);
    const json = await runCliInProcess(['report', '--config', configPath, '--format', 'json']);
    expect(json.code, json.err).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({ capital: { redeemedTodayUsdc: 5, unredeemedUsdc: 0, gasToday: { transactions: 1 } } });

    const status = await runCliInProcess(['status', '--config', configPath]);
    expect(status.code, status.err).toBe(0);
    expect(status.out).toMatch(/capital USDC: free [0-9]+\.[0-9]{2}, in orders [0-9]+\.[0-9]{2}, in positions [0-9.]+, unredeemed 0\.00 \(0 markets\), today redeemed 5\.00 merged 0\.00 gas 0\.0000/);
    const answer: unknown = JSON.parse(await getText(`${base}/status`));
    expect(answer).toMatchObject({ fields: { capital: { redeemedTodayUsdc: 5, unredeemedUsdc: 0, unredeemedMarkets: 0 } } });
    // The one WARN: the 403 that sends the account's markets to the on-chain path.
    expect(running.warnings()).toEqual([expect.stringMatching(/^the venue refuses API redemption for this account/)]);
  });

  it('too little capital for the whole ladder: the status line and /metrics say quoting is trimmed, with the USDC short', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const dir = mkdtempSync(join(tmpdir(), 'om-paper-trim-'));
    cleanup.add(async () => rmSync(dir, { recursive: true, force: true }));
    // 3 USDC of notional: the bid (5 × 0.48 = 2.40) fits, the ask's BUY NO (another 2.40) does not.
    const running = await startPaper(writePaperConfig(dir, 3), cleanup);
    const sim = running.bot.simulator;
    if (sim === null) throw new Error('the embedded simulator is missing');
    const slug = singleMarkets(sim)[0]!;
    addThirdParty(sim);
    setThirdPartyQuotes(sim, slug, { bidTicks: 460, askTicks: 540 });
    const base = running.bot.metricsUrl!;
    const status = await waitFor(
      async () => {
        const answer = JSON.parse(await getText(`${base}/status`)) as { message: string; fields: { quotingTrimmed?: { markets: number; shortUsdc: number } } };
        return (answer.fields.quotingTrimmed?.markets ?? 0) >= 1 ? answer : undefined;
      },
      15_000,
      'a trimmed quote',
      () => ladderOf(sim, slug, 'it'),
    );
    expect(status.message).toMatch(/quoting trimmed: \d+ markets? lack capital \(\d+\.\d\d USDC short\)/);
    expect(status.fields.quotingTrimmed!.shortUsdc).toBeGreaterThan(0);
    const metrics = await getText(`${base}/metrics`);
    expect(sample(metrics, 'outcome_maker_quoting_trimmed_markets', '')).toBeGreaterThanOrEqual(1);
    expect(sample(metrics, 'outcome_maker_quoting_capital_short_usdc', '')).toBeGreaterThan(0);
  });
});
