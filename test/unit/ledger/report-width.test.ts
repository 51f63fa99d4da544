/**
 * `report` as a person reads it, through the command's entry (`main(['report', …])`): 120 columns by default with
 * one precision per unit (USDC at cents, prices at the tick, shares at 2 decimals), every figure's meaning under its
 * section ("venue rewards" the current epoch so far, "rewards paid" the booked epochs), and `--wide` for the exact
 * decimals at any width. The pure pieces (src/ledger/report-text.ts) with known values.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type CliIo } from '../../../src/cli.js';
import { openLedger } from '../../../src/ledger/store.js';
import { VENUE_TOTAL_MARKET } from '../../../src/ledger/rewards-repo.js';
import { decimalToRaw, exactDecimal, figureStyle, fixedDecimal, layoutTable, wrapText } from '../../../src/ledger/report-text.js';
import { fillInput, makeTempDir, T0 } from '../../support/ledger-fixtures.js';

const temp = makeTempDir('report-width-');
afterAll(() => temp.cleanup());
let db = '';
const DAY0 = T0 - (T0 % 86_400_000);
// Two strikes of one hour: their slugs differ only in the middle (a cut slug would make them one).
const BTC_A = 'dollarbtc-above-dollar8975405-on-jan-1-0100-utc-1767225600000';
const BTC_B = 'dollarbtc-above-dollar9000000-on-jan-1-0100-utc-1767225600000';

beforeAll(() => {
  db = join(temp.dir, 'ledger.sqlite');
  const ledger = openLedger({ path: db, now: () => T0 });
  // A: buy 41.07 at 0.413 (16.96191 USDC), sell 20 at 0.431: realized 20 × 0.018 = 0.36.
  ledger.recordFill(fillInput({ tradeEventId: 'a1', orderId: 'a1', marketSlug: BTC_A, tokenId: '1', priceTicks: 413, sizeRaw: 41_070_000 }));
  ledger.recordFill(fillInput({ tradeEventId: 'a2', orderId: 'a2', marketSlug: BTC_A, tokenId: '1', side: 'SELL', priceTicks: 431, sizeRaw: 20_000_000, atMs: T0 + 1 }));
  // B: NO 3.333333 at 0.7 taker, fee 0.012345.
  ledger.recordFill(fillInput({ tradeEventId: 'b1', orderId: 'b1', marketSlug: BTC_B, token: 'NO', tokenId: '2', priceTicks: 700, sizeRaw: 3_333_333, role: 'taker', feeRaw: 12_345, atMs: T0 + 2 }));
  ledger.recordMark({ marketSlug: BTC_A, mid: 0.4205, atMs: T0 + 3 });
  ledger.rewards.recordMinute({ marketSlug: BTC_A, minuteMs: T0 - (T0 % 60_000), strategy: 'fixed-spread', botScore: 30, othersScore: 70, share: 0.3, poolRaw: 694_444, rewardRaw: 208_333 });
  ledger.rewards.recordVenueReward({ dayStartMs: DAY0, marketSlug: VENUE_TOTAL_MARKET, rewardRaw: 123_456, readAtMs: T0 + 4 });
  ledger.payouts.recordPayout({ marketSlug: '*', epochStartMs: DAY0 - 86_400_000, epochEndMs: DAY0, rewardsRaw: 500_000, rebatesRaw: 0, paidAtMs: DAY0, source: 'rewardsByEpoch' });
  ledger.close();
});

async function report(...args: string[]): Promise<string> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {}, load: () => Promise.reject(new Error('no module loading here')) };
  expect(await main(['report', '--db', db, ...args], io), err.join('')).toBe(0);
  return out.join('');
}

const longest = (text: string): number => Math.max(...text.split('\n').map((line) => line.length));

describe('report: 120 columns, one precision per unit, a legend', () => {
  it('fits 120 columns, long slugs whole on their own line, figures at cents, prices at the tick, shares at 2 decimals', async () => {
    const text = await report();
    expect(longest(text)).toBeLessThanOrEqual(120);
    const lines = text.split('\n');
    // Each slug on a line of its own, the figures under it.
    const a = lines.indexOf(BTC_A);
    expect(a).toBeGreaterThan(0);
    expect(lines[a + 1]).toMatch(/^\s+2\s+25\.58\s+0\.00\s+21\.07\s+0\.413\s+0\.00\s+-\s+0\.421\s+0\.36\s+0\.16\s+0\.52$/);
    const b = lines.indexOf(BTC_B);
    expect(lines[b + 1]).toMatch(/^\s+1\s+2\.33\s+0\.01\s+0\.00\s+-\s+3\.33\s+0\.700\s+no mark\s+0\.00\s+no mark\s+-$/);
    expect(text).toMatch(/^\s+3\s+27\.92\s+0\.01\s+0\.36\s+0\.16\s+0\.51$/m); // TOTAL: 0.36 + 0.15927 − 0.012345
    expect(text).not.toContain('16.96191');
  });

  it('says what every figure means; venue rewards (the current epoch so far) against rewards paid (booked epochs)', async () => {
    const text = await report();
    expect(text).toContain('net pnl: realized + unrealized − fees.');
    expect(text).toMatch(/venue rewards: the venue's running figure for the CURRENT epoch so far/);
    expect(text).toContain('What the venue PAID for closed epochs is "rewards paid" in the Reconciliation section.');
    expect(text).toMatch(/rewards paid, rebates paid: what the venue PAID for each closed epoch/);
    // The Earnings figures at cents: 0.208333 estimated, 0.123456 from the venue.
    expect(text).toMatch(/^\s+-?\d+\.\d\d\s+0\.21\s+0\.00\s+\S+\s+-/m);
    expect(text).toMatch(/\s0\.21\s+0\.00\s+0\.12\s+-0\.08$/m);
  });

  it('--wide prints the full tables with the exact decimals', async () => {
    const text = await report('--wide');
    expect(longest(text)).toBeGreaterThan(120);
    expect(text).toMatch(new RegExp(`^${BTC_A}\\s+2\\s+25\\.58191\\s+0\\s+21\\.07\\s+0\\.413\\s+0\\s+-\\s+0\\.4205\\s+0\\.36`, 'm'));
    expect(text).toContain('0.208333');
  });
});

describe('report-text', () => {
  it('wraps prose at spaces within the width, a longer word whole', () => {
    expect(wrapText('aaa bbb ccc', 7)).toBe('aaa bbb\nccc');
    expect(wrapText('aaaaaaaaaa b', 7)).toBe('aaaaaaaaaa\nb');
    expect(wrapText('short', Number.POSITIVE_INFINITY)).toBe('short');
  });

  it('rounds the raw integer once, half away from zero, never "-0.00"', () => {
    expect(fixedDecimal(16_966_893, 2)).toBe('16.97');
    expect(fixedDecimal(5_000, 2)).toBe('0.01');
    expect(fixedDecimal(4_999, 2)).toBe('0.00');
    expect(fixedDecimal(-5_000, 2)).toBe('-0.01');
    expect(fixedDecimal(-4_999, 2)).toBe('0.00');
    expect(fixedDecimal(420_500, 3)).toBe('0.421');
    expect(fixedDecimal(3_333_333, 0)).toBe('3');
    expect(exactDecimal(-16_966_893)).toBe('-16.966893');
    expect(decimalToRaw('0.4666667')).toBeNull();
    expect(decimalToRaw('-1.5')).toBe(-1_500_000);
    const style = figureStyle();
    expect([style.usdc(360_000), style.price(413_000), style.shares(41_070_000), style.perFill(48_800)]).toEqual(['0.36', '0.413', '41.07', '0.0488']);
  });

  it('lays a table out inline, stacked (long keys) or in blocks of columns, no line over the width', () => {
    const spec = { header: ['key', 'a', 'b', 'c'], units: ['', 'u', 'u', 'u'], rows: [['k1', '1', '22', '333']], keys: 1 };
    expect(layoutTable(spec, 40)).toEqual(['key  a   b    c', '     u   u    u', '---  -  --  ---', 'k1   1  22  333']);
    const long = { ...spec, rows: [['a-very-long-market-slug', '1', '22', '333']] };
    expect(layoutTable(long, 20)).toEqual(['key', '  a   b    c', '  u   u    u', '  -  --  ---', 'a-very-long-market-slug', '  1  22  333']);
    // Too narrow for the figures side by side: blocks of columns, the key (longer than any width here) repeated whole.
    const blocks = layoutTable(long, 8);
    expect(blocks.filter((l) => l === 'a-very-long-market-slug')).toHaveLength(2);
    expect(blocks.filter((l) => /^\s+1\s+22$|^\s+333$/.test(l))).toHaveLength(2);
    expect(Math.max(...blocks.filter((l) => !l.startsWith('a-very')).map((l) => l.length))).toBeLessThanOrEqual(8);
  });
});
