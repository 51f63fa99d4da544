/**
 * Issue 31 items 2, 3 and 4 against the simulator, the whole bot: while the bot's quotes rest within a rewardable
 * market's band, the accrual samples its minute every 5 s (score, the others' score, the time-weighted share, the
 * minute's pool) into the ledger; a maker fill gets its rebate estimate (the taker's fee × the market's rebate rate);
 * the simulator pays both on a short cycle (scored each second, paid every 3 s) and the bot, reading the portfolio
 * after each payout, books each paid epoch once and reconciles it against its estimates of the same spans; `report`
 * (runReport) shows rewards and rebates beside trading PnL with a total that includes them, and the reconciliation;
 * /metrics counts them and the estimate's error. (OM_MINUTE_SCORING=first-sample runs it with the old minute scoring,
 * to measure the two side by side: docs/rewards.md.) A maker fill by complementary match (the taker BOUGHT the other
 * token) has its rebate resolved from the public trade feed: the taker's side, token and price, booked once.
 */
import BetterSqlite3 from 'better-sqlite3';
import { describe, it } from 'vitest';
import { runReport } from '../../src/ledger/report.js';
import { cleanupAfterTest, startBookedSim, startLiveBot, tempDatabasePath, thirdPartyPlace, waitFor, when } from '../support/bot-harness.js';
import type { RunningSimulator } from '../../src/sim/index.js';
import { generateMarkets } from '../../src/sim/engine/market-gen.js';
import type { MarketSpec } from '../../src/sim/engine/index.js';
import { portfolioRewardsWire } from '../../src/sim/server/rewards-wire.js';

const SEED = 31;
const REBATE_RATE = 0.25;
/** The minute scoring under test (the default; `first-sample` only to measure the old rule beside it). */
const MINUTE_SCORING = process.env['OM_MINUTE_SCORING'] === 'first-sample' ? 'first-sample' : 'time-weighted';

/** A single market whose band reaches the bot's quotes 2 cents from the mid, with a pool and a minimum ≤ 100 shares. */
function isRewardable(m: MarketSpec): boolean {
  return m.groupSlug === undefined && m.isRewardable && m.settings.dailyRewardRaw > 0 && m.settings.maxSpreadTicks >= 25 && m.settings.maxSpreadTicks < 40 && m.settings.minSizeRaw <= 100_000_000;
}

/** The generated markets, the rewardable one paying makers a quarter of the taker fees (as the crypto markets do). */
function marketsWithRebates(): MarketSpec[] {
  const specs = generateMarkets(12, SEED, Date.now());
  const chosen = specs.find(isRewardable);
  if (chosen === undefined) throw new Error('no rewardable market in this simulator');
  return specs.map((m) => (m === chosen ? { ...m, settings: { ...m.settings, rebateRate: REBATE_RATE } } : m));
}

function rewardableMarket(sim: RunningSimulator): string[] {
  const market = sim.engine.markets().find((m) => m.tradable && isRewardable(m) && m.settings.rebateRate === REBATE_RATE);
  if (market === undefined) throw new Error('no rewardable market in this simulator');
  return [market.slug];
}

interface MinuteRow {
  readonly bot_score: number;
  readonly others_score: number;
  readonly share: number;
  readonly pool_raw: number;
  readonly reward_raw: number;
}
interface ReconciledJson {
  readonly market: string;
  readonly epochs: number;
  readonly rewards: { readonly estimate: string; readonly paid: string | null; readonly error: string | null };
  readonly rebates: { readonly estimate: string; readonly paid: string | null; readonly error: string | null };
}

interface RebateRow {
  readonly fee_source: string;
  readonly taker_fee_bps: number;
  readonly taker_fee_raw: number;
  readonly rebate_rate: number;
  readonly rebate_raw: number;
}

function rows<T>(path: string, sql: string): T[] {
  const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/**
 * The simulator (rewards scored each second, paid every 3 s, taker fees on the curve) with the rewardable market
 * booked by a third party, and the bot quoting it with these `rewards` settings (payouts read 1 s after each).
 */
async function startRig(cleanup: ReturnType<typeof cleanupAfterTest>, rewards: Record<string, unknown>) {
  const database = tempDatabasePath(cleanup);
  const sim = { seed: SEED, markets: marketsWithRebates(), extra: { rewards: { enabled: true, scoreIntervalSec: 1, payoutIntervalSec: 3 }, fees: { model: 'curve' as const } } };
  const { sim: venue, slug } = await startBookedSim(cleanup, { sim, markets: rewardableMarket });
  const market = venue.engine.market(slug)!;
  const shares = Math.max(5, market.settings.minSizeRaw / 1e6);
  const running = await startLiveBot(venue, cleanup, { markets: [slug], database, strategy: { orderSize: shares }, rewards: { payoutCycleSec: 3, payoutReadDelaySec: 1, ...rewards } });
  return { database, venue, slug, market, running };
}

describe('rewards and rebates of the live bot', () => {
  it('accrues reward samples and a maker fill\'s rebate; the venue\'s payouts are booked and reconciled; report and /metrics show them', async ({ expect, onTestFinished }) => {
    // takerBuyShare 0: a maker BUY's prior is the same-token estimate (its taker sold), as this fill's taker does.
    const { database, venue, slug, market, running } = await startRig(cleanupAfterTest(onTestFinished), { minuteScoring: MINUTE_SCORING, takerBuyShare: 0 });

    // The bot's bid 0.480 and ask 0.520 rest 20 ticks from the mid 0.500, inside the band; the third party's quotes
    // (0.460 / 0.540) are 40 ticks away, outside it: the bot holds the whole pool.
    const [minute] = await waitFor(
      () => {
        const seen = rows<MinuteRow & { samples: number }>(database, `SELECT bot_score, others_score, share, pool_raw, reward_raw, samples FROM reward_minutes`);
        return when(seen.length > 0) ? seen : undefined;
      },
      15_000,
      'a reward minute in the ledger',
      () => running.warnings().slice(-5),
    );
    // Each 5 s sample (the bot alone in the band: share 1) adds 1/12 of the minute's pool.
    const pool = Math.floor(market.settings.dailyRewardRaw / 1440);
    const samplePool = Math.floor(pool / 12);
    expect(minute).toMatchObject({ others_score: 0, pool_raw: pool });
    if (MINUTE_SCORING === 'time-weighted') {
      expect(minute!.share).toBeCloseTo(minute!.samples / 12, 9);
      expect(Math.abs(minute!.reward_raw - minute!.samples * samplePool)).toBeLessThanOrEqual(minute!.samples);
    }
    expect(minute!.bot_score).toBeGreaterThan(0);

    // A taker sells YES into the bot's bid: a maker fill of 5 shares at 0.480.
    // A taker that pays the venue's fee (its ceiling 300 bps: the curve's rate applies), so the maker earns a rebate; it
    // sells YES it holds (the same token as the bot's bid: no complementary match, whose fee the maker cannot see).
    const added = venue.engine.addAccount({ profileId: 78, address: '0x00000000000000000000000000000000000000b8', usdcRaw: 0, tokens: { [market.yesTokenId]: 50_000_000 }, feeRateBps: 300 });
    expect(added.ok).toBe(true);
    const taker = thirdPartyPlace(venue, slug, { outcome: 'YES', side: 'SELL', priceTicks: 480, sizeRaw: 5_000_000, orderType: 'FAK', profileId: 78, feeRateBps: 300 });
    expect(taker.filledSizeRaw).toBe(5_000_000);
    const [rebate] = await waitFor(
      () => {
        const seen = rows<RebateRow>(database, `SELECT fee_source, taker_fee_bps, taker_fee_raw, rebate_rate, rebate_raw FROM maker_rebates`);
        return when(seen.length > 0) ? seen : undefined;
      },
      10_000,
      'a maker rebate in the ledger',
      () => running.warnings().slice(-5),
    );
    // The fee on the fill's notional (5 × 0.48 = 2.4 USDC) at the reported or the curve's rate, a quarter of it back.
    expect(rebate!.taker_fee_raw).toBe(Math.round((2_400_000 * rebate!.taker_fee_bps) / 10_000));
    expect(rebate!.rebate_rate).toBe(REBATE_RATE);
    expect(rebate!.rebate_raw).toBe(Math.round(rebate!.taker_fee_raw * REBATE_RATE));
    expect(rebate!.rebate_raw).toBeGreaterThan(0);

    // The simulator pays every 3 s; the bot reads the portfolio 1 s after each payout and books the paid epochs. Wait
    // for the epoch holding the rebate, and three more, until more than 3 samples' pool was paid (the bound below is 2).
    const paidRebateAt = await waitFor(
      () => {
        const seen = rows<{ n: number; rebates: number | null }>(database, `SELECT COUNT(*) AS n, SUM(rebates_raw) AS rebates FROM venue_payouts WHERE market_slug = '*'`)[0];
        return seen !== undefined && (seen.rebates ?? 0) > 0 ? seen.n : undefined;
      },
      15_000,
      'the paid rebate in the ledger',
      () => ({ payouts: rows(database, `SELECT * FROM venue_payouts`), warnings: running.warnings().slice(-5) }),
    );
    const paidNow = (): { n: number; rewards: number | null } => rows<{ n: number; rewards: number | null }>(database, `SELECT COUNT(*) AS n, SUM(rewards_raw) AS rewards FROM venue_payouts WHERE market_slug = '*'`)[0]!;
    await waitFor(() => when(paidNow().n >= paidRebateAt + 3 && (paidNow().rewards ?? 0) > 3 * samplePool), 20_000, 'three more payouts and 3 samples of pool paid', paidNow);

    // The documented shapes end to end: the simulator answers `rewardsByEpoch` as the API reference shows it (raw
    // integer strings, `{epochId, timestamp, totalRewards, userRewards, earnedPercent}`), and every epoch the bot booked
    // for the account is the account's `userRewards` of that epoch, from its `timestamp` and a cycle's length.
    const wire = portfolioRewardsWire(venue.engine.rewards(venue.demoAccount.profileId));
    const epochs = wire['rewardsByEpoch'] as Record<string, unknown>[];
    expect(Object.keys(epochs[0] ?? {}).sort()).toEqual(['earnedPercent', 'epochId', 'timestamp', 'totalRewards', 'userRebates', 'userRewards']);
    expect(wire['todaysRewards']).toMatch(/^\d+$/);
    const booked = rows<{ epoch_start_ms: number; epoch_end_ms: number; rewards_raw: number; source: string }>(database, `SELECT epoch_start_ms, epoch_end_ms, rewards_raw, source FROM venue_payouts WHERE market_slug = '*'`);
    expect(booked.length).toBeGreaterThan(0);
    for (const row of booked) {
      const sent = epochs.find((e) => Date.parse(String(e['timestamp'])) === row.epoch_start_ms);
      expect(row).toEqual({ epoch_start_ms: row.epoch_start_ms, epoch_end_ms: row.epoch_start_ms + 3_000, rewards_raw: Number(sent?.['userRewards']), source: 'rewardsByEpoch' });
    }

    const exposition = await running.bot.registry.metrics();
    expect(exposition).toMatch(new RegExp(`outcome_maker_reward_estimate_usdc_total\\{market="${slug}"\\} 0\\.0*[1-9]`));
    expect(exposition).toContain(`outcome_maker_rebate_estimate_usdc_total{market="${slug}"} ${rebate!.rebate_raw / 1e6}`);
    expect(exposition).toMatch(/outcome_maker_reward_estimate_error_usdc\{market="\*",kind="rewards"\} -?\d/);
    await running.stop();

    const doc = JSON.parse(await runReport({ db: database, format: 'json' })) as {
      earnings: { markets: { market: string; trading: string | null; rewards: string; rebates: string; total: string }[] };
      reconciliation: { markets: ReconciledJson[] };
    };
    const row = doc.earnings.markets.find((m) => m.market === slug);
    expect(row).toBeDefined();
    expect(Number(row!.rewards)).toBeGreaterThan(0);
    expect(Number(row!.rebates)).toBe(rebate!.rebate_raw / 1e6);
    expect(Number(row!.total)).toBeCloseTo(Number(row!.trading ?? 0) + Number(row!.rewards) + Number(row!.rebates), 6);
    // The reconciliation over every paid epoch (the account's total; the market's own row agrees with it). Rebates: the
    // venue pays rate × the taker's fee, the bot estimates the same product from the same fee curve: equal within the
    // rounding of one fill. Rewards: the bot is alone in the band, so venue and bot differ only in WHEN they look —
    // the simulator scores each second, the bot samples every 5 s for 5 s of pool — which moves at most one sample's
    // pool across each edge of the reconciled span (its start and its end): |error| ≤ 2 samples' pool. (Measured: the
    // bot's first sample comes up to 5 s after its orders rest, so a short run under-estimates by about half a sample.)
    const total = doc.reconciliation.markets.find((r) => r.market === '*');
    const own = doc.reconciliation.markets.find((r) => r.market === slug);
    console.log(`reconciled over ${total?.epochs} epochs: rewards est. ${total?.rewards.estimate} paid ${total?.rewards.paid} (error ${total?.rewards.error}, bound ${(2 * samplePool) / 1e6}); rebates est. ${total?.rebates.estimate} paid ${total?.rebates.paid}`);
    expect(total?.epochs).toBeGreaterThanOrEqual(5);
    const raw = (usdc: string | null): number => Math.round(Number(usdc) * 1e6);
    expect(raw(total!.rebates.paid)).toBeGreaterThan(0);
    expect(Math.abs(raw(total!.rebates.error))).toBeLessThanOrEqual(1);
    expect(raw(total!.rewards.paid)).toBeGreaterThan(3 * samplePool);
    expect(raw(total!.rewards.estimate)).toBeGreaterThan(0);
    expect(Math.abs(raw(total!.rewards.error))).toBeLessThanOrEqual(2 * samplePool);
    expect(own?.rewards.paid).toBe(total!.rewards.paid);
    const table = await runReport({ db: database });
    expect(table).toContain('rewards and rebates are ESTIMATES');
    expect(table).toContain('Reconciliation: what the venue PAID per epoch beside the ESTIMATES of the same epochs');
  });

  it('resolves a complementary match from the trade feed: the taker bought NO at 0.52 against the bot\'s YES bid at 0.48', async ({ expect, onTestFinished }) => {
    const { database, venue, slug, market, running } = await startRig(cleanupAfterTest(onTestFinished), { takerBuyShare: 0.8 });
    await waitFor(() => when(venue.engine.book(slug)?.bids.some((l) => l.priceTicks === 480) === true), 15_000, 'the bot\'s bid at 0.480');

    const added = venue.engine.addAccount({ profileId: 79, address: '0x00000000000000000000000000000000000000b9', usdcRaw: 10_000_000, tokens: {}, feeRateBps: 300 });
    expect(added.ok).toBe(true);
    const taker = thirdPartyPlace(venue, slug, { outcome: 'NO', side: 'BUY', priceTicks: 520, sizeRaw: 5_000_000, orderType: 'FAK', profileId: 79, feeRateBps: 300 });
    expect(taker.filledSizeRaw).toBe(5_000_000);
    const [resolved] = await waitFor(
      () => {
        const seen = rows<RebateRow & { resolution: string; match_kind: string; taker_side: string; prior_rebate_raw: number }>(
          database,
          `SELECT fee_source, taker_fee_bps, taker_fee_raw, rebate_rate, rebate_raw, resolution, match_kind, taker_side, prior_rebate_raw FROM maker_rebates WHERE resolution = 'trade'`,
        );
        return when(seen.length > 0) ? seen : undefined;
      },
      15_000,
      'the maker rebate resolved from the trade feed',
      () => ({ rebates: rows(database, 'SELECT * FROM maker_rebates'), warnings: running.warnings().slice(-5) }),
    );
    // The simulator's feed names the taker's token (NO), side (BUY) and price (0.52), as the spec's MarketTrade does.
    expect(venue.engine.trades([slug])[0]).toMatchObject({ side: 0, tokenId: market.noTokenId, price: 0.52, matchedSize: '5000000' });
    // The taker's rate (the frame's effectiveFeeBps) on ITS notional, 5 × 0.52 = 2.6 USDC, a quarter of it back.
    expect(resolved).toMatchObject({ fee_source: 'trade', match_kind: 'complementary', taker_side: 'BUY', rebate_rate: REBATE_RATE });
    expect(resolved!.taker_fee_raw).toBe(Math.round((2_600_000 * resolved!.taker_fee_bps) / 10_000));
    expect(resolved!.rebate_raw).toBe(Math.round(resolved!.taker_fee_raw * REBATE_RATE));
    // Before the trade was read: the prior's blend of a same-token taker (on 5 × 0.48) and a complementary one (5 × 0.52).
    const feeOn = (notionalRaw: number): number => Math.round((notionalRaw * resolved!.taker_fee_bps) / 10_000);
    expect(resolved!.prior_rebate_raw).toBe(Math.round(Math.round(0.2 * feeOn(2_400_000) + 0.8 * feeOn(2_600_000)) * REBATE_RATE));

    const exposition = await running.bot.registry.metrics();
    expect(exposition).toContain('outcome_maker_rebate_fills{state="trade"} 1');
    expect(exposition).toContain('outcome_maker_rebate_resolutions_total{outcome="trade",match="complementary"} 1');
    // The paid epoch holding the rebate, then the report: the venue paid what the resolved estimate says.
    await waitFor(
      () => when((rows<{ rebates: number | null }>(database, `SELECT SUM(rebates_raw) AS rebates FROM venue_payouts WHERE market_slug = '*'`)[0]?.rebates ?? 0) > 0),
      15_000,
      'the paid rebate in the ledger',
    );
    await running.stop();
    const doc = JSON.parse(await runReport({ db: database, format: 'json' })) as {
      reconciliation: { markets: (ReconciledJson & { rebateFills: { fills: number; resolvedFromTrades: number; priorEstimate: string } })[] };
    };
    const total = doc.reconciliation.markets.find((r) => r.market === '*');
    expect(total?.rebateFills).toMatchObject({ fills: 1, resolvedFromTrades: 1 });
    const raw = (usdc: string | null): number => Math.round(Number(usdc) * 1e6);
    expect(raw(total!.rebates.estimate)).toBe(resolved!.rebate_raw);
    expect(Math.abs(raw(total!.rebates.error))).toBeLessThanOrEqual(2);
  });
});
