/**
 * Polymarket recordings (the format of shared/replay-samples/) → replay events. Pure: arrays in, events and a
 * report out.
 *
 * Facts of that format: a JSON array per file. A book record is `{bids, asks, timestamp, local_timestamp,
 * asset_price}`, prices and sizes decimal strings in shares, bids in ascending price order and asks in descending
 * order (the best level of each is the LAST element), `timestamp` the venue's ms time as a string. A trade record
 * is `{price, size, side, timestamp, local_timestamp, asset_price}` with `side` "buy" or "sell" for the taker. The
 * two files of a market are its two outcome tokens: the other token's book at p is this token's book at 1 − p
 * with sides swapped, and its trade at p is a trade of this token at 1 − p on the other side. Tick 0.01.
 *
 * Owns: the mapping into YES terms (the `--books` token is YES). Invariants: prices and sizes are parsed exactly
 * (a price off the 0.01 grid or a size with more than 6 decimals is an error naming the file, record and field);
 * levels come out best first whatever order the file used; events are ordered by receive time (`local_timestamp`),
 * ties keeping books before trades and file order; the other token's books are only compared with this token's
 * (mismatches counted), never merged in.
 */
import { z } from 'zod';
import { complementTicks, priceToTicks, sharesToRaw, UnitError } from '../core/venue-rules/index.js';
import type { BookEvent, ReplayEvent, TradeEvent, UnderlyingEvent } from './format.js';

/** Polymarket's price step, 0.01, in ticks of 0.001. */
export const POLYMARKET_TICK_TICKS = 10;

const decimalText = z.string().regex(/^\d+(\.\d+)?$/, 'expected a decimal string');
const msText = z.string().regex(/^\d{1,16}$/, 'expected ms since epoch as a string');
const levelRecord = z.object({ price: decimalText, size: decimalText });
const bookRecord = z.object({
  bids: z.array(levelRecord),
  asks: z.array(levelRecord),
  timestamp: msText,
  local_timestamp: msText,
  asset_price: z.number().nullable().optional(),
});
const tradeRecord = z.object({
  price: decimalText,
  size: decimalText,
  side: z.enum(['buy', 'sell']),
  timestamp: msText,
  local_timestamp: msText,
  asset_price: z.number().nullable().optional(),
});

/** A record of an imported file that is not what the format says. */
export class ImportError extends Error {
  constructor(
    readonly file: string,
    readonly index: number | null,
    readonly detail: string,
  ) {
    super(`${file}${index === null ? '' : `[${index}]`}: ${detail}`);
    this.name = 'ImportError';
  }
}

export interface PolymarketFiles {
  /** Parsed JSON of each file, with the name used in errors. */
  readonly books: { readonly name: string; readonly data: unknown };
  readonly trades: { readonly name: string; readonly data: unknown };
  readonly booksOther?: { readonly name: string; readonly data: unknown };
  readonly tradesOther?: { readonly name: string; readonly data: unknown };
}

export interface ImportReport {
  readonly books: number;
  readonly trades: number;
  readonly tradesOther: number;
  /** Books of the other token compared with this token's book at the same venue time. */
  readonly otherBooksCompared: number;
  /** ... of which did not mirror this token's book exactly. */
  readonly otherBooksMismatched: number;
  readonly firstMs: number | null;
  readonly lastMs: number | null;
  /** The longest time between two books (the replay carries the last book forward over it). */
  readonly longestBookGapMs: number;
}

function parseArray<T>(file: { readonly name: string; readonly data: unknown }, schema: z.ZodType<T>): T[] {
  if (!Array.isArray(file.data)) throw new ImportError(file.name, null, 'expected a JSON array of records');
  return file.data.map((item: unknown, index) => {
    const parsed = schema.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ImportError(file.name, index, `${issue?.path.join('.') ?? '(record)'}: ${issue?.message ?? 'invalid'}`);
    }
    return parsed.data;
  });
}

function exact<T>(file: string, index: number, convert: () => T): T {
  try {
    return convert();
  } catch (error) {
    if (error instanceof UnitError) throw new ImportError(file, index, error.message);
    throw error;
  }
}

function onGrid(file: string, index: number, field: string, text: string): number {
  const ticks = exact(file, index, () => priceToTicks(field, text));
  if (ticks % POLYMARKET_TICK_TICKS !== 0) throw new ImportError(file, index, `${field} ${text} is off the 0.01 grid`);
  return ticks;
}

type Level = [number, number];

function levels(file: string, index: number, side: string, records: readonly z.infer<typeof levelRecord>[]): Level[] {
  return records
    .map((level, n): Level => [onGrid(file, index, `${side}[${n}].price`, level.price), exact(file, index, () => sharesToRaw(`${side}[${n}].size`, level.size))])
    .filter(([, size]) => size > 0);
}

function book(file: string, index: number, record: z.infer<typeof bookRecord>, market: string): BookEvent {
  const bids = levels(file, index, 'bids', record.bids).sort((a, b) => b[0] - a[0]);
  const asks = levels(file, index, 'asks', record.asks).sort((a, b) => a[0] - b[0]);
  return { kind: 'book', t: Number(record.local_timestamp), venueTs: Number(record.timestamp), market, bids, asks };
}

/** This token's book seen from the other token's record: its bids at q are this book's asks at 1 − q. */
function mirrored(other: BookEvent): Pick<BookEvent, 'bids' | 'asks'> {
  const flip = (side: readonly Level[]): Level[] => side.map(([price, size]): Level => [complementTicks(price), size]);
  return { bids: flip(other.asks), asks: flip(other.bids) };
}

function sameLevels(a: readonly Level[], b: readonly Level[]): boolean {
  return a.length === b.length && a.every(([price, size], i) => b[i]?.[0] === price && b[i]?.[1] === size);
}

function trade(file: string, index: number, record: z.infer<typeof tradeRecord>, market: string, otherToken: boolean): TradeEvent {
  const price = onGrid(file, index, 'price', record.price);
  const takerBuys = record.side === 'buy';
  return {
    kind: 'trade',
    t: Number(record.local_timestamp),
    venueTs: Number(record.timestamp),
    market,
    priceTicks: otherToken ? complementTicks(price) : price,
    sizeRaw: exact(file, index, () => sharesToRaw('size', record.size)),
    takerSide: takerBuys !== otherToken ? 'BUY' : 'SELL',
    id: null,
  };
}

/** The events of one market, in receive-time order, and what the import saw. */
export function importPolymarket(files: PolymarketFiles, market: string): { readonly events: ReplayEvent[]; readonly report: ImportReport } {
  const books = parseArray(files.books, bookRecord).map((record, i) => book(files.books.name, i, record, market));
  const trades = parseArray(files.trades, tradeRecord).map((record, i) => trade(files.trades.name, i, record, market, false));
  const other = files.tradesOther;
  const otherTrades = other === undefined ? [] : parseArray(other, tradeRecord).map((record, i) => trade(other.name, i, record, market, true));

  let compared = 0;
  let mismatched = 0;
  const otherBooks = files.booksOther;
  if (otherBooks !== undefined) {
    const byVenueTs = new Map(books.map((b) => [b.venueTs, b]));
    parseArray(otherBooks, bookRecord).forEach((record, i) => {
      const seen = book(otherBooks.name, i, record, market);
      const mine = byVenueTs.get(seen.venueTs);
      if (mine === undefined) return;
      compared += 1;
      const view = mirrored(seen);
      if (!sameLevels(view.bids, mine.bids) || !sameLevels(view.asks, mine.asks)) mismatched += 1;
    });
  }

  const ordered: ReplayEvent[] = [...books, ...trades, ...otherTrades]
    .map((event, order) => ({ event, order }))
    .sort((a, b) => a.event.t - b.event.t || a.order - b.order)
    .map(({ event }) => event);
  let longestBookGapMs = 0;
  const bookTimes = books.map((b) => b.t).sort((a, b) => a - b);
  for (let i = 1; i < bookTimes.length; i += 1) longestBookGapMs = Math.max(longestBookGapMs, (bookTimes[i] ?? 0) - (bookTimes[i - 1] ?? 0));
  return {
    events: ordered,
    report: {
      books: books.length,
      trades: trades.length,
      tradesOther: otherTrades.length,
      otherBooksCompared: compared,
      otherBooksMismatched: mismatched,
      firstMs: ordered[0]?.t ?? null,
      lastMs: ordered.at(-1)?.t ?? null,
      longestBookGapMs,
    },
  };
}

const assetPriceRecord = z.object({ timestamp: msText, local_timestamp: msText, asset_price: z.number().nullable().optional() });

/**
 * The records' own `asset_price` (the underlying's price the recorder saw beside each book and trade) as `ticker`'s
 * prices: `t` = `local_timestamp`, `publishTs` = `timestamp`, one per venue time, in receive order. Records without
 * one are skipped; a non-positive or non-finite one is an error naming the file and the record.
 */
export function assetPrices(files: readonly { readonly name: string; readonly data: unknown }[], ticker: string): UnderlyingEvent[] {
  const byVenueTs = new Map<number, UnderlyingEvent>();
  for (const file of files) {
    parseArray(file, assetPriceRecord).forEach((record, index) => {
      const price = record.asset_price;
      if (price === null || price === undefined) return;
      if (!(Number.isFinite(price) && price > 0)) throw new ImportError(file.name, index, `asset_price ${price} is not a positive price`);
      const publishTs = Number(record.timestamp);
      if (!byVenueTs.has(publishTs)) byVenueTs.set(publishTs, { kind: 'underlying', t: Number(record.local_timestamp), ticker, source: 'import', price, conf: null, publishTs, market: null });
    });
  }
  return [...byVenueTs.values()].sort((a, b) => a.t - b.t || a.publishTs - b.publishTs);
}
