/**
 * The live bot with a wrong `venue.chain.rpcUrl` (an endpoint that does not answer), against the simulator as a live
 * venue (its demo wallet externally owned: the API redeem is refused): the start-up chain check is a WARN naming the
 * endpoint, the bot quotes anyway; when a market it holds winners of resolves, the on-chain redemption cannot be sent:
 * a WARN naming the endpoint, counted (`outcome_maker_capital_transactions_total{kind="redeem",result="error"}`),
 * nothing booked (the payout stays receivable), and the bot goes on quoting its other market.
 */
import { describe, it } from 'vitest';
import type { AppConfig } from '../../src/config/types.js';
import { openLedger } from '../../src/ledger/index.js';
import {
  cleanupAfterTest,
  gaugeValue,
  LADDER_500,
  ladderOf,
  liveEnv,
  sameLadder,
  setThirdPartyQuotes,
  startBot,
  startHarnessSim,
  tempDatabasePath,
  testConfig,
  thirdPartyPlace,
  waitFor,
  when,
} from '../support/bot-harness.js';
import { closedLoopbackPort } from '../support/closed-port.js';

const SHARES = 5_000_000;

describe('live bot, wrong RPC URL: on-chain settlement fails loudly, nothing booked, quoting goes on', () => {
  it('a WARN naming the endpoint at start and at the redemption, counted; the payout stays receivable; the other market is quoted', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const sim = await startHarnessSim({ markets: 8, extra: { payoutDelayMs: 0 } });
    cleanup.add(() => sim.close());
    const singles = sim.engine.markets().filter((m) => m.groupSlug === undefined).map((m) => m.slug);
    const [held, other] = singles;
    if (held === undefined || other === undefined) throw new Error(`two single markets needed, got ${singles.join(', ')}`);
    const rpcUrl = `http://127.0.0.1:${await closedLoopbackPort()}`;
    const dbPath = tempDatabasePath(cleanup);
    const base = testConfig({ venue: { kind: 'live', sim }, markets: [held, other], database: dbPath });
    if (base.venue.kind !== 'live') throw new Error('a live config expected');
    const config: AppConfig = {
      ...base,
      venue: { ...base.venue, chain: { ...base.venue.chain, rpcUrl: { kind: 'url', url: rpcUrl } } },
      capital: { ...base.capital, intervalMs: 200 },
      redemption: { ...base.redemption, retryInitialMs: 200, retryMaxMs: 400 },
    };
    for (const slug of [held, other]) setThirdPartyQuotes(sim, slug, { bidTicks: 460, askTicks: 540 });
    const running = await startBot(config, liveEnv(sim), cleanup);
    const lines = (): { level: number; msg: string; err?: string }[] => running.logs.map((l) => JSON.parse(l) as { level: number; msg: string; err?: string });
    await waitFor(() => when(lines().some((l) => l.msg.startsWith('on-chain settlement: the chain check failed'))), 10_000, 'the start-up chain check');
    const startWarn = lines().find((l) => l.msg.startsWith('on-chain settlement: the chain check failed'));
    expect(startWarn).toMatchObject({ level: 40, err: expect.stringContaining(rpcUrl) as unknown });
    await waitFor(() => when(sameLadder(ladderOf(sim, held, 'it'), LADDER_500) && sameLadder(ladderOf(sim, other, 'it'), LADDER_500)), 15_000, 'both ladders', () => [ladderOf(sim, held, 'it'), ladderOf(sim, other, 'it')]);

    // The bot buys 5 YES of `held` (the third party sells into its bid); YES wins.
    expect(thirdPartyPlace(sim, held, { outcome: 'NO', side: 'BUY', priceTicks: 520, sizeRaw: SHARES, orderType: 'FAK' }).filledSizeRaw).toBe(SHARES);
    await waitFor(async () => when((await gaugeValue(running.bot, 'outcome_maker_position_shares', { market: held, token: 'YES' })) === 5), 10_000, 'the fill in the ledger');
    sim.control.resolveMarket(held, { winningOutcomeIndex: 0 });
    const failed = 'capital: the redeem could not be sent; nothing booked, quoting goes on';
    await waitFor(() => when(lines().some((l) => l.msg === failed)), 15_000, 'the failed on-chain redemption', () => running.warnings());
    expect(lines().find((l) => l.msg === failed)).toMatchObject({ level: 40, err: expect.stringContaining(rpcUrl) as unknown });
    expect(await gaugeValue(running.bot, 'outcome_maker_capital_transactions_total', { kind: 'redeem', result: 'error' })).toBeGreaterThanOrEqual(1);
    expect(await gaugeValue(running.bot, 'outcome_maker_capital_transactions_total', { kind: 'redeem', result: 'redeemed' })).toBe(0);
    // Quoting goes on in the other market: the ladder is there, replaced when the book moves.
    setThirdPartyQuotes(sim, other, { bidTicks: 470, askTicks: 550 });
    await waitFor(() => when(!sameLadder(ladderOf(sim, other, 'it'), LADDER_500) && Object.keys(ladderOf(sim, other, 'it')).length === 2), 15_000, 'the other market requoted', () => ladderOf(sim, other, 'it'));
    await running.stop();
    const ledger = openLedger({ path: dbPath, mustExist: true });
    try {
      expect(ledger.capital.booked(0)).toEqual([]);
      expect(ledger.settlement(held)).toMatchObject({ payoutRaw: SHARES, redeemedRaw: 0, receivableRaw: SHARES });
    } finally {
      ledger.close();
    }
  });
});
