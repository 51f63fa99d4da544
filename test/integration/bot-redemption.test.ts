/**
 * Redemption, through the whole bot against the simulator: after a market the bot holds resolves, a
 * server-managed-wallet account redeems once the payout is posted (retrying until then) and the payout reaches the
 * ledger once; an account the venue refuses (403) is not retried and its payout stays receivable; a market that
 * resolved while the bot was down is recorded and redeemed by the next run, which quotes its other market.
 */
import { describe, it } from 'vitest';
import type { AppConfig } from '../../src/config/index.js';
import { openLedger } from '../../src/ledger/index.js';
import type { RunningSimulator } from '../../src/sim/index.js';
import {
  LADDER_500,
  cleanupAfterTest,
  firstMarkets,
  gaugeValue,
  ladderOf,
  liveEnv,
  sameLadder,
  startBookedSim,
  startBot,
  tempDatabasePath,
  testConfig,
  thirdPartyPlace,
  waitFor,
  when,
  type Cleanup,
  type RunningBot,
  unexplainedRateLimits,
} from '../support/bot-harness.js';

const SHARES_HELD = 5_000_000;
const PAYOUT_DELAY_MS = 4000;

/** The harness config with fast redemption retries (0.2 s doubling to 0.4 s). */
function redemptionConfig(sim: RunningSimulator, markets: readonly string[], database: string): AppConfig {
  const config = testConfig({ venue: { kind: 'live', sim }, markets, database });
  return { ...config, redemption: { mode: 'auto', retryInitialMs: 200, retryMaxMs: 400 } };
}

/** Starts the bot and waits for its one-level ladder in the first market. */
async function startQuoting(sim: RunningSimulator, cleanup: Cleanup, config: AppConfig, slug: string): Promise<RunningBot> {
  const running = await startBot(config, liveEnv(sim), cleanup);
  await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), LADDER_500)), 10_000, 'the first ladder', () => ladderOf(sim, slug, 'it'));
  return running;
}

/** The third party sells 5 YES into the bot's 0.480 bid; resolves once the bot's ledger holds them. */
async function fillBotBid(sim: RunningSimulator, running: RunningBot, slug: string): Promise<void> {
  const taker = thirdPartyPlace(sim, slug, { outcome: 'NO', side: 'BUY', priceTicks: 520, sizeRaw: SHARES_HELD, orderType: 'FAK' });
  if (taker.filledSizeRaw !== SHARES_HELD) throw new Error(`the bot's bid filled ${taker.filledSizeRaw} of ${SHARES_HELD}`);
  await waitFor(async () => when((await gaugeValue(running.bot, 'outcome_maker_position_shares', { market: slug, token: 'YES' })) === 5), 10_000, 'the fill in the ledger');
}

/** The redeem answers but the limiter 429s a stall of the simulator's loop explains (a late stamp; `unexplainedRateLimits` blames the bot for any other). */
const venueAnswers = (sim: RunningSimulator): number[] => redeemRequests(sim).map((r) => r.status).filter((status) => status !== 429);

function redeemRequests(sim: RunningSimulator): { status: number; atMs: number }[] {
  return sim.control
    .requestLog()
    .filter((entry) => entry.method === 'POST' && entry.path === '/portfolio/redeem')
    .map((entry) => ({ status: entry.status, atMs: entry.atMs }));
}

function yesHeld(sim: RunningSimulator, slug: string): number {
  const market = sim.engine.market(slug)!;
  return sim.engine.balances(sim.demoAccount.profileId)?.tokens[market.yesTokenId]?.totalRaw ?? 0;
}

function ledgerSettlement(path: string, slug: string): ReturnType<ReturnType<typeof openLedger>['settlement']> {
  const ledger = openLedger({ path, mustExist: true });
  try {
    return ledger.settlement(slug);
  } finally {
    ledger.close();
  }
}

describe.concurrent('redemption of resolved markets', () => {
  it('server-managed wallet: redeems once after the payout is posted, retrying until then; the payout reaches the ledger once', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug, slugs } = await startBookedSim(cleanup, { sim: { extra: { payoutDelayMs: PAYOUT_DELAY_MS, demo: { serverManagedWallet: true } } }, markets: firstMarkets(2) });
    const database = tempDatabasePath(cleanup);
    const config = redemptionConfig(sim, slugs, database);
    const running = await startQuoting(sim, cleanup, config, slug);
    await fillBotBid(sim, running, slug);

    sim.control.resolveMarket(slug, { winningOutcomeIndex: 0 });
    const resolvedAt = sim.clock.now();
    await waitFor(async () => when((await gaugeValue(running.bot, 'outcome_maker_redemptions_total', { result: 'redeemed' })) === 1), 20_000, 'the redemption', () => redeemRequests(sim));

    const requests = redeemRequests(sim);
    const succeeded = requests.filter((r) => r.status === 200);
    expect(succeeded, 'exactly one successful redeem').toHaveLength(1);
    expect(succeeded[0]!.atMs - resolvedAt, 'redeemed only after the payout was posted').toBeGreaterThanOrEqual(PAYOUT_DELAY_MS);
    expect(requests.filter((r) => r.status === 400).length, 'refused (payout not posted) and retried before that').toBeGreaterThan(0);
    // Every answer is the redemption's own (200, 400), or a limiter 429 that a stall of the simulator's loop explains
    // (a late stamp, bot-harness `unexplainedRateLimits`: on a loaded machine the bot is not to blame for those).
    expect(requests.map((r) => r.status).filter((status) => status !== 200 && status !== 400 && status !== 429)).toEqual([]);
    expect(unexplainedRateLimits(sim)).toEqual([]);
    expect(yesHeld(sim, slug), 'the venue burned the redeemed tokens').toBe(0);
    expect(await gaugeValue(running.bot, 'outcome_maker_redeemed_usdc_total', { market: slug })).toBe(5);
    expect(await gaugeValue(running.bot, 'outcome_maker_redemptions_pending', {})).toBe(0);

    await running.stop();
    expect(ledgerSettlement(database, slug)).toEqual({ payoutRaw: SHARES_HELD, redeemedRaw: SHARES_HELD, receivableRaw: 0 });

    // A restart on the same ledger skips the resolved market (warning), quotes the other one and redeems nothing.
    const before = redeemRequests(sim).length;
    const again = await startBot(config, liveEnv(sim), cleanup);
    expect(again.warnings()).toContain('a market named in the config has ended: not quoted');
    await waitFor(() => when(Object.keys(ladderOf(sim, slugs[1]!, 'it')).length > 0), 10_000, 'quotes in the other market');
    expect(redeemRequests(sim)).toHaveLength(before);
    await again.stop();
    expect(ledgerSettlement(database, slug)?.redeemedRaw, 'recorded once').toBe(SHARES_HELD);
  }, 60_000);

  it('not a server-managed wallet: one 403, no retry; the payout stays receivable in the ledger', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug, slugs } = await startBookedSim(cleanup, { sim: { extra: { payoutDelayMs: 0, demo: { serverManagedWallet: false } } }, markets: firstMarkets(2) });
    const database = tempDatabasePath(cleanup);
    const running = await startQuoting(sim, cleanup, redemptionConfig(sim, slugs, database), slug);
    await fillBotBid(sim, running, slug);

    sim.control.resolveMarket(slug, { winningOutcomeIndex: 0 });
    await waitFor(async () => when((await gaugeValue(running.bot, 'outcome_maker_redemptions_total', { result: 'refused' })) === 1), 20_000, 'the refusal');
    // Let retries happen if they were going to: wait for three more maintenance polls (1 s apart), i.e. many retry delays.
    const polls = (): number => sim.control.requestLog().filter((e) => e.path === '/maintenance/status').length;
    const pollsThen = polls();
    await waitFor(() => when(polls() >= pollsThen + 3), 10_000, 'three more maintenance polls');
    expect(venueAnswers(sim)).toEqual([403]);
    expect(unexplainedRateLimits(sim)).toEqual([]);
    expect(yesHeld(sim, slug)).toBe(SHARES_HELD);
    expect(running.warnings()).toContain('the venue refuses API redemption for this account (not a server-managed wallet, or the token lacks scope trading): its markets go to the on-chain path (capital.mode)');

    await running.stop();
    expect(ledgerSettlement(database, slug)).toEqual({ payoutRaw: SHARES_HELD, redeemedRaw: 0, receivableRaw: SHARES_HELD });
  }, 60_000);

  it('a market that resolved while the bot was down: the next run records the resolution and redeems it', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug, slugs } = await startBookedSim(cleanup, { sim: { extra: { payoutDelayMs: 300, demo: { serverManagedWallet: true } } }, markets: firstMarkets(2) });
    const database = tempDatabasePath(cleanup);
    const config = redemptionConfig(sim, slugs, database);
    const first = await startQuoting(sim, cleanup, config, slug);
    await fillBotBid(sim, first, slug);
    await first.stop();

    sim.control.resolveMarket(slug, { winningOutcomeIndex: 0 });
    expect(ledgerSettlement(database, slug), 'the stopped bot did not see it').toBeNull();
    await waitFor(() => when(sim.engine.payoutPosted(slug)), 10_000, 'the payout');

    const second = await startBot(config, liveEnv(sim), cleanup);
    await waitFor(async () => when((await gaugeValue(second.bot, 'outcome_maker_redemptions_total', { result: 'redeemed' })) === 1), 20_000, 'the redemption', () => redeemRequests(sim));
    expect(venueAnswers(sim)).toEqual([200]);
    expect(unexplainedRateLimits(sim)).toEqual([]);
    expect(yesHeld(sim, slug)).toBe(0);
    await waitFor(() => when(Object.keys(ladderOf(sim, slugs[1]!, 'it')).length > 0), 10_000, 'quotes in the other market');
    await second.stop();
    expect(ledgerSettlement(database, slug)).toEqual({ payoutRaw: SHARES_HELD, redeemedRaw: SHARES_HELD, receivableRaw: 0 });
  }, 60_000);
});
