import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADVERSE_REFRESH_MS, buildAdverseProvider, strategyLabel } from '../../../src/markouts/live-markouts.js';
import { openLedger } from '../../../src/ledger/store.js';
import { fillInput, makeTempDir, T0 } from '../../support/ledger-fixtures.js';

describe('strategyLabel', () => {
  it('keeps a registered name and records a module path by its file name', () => {
    expect(strategyLabel('fixed-spread')).toBe('fixed-spread');
    expect(strategyLabel('/srv/bots/strategies/my-maker.ts')).toBe('my-maker');
    expect(strategyLabel('./strategies/edge.mjs')).toBe('edge');
  });
});

describe('buildAdverseProvider: the live strategies\' adverse selection from the ledger', () => {
  it('reads the judged fills\' mid markouts on its timer, never from a view; a failing read keeps the last figures and warns', () => {
    const temp = makeTempDir('adverse-ledger-');
    try {
      const ledger = openLedger({ path: join(temp.dir, 'ledger.sqlite'), now: () => T0 });
      // BUY YES 10 at 0.50, mid 0.51 at the fill and 0.48 at 60 s: 0.3 USDC of adverse selection on the bid.
      ledger.recordFill(fillInput({ tradeEventId: 't1', marketSlug: 'btc-above' }));
      const mid = (horizonMs: number, refMicros: number) => ({ fillId: 1, horizonMs, reference: 'mid' as const, refMicros, missingReason: null, sampledAtMs: T0 + horizonMs });
      ledger.markouts.write({ register: [{ fillId: 1, strategy: 'fixed-spread', references: ['mid'] }], rows: [mid(0, 510_000), mid(60_000, 480_000)], complete: [] });
      const warnings: string[] = [];
      let now = T0 + 120_000;
      const timers: { ms: number; fn: () => void }[] = [];
      const provider = buildAdverseProvider(ledger, { warn: (_o: unknown, msg?: string) => void warnings.push(msg ?? '') }, { now: () => now, every: (ms, fn) => timers.push({ ms, fn }) });
      expect(timers.map((t) => t.ms)).toEqual([ADVERSE_REFRESH_MS]);
      // Views never read SQLite, however much time passes between them.
      const calls = ledger.sqliteCalls();
      const view = provider.view({ slug: 'btc-above', cadence: 'hourly' }, now);
      now += 5 * ADVERSE_REFRESH_MS;
      provider.view({ slug: 'btc-above' }, now);
      expect(ledger.sqliteCalls()).toBe(calls);
      expect(view.cadenceName).toBe('hourly');
      expect(view.market.bid).toMatchObject({ judgedFills: 1, judgedShares: 10, adverseUsdc: 0.3 });
      expect(view.market.ask.judgedFills).toBe(0);
      // The timer reads again: a second fill judged since is counted.
      ledger.recordFill(fillInput({ tradeEventId: 't2', marketSlug: 'btc-above', atMs: T0 + 1_000 }));
      ledger.markouts.write({ register: [{ fillId: 2, strategy: 'fixed-spread', references: ['mid'] }], rows: [{ ...mid(0, 510_000), fillId: 2 }, { ...mid(60_000, 480_000), fillId: 2 }], complete: [] });
      timers[0]!.fn();
      expect(provider.view({ slug: 'btc-above' }, now).market.bid.judgedFills).toBe(2);
      ledger.close();
      // The ledger closed: the next read fails, the figures stand, one warning.
      timers[0]!.fn();
      expect(provider.view({ slug: 'btc-above' }, now).market.bid.judgedFills).toBe(2);
      expect(warnings).toHaveLength(1);
    } finally {
      temp.cleanup();
    }
  });
});
