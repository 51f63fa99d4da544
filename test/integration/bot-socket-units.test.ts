/**
 * Socket units settled from evidence (venue.units auto, the default): whatever unit the simulator's socket sends book
 * sizes in, the bot finds it by comparing its first socket book with the REST book, logs it with both values, counts
 * a switch, and quotes the same ladder; order amounts are settled from the bot's own first placement frame.
 */
import { pino } from 'pino';
import { describe, expect, it, onTestFinished } from 'vitest';
import { Bot } from '../../src/app/bot.js';
import {
  cleanupAfterTest,
  gaugeValue,
  ladderOf,
  LADDER_500,
  sameLadder,
  startBookedSim,
  liveEnv,
  startLiveBot,
  testConfig,
  waitFor,
  when,
} from '../support/bot-harness.js';

interface LogLine {
  readonly level?: number;
  readonly msg?: string;
  readonly what?: string;
  readonly unit?: string;
  readonly switched?: boolean;
  readonly evidence?: Readonly<Record<string, unknown>>;
}

function logLine(line: string): LogLine {
  const parsed: unknown = JSON.parse(line);
  const fields: LogLine = typeof parsed === 'object' && parsed !== null ? parsed : {};
  return fields;
}

describe('socket units from evidence', () => {
  for (const unit of ['raw', 'shares'] as const) {
  it(`a socket sending book sizes as ${unit}: settled, logged, the same ladder quoted`, async () => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug } = await startBookedSim(cleanup, { sim: { extra: { socketBookSizeUnit: unit } } });
    const running = await startLiveBot(sim, cleanup, { markets: [slug] });
    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), LADDER_500)), 10_000, 'the ladder', () => ladderOf(sim, slug, 'it'));
    const settled = (): LogLine[] =>
      running.logs.map(logLine).filter((line) => line.msg === 'socket unit settled from evidence');
    await waitFor(() => when(settled().some((line) => line.what === 'amounts')), 10_000, 'the amounts settled', () => settled());
    const book = settled().find((line) => line.what === 'bookSize');
    // The normal path, whichever the unit: info (30), one line (the book store adds none of its own).
    expect(book).toMatchObject({ level: 30, unit, switched: unit === 'shares' });
    expect(settled().filter((line) => line.what === 'bookSize')).toHaveLength(1);
    expect(book?.evidence?.market).toBe(slug);
    const restSizeRaw = Number(book?.evidence?.restSizeRaw);
    // Logged with both values: the size as the socket sent it, and the REST size (raw).
    expect(Number(book?.evidence?.socketSize)).toBe(unit === 'raw' ? restSizeRaw : restSizeRaw / 1_000_000);
    expect(restSizeRaw).toBeGreaterThan(0);
    expect(settled().find((line) => line.what === 'amounts')).toMatchObject({ level: 30, unit: 'raw', switched: false });
    expect(await gaugeValue(running.bot, 'outcome_maker_feed_unit_switches_total', { what: 'bookSize' })).toBe(unit === 'shares' ? 1 : 0);
  }, 60_000);
  }

  it('the dry run logs the units at start and the book unit it settles on', async () => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug } = await startBookedSim(cleanup, { sim: { extra: { socketBookSizeUnit: 'shares' } } });
    const logs: string[] = [];
    const bot = new Bot(testConfig({ venue: { kind: 'live', sim }, markets: [slug] }), {
      dryRun: true,
      logger: pino({ level: 'info', base: null }, { write: (line: string) => void logs.push(line) }),
      env: liveEnv(sim),
    });
    cleanup.add(() => bot.stop());
    await bot.start();
    const messages = (): LogLine[] => logs.map(logLine);
    await waitFor(() => when(messages().some((line) => line.msg === 'socket unit settled from evidence' && line.what === 'bookSize')), 10_000, 'the book unit settled');
    expect(messages().some((line) => line.msg === 'socket units at start')).toBe(true);
    expect(messages().find((line) => line.what === 'bookSize')).toMatchObject({ unit: 'shares', switched: true });
  }, 60_000);
});
