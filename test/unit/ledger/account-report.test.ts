/**
 * The account-level comparison when several bots share one account: `compareAccount` (pure) and
 * `outcome-maker report --account` (through the CLI's `main`), reading each bot's ledger and the newest account
 * snapshot any of them recorded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT_OK, EXIT_USAGE, main, type CliIo } from '../../../src/cli.js';
import { compareAccount, KV_ACCOUNT_POSITIONS, openLedger, parseAccountSnapshot } from '../../../src/ledger/index.js';
import { fillInput, T0 } from '../../support/ledger-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'om-account-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io(): { io: CliIo; out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} }, out: () => out.join(''), err: () => err.join('') };
}

/** A bot's ledger file with one YES buy of `sizeRaw` in btc-100k, and (optionally) an account snapshot. */
function botLedger(name: string, sizeRaw: number, snapshot?: { atMs: number; yesRaw: number }): string {
  const path = join(dir, `${name}.sqlite`);
  const ledger = openLedger({ path });
  ledger.recordFill(fillInput({ tradeEventId: `${name}-t1`, orderId: `${name}-o1`, sizeRaw }));
  if (snapshot) ledger.setKv(KV_ACCOUNT_POSITIONS, JSON.stringify({ atMs: snapshot.atMs, positions: [{ marketSlug: 'btc-100k', yesRaw: snapshot.yesRaw, noRaw: 0 }] }));
  ledger.close();
  return path;
}

describe('compareAccount', () => {
  it('splits the account balance into each ledger and what none of them books', () => {
    const rows = compareAccount(
      [
        { marketSlug: 'b', yesRaw: 10e6, noRaw: 0 },
        { marketSlug: 'a', yesRaw: 0, noRaw: 3e6 },
      ],
      [
        [{ marketSlug: 'b', token: 'YES', balanceRaw: 4e6, pendingRaw: 0 }],
        [{ marketSlug: 'b', token: 'YES', balanceRaw: 5e6, pendingRaw: 0 }],
      ],
    );
    expect(rows.map((r) => [r.marketSlug, r.token, r.venueRaw, r.ledgersRaw, r.unbookedRaw])).toEqual([
      ['a', 'YES', 0, [0, 0], 0],
      ['a', 'NO', 3e6, [0, 0], 3e6],
      ['b', 'YES', 10e6, [4e6, 5e6], 1e6],
      ['b', 'NO', 0, [0, 0], 0],
    ]);
  });

  it('limits the rows to the given markets and lists each of them', () => {
    const rows = compareAccount([{ marketSlug: 'other', yesRaw: 7e6, noRaw: 0 }], [[]], new Set(['mine']));
    expect(rows.map((r) => [r.marketSlug, r.token, r.unbookedRaw])).toEqual([
      ['mine', 'YES', 0],
      ['mine', 'NO', 0],
    ]);
  });

  it('refuses a malformed snapshot with the reason', () => {
    expect(parseAccountSnapshot('{"atMs": 1, "positions": [{"marketSlug": "x", "yesRaw": -1, "noRaw": 0}]}')).toHaveProperty('error');
    expect(parseAccountSnapshot('nope')).toEqual({ error: 'not JSON' });
  });
});

describe('outcome-maker report --account', () => {
  it('compares the newest account snapshot with the sum of the bots\' ledgers', async () => {
    const alpha = botLedger('alpha', 4e6, { atMs: T0, yesRaw: 8e6 });
    const beta = botLedger('beta', 5e6, { atMs: T0 + 60_000, yesRaw: 10e6 });
    const h = io();
    expect(await main(['report', '--account', '--db', alpha, '--db', beta, '--format', 'json'], h.io)).toBe(EXIT_OK);
    const report = JSON.parse(h.out()) as { snapshot: { from: string }; rows: { market: string; token: string; account: string; ledgers: Record<string, string>; unbooked: string }[] };
    expect(report.snapshot.from).toBe(beta);
    expect(report.rows.find((r) => r.market === 'btc-100k' && r.token === 'YES')).toEqual({
      market: 'btc-100k',
      token: 'YES',
      account: '10',
      ledgers: { [alpha]: '4', [beta]: '5' },
      unbooked: '1',
    });
    const table = io();
    expect(await main(['report', '--account', '--db', alpha, '--db', beta], table.io)).toBe(EXIT_OK);
    expect(table.out()).toMatch(/btc-100k\s+YES\s+10\s+4\s+5\s+1/);
  });

  it('is a usage error without a ledger, and several ledgers need --account', async () => {
    const h = io();
    expect(await main(['report', '--account'], h.io)).toBe(EXIT_USAGE);
    expect(h.err()).toContain('--config');
    const a = botLedger('gamma', 1e6);
    const two = io();
    expect(await main(['report', '--db', a, '--db', a], two.io)).toBe(EXIT_USAGE);
    expect(two.err()).toContain('--account');
  });
});
