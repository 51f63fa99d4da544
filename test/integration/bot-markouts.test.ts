/**
 * Issue 23 item 1 against the simulator, the whole bot: a fill of the bot's quote is judged as time passes — its
 * markout at 0 s (the edge at fill time) and 1 s against the book mid without the bot's own orders lands in the
 * ledger, in `report` (runReport, what the CLI command runs) and in the markout histogram of /metrics.
 */
import BetterSqlite3 from 'better-sqlite3';
import { describe, it } from 'vitest';
import { runReport } from '../../src/ledger/report.js';
import { DEFAULT_CRYPTO_MARKETS, DEFAULT_UNDERLYINGS } from '../../src/sim/engine/index.js';
import {
  cleanupAfterTest,
  liveOrders,
  startHarnessSim,
  startLiveBot,
  startQuotingBot,
  tempDatabasePath,
  thirdPartyPlace,
  waitFor,
  when,
  yesTerms,
} from '../support/bot-harness.js';

interface MarkoutRow {
  readonly horizon_ms: number;
  readonly reference: string;
  readonly ref_micros: number | null;
  readonly missing_reason: string | null;
}

/** A daily expiry 12 hours from now, whatever the time of day: nothing settles during the test. */
const dailyHour = (new Date().getUTCHours() + 12) % 24;

function markoutRows(path: string): MarkoutRow[] {
  const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(`SELECT horizon_ms, reference, ref_micros, missing_reason FROM fill_markouts ORDER BY horizon_ms`).all() as MarkoutRow[];
  } finally {
    db.close();
  }
}

describe('markouts of the live bot', () => {
  it('a fill of the bot\'s bid is marked out at 0 s and 1 s against the others\' mid: ledger, report and /metrics', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const database = tempDatabasePath(cleanup);
    const { sim, slug, running } = await startQuotingBot(cleanup, { database });
    // The third party sells YES into the bot's bid (BUY YES 5 at 0.480) by buying NO at 0.520; its own quotes
    // (0.460 / 0.540) stay: the book mid without the bot's orders is 0.500.
    const taker = thirdPartyPlace(sim, slug, { outcome: 'NO', side: 'BUY', priceTicks: 520, sizeRaw: 5_000_000, orderType: 'FAK' });
    expect(taker.filledSizeRaw).toBe(5_000_000);
    const rows = await waitFor(
      () => {
        const seen = markoutRows(database);
        return when(seen.some((r) => r.horizon_ms === 1_000)) ? seen : undefined;
      },
      15_000,
      'the 1 s markout in the ledger',
      () => ({ rows: markoutRows(database), warnings: running.warnings().slice(-5) }),
    );
    // Bought at 0.480 with the others' mid at 0.500: +0.02 × 5 = 0.1 USDC at fill time, and still at 1 s.
    expect(rows).toEqual([
      { horizon_ms: 0, reference: 'mid', ref_micros: 500_000, missing_reason: null },
      { horizon_ms: 1_000, reference: 'mid', ref_micros: 500_000, missing_reason: null },
    ]);

    const report = await runReport({ db: database, wide: true });
    const line = report.split('\n').find((l) => l.startsWith(slug) && l.includes(' mid '));
    expect(line, report).toBeDefined();
    expect(line?.split(/\s+/).slice(1, 8)).toEqual(['mid', '1', '0', 'n/a', '0.1', '0.1', '0.1']);
    expect(report).toMatch(/\nfixed-spread\s+mid\s+1\s/);

    const exposition = await running.bot.registry.metrics();
    expect(exposition).toContain('outcome_maker_fill_markout_usdc_count{horizon="0s",reference="mid"} 1');
    expect(exposition).toContain('outcome_maker_fill_markout_usdc_sum{horizon="1s",reference="mid"} 0.1');
    expect(exposition).toContain('outcome_maker_fill_markout_usdc_bucket{le="0.1",horizon="1s",reference="mid"} 1');
    expect(exposition).toContain('outcome_maker_fill_markout_usdc_bucket{le="0.05",horizon="1s",reference="mid"} 0');

    // Stopped and started again on the same ledger: nothing is written twice, the open horizons go on (the 10 s one
    // is sampled by the new run, or recorded as missing if it fell due while no bot ran: never guessed).
    await running.stop();
    const restarted = await startLiveBot(sim, cleanup, { markets: [slug], database });
    const after = await waitFor(
      () => {
        const seen = markoutRows(database);
        return when(seen.some((r) => r.horizon_ms === 10_000)) ? seen : undefined;
      },
      20_000,
      'the 10 s markout after the restart',
      () => ({ rows: markoutRows(database), warnings: restarted.warnings().slice(-5) }),
    );
    expect(after.map((r) => r.horizon_ms)).toEqual([0, 1_000, 10_000]);
    const tenSeconds = after[2];
    expect(tenSeconds?.ref_micros === null ? tenSeconds.missing_reason : tenSeconds?.ref_micros).toBeOneOf([500_000, 'bot-down']);
    await restarted.stop();
  }, 60_000);

  it('a fill in a priced crypto market is also judged against the model\'s fair value', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const sim = await startHarnessSim({
      markets: [],
      synthetic: { makers: { enabled: true }, noise: { ratePerMinute: 0 }, informed: { ratePerMinute: 0 } },
      extra: {
        world: {
          underlying: { underlyings: DEFAULT_UNDERLYINGS.filter((u) => u.ticker === 'BTC'), leadMs: 500, makerLagMs: 0 },
          markets: { ...DEFAULT_CRYPTO_MARKETS, cadences: ['daily'], strikesPerExpiry: 1, dailyHourUtc: dailyHour, recurring: false },
        },
      },
    });
    cleanup.add(() => sim.close());
    const slug = sim.engine.markets()[0]!.slug;
    const database = tempDatabasePath(cleanup);
    const running = await startLiveBot(sim, cleanup, { markets: [slug], database, strategy: { bidSpread: 0.005, askSpread: 0.005 }, pricing: { guard: { enabled: false } } });
    const bid = await waitFor(() => liveOrders(sim, slug, 'it').find((o) => yesTerms(o.order).side === 'bid'), 20_000, 'the bot\'s bid');
    const bidTicks = yesTerms(bid.order).ticks;
    const ahead = (sim.engine.book(slug)?.bids ?? []).filter((l) => l.priceTicks >= bidTicks).reduce((sum, l) => sum + l.sizeRaw, 0);
    thirdPartyPlace(sim, slug, { outcome: 'NO', side: 'BUY', priceTicks: 1000 - bidTicks, sizeRaw: ahead, orderType: 'FAK' });
    const rows = await waitFor(
      () => {
        const seen = markoutRows(database).filter((r) => r.horizon_ms === 0);
        return when(seen.some((r) => r.reference === 'model')) ? seen : undefined;
      },
      15_000,
      'the 0 s markouts against the model',
      () => ({ rows: markoutRows(database), warnings: running.warnings().slice(-5) }),
    );
    // Each fill has one 0 s row per reference: the others' mid and the model's fair value, both read (in millionths).
    const model = rows.filter((r) => r.reference === 'model');
    expect(model.length).toBe(rows.filter((r) => r.reference === 'mid').length);
    for (const row of rows) {
      expect(row.missing_reason).toBeNull();
      expect(row.ref_micros).toBeGreaterThan(0);
      expect(row.ref_micros).toBeLessThan(1_000_000);
    }
    // More fills of the same taker may still be arriving: the report and the histogram count at least these.
    const report = await runReport({ db: database, market: slug, wide: true });
    const judged = new RegExp(`\\n${slug}\\s+model\\s+(\\d+)\\s`).exec(report);
    expect(Number(judged?.[1]), report).toBeGreaterThanOrEqual(model.length);
    const exposition = await running.bot.registry.metrics();
    const counted = /outcome_maker_fill_markout_usdc_count\{horizon="0s",reference="model"\} (\d+)/.exec(exposition);
    expect(Number(counted?.[1])).toBeGreaterThanOrEqual(model.length);
  }, 60_000);
});
