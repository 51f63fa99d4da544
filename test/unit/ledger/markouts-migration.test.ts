/**
 * Migration 2 (markouts) on a ledger file written by the previous schema: it opens and upgrades, its fills keep
 * working (positions, PnL, the report), they are not judged after the fact, and fills booked after the upgrade are.
 */
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { latestVersion, schemaVersion } from '../../../src/ledger/migrations.js';
import { runReport } from '../../../src/ledger/report.js';
import { openLedger } from '../../../src/ledger/store.js';
import { MarkoutSampler } from '../../../src/markouts/sampler.js';
import { fillInput, makeTempDir, T0 } from '../../support/ledger-fixtures.js';

const temp = makeTempDir('markout-migration-');
afterAll(() => temp.cleanup());

/** A ledger as schema version 1 left it: the same tables and rows, without migration 2's. */
function writeVersion1Ledger(path: string): void {
  const ledger = openLedger({ path, now: () => T0 });
  ledger.recordFill(fillInput({ tradeEventId: 'v1-buy', atMs: T0 }));
  ledger.recordFill(fillInput({ tradeEventId: 'v1-sell', orderId: 'order-2', side: 'SELL', priceTicks: 600, sizeRaw: 4_000_000, atMs: T0 + 1 }));
  ledger.close();
  const db = new BetterSqlite3(path);
  db.exec(`DROP TABLE account_history; DROP TABLE capital_tx; DROP TABLE venue_payouts; DROP TABLE calibration_scores; DROP TABLE calibration_predictions; DROP TABLE maker_rebates; DROP TABLE reward_minutes; DROP TABLE venue_rewards; DROP TABLE fill_markouts; DROP TABLE markout_fills; PRAGMA user_version = 1;`);
  db.close();
}

describe('ledger migration 2 (markouts)', () => {
  it('upgrades a version-1 file; old fills keep working and are not judged; new fills are', async () => {
    const path = join(temp.dir, 'v1.sqlite');
    writeVersion1Ledger(path);
    const raw = new BetterSqlite3(path, { readonly: true });
    expect(schemaVersion(raw)).toBe(1);
    raw.close();

    // The report opens the old file, upgrades it, and shows the same PnL as before.
    const text = await runReport({ db: path, nowMs: T0 + 10, wide: true });
    expect(text).toContain('btc-100k      2     7.4');
    expect(text).toContain('Judged 0 of the 2 fills booked in this report; not judged: 2 booked before markouts began on this ledger.');

    const clock = new ManualClock(T0 + 60_000);
    const ledger = openLedger({ path, now: () => clock.now() });
    expect(schemaVersion(ledger.db)).toBe(latestVersion());
    const before = ledger.tokenPosition('btc-100k', 'YES');
    expect(before.positionRaw).toBe(6_000_000);
    expect(before.realizedRaw).toBe(400_000);
    const sampler = new MarkoutSampler({
      ledger: ledger.markouts,
      scheduler: clock,
      strategy: 'fixed-spread',
      references: () => ({ mid: 500_000, model: null }),
      priced: () => false,
    });
    sampler.start();
    ledger.recordFill(fillInput({ tradeEventId: 'v2-buy', orderId: 'order-3', priceTicks: 490, atMs: clock.now() }));
    sampler.fillBooked();
    clock.advance(400_000);
    sampler.stop();
    const judged = ledger.markouts.judgedFills();
    expect(judged.map((f) => f.fillId)).toEqual([3]);
    expect(judged[0]!.samples).toHaveLength(5);
    expect(ledger.verify()).toEqual([]);
    ledger.close();
    // Opening again changes nothing: the start id is kept, old fills stay unjudged.
    const reopened = openLedger({ path });
    expect(reopened.markouts.startFillId()).toBe(2);
    reopened.close();
  });
});
