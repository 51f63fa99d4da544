/**
 * Migration 6 (maker rebates resolved from the trade feed) on a ledger file written by schema version 5: its rebate
 * rows are kept as same-token estimates (the taker's side the opposite of the maker's), pending, and a later
 * resolution books once; 'trade' was not a fee source before and is now.
 */
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { latestVersion, schemaVersion } from '../../../src/ledger/migrations.js';
import { openLedger } from '../../../src/ledger/store.js';
import { fillInput, makeTempDir, T0 } from '../../support/ledger-fixtures.js';

const temp = makeTempDir('rebate-migration-');
afterAll(() => temp.cleanup());

const V5_MAKER_REBATES = `CREATE TABLE maker_rebates (
  fill_id INTEGER PRIMARY KEY REFERENCES fills (id), market_slug TEXT NOT NULL, strategy TEXT NOT NULL, at_ms INTEGER NOT NULL,
  taker_fee_bps REAL NOT NULL CHECK (taker_fee_bps >= 0), fee_source TEXT NOT NULL CHECK (fee_source IN ('event', 'curve')),
  taker_fee_raw INTEGER NOT NULL CHECK (taker_fee_raw >= 0), rebate_rate REAL NOT NULL CHECK (rebate_rate BETWEEN 0 AND 1),
  rebate_raw INTEGER NOT NULL CHECK (rebate_raw >= 0), recorded_at_ms INTEGER NOT NULL) STRICT;
CREATE INDEX maker_rebates_time ON maker_rebates (at_ms);`;

describe('ledger migration 6 (rebates resolved from the trade feed)', () => {
  it('upgrades a version-5 file: its rebates become pending same-token estimates, resolvable once', () => {
    const path = join(temp.dir, 'v5.sqlite');
    const ledger = openLedger({ path, now: () => T0 });
    ledger.recordFill(fillInput({ tradeEventId: 't1', side: 'BUY', txHash: '0xaa' }));
    ledger.close();
    const db = new BetterSqlite3(path);
    db.exec(`DROP TABLE account_history; DROP TABLE capital_tx; DROP TABLE maker_rebates; ${V5_MAKER_REBATES}
      INSERT INTO maker_rebates VALUES (1, 'btc-100k', 's', ${T0}, 150, 'curve', 75000, 0.2, 15000, ${T0});
      PRAGMA user_version = 5;`);
    db.close();

    const upgraded = openLedger({ path, now: () => T0 + 1 });
    try {
      expect(schemaVersion(upgraded.db)).toBe(latestVersion());
      expect(upgraded.db.prepare('SELECT fee_source, taker_side, match_kind, resolution, rebate_raw, prior_rebate_raw FROM maker_rebates').get()).toEqual({
        fee_source: 'curve', taker_side: 'SELL', match_kind: 'same', resolution: 'pending', rebate_raw: 15_000, prior_rebate_raw: null,
      });
      expect(upgraded.rebateResolution.pending(['btc-100k'])).toMatchObject([{ fillId: 1, txHash: '0xaa', side: 'BUY', rebateRaw: 15_000 }]);
      const resolution = { fillId: 1, takerSide: 'BUY' as const, matchKind: 'complementary' as const, takerFeeBps: 170, takerFeeRaw: 85_000, rebateRaw: 17_000, resolvedAtMs: T0 + 1 };
      expect(upgraded.rebateResolution.resolve(resolution)).toBe(true);
      expect(upgraded.rebateResolution.resolve(resolution)).toBe(false);
      expect(upgraded.rewards.totals().rebateRaw).toBe(17_000);
      expect(() => upgraded.rebateResolution.resolve({ ...resolution, rebateRaw: -1 })).toThrow(/rebateResolution.rebateRaw/);
    } finally {
      upgraded.close();
    }
  });
});
