/**
 * The replay stream: what `outcome-maker record` writes and `outcome-maker import` produces, and what a replay
 * backtest reads. One gzip-compressed NDJSON file (or a directory of rotated parts), each part starting with a
 * header line, then one event per line in receive-time order.
 *
 * Owns: the format (its version, the header, the event kinds) and its validation. Invariants: every price is
 * an integer tick (1 tick = 0.001) in YES terms, every size a raw 1e6 integer (shares × 1e6); books list levels
 * best first; a line that fails validation is an error naming the line and the field, never skipped silently;
 * times are ms since epoch (`t` = when the event happened as the recorder knows it: when it received a book, mode,
 * resolution or gap, and the venue's own time of a trade, which the polled trade feed delivers late; `venueTs` = the
 * venue's own stamp). Lines are in the order they were written; a replay orders events by `t`.
 *
 * Version 2 adds, all optional so a version-1 stream still reads: per market its `title`, its settlement `terms`
 * (the venue's market fields as the bot's terms parser reads them, or terms given on import) and its liquidity
 * `rewards`; and the `underlying` event (a price of the underlying that settles crypto markets: the venue's
 * `oraclePriceData` frames, Pyth Hermes, or an imported history), with its receive time `t` and its own `publishTs`.
 *
 * Version 3 adds markets listed over time, again all optional so a version-1 or -2 stream reads as before: per market
 * its settlement time `expiresAtMs` (a replay leaves it at its stop before settlement), and the `listed` event (a
 * market joined the recording at `t`, with its whole `entry`); a later part's header may list more markets than the
 * first (the markets joined so far, each of them also listed by a `listed` event or, failing that, listed at that
 * part's `createdAtMs`). The markets of the first header are there from the start. A version-1/2 stream never has
 * either: its later parts must list the first part's markets exactly.
 */
import { z } from 'zod';
import { MAX_TICK, MIN_TICK } from '../core/venue-rules/index.js';
import { TRADING_MODES } from '../core/trading-mode.js';

export const REPLAY_FORMAT = 'outcome-maker-replay';
export const REPLAY_VERSION = 3;
/** The units every event uses; written into the header so a reader never has to guess. */
export const REPLAY_UNITS = { price: 'ticks of 0.001, YES terms', size: 'raw (shares × 1e6)', time: 'ms since epoch' } as const;

const ticks = z.int().min(MIN_TICK).max(MAX_TICK);
const raw = z.int().min(0).max(Number.MAX_SAFE_INTEGER);
const ms = z.int().min(0);
const level = z.tuple([ticks, raw.min(1)]);

const tickerText = z.string().regex(/^[A-Z][A-Z0-9]{0,15}$/, 'expected an upper-case ticker such as BTC');

/** The venue's own market fields that decide it (src/pricing/terms.ts `TermsInput`, minus the slug). */
const venueTerms = z.strictObject({
  kind: z.literal('venue'),
  title: z.string(),
  description: z.string().nullable(),
  tags: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  priceOracleMetadata: z.strictObject({ ticker: z.string().optional(), pythAddress: z.string().optional(), assetType: z.string().optional() }).nullable(),
  expirationMs: ms.nullable(),
});

/** Terms given on import (`import polymarket --ticker … --strike … | --window-open … --settles …`). */
const givenTerms = z.strictObject({
  kind: z.literal('given'),
  ticker: tickerText,
  /** 'strike': YES iff the price at `settlesAtMs` is above `strike`; 'updown': at or above the price at `windowOpenMs`. */
  family: z.enum(['strike', 'updown']),
  /** Exact decimal string, USD; null for an up/down market whose opening price is read from the underlying. */
  strike: z.string().regex(/^[0-9]+(\.[0-9]+)?$/, 'expected a decimal string such as 130.81').nullable(),
  windowOpenMs: ms.nullable(),
  settlesAtMs: ms,
});
export type GivenTerms = z.infer<typeof givenTerms>;
export type VenueTerms = z.infer<typeof venueTerms>;

/** Liquidity-reward settings of a market: minimum size (raw), band around the midpoint (ticks), daily pool (raw USDC). */
const rewardSettings = z.strictObject({
  minSizeRaw: raw,
  maxSpreadTicks: z.int().min(1).max(MAX_TICK),
  dailyRewardRaw: raw,
});
export type ReplayRewards = z.infer<typeof rewardSettings>;

const marketEntry = z.strictObject({
  slug: z.string().min(1),
  /** The YES token (the book's token); null when the source does not name it. */
  yesTokenId: z.string().nullable(),
  noTokenId: z.string().nullable(),
  /** The market's price step in ticks (10 = 0.01). */
  tickTicks: z.int().min(1).max(100),
  /** v2: the market's title as its venue names it (reports name the market by it, else by the slug). */
  title: z.string().min(1).optional(),
  /** v2: what decides the market, for the pricer; absent: quoted from its book. */
  terms: z.discriminatedUnion('kind', [venueTerms, givenTerms]).optional(),
  /** v2: liquidity-reward settings; absent: not rewardable. */
  rewards: rewardSettings.optional(),
  /** v3: when the market settles (its expiration as the venue lists it); absent: no settlement time known. */
  expiresAtMs: ms.optional(),
});
export type ReplayMarket = z.infer<typeof marketEntry>;

export const replayHeader = z.strictObject({
  kind: z.literal('header'),
  format: z.literal(REPLAY_FORMAT),
  version: z.union([z.literal(1), z.literal(2), z.literal(REPLAY_VERSION)]),
  /** Where the data came from: the venue's name and, for a recording, its base URL. */
  venue: z.strictObject({ name: z.string().min(1), baseUrl: z.string().nullable() }),
  /** What wrote the stream: `record` or `import:<source>`, and the outcome-maker version. */
  source: z.strictObject({ tool: z.string().min(1), version: z.string().min(1) }),
  units: z.strictObject({ price: z.literal(REPLAY_UNITS.price), size: z.literal(REPLAY_UNITS.size), time: z.literal(REPLAY_UNITS.time) }),
  /** Empty in an underlying-only stream (`import underlying`). */
  markets: z.array(marketEntry),
  createdAtMs: ms,
  /** 0 for the first part of a rotated recording, then 1, 2, ... */
  part: z.int().min(0),
});
export type ReplayHeader = z.infer<typeof replayHeader>;

const bookEvent = z.strictObject({
  kind: z.literal('book'),
  t: ms,
  venueTs: ms.nullable(),
  market: z.string().min(1),
  /** Best (highest) first. */
  bids: z.array(level),
  /** Best (lowest) first. */
  asks: z.array(level),
});

const tradeEvent = z.strictObject({
  kind: z.literal('trade'),
  t: ms,
  venueTs: ms.nullable(),
  market: z.string().min(1),
  priceTicks: ticks,
  sizeRaw: raw.min(1),
  /** The taker's side in YES terms (a taker buying NO at q is a YES SELL at 1 − q). */
  takerSide: z.enum(['BUY', 'SELL']),
  /** The venue's trade id when it gives one (deduplicates overlapping reads). */
  id: z.string().nullable(),
});

const modeEvent = z.strictObject({ kind: z.literal('mode'), t: ms, mode: z.enum(TRADING_MODES) });

const resolvedEvent = z.strictObject({
  kind: z.literal('resolved'),
  t: ms,
  market: z.string().min(1),
  winner: z.enum(['YES', 'NO']).nullable(),
});

const gapEvent = z.strictObject({
  kind: z.literal('gap'),
  t: ms,
  /** null: every market (a disconnect). */
  market: z.string().min(1).nullable(),
  cause: z.enum(['disconnect', 'resync', 'stale', 'recorder-start', 'recorder-stop']),
});

/** v2: one price of an underlying, as received. `t` = when it was received (or, imported, when it was published). */
const underlyingEvent = z.strictObject({
  kind: z.literal('underlying'),
  t: ms,
  ticker: tickerText,
  /** 'venue': an `oraclePriceData` frame; 'hermes': Pyth Hermes; 'import': an imported history (`import underlying`). */
  source: z.enum(['venue', 'hermes', 'import']),
  /** USD per unit. */
  price: z.number().positive().finite(),
  /** Pyth's confidence (USD); null when the source gives none. */
  conf: z.number().min(0).finite().nullable(),
  /** The source's own time of the price. */
  publishTs: ms,
  /** The market a venue frame was about; null otherwise. */
  market: z.string().min(1).nullable(),
});

/** v3: a market joined the recording at `t` (listed by the venue while the recorder ran); its events follow. */
const listedEvent = z.strictObject({
  kind: z.literal('listed'),
  t: ms,
  /** The market's whole entry, as a header lists it. */
  entry: marketEntry,
});

export const replayEvent = z.discriminatedUnion('kind', [bookEvent, tradeEvent, modeEvent, resolvedEvent, gapEvent, underlyingEvent, listedEvent]);
export type ReplayEvent = z.infer<typeof replayEvent>;
export type UnderlyingEvent = z.infer<typeof underlyingEvent>;
export type BookEvent = z.infer<typeof bookEvent>;
export type ListedEvent = z.infer<typeof listedEvent>;
export type TradeEvent = z.infer<typeof tradeEvent>;

/** A line of a replay stream that is not what the format says: names the file, the line and the field. */
export class ReplayFormatError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly detail: string,
  ) {
    // Line 0: the file as a whole (not gzip, no parts), not one of its lines.
    super(line > 0 ? `${file}:${line}: ${detail}` : `${file}: ${detail}`);
    this.name = 'ReplayFormatError';
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length === 0 ? '(line)' : issue.path.join('.')}: ${issue.message}`)
    .join('; ');
}

function parseLine<T>(schema: z.ZodType<T>, what: string, file: string, lineNumber: number, text: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ReplayFormatError(file, lineNumber, `not JSON: ${text.slice(0, 80)}`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ReplayFormatError(file, lineNumber, `${what}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/** Line 1 of every part. Throws ReplayFormatError. */
export function parseHeaderLine(file: string, lineNumber: number, text: string): ReplayHeader {
  return parseLine(replayHeader, 'header', file, lineNumber, text);
}

/** Any line after the header. Throws ReplayFormatError. */
export function parseEventLine(file: string, lineNumber: number, text: string): ReplayEvent {
  return parseLine(replayEvent, 'event', file, lineNumber, text);
}

/** The header as the lines the stream starts with (checked: a writer never emits a header the reader refuses). */
export function headerLine(header: ReplayHeader): string {
  return `${JSON.stringify(replayHeader.parse(header))}\n`;
}

export function eventLine(event: ReplayEvent): string {
  return `${JSON.stringify(event)}\n`;
}
