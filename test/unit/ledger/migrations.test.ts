import { existsSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { LedgerContext } from '../../../src/ledger/context.js';
import { openLedgerDatabase } from '../../../src/ledger/database.js';
import { LedgerSchemaError } from '../../../src/ledger/errors.js';
import { latestVersion, migrate, MIGRATIONS, schemaVersion, type Migration } from '../../../src/ledger/migrations.js';
import { openLedger } from '../../../src/ledger/store.js';
import { makeTempDir } from '../../support/ledger-fixtures.js';

const temp = makeTempDir();
afterAll(() => temp.cleanup());

function tables(db: BetterSqlite3.Database): string[] {
  return db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
    .pluck()
    .all()
    .filter((name): name is string => typeof name === 'string');
}

describe('migrations', () => {
  it('creates the schema at the latest version, and re-applying is a no-op', () => {
    const db = new BetterSqlite3(':memory:');
    expect(migrate(db)).toEqual(MIGRATIONS.map((step) => step.version));
    expect(schemaVersion(db)).toBe(latestVersion());
    expect(tables(db)).toEqual([
      'account_history',
      'calibration_predictions',
      'calibration_scores',
      'capital_tx',
      'fill_failures',
      'fill_markouts',
      'fills',
      'kv',
      'maker_rebates',
      'mark_day_open',
      'markout_fills',
      'marks',
      'order_events',
      'orders',
      'positions',
      'redemptions',
      'resolutions',
      'reward_minutes',
      'venue_payouts',
      'venue_rewards',
    ]);
    expect(migrate(db)).toEqual([]);
    expect(schemaVersion(db)).toBe(latestVersion());
    db.close();
  });

  it('rolls a failing step back entirely: version and tables unchanged', () => {
    const db = new BetterSqlite3(':memory:');
    const steps: Migration[] = [
      ...MIGRATIONS,
      { version: latestVersion() + 1, name: 'half-broken', sql: `CREATE TABLE extra (a INTEGER) STRICT; INSERT INTO nowhere VALUES (1);` },
    ];
    expect(() => migrate(db, steps)).toThrow(/nowhere/);
    expect(schemaVersion(db)).toBe(latestVersion());
    expect(tables(db)).not.toContain('extra');
    // A fixed step then applies on the next open.
    const fixed: Migration[] = [...MIGRATIONS, { version: latestVersion() + 1, name: 'fixed', sql: `CREATE TABLE extra (a INTEGER) STRICT;` }];
    expect(migrate(db, fixed)).toEqual([latestVersion() + 1]);
    expect(tables(db)).toContain('extra');
    db.close();
  });

  it('refuses a database newer than this build and a misnumbered list', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma(`user_version = ${latestVersion() + 1}`);
    expect(() => migrate(db)).toThrow(LedgerSchemaError);
    expect(() => migrate(db)).toThrow(/newer than this build/);
    const fresh = new BetterSqlite3(':memory:');
    expect(() => migrate(fresh, [{ version: 2, name: 'gap', sql: '' }])).toThrow(/out of order/);
    db.close();
    fresh.close();
  });

  it('opens a file with WAL and synchronous=FULL, creating parent directories', () => {
    const path = join(temp.dir, 'nested', 'deeper', 'ledger.sqlite');
    const db = openLedgerDatabase({ path });
    expect(existsSync(path)).toBe(true);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    db.close();
    const normal = openLedgerDatabase({ path, synchronous: 'NORMAL' });
    expect(normal.pragma('synchronous', { simple: true })).toBe(1);
    expect(schemaVersion(normal)).toBe(latestVersion());
    normal.close();
  });

  it('a process-durable write commits with synchronous=NORMAL, a full write with FULL, also after a failed one; the level switches only when it changes and is FULL again at close', () => {
    const db = openLedgerDatabase({ path: join(temp.dir, 'durability.sqlite') });
    migrate(db);
    const ctx = new LedgerContext(db, () => 0, {});
    const level = (): unknown => db.pragma('synchronous', { simple: true });
    const pragmas: string[] = [];
    const pragma = db.pragma.bind(db);
    db.pragma = (source: string, options?: { simple?: boolean }) => {
      if (source.includes('=')) pragmas.push(source);
      return pragma(source, options);
    };
    expect(ctx.write('updateOrder', level)).toBe(1);
    expect(ctx.write('recordFill', level)).toBe(2);
    expect(() => ctx.write('updateOrder', () => { throw new Error('refused'); })).toThrow('refused');
    expect(ctx.write('recordFill', level)).toBe(2);
    for (let i = 0; i < 3; i += 1) expect(ctx.write('recordMarks', level)).toBe(1);
    // One switch per change of level: none between the three marks.
    expect(pragmas).toEqual(['synchronous = NORMAL', 'synchronous = FULL', 'synchronous = NORMAL', 'synchronous = FULL', 'synchronous = NORMAL']);
    ctx.restoreLevel();
    expect(level()).toBe(2);
    db.close();
  });

  it('a ledger closed after process-durable writes leaves its connection at FULL for the last checkpoint', () => {
    const store = openLedger({ path: join(temp.dir, 'close-level.sqlite') });
    const db = store.db;
    const seen: unknown[] = [];
    const close = db.close.bind(db);
    db.close = () => {
      seen.push(db.pragma('synchronous', { simple: true }));
      return close();
    };
    store.recordMarks([{ marketSlug: 'alpha', mid: 0.5, atMs: 0 }]);
    store.close();
    expect(seen).toEqual([2]);
  });

  it('refuses a missing file when it must exist, without creating it', () => {
    const path = join(temp.dir, 'absent', 'ledger.sqlite');
    expect(() => openLedger({ path, mustExist: true })).toThrow(LedgerSchemaError);
    expect(existsSync(path)).toBe(false);
  });
});
