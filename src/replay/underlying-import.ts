/**
 * Histories of an underlying's price → `underlying` replay events (./format.ts), for `outcome-maker import
 * underlying`. Pure: a file's text in, events out. Three shapes, told apart by their content:
 * - Pyth's historical candles as TradingView's history JSON (`{s, t: [], o: [], h: [], l: [], c: []}`, `t` in
 *   seconds since the epoch; Pyth's benchmarks `…/v1/shims/tradingview/history`): one price per candle, its OPEN at
 *   its open time (the price a Pyth 1-minute candle rule settles on);
 * - an exchange's kline CSV (Binance's layout: open time, open, high, low, close, volume, close time, …; with or
 *   without a header line): the open at the open time, which is in ms or µs since the epoch (detected per line by
 *   its size: µs are above 1e14);
 * - a plain `timestamp,price` CSV (an optional header line; timestamps in s, ms or µs by size, or ISO-8601).
 *
 * Owns: the parsing and the time detection. Invariants: a price is finite and > 0; times strictly increase; anything
 * else is an UnderlyingImportError naming the file and the line (for JSON, the array and its index) — never skipped.
 */
import { z } from 'zod';
import type { UnderlyingEvent } from './format.js';

export class UnderlyingImportError extends Error {
  override readonly name = 'UnderlyingImportError';
  constructor(
    readonly file: string,
    /** 1-based line of a CSV; null for JSON (the detail names the field and index). */
    readonly line: number | null,
    readonly detail: string,
  ) {
    super(`${file}${line === null ? '' : `:${line}`}: ${detail}`);
  }
}

export type UnderlyingFileShape = 'tradingview-json' | 'kline-csv' | 'timestamp-price-csv';

const TradingViewHistory = z.object({
  s: z.string(),
  t: z.array(z.number()),
  o: z.array(z.number()),
  h: z.array(z.number()).optional(),
  l: z.array(z.number()).optional(),
  c: z.array(z.number()).optional(),
});

/** ms since the epoch from a number of seconds, ms or µs (by its size); null when it is none of them. */
export function epochMsOf(value: number): number | null {
  if (!Number.isFinite(value) || value <= 0) return null;
  if (value >= 1e14) return Math.floor(value / 1000); // µs
  if (value >= 1e11) return Math.floor(value); // ms
  return Math.round(value * 1000); // s
}

function priceEvent(ticker: string, atMs: number, price: number): UnderlyingEvent {
  return { kind: 'underlying', t: atMs, ticker, source: 'import', price, conf: null, publishTs: atMs, market: null };
}

function tradingView(file: string, text: string, ticker: string): UnderlyingEvent[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UnderlyingImportError(file, null, `not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = TradingViewHistory.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UnderlyingImportError(file, null, `not TradingView history ({s, t, o, h, l, c}): ${issue?.path.join('.') || '(file)'}: ${issue?.message ?? 'invalid'}`);
  }
  const h = parsed.data;
  if (h.s !== 'ok') throw new UnderlyingImportError(file, null, `status s is ${JSON.stringify(h.s)}, not "ok" (no data for that range?)`);
  if (h.o.length !== h.t.length) throw new UnderlyingImportError(file, null, `t has ${h.t.length} entries but o has ${h.o.length}`);
  return h.t.map((seconds, i) => {
    const open = h.o[i] ?? Number.NaN;
    if (!Number.isInteger(seconds) || seconds <= 0 || seconds >= 1e11) throw new UnderlyingImportError(file, null, `t[${i}]: ${seconds} is not a time in seconds since the epoch`);
    if (!(Number.isFinite(open) && open > 0)) throw new UnderlyingImportError(file, null, `o[${i}]: ${open} is not a positive price`);
    return priceEvent(ticker, seconds * 1000, open);
  });
}

const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

function csvLines(text: string): { line: number; cells: string[] }[] {
  return text
    .split(/\r?\n/)
    .map((raw, i) => ({ line: i + 1, cells: raw.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1')) }))
    .filter((row) => row.cells.some((c) => c !== ''));
}

function csv(file: string, text: string, ticker: string): { shape: UnderlyingFileShape; events: UnderlyingEvent[] } {
  const rows = csvLines(text);
  const first = rows[0];
  if (first === undefined) throw new UnderlyingImportError(file, 1, 'empty file');
  const hasHeader = !NUMBER.test(first.cells[0] ?? '') && Number.isNaN(Date.parse(first.cells[0] ?? ''));
  const data = hasHeader ? rows.slice(1) : rows;
  const widest = Math.max(...data.map((r) => r.cells.length), 0);
  const shape: UnderlyingFileShape = widest >= 6 ? 'kline-csv' : 'timestamp-price-csv';
  if (data.length === 0) throw new UnderlyingImportError(file, first.line, 'a header and no prices');
  const events = data.map(({ line, cells }) => {
    if (shape === 'timestamp-price-csv' && cells.length !== 2) throw new UnderlyingImportError(file, line, `expected timestamp,price (got ${cells.length} fields)`);
    if (shape === 'kline-csv' && cells.length < 6) throw new UnderlyingImportError(file, line, `expected a kline (open time, open, high, low, close, volume, …; got ${cells.length} fields)`);
    const [timeText = '', priceText = ''] = cells;
    const numeric = NUMBER.test(timeText);
    const atMs = numeric ? epochMsOf(Number(timeText)) : shape === 'timestamp-price-csv' ? isoMs(timeText) : null;
    if (atMs === null) throw new UnderlyingImportError(file, line, `${shape === 'kline-csv' ? 'open time' : 'timestamp'} ${JSON.stringify(timeText)} is not a time (s, ms or µs since the epoch${shape === 'kline-csv' ? '' : ', or ISO-8601'})`);
    const price = NUMBER.test(priceText) ? Number(priceText) : Number.NaN;
    if (!(Number.isFinite(price) && price > 0)) throw new UnderlyingImportError(file, line, `${shape === 'kline-csv' ? 'open' : 'price'} ${JSON.stringify(priceText)} is not a positive price`);
    return { line, event: priceEvent(ticker, atMs, price) };
  });
  for (let i = 1; i < events.length; i += 1) {
    const previous = events[i - 1];
    const current = events[i];
    if (previous !== undefined && current !== undefined && current.event.t <= previous.event.t) {
      throw new UnderlyingImportError(file, current.line, `time ${new Date(current.event.t).toISOString()} is not after the previous line's ${new Date(previous.event.t).toISOString()}`);
    }
  }
  return { shape, events: events.map((e) => e.event) };
}

function isoMs(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : null;
}

/** Reads one file's text (`file` names it in errors). Throws UnderlyingImportError. */
export function parseUnderlyingFile(file: string, text: string, ticker: string): { readonly shape: UnderlyingFileShape; readonly events: UnderlyingEvent[] } {
  if (!/^[A-Z][A-Z0-9]{0,15}$/.test(ticker)) throw new UnderlyingImportError(file, null, `ticker ${JSON.stringify(ticker)} is not an upper-case ticker such as SOL`);
  if (text.trimStart().startsWith('{')) {
    const events = tradingView(file, text, ticker);
    for (let i = 1; i < events.length; i += 1) {
      if ((events[i]?.t ?? 0) <= (events[i - 1]?.t ?? 0)) throw new UnderlyingImportError(file, null, `t[${i}] is not after t[${i - 1}]`);
    }
    return { shape: 'tradingview-json', events };
  }
  return csv(file, text, ticker);
}
