/**
 * The account history's reads (src/capital/account-history.ts) against the stop: a page that comes after `stop()` is
 * not booked and not warned about, since the ledger closes once the stop is done (a paper run's stop once logged
 * "The database connection is not open" from a read in flight of the venue rewards, the same hazard).
 */
import { pino } from 'pino';
import { expect, it } from 'vitest';
import { AccountHistorySync } from '../../../src/capital/account-history.js';
import { ManualClock } from '../../../src/core/clock.js';
import type { HistoryPage } from '../../../src/exchange/wire-history.js';
import { openLedger } from '../../../src/ledger/store.js';

const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);

it('a history page that comes after the stop books nothing and warns nothing', async () => {
  const clock = new ManualClock(T0);
  const ledger = openLedger({ path: ':memory:', now: () => clock.now() });
  const warnings: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void warnings.push(line) });
  let answer: (page: HistoryPage) => void = () => undefined;
  const sync = new AccountHistorySync({ read: () => new Promise((resolve) => (answer = resolve)), ledger, scheduler: clock, intervalMs: 60_000, maxPages: 5, log });
  sync.start();
  const reading = sync.syncOnce();
  sync.stop();
  ledger.close();
  const split = { atMs: T0, txHash: '0x01', strategy: 'Split', collateralRaw: 5_000_000, tokensRaw: 5_000_000, outcomeIndex: null, marketSlug: 'btc-above', conditionId: null };
  answer({ entries: [split], nextCursor: null, skipped: [] });
  expect(await reading).toEqual({ pages: 0, recorded: 0, booked: 0, own: 0 });
  expect(warnings).toEqual([]);
});
