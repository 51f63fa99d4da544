/**
 * Issue 31 items 2 and 4 against the simulator, the whole bot: while the bot's quotes rest within a rewardable
 * market's band, the accrual records its minute (score, the others' score, share, the minute's pool) in the ledger;
 * a maker fill gets its rebate estimate (the taker's fee × the rebate rate); `report` (runReport) shows rewards and
 * rebates beside trading PnL with a total that includes them, and /metrics counts them.
 */
import BetterSqlite3 from 'better-sqlite3';
import { describe, it } from 'vitest';
import { runReport } from '../../src/ledger/report.js';
import { cleanupAfterTest, startBookedSim, startLiveBot, tempDatabasePath, thirdPartyPlace, waitFor, when } from '../support/bot-harness.js';
import type { RunningSimulator } from '../../src/sim/index.js';

/** A single market whose band reaches the bot's quotes 2 cents from the mid, with a pool and a minimum ≤ 100 shares. */
function rewardableMarket(sim: RunningSimulator): string[] {
  const market = sim.engine
    .markets()
    .find((m) => m.groupSlug === undefined && m.tradable && m.isRewardable && m.settings.dailyRewardRaw > 0 && m.settings.maxSpreadTicks >= 25 && m.settings.minSizeRaw <= 100_000_000);
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

describe('rewards and rebates of the live bot', () => {
  it('accrues the minute\'s reward share and a maker fill\'s rebate; report and /metrics show them', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const database = tempDatabasePath(cleanup);
    const { sim, slug } = await startBookedSim(cleanup, { sim: { seed: 31, markets: 12 }, markets: rewardableMarket });
    const market = sim.engine.market(slug)!;
    const shares = Math.max(5, market.settings.minSizeRaw / 1e6);
    const running = await startLiveBot(sim, cleanup, { markets: [slug], database, strategy: { orderSize: shares }, rewards: { rebateRateFallback: 0.25 } });

    // The bot's bid 0.480 and ask 0.520 rest 20 ticks from the mid 0.500, inside the band; the third party's quotes
    // (0.460 / 0.540) are 40 ticks away, outside it: the bot holds the whole pool.
    const [minute] = await waitFor(
      () => {
        const seen = rows<MinuteRow>(database, `SELECT bot_score, others_score, share, pool_raw, reward_raw FROM reward_minutes`);
        return when(seen.length > 0) ? seen : undefined;
      },
      15_000,
      'a reward minute in the ledger',
      () => running.warnings().slice(-5),
    );
    const pool = Math.floor(market.settings.dailyRewardRaw / 1440);
    expect(minute).toMatchObject({ others_score: 0, share: 1, pool_raw: pool, reward_raw: pool });
    expect(minute!.bot_score).toBeGreaterThan(0);

    // The third party sells YES into the bot's bid (buys NO at 0.520): a maker fill of 5 shares at 0.480.
    const taker = thirdPartyPlace(sim, slug, { outcome: 'NO', side: 'BUY', priceTicks: 520, sizeRaw: 5_000_000, orderType: 'FAK' });
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
    expect(rebate!.rebate_rate).toBe(0.25);
    expect(rebate!.rebate_raw).toBe(Math.round(rebate!.taker_fee_raw * 0.25));
    expect(rebate!.rebate_raw).toBeGreaterThan(0);

    const exposition = await running.bot.registry.metrics();
    expect(exposition).toMatch(new RegExp(`outcome_maker_reward_estimate_usdc_total\\{market="${slug}"\\} 0\\.0*[1-9]`));
    expect(exposition).toContain(`outcome_maker_rebate_estimate_usdc_total{market="${slug}"} ${rebate!.rebate_raw / 1e6}`);
    await running.stop();

    const doc = JSON.parse(await runReport({ db: database, format: 'json' })) as { earnings: { markets: { market: string; trading: string | null; rewards: string; rebates: string; total: string }[] } };
    const row = doc.earnings.markets.find((m) => m.market === slug);
    expect(row).toBeDefined();
    expect(Number(row!.rewards)).toBeGreaterThan(0);
    expect(Number(row!.rebates)).toBe(rebate!.rebate_raw / 1e6);
    expect(Number(row!.total)).toBeCloseTo(Number(row!.trading ?? 0) + Number(row!.rewards) + Number(row!.rebates), 6);
    const table = await runReport({ db: database });
    expect(table).toContain('rewards and rebates are ESTIMATES');
  });
});
