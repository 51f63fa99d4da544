/**
 * The run summary (src/app.ts formatSummary): the time since quoting began, split into quoting, waiting and idle; the
 * `running` line is read from the quoting clock's own ends, so the three parts add up to it exactly (one clock).
 */
import { describe, expect, it } from 'vitest';
import { formatSummary, runningLines } from '../../../src/app.js';
import type { BotSummary } from '../../../src/app/bot.js';
import { QuotingClock } from '../../../src/operator/quoting-time.js';

const LAUNCH = Date.UTC(2026, 10, 29, 0, 0, 0);

const summary: BotSummary = {
  fills: 3,
  volumeRaw: 12_340_000,
  realizedPnlRaw: 0,
  unrealizedPnlRaw: 110_000,
  requests: 40,
  rateLimited: 0,
  placed: 12,
  openOrders: 0,
  quoting: { quotingMs: 540_000, waitingMs: 4_000, idleMs: 660_000, waitingForMs: 0, fromMs: LAUNCH + 7_300, toMs: LAUNCH + 1_211_300 },
};

/** The tenths printed on a line of the summary. */
const tenthsOn = (lines: readonly string[], label: string): number => {
  const line = lines.find((l) => l.startsWith(`  ${label} `)) ?? '';
  return Math.round(Number(/(\d+\.\d) s/.exec(line)?.[1]) * 10);
};

describe('formatSummary', () => {
  it('separates the 11 idle minutes between two ladders from the time quoting', () => {
    const text = formatSummary(summary, { launchAtMs: LAUNCH, stoppedAtMs: LAUNCH + 1_211_300 });
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
    const text = formatSummary({ ...summary, placed: 0, quoting: null }, { launchAtMs: LAUNCH, stoppedAtMs: LAUNCH + 3_000 });
    expect(text).toContain('  running        never quoting (stopped 3.0 s after launch, before quoting began)');
    expect(text).not.toContain('  idle');
    expect(text).toContain('  orders placed  0 (nothing was placed)');
  });
});

describe('runningLines: the running time and its three parts, from one clock', () => {
  it('reads both ends from the quoting clock, not from the stop (the clock started 0.2 s before start-up returned and was read 0.3 s after the stop was asked for)', () => {
    // The case of a loaded machine: the clock's first sample at 7.8 s, the stop asked at 8.0 s, its last sample at 8.3 s.
    const clock = new QuotingClock();
    clock.observe(LAUNCH + 7_800, 'waiting');
    clock.observe(LAUNCH + 8_300, 'waiting');
    const lines = runningLines(clock.totals(), { launchAtMs: LAUNCH, stoppedAtMs: LAUNCH + 8_000 });
    expect(lines).toEqual([
      '  running        0.5 s, from 7.8 s to 8.3 s after launch',
      '  quoting        0.0 s (an order of the bot on the book)',
      '  waiting        0.5 s (markets expected, no order: joining, no book yet, halted, blocked)',
      '  idle           0.0 s (nothing to quote: no market traded before its stop, as between two ladders)',
    ]);
  });

  it('prints parts that add up to the printed running time to the tenth, whatever the ms', () => {
    // 1.05 + 1.05 + 1.05 s = 3.15 s from 0.049 s: each part alone rounds to 1.1 (3.3 in all), the ends to 0.0 and 3.2.
    const totals = { quotingMs: 1_050, waitingMs: 1_050, idleMs: 1_050, waitingForMs: 0, fromMs: LAUNCH + 49, toMs: LAUNCH + 3_199 };
    const lines = runningLines(totals, { launchAtMs: LAUNCH, stoppedAtMs: LAUNCH + 3_199 });
    expect(lines[0]).toBe('  running        3.2 s, from 0.0 s to 3.2 s after launch');
    expect(tenthsOn(lines, 'quoting') + tenthsOn(lines, 'waiting') + tenthsOn(lines, 'idle')).toBe(32);
    expect([tenthsOn(lines, 'quoting'), tenthsOn(lines, 'waiting'), tenthsOn(lines, 'idle')]).toEqual([11, 11, 10]);
  });

  it('adds up on an irregular clock (fractional readings floored to the ms), for every sample pattern tried', () => {
    let seed = 42;
    const random = (): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 200; round += 1) {
      const clock = new QuotingClock();
      let t = LAUNCH + random() * 10_000;
      for (let k = 0; k < 20; k += 1) {
        clock.observe(t, (['quoting', 'waiting', 'idle'] as const)[Math.floor(random() * 3)] ?? 'idle');
        t += random() * 1_500;
      }
      const totals = clock.totals();
      expect(totals.quotingMs + totals.waitingMs + totals.idleMs).toBe(totals.toMs - totals.fromMs);
      const lines = runningLines(totals, { launchAtMs: LAUNCH, stoppedAtMs: t });
      expect(tenthsOn(lines, 'quoting') + tenthsOn(lines, 'waiting') + tenthsOn(lines, 'idle')).toBe(tenthsOn(lines, 'running'));
    }
  });
});
