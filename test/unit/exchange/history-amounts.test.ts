/**
 * The unit of GET /portfolio/history amounts (src/exchange/history-amounts.ts), which no recorded answer settles: the
 * setting `venue.units.historyAmounts` (`raw`, `decimal`, `auto`), the detection from a page's shape (a fractional
 * amount cannot be raw; a whole amount of a million or more cannot be human units), said once at INFO with why, a
 * contradiction said once at WARN, and the parser reading every entry of a page in the page's unit.
 */
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../../src/config/index.js';
import { API_ENDPOINTS } from '../../../src/exchange/endpoints.js';
import { amountsOf, HistoryAmounts, historyAmountToRaw, historyUnitFromShape, type HistoryAmountsLog } from '../../../src/exchange/history-amounts.js';
import { parseHistoryPage } from '../../../src/exchange/wire-history.js';

const claim = (collateralAmount: string | number, tokens: (string | number)[] = []): Record<string, unknown> => ({
  blockTimestamp: 1_764_000_000,
  transactionHash: `0x${'ab'.repeat(32)}`,
  strategy: 'Claim',
  collateralAmount,
  outcomeTokenAmounts: tokens,
  market: { slug: 'btc-above-100k', conditionId: null },
});

function recordingLog(): HistoryAmountsLog & { readonly lines: { level: string; fields: Readonly<Record<string, unknown>>; message: string }[] } {
  const lines: { level: string; fields: Readonly<Record<string, unknown>>; message: string }[] = [];
  return {
    lines,
    info: (fields, message) => void lines.push({ level: 'info', fields, message }),
    warn: (fields, message) => void lines.push({ level: 'warn', fields, message }),
  };
}

describe('historyUnitFromShape', () => {
  it('a fractional amount proves decimal, a whole amount of a million or more proves raw, small whole amounts prove nothing', () => {
    expect(historyUnitFromShape(['12.5', '3'])).toMatchObject({ unit: 'decimal', value: '12.5' });
    expect(historyUnitFromShape([0.75])).toMatchObject({ unit: 'decimal', value: 0.75 });
    expect(historyUnitFromShape(['12000000'])).toMatchObject({ unit: 'raw', value: '12000000' });
    expect(historyUnitFromShape([5_000_000])).toMatchObject({ unit: 'raw', value: 5_000_000 });
    expect(historyUnitFromShape(['999999', '12', 3])).toBeNull();
    expect(historyUnitFromShape([])).toBeNull();
    // A fraction wins over a large whole amount (a decimal page can hold 1000000.0 USDC; a raw one no fraction at all).
    expect(historyUnitFromShape(['2000000', '0.5'])?.unit).toBe('decimal');
  });

  it('reads the amounts of an element: collateralAmount, outcomeTokenAmount and each of outcomeTokenAmounts', () => {
    expect(amountsOf({ collateralAmount: '1', outcomeTokenAmount: 2, outcomeTokenAmounts: ['3', null, 4] })).toEqual(['1', 2, '3', 4]);
    expect(amountsOf(null)).toEqual([]);
    expect(amountsOf('x')).toEqual([]);
  });
});

describe('historyAmountToRaw', () => {
  it('raw: 1e6 integers as strings or numbers, exactly; anything else is refused with the reason', () => {
    expect(historyAmountToRaw('12000000', 'raw')).toEqual({ raw: 12_000_000 });
    expect(historyAmountToRaw(495_326_974, 'raw')).toEqual({ raw: 495_326_974 });
    expect(historyAmountToRaw('12.5', 'raw')).toEqual({ error: 'not a raw integer amount' });
    expect(historyAmountToRaw(-1, 'raw')).toEqual({ error: 'not a raw integer amount' });
    expect(historyAmountToRaw('9007199254740993', 'raw')).toEqual({ error: 'raw amount exceeds 2^53 - 1' });
  });

  it('decimal: human units to raw 1e6, exactly (no float rounding), at most 6 decimals', () => {
    expect(historyAmountToRaw('12.5', 'decimal')).toEqual({ raw: 12_500_000 });
    expect(historyAmountToRaw('0.000001', 'decimal')).toEqual({ raw: 1 });
    expect(historyAmountToRaw(0.3, 'decimal')).toEqual({ raw: 300_000 });
    expect(historyAmountToRaw('7', 'decimal')).toEqual({ raw: 7_000_000 });
    expect(historyAmountToRaw('1.0000001', 'decimal')).toEqual({ error: 'not a decimal amount: more than 6 decimal places' });
    expect(historyAmountToRaw('-2', 'decimal')).toEqual({ error: 'not a decimal amount: not a non-negative decimal number' });
  });
});

describe('HistoryAmounts', () => {
  it('raw or decimal configured: that unit for every page, never changed, said nothing', () => {
    const log = recordingLog();
    const raw = new HistoryAmounts('raw', log);
    expect(raw.unitForPage([claim('12.5')])).toBe('raw');
    const decimal = new HistoryAmounts('decimal', log);
    expect(decimal.unitForPage([claim('12')])).toBe('decimal');
    expect(decimal.decision()).toEqual({ unit: 'decimal', source: 'config', evidence: null });
    // A page contradicting the configured unit is said once (WARN) and still read in the configured unit.
    expect(raw.unitForPage([claim('3.5')])).toBe('raw');
    expect(log.lines.map((l) => l.level)).toEqual(['warn']);
    expect(log.lines[0]?.message).toContain('check venue.units.historyAmounts');
  });

  it('auto: pages that prove nothing are read as raw (assumed); the first that proves a unit settles it, said once at INFO with why', () => {
    const log = recordingLog();
    const amounts = new HistoryAmounts('auto', log);
    expect(amounts.unitForPage([claim('12')])).toBe('raw');
    expect(amounts.decision()).toEqual({ unit: 'raw', source: 'assumed', evidence: null });
    expect(log.lines).toEqual([]);
    expect(amounts.unitForPage([claim('20'), claim('12.5', ['12.5', '0'])])).toBe('decimal');
    expect(amounts.decision()).toMatchObject({ unit: 'decimal', source: 'evidence', evidence: { value: '12.5' } });
    expect(amounts.unitForPage([claim('3')])).toBe('decimal');
    expect(log.lines).toEqual([
      {
        level: 'info',
        fields: { historyAmounts: 'decimal', setting: 'auto', value: '12.5', why: 'an amount with a fractional part cannot be a raw 1e6 integer' },
        message: 'portfolio history amounts: decimal (detected: an amount with a fractional part cannot be a raw 1e6 integer)',
      },
    ]);
  });

  it('auto: a whole amount of a million or more settles raw; a later fractional amount is a contradiction said once', () => {
    const log = recordingLog();
    const amounts = new HistoryAmounts('auto', log);
    expect(amounts.unitForPage([claim('12000000', ['12000000', '0'])])).toBe('raw');
    expect(amounts.unitForPage([claim('1.5')])).toBe('raw');
    expect(amounts.unitForPage([claim('2.5')])).toBe('raw');
    expect(log.lines.map((l) => [l.level, l.fields['historyAmounts']])).toEqual([
      ['info', 'raw'],
      ['warn', 'raw'],
    ]);
  });
});

describe('parseHistoryPage in each unit', () => {
  const endpoint = API_ENDPOINTS.getHistory;

  it('raw (the default without a setting): 1e6 integer strings; a decimal amount is skipped naming the field and the unit', () => {
    const page = parseHistoryPage({ data: [claim('12000000', ['12000000', '0']), claim('3.5')], nextCursor: null }, endpoint, 200);
    expect(page.entries.map((e) => [e.collateralRaw, e.tokensRaw])).toEqual([[12_000_000, 12_000_000]]);
    expect(page.skipped).toEqual([{ path: 'data[1].collateralAmount', reason: 'not a raw integer amount (history amounts read as raw) (got "3.5")' }]);
  });

  it('decimal: human units read exactly into raw 1e6', () => {
    const page = parseHistoryPage({ data: [claim('12.5', ['12.5', '0']), claim(7)], nextCursor: null }, endpoint, 200, new HistoryAmounts('decimal'));
    expect(page.entries.map((e) => [e.collateralRaw, e.tokensRaw])).toEqual([
      [12_500_000, 12_500_000],
      [7_000_000, 0],
    ]);
    expect(page.skipped).toEqual([]);
  });

  it('auto: the whole page in the unit its shape proves, the small whole amount beside the fraction included', () => {
    const amounts = new HistoryAmounts('auto');
    const page = parseHistoryPage({ data: [claim('5'), claim('0.25')], nextCursor: null }, endpoint, 200, amounts);
    expect(page.entries.map((e) => e.collateralRaw)).toEqual([5_000_000, 250_000]);
    const raw = parseHistoryPage({ data: [claim('5000000'), claim('250000')], nextCursor: null }, endpoint, 200, new HistoryAmounts('auto'));
    expect(raw.entries.map((e) => e.collateralRaw)).toEqual([5_000_000, 250_000]);
  });
});

describe('venue.units.historyAmounts', () => {
  const parse = (yaml: string) => parseConfigText(`strategy: {name: fixed-spread}\n${yaml}`, { source: '<test>', baseDir: '/srv' });
  const base = 'venue:\n  kind: sim\n  units:\n    historyAmounts: ';
  it('is auto by default and takes raw or decimal; anything else is an error naming the field', () => {
    expect(parse('venue:\n  kind: sim\n').venue.units.historyAmounts).toBe('auto');
    expect(parse(`${base}decimal\n`).venue.units.historyAmounts).toBe('decimal');
    expect(parse(`${base}raw\n`).venue.units.historyAmounts).toBe('raw');
    expect(() => parse(`${base}shares\n`)).toThrow(/venue\.units\.historyAmounts: expected "auto" or "raw" or "decimal" \(got "shares"\)/);
  });
});
