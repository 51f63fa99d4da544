/** The run summary (src/app.ts formatSummary): the time since quoting began, split into quoting, waiting and idle. */
import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../../src/app.js';
import type { BotSummary } from '../../../src/app/bot.js';

const summary: BotSummary = {
  fills: 3,
  volumeRaw: 12_340_000,
  realizedPnlRaw: 0,
  unrealizedPnlRaw: 110_000,
  requests: 40,
  rateLimited: 0,
  placed: 12,
  openOrders: 0,
  quoting: { quotingMs: 540_000, waitingMs: 4_000, idleMs: 660_000, waitingForMs: 0 },
};

describe('formatSummary', () => {
  it('separates the 11 idle minutes between two ladders from the time quoting', () => {
    const text = formatSummary(summary, { fromMs: 7_300, toMs: 1_211_300 });
    expect(text.split('\n').slice(0, 6)).toEqual([
      'outcome-maker summary',
      '  running        1204.0 s, from 7.3 s to 1211.3 s after launch',
      '  quoting        540.0 s (an order of the bot on the book)',
      '  waiting        4.0 s (markets expected, no order: joining, no book yet, halted, blocked)',
      '  idle           660.0 s (nothing to quote: no market traded before its stop, as between two ladders)',
      '  orders placed  12',
    ]);
  });

  it('says a stop during start-up never quoted, and leaves the split out when the clock never started', () => {
    const text = formatSummary({ ...summary, placed: 0, quoting: null }, { fromMs: null, toMs: 3_000 });
    expect(text).toContain('  running        never quoting (stopped 3.0 s after launch, before quoting began)');
    expect(text).not.toContain('  idle');
    expect(text).toContain('  orders placed  0 (nothing was placed)');
  });
});
