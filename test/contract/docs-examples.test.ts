/**
 * The venue's API reference examples (../shared/venue-samples/docs-examples/, skipped when that directory is absent)
 * through the bot's real client: `GET /portfolio/positions` served over 127.0.0.1, read by `ExchangeApi.getPortfolio`
 * and by the reward poller's reading (`venueRewardsOf`). The example settles raw 6-decimal amounts (50.25 USDC of
 * today's rewards), the epoch's `userRewards` as the account's (0.15 USDC of a 1.5 USDC pool), and that a market
 * without a slug, an AMM element without one and an empty group entry are skipped and reported with their paths,
 * never a failure of the whole answer.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { venueRewardsOf } from '../../src/rewards/venue-rewards.js';
import { RequestLimiter } from '../../src/exchange/limiter.js';
import { connectExchange, type ExchangeClient } from '../../src/exchange/client.js';
import { startRecordingServer, type RecordingServer } from '../support/recording-server.js';
import { REPLAY_CREDENTIALS } from './replay.js';
import { samplesDir } from './samples.js';

const EXAMPLE = resolve(samplesDir(), 'docs-examples', 'portfolio-positions.json');
const present = existsSync(EXAMPLE);

describe.skipIf(!present)('the API reference example of GET /portfolio/positions, through the real client', () => {
  let server: RecordingServer;
  let client: ExchangeClient;
  const skips: { endpoint: string; skipped: readonly { path: string; reason: string }[] }[] = [];
  const body: unknown = present ? JSON.parse(readFileSync(EXAMPLE, 'utf8')) : null;

  beforeAll(async () => {
    server = await startRecordingServer(() => ({ status: 200, body }));
    client = await connectExchange({
      baseUrl: server.url,
      credentials: REPLAY_CREDENTIALS,
      signer: { privateKey: `0x${'11'.repeat(32)}` },
      profileId: 1,
      transport: { limiter: new RequestLimiter({ minTimeMs: 0 }), retry: { maxServerErrorRetries: 0 }, observer: { onSkippedParts: (endpoint, skipped) => void skips.push({ endpoint, skipped }) } },
    });
  });
  afterAll(async () => {
    client.transport.close();
    await server.close();
  });

  it("reads 50.25 USDC of today's rewards and a paid epoch of 0.15 USDC for the account (not the 1.5 USDC pool)", async () => {
    const portfolio = await client.api.getPortfolio();
    expect(portfolio.rewards).toMatchObject({ todaysRewardsRaw: 50_250_000, totalUnpaidRewardsRaw: 200_750_000, lastEpochRewardsRaw: 150_500_000 });
    // Read on 3 January 2024: the epoch of 1 January (a day from its `timestamp`) was paid at 22:30 UTC on the 2nd.
    const report = venueRewardsOf(portfolio, Date.UTC(2024, 0, 3));
    expect(report.todayTotalRaw).toBe(50_250_000);
    expect(report.paid).toEqual([
      { marketSlug: '*', epochStartMs: Date.UTC(2024, 0, 1), epochEndMs: Date.UTC(2024, 0, 2), rewardsRaw: 150_000, rebatesRaw: null, paidAtMs: null, source: 'rewardsByEpoch' },
    ]);
    expect(report.shapes?.account).toBe('start=timestamp rewards=userRewards');
    expect(report.unreadableEpochs).toBe(0);
    // Before 22:30 on the 2nd the same epoch is not paid yet.
    expect(venueRewardsOf(portfolio, Date.UTC(2024, 0, 2, 22, 29)).paid).toEqual([]);
  });

  it('skips what it cannot place or read, each with its path; the rest of the answer stands', async () => {
    skips.length = 0;
    const portfolio = await client.api.getPortfolio();
    // The clob market has no slug and its condition_id is a placeholder: matched by no known market.
    expect(portfolio.clob).toEqual([]);
    expect(portfolio.unreadableGroupEntries).toBe(1);
    const paths = portfolio.skipped.map((s) => s.path);
    expect(paths).toEqual(['amm[0].market.slug', 'clob[0].market']);
    expect(skips).toEqual([{ endpoint: 'GET /portfolio/positions', skipped: portfolio.skipped }]);
  });

  it('places a position without a slug by its condition id when the caller knows the market', async () => {
    const conditionId = `0x${'ab'.repeat(32)}`;
    const withId = structuredClone(body) as { clob: { market: Record<string, unknown>; tokensBalance: unknown }[] };
    const first = withId.clob[0];
    if (first === undefined) throw new Error('the example has a clob element');
    first.market['condition_id'] = conditionId.toUpperCase().replace('0X', '0x');
    first.tokensBalance = { yes: '75000000', no: '0' };
    server.enqueue({ status: 200, body: withId });
    const positions = await client.api.getPositions([{ slug: 'known-market', conditionId }]);
    expect(positions).toEqual([expect.objectContaining({ marketSlug: 'known-market', yesBalanceRaw: 75_000_000, noBalanceRaw: 0, yes: { cost: 75_000_000, fillPrice: 750_000, realisedPnl: 0, unrealizedPnl: 25_000_000 } })]);
  });
});
