/**
 * `outcome-maker import polymarket` and `outcome-maker import underlying`: read recordings of another venue
 * (src/replay/polymarket.ts says the format) or an underlying's price history (src/replay/underlying-import.ts),
 * write one replay stream file and print what was imported as one JSON line.
 *
 * Owns: file reading, the flags' terms and reward settings, and the header of an imported stream. Invariants:
 * nothing is written when any input or flag is unreadable or invalid (the error names the file and the line, record
 * or field, or the flag and its value), and nothing is half-written (./writer.ts writes a temporary file and renames
 * it); the market is named by its slug (and title) as given, never after a file; the header says the source and the
 * units.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { errorText } from '../core/errors.js';
import { priceToTicks, sharesToRaw, UnitError } from '../core/venue-rules/index.js';
import { REPLAY_FORMAT, REPLAY_UNITS, REPLAY_VERSION, type GivenTerms, type ReplayEvent, type ReplayMarket, type ReplayRewards, type UnderlyingEvent } from './format.js';
import { assetPrices, ImportError, importPolymarket, POLYMARKET_TICK_TICKS, type ImportReport } from './polymarket.js';
import { readReplay } from './reader.js';
import { parseUnderlyingFile, UnderlyingImportError, type UnderlyingFileShape } from './underlying-import.js';
import { outcomeMakerVersion } from './version.js';
import { writeReplayFile } from './writer.js';

/** A flag of an import that cannot be used: names the flag and its value. */
export class ImportUsageError extends Error {
  override readonly name = 'ImportUsageError';
  constructor(
    readonly flag: string,
    readonly value: string,
    readonly reason: string,
  ) {
    super(`${flag} ${JSON.stringify(value)}: ${reason}`);
  }
}

export interface ImportPolymarketArgs {
  readonly books: string;
  readonly trades: string;
  readonly booksOther?: string;
  readonly tradesOther?: string;
  readonly out: string;
  /** The market's slug (its name in the stream and the reports). */
  readonly market: string;
  readonly title?: string;
  /** Terms: the underlying's ticker, the strike (decimal USD) or the window open, and the settlement instant. */
  readonly ticker?: string;
  readonly strike?: string;
  readonly windowOpen?: string;
  readonly settles?: string;
  /** Reward settings: minimum size (shares), band around the midpoint (price, e.g. 0.03), daily pool (USDC). */
  readonly rewardMinSize?: string;
  readonly rewardMaxSpread?: string;
  readonly rewardDaily?: string;
  /** An underlying stream (from `import underlying`) whose prices go into this one. */
  readonly underlying?: string;
  /** Also take the records' own `asset_price` as this ticker's price (the sample's recorded underlying). */
  readonly assetPriceTicker?: string;
  /** Stamped into the header (tests pin it). */
  readonly nowMs?: number;
}

/** Underlying prices this long before the first book or trade are kept (the volatility estimate warms up on them). */
const UNDERLYING_LEAD_MS = 3_600_000;

/** An instant given as ISO-8601 or ms since the epoch. */
function instantFlag(flag: string, text: string): number {
  const ms = /^\d+$/.test(text) ? Number(text) : /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms <= 0) throw new ImportUsageError(flag, text, 'expected an instant: ISO-8601 (2025-12-11T11:15:00Z) or ms since the epoch');
  return ms;
}

function unitFlag(flag: string, text: string, convert: (field: string, value: string) => number): number {
  try {
    return convert(flag, text);
  } catch (error) {
    if (error instanceof UnitError) throw new ImportUsageError(flag, text, error.message);
    throw error;
  }
}

/** The market's terms from the flags; undefined when none is given (the market is quoted from its book). */
export function termsFromFlags(args: Pick<ImportPolymarketArgs, 'ticker' | 'strike' | 'windowOpen' | 'settles'>): GivenTerms | undefined {
  const { ticker, strike, windowOpen, settles } = args;
  if (ticker === undefined && strike === undefined && windowOpen === undefined && settles === undefined) return undefined;
  if (ticker === undefined || !/^[A-Z][A-Z0-9]{0,15}$/.test(ticker)) throw new ImportUsageError('--ticker', ticker ?? '', 'terms need the underlying\'s upper-case ticker, e.g. SOL');
  if (settles === undefined) throw new ImportUsageError('--settles', '', 'terms need the settlement instant');
  if (strike === undefined && windowOpen === undefined) throw new ImportUsageError('--strike', '', 'terms need a strike (--strike) or the window open of an up/down market (--window-open)');
  if (strike !== undefined && !(/^[0-9]+(\.[0-9]+)?$/.test(strike) && Number(strike) > 0)) throw new ImportUsageError('--strike', strike, 'expected a positive decimal price in USD');
  const settlesAtMs = instantFlag('--settles', settles);
  const windowOpenMs = windowOpen === undefined ? null : instantFlag('--window-open', windowOpen);
  if (windowOpenMs !== null && windowOpenMs >= settlesAtMs) throw new ImportUsageError('--window-open', windowOpen ?? '', 'the window must open before the settlement instant');
  return { kind: 'given', ticker, family: windowOpenMs === null ? 'strike' : 'updown', strike: strike ?? null, windowOpenMs, settlesAtMs };
}

/** The reward settings from the flags; undefined when none is given (not rewardable). */
export function rewardsFromFlags(args: Pick<ImportPolymarketArgs, 'rewardMinSize' | 'rewardMaxSpread' | 'rewardDaily'>): ReplayRewards | undefined {
  const { rewardMinSize, rewardMaxSpread, rewardDaily } = args;
  if (rewardMinSize === undefined && rewardMaxSpread === undefined && rewardDaily === undefined) return undefined;
  if (rewardMaxSpread === undefined) throw new ImportUsageError('--reward-max-spread', '', 'reward settings need the band around the midpoint (a price, e.g. 0.03)');
  if (rewardDaily === undefined) throw new ImportUsageError('--reward-daily', '', 'reward settings need the daily reward in USDC');
  const maxSpreadTicks = unitFlag('--reward-max-spread', rewardMaxSpread, priceToTicks);
  const dailyRewardRaw = unitFlag('--reward-daily', rewardDaily, sharesToRaw);
  if (dailyRewardRaw <= 0) throw new ImportUsageError('--reward-daily', rewardDaily, 'the daily reward must be positive');
  return { minSizeRaw: rewardMinSize === undefined ? 0 : unitFlag('--reward-min-size', rewardMinSize, sharesToRaw), maxSpreadTicks, dailyRewardRaw };
}

function readJson(path: string): { readonly name: string; readonly data: unknown } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ImportError(path, null, `cannot read: ${errorText(error)}`);
  }
  try {
    return { name: basename(path), data: JSON.parse(text) };
  } catch (error) {
    throw new ImportError(path, null, `not JSON: ${errorText(error)}`);
  }
}

export function importPolymarketFiles(args: ImportPolymarketArgs): ImportReport & { readonly out: string; readonly market: string; readonly underlyingPrices: number } {
  const market = args.market;
  if (market.trim() === '') throw new ImportUsageError('--market', market, 'the market needs a slug');
  const terms = termsFromFlags(args);
  const rewards = rewardsFromFlags(args);
  const books = readJson(args.books);
  const trades = readJson(args.trades);
  const { events, report } = importPolymarket(
    {
      books,
      trades,
      ...(args.booksOther === undefined ? {} : { booksOther: readJson(args.booksOther) }),
      ...(args.tradesOther === undefined ? {} : { tradesOther: readJson(args.tradesOther) }),
    },
    market,
  );
  const prices = [
    ...(args.assetPriceTicker === undefined ? [] : assetPrices([books, trades], args.assetPriceTicker)),
    ...(args.underlying === undefined ? [] : underlyingOf(args.underlying, report.firstMs, report.lastMs)),
  ];
  const entry: ReplayMarket = {
    slug: market,
    yesTokenId: null,
    noTokenId: null,
    tickTicks: POLYMARKET_TICK_TICKS,
    ...(args.title === undefined ? {} : { title: args.title }),
    ...(terms === undefined ? {} : { terms }),
    ...(rewards === undefined ? {} : { rewards }),
  };
  writeReplayFile(
    args.out,
    {
      kind: 'header',
      format: REPLAY_FORMAT,
      version: REPLAY_VERSION,
      venue: { name: 'polymarket', baseUrl: null },
      source: { tool: 'import:polymarket', version: outcomeMakerVersion() },
      units: REPLAY_UNITS,
      markets: [entry],
      createdAtMs: args.nowMs ?? Date.now(),
    },
    merged(events, prices),
  );
  return { ...report, out: args.out, market, underlyingPrices: prices.length };
}

/** Market events and underlying prices in one time order (a market event first at equal times). */
function merged(events: readonly ReplayEvent[], prices: readonly UnderlyingEvent[]): ReplayEvent[] {
  return [...events.map((event, order) => ({ event, order })), ...prices.map((event, order) => ({ event, order: events.length + order }))]
    .sort((a, b) => a.event.t - b.event.t || a.order - b.order)
    .map(({ event }) => event);
}

/** The prices of an underlying stream from an hour before `firstMs` to `lastMs`. */
function underlyingOf(path: string, firstMs: number | null, lastMs: number | null): UnderlyingEvent[] {
  const stream = readReplay(path);
  const prices = stream.events.flatMap((e) => (e.kind === 'underlying' ? [e] : []));
  if (prices.length === 0) throw new ImportError(path, null, 'no underlying prices in this stream (make one with `import underlying`)');
  if (firstMs === null || lastMs === null) return prices;
  const kept = prices.filter((p) => p.t >= firstMs - UNDERLYING_LEAD_MS && p.t <= lastMs);
  if (kept.length === 0) {
    throw new ImportError(path, null, `no underlying price between ${new Date(firstMs - UNDERLYING_LEAD_MS).toISOString()} and ${new Date(lastMs).toISOString()} (the stream covers ${new Date(prices[0]?.t ?? 0).toISOString()} to ${new Date(prices.at(-1)?.t ?? 0).toISOString()})`);
  }
  return kept;
}

export interface ImportUnderlyingArgs {
  readonly ticker: string;
  readonly from: string;
  readonly out: string;
  readonly nowMs?: number;
}

/** `import underlying --ticker T --from FILE --out PATH`: one price history into an underlying-only stream. */
export function importUnderlyingFile(args: ImportUnderlyingArgs): { readonly out: string; readonly ticker: string; readonly shape: UnderlyingFileShape; readonly prices: number; readonly firstMs: number | null; readonly lastMs: number | null } {
  let text: string;
  try {
    text = readFileSync(args.from, 'utf8');
  } catch (error) {
    throw new UnderlyingImportError(args.from, null, `cannot read: ${errorText(error)}`);
  }
  const { shape, events } = parseUnderlyingFile(args.from, text, args.ticker);
  writeReplayFile(
    args.out,
    {
      kind: 'header',
      format: REPLAY_FORMAT,
      version: REPLAY_VERSION,
      venue: { name: `underlying:${shape}`, baseUrl: null },
      source: { tool: 'import:underlying', version: outcomeMakerVersion() },
      units: REPLAY_UNITS,
      markets: [],
      createdAtMs: args.nowMs ?? Date.now(),
    },
    events,
  );
  return { out: args.out, ticker: args.ticker, shape, prices: events.length, firstMs: events[0]?.t ?? null, lastMs: events.at(-1)?.t ?? null };
}
