/**
 * Issue 23 item 1 against the simulator, the whole bot: a fill of the bot's quote is judged as time passes — its
 * markout at 0 s (the edge at fill time) and 1 s against the book mid without the bot's own orders lands in the
 * ledger, in `report` (runReport, what the CLI command runs) and in the markout histogram of /metrics.
 */
import BetterSqlite3 from 'better-sqlite3';
import { describe, it } from 'vitest';
import { runReport } from '../../src/ledger/report.js';
import { cleanupAfterTest, startLiveBot, startQuotingBot, tempDatabasePath, thirdPartyPlace, waitFor, when } from '../support/bot-harness.js';

interface MarkoutRow {
  readonly horizon_ms: number;
  readonly reference: string;
  readonly ref_micros: number | null;
  readonly missing_reason: string | null;
}

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

    const report = await runReport({ db: database });
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
});
