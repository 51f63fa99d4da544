/**
 * The running bot's /metrics: after a short run on the simulator (the real CLI as a child process) EVERY metric
 * of METRIC_NAMES has at least one sample, each fed by a real event (a venue rejection, a lost placement answer, a
 * retried 5xx, a malformed frame, fills, requotes, a resolution whose payout is redeemed), and the exposition passes
 * the project's lint.
 */
import { expect, it } from 'vitest';
import { packageVersion } from '../../src/core/package-info.js';
import { lintExposition, METRIC_NAMES } from '../../src/metrics/index.js';
import { DEFAULT_CRYPTO_MARKETS, DEFAULT_UNDERLYINGS } from '../../src/sim/engine/index.js';
import { isQuotingLine, liveOrders, simMarketSlugs, spawnBot, startProcessSimulator, writeBotConfig } from '../support/bot-process.js';
import { addThirdParty, thirdPartyPlace } from '../support/bot-harness.js';
import { expectedRunningCode } from '../support/cli-process.js';
import { familySamples, metricsUrlOf, pollFor, scrape, stopAfterEach, sumOf, type Sample } from './ops-support.js';

const started = stopAfterEach();

it('serves every metric, each fed by a real event, and the exposition passes the lint', async () => {
  // Brisk noise takers so the bot's quotes (inside the synthetic makers') fill within seconds; a demo wallet too
  // small for every quote, so the venue rejects placements until the test tops it up.
  // Beside the generic markets, one crypto strike market priced from its underlying (the venue's oracle frames and the
  // simulator's Pyth Hermes stand-in), so the pricing metrics see real prices too.
  const venue = await startProcessSimulator({
    synthetic: { noise: { ratePerMinute: 120 } },
    // A server-managed wallet: this test follows the API redeem's metrics (the default demo wallet redeems on-chain).
    demo: { usdc: 3, serverManagedWallet: true },
    payoutDelayMs: 300,
    // Rewards scored each second and paid every 3 s, so the bot books paid epochs and reconciles them.
    rewards: { scoreIntervalSec: 1, payoutIntervalSec: 3 },
    world: {
      underlying: { underlyings: DEFAULT_UNDERLYINGS.filter((u) => u.ticker === 'ETH'), leadMs: 500 },
      markets: { ...DEFAULT_CRYPTO_MARKETS, cadences: ['daily'], strikesPerExpiry: 1, dailyHourUtc: (new Date().getUTCHours() + 12) % 24, recurring: false },
    },
  });
  started.sim = venue;
  const slugs = simMarketSlugs(venue).filter((slug) => venue.engine.market(slug)?.oracle === undefined).slice(0, 2);
  const crypto = venue.engine.markets().find((m) => m.oracle !== undefined)?.slug ?? '';
  const { configPath } = writeBotConfig(venue, {
    markets: [...slugs, crypto],
    strategy: { name: 'fixed-spread', params: { bidSpread: 0.01, askSpread: 0.01, levels: 2, levelSpacing: 0.01, orderSize: 5 } },
    orders: { filledOrderDelaySec: 0 },
    risk: { maxOpenOrders: 3 }, // two levels a side = four intents: the risk gate always blocks one
    // The deposit below lifts the unfunded sides at the next ledger check (the balances are reread then).
    maintenance: { pollIntervalSec: 0.5, ledgerCheckSec: 2 },
    rateLimits: { retry: { maxRetries: 2, initialBackoffMs: 50, maxBackoffMs: 200 } },
    redemption: { retryInitialSec: 0.2, retryMaxSec: 0.5 },
    // The venue's own reward figures read every 2 s (outcome_maker_venue_rewards_usdc) and 1 s after each 3 s payout
    // (the paid epochs: outcome_maker_venue_paid_usdc and the estimate's error); every first book over REST (a
    // resync of reason `subscribe`: outcome_maker_book_resyncs_total) rather than from the feed's first frame.
    rewards: { venuePollSec: 2, payoutCycleSec: 3, payoutReadDelaySec: 1 },
    feed: { firstBookWaitSec: 0 },
  });
  const running = spawnBot(venue, configPath);
  started.bot = running;
  const url = await metricsUrlOf(running);
  await running.waitForLine(isQuotingLine);
  const metric = async (name: string, labels: Record<string, string> = {}): Promise<number> => sumOf((await scrape(url)).samples, name, labels);

  // 1. Venue rejections: the wallet cannot fund every quote.
  await pollFor('a rejected placement', async () => ((await metric('outcome_maker_orders_rejected_total')) > 0 ? true : undefined), 10_000);
  venue.control.deposit(venue.demoAccount.profileId, { usdcRaw: 10_000_000_000 });

  // 2. A malformed book frame, a 5xx on the maintenance poll (retried), a placement whose answer is lost (unknown).
  expect(venue.control.injectFrame({ kind: 'malformed', marketSlug: slugs[0] ?? '' })).toBeGreaterThan(0);
  venue.control.failNextRequests({ status: 503, count: 1, pathPrefix: '/maintenance' });
  await pollFor(
    'a placement of unknown outcome',
    async () => {
      if ((await metric('outcome_maker_orders_unknown_total')) > 0) return true;
      // `after`: the venue books the order but answers 500. The rule may be taken by another /orders request
      // (a cancel or a status lookup); then add another.
      if (venue.control.pendingFaults().every((rule) => rule.pathPrefix !== '/orders')) {
        venue.control.failNextRequests({ status: 500, count: 1, pathPrefix: '/orders', phase: 'after' });
      }
      return undefined;
    },
    15_000,
    200,
  );

  // 3. Fills and requotes (cancels) from the synthetic flow; the maintenance poll met its 503 and retried.
  const fedByTheRun = ['outcome_maker_fills_total', 'outcome_maker_orders_canceled_total', 'outcome_maker_http_retries_total'];
  // The synthetic flow moves the fair value slowly; a step in one market makes a requote (cancels) certain.
  const moved = slugs[0] ?? '';
  const fair = venue.engine.fairValueTicks(moved);
  if (fair !== null) venue.control.setFairValue(moved, fair <= 500 ? fair + 20 : fair - 20);
  let fed = '';
  await pollFor(
    () => `fills, cancels and a retry (last seen: ${fed})`,
    async () => {
      const { samples } = await scrape(url);
      fed = fedByTheRun.map((name) => `${name}=${sumOf(samples, name)}`).join(', ');
      return fedByTheRun.every((name) => sumOf(samples, name) > 0) ? true : undefined;
    },
    // A placement the thin wallet could not fund takes its side out of funding until the next balance read (the
    // ledger check, every `maintenance.ledgerCheckSec`: 2 s here), then the brisk takers fill within seconds.
    30_000,
  );

  // 4. The crypto market: priced from both sources (their divergence published) and a fast-market trip: the simulator
  // publishes a 5 % jump of the underlying, far beyond the guard's 4σ in 5 s.
  await pollFor('the crypto market priced from the model, from both sources', async () => {
    const { samples: s } = await scrape(url);
    return sumOf(s, 'outcome_maker_quoted_from', { market: crypto, source: 'model' }) === 1 && familySamples(s, 'outcome_maker_underlying_divergence_bps').length > 0 ? true : undefined;
  }, 30_000);
  const world = venue.engine.underlying();
  if (world === null) throw new Error('no crypto world');
  world.shock('ETH', 0.05);
  await pollFor('a fast-market trip', async () => ((await metric('outcome_maker_fast_market_trips_total', { ticker: 'ETH' })) > 0 ? true : undefined), 20_000);

  // 5. A market where the account holds tokens resolves in their favour: the payout is redeemed once posted.
  // The bot buys and sells both tokens, so at any one moment it may be flat everywhere: then a third party takes one
  // of its resting bids (a BUY of the other token at the complementary price), and the account holds what it bid for.
  addThirdParty(venue);
  const takeABotBid = (): void => {
    const bid = slugs.flatMap((slug) => venue.engine.orders(venue.demoAccount.profileId, slug, ['LIVE'])).find((order) => order.side === 'BUY' && order.priceTicks !== null);
    if (bid?.priceTicks == null) return;
    const other = bid.outcome === 'YES' ? 'NO' : 'YES';
    thirdPartyPlace(venue, bid.marketSlug, { outcome: other, side: 'BUY', priceTicks: 1000 - bid.priceTicks, sizeRaw: bid.remainingSizeRaw, orderType: 'FAK' });
  };
  // One of the generic markets: the crypto market's model series must stay (a market that leaves takes its series along).
  const heldMarket = (): { slug: string; winningOutcomeIndex: 0 | 1 } | undefined =>
    slugs.flatMap((slug) => {
      const market = venue.engine.market(slug);
      const tokens = venue.engine.balances(venue.demoAccount.profileId)?.tokens ?? {};
      if (market === undefined) return [];
      const yes = tokens[market.yesTokenId]?.totalRaw ?? 0;
      const no = tokens[market.noTokenId]?.totalRaw ?? 0;
      return yes > 0 || no > 0 ? [{ slug, winningOutcomeIndex: yes >= no ? (0 as const) : (1 as const) }] : [];
    })[0];
  const held = await pollFor('the account holding tokens after a fill', async () => heldMarket() ?? void takeABotBid(), 20_000, 250);
  // What the run fed, read before the resolution: a resolved market leaves at once, and its series go with it
  // (metrics.forgetMarket), whichever of them it held (its book updates, an unknown placement's count).
  // The reward estimates (a sample every 5 s while orders rest on a fresh book), the venue's own figures (every 2 s),
  // its paid epochs reconciled (1 s after each 3 s payout) and the first books' resyncs are in before the resolution's
  // snapshot.
  const accrued = [
    'outcome_maker_reward_estimate_usdc_total',
    'outcome_maker_reward_share',
    'outcome_maker_venue_rewards_usdc',
    'outcome_maker_venue_paid_usdc',
    'outcome_maker_reward_estimate_error_usdc',
    'outcome_maker_reward_estimate_error_ratio',
    'outcome_maker_book_resyncs_total',
    // A maker fill's rebate resolved from the trade feed: the resolver's poll comes a while after the fill (no labels
    // are pre-set: the family shows once a real resolution counts). Twice missing from the snapshot on a busy machine.
    'outcome_maker_rebate_resolutions_total',
  ];
  // Positions are published soon after a fill (off the quoting path), not in the fill's own turn: waited for too.
  await pollFor('reward estimates, the venue figures, the first resyncs and the published positions', async () => {
    const { samples: s } = await scrape(url);
    const published = s.some((sample) => sample.name === 'outcome_maker_position_shares' && sample.value > 0) && sumOf(s, 'outcome_maker_exposure_usdc') > 0;
    return published && accrued.every((name) => familySamples(s, name).length > 0) ? true : undefined;
  }, 20_000);
  const { text, samples } = await scrape(url);
  venue.control.resolveMarket(held.slug, { winningOutcomeIndex: held.winningOutcomeIndex });
  const redeemed = await pollFor(
    'the redemption',
    async () => {
      const read = await scrape(url);
      return sumOf(read.samples, 'outcome_maker_redemptions_total', { result: 'redeemed' }) === 1 && sumOf(read.samples, 'outcome_maker_redemptions_pending') === 0 ? read : undefined;
    },
    15_000,
  );

  expect(lintExposition(text)).toEqual([]);
  expect(lintExposition(redeemed.text)).toEqual([]);
  // Every metric served a sample: before the resolution, or (the redemption's) once it was redeemed.
  const missing = METRIC_NAMES.filter((name) => familySamples(samples, name).length === 0 && familySamples(redeemed.samples, name).length === 0);
  expect(missing).toEqual([]);
  expect(sumOf(redeemed.samples, 'outcome_maker_redeemed_usdc_total', { market: held.slug })).toBeGreaterThan(0);

  const value = (name: string, labels: Record<string, string> = {}): number => sumOf(samples, name, labels);
  // The build that runs: package.json's version, and the bundle when `npm run build` made it (bin/outcome-maker.mjs).
  expect(familySamples(samples, 'outcome_maker_build_info').map((s) => s.labels)).toEqual([{ version: packageVersion(), code: expectedRunningCode() }]);
  expect(value('outcome_maker_feed_connected')).toBe(1);
  expect(value('outcome_maker_feed_malformed_frames_total', { event: 'orderbookUpdate' })).toBeGreaterThanOrEqual(1);
  expect(value('outcome_maker_http_retries_total', { reason: 'server_error' })).toBeGreaterThanOrEqual(1);
  // The 500 met an order request: a placement, or a requote's cancel-replace batch (both under POST /orders).
  const orderRequests500 = samples.filter((s) => s.name === 'outcome_maker_http_requests_total' && s.labels['status'] === '500' && (s.labels['endpoint'] ?? '').startsWith('POST /orders'));
  expect(orderRequests500.reduce((sum, s) => sum + s.value, 0)).toBeGreaterThanOrEqual(1);
  expect(value('outcome_maker_orders_placed_total', { side: 'BUY' })).toBeGreaterThan(0);
  expect(value('outcome_maker_risk_blocks_total')).toBeGreaterThan(0);
  expect(value('outcome_maker_requote_latency_seconds_count')).toBeGreaterThan(0);
  expect(value('outcome_maker_fill_volume_shares_total')).toBeGreaterThan(0);
  for (const slug of slugs) {
    expect(value('outcome_maker_book_resyncs_total', { market: slug, reason: 'subscribe' })).toBeGreaterThanOrEqual(1);
    expect(value('outcome_maker_book_updates_total', { market: slug })).toBeGreaterThan(0);
  }
  // Positions published after the fills: the gauge agrees with the fills counted.
  const positions: Sample[] = samples.filter((s) => s.name === 'outcome_maker_position_shares' && s.value > 0);
  expect(positions.length).toBeGreaterThan(0);
  expect(value('outcome_maker_exposure_usdc')).toBeGreaterThan(0);

  const stopped = await running.stop('SIGTERM');
  expect(stopped.code).toBe(0);
  expect(liveOrders(venue, [...slugs, crypto])).toEqual([]);
}, 180_000);
