/**
 * `outcome-maker price --markets M --books B --underlying U…`: what the bot would have thought of each recorded book
 * at the instant it was captured, beside the book itself, so a person sees where the model and the market disagree.
 *
 * Owns: the pure core (`priceRecordedBooks`): the books' lines read (the venue's orderbook answers with their capture
 * time, `{capturedAt, request: "GET /markets/{slug}/orderbook", body}`), the replay of the underlying and the books in
 * time order into one MarketPricer (the bot's own, with its volatility surface), and one JSON line per book.
 * Invariants: only what was known then — every underlying price up to the book's instant is fed before the book is
 * priced, no later one, and the book itself joins the ladder's samples only after it was priced (a book never prices
 * itself); books are priced in capture order whatever their order in the file (ties keep the file's order); a line
 * that cannot be read gives an error line naming the file and the line, and the others are still priced; a book of a
 * market not in M, or one the model cannot price, says why. The recording has no orders of the bot's, so the touch is
 * the whole book's.
 */
import { z } from 'zod';
import { DEFAULT_PRICER_SETTINGS, MarketPricer, type PricerSettings } from './market-pricer.js';
import { readLine } from './price-command.js';
import type { FeedId, MarketTerms } from './types.js';

/** One recorded price of an underlying (an `import underlying` stream's event). */
export interface RecordedPrice {
  readonly ticker: string;
  readonly atMs: number;
  readonly price: number;
}

export interface PriceBooksOptions {
  readonly feedIds: Readonly<Record<string, FeedId>>;
  readonly settings: PricerSettings;
}

/** The settings `price` prices recordings with: the bot's, except what a sparse recording cannot satisfy. */
export function recordingSettings(base: PricerSettings = DEFAULT_PRICER_SETTINGS, staleMs = 90_000): PricerSettings {
  // A recorded underlying may be one print a minute: the bot's 10 s staleness and its fast-market guard (a move
  // within 5 s) would halt or never see it.
  return { ...base, staleMs, guard: { ...base.guard, enabled: false } };
}

const level = z.object({ price: z.union([z.number(), z.string()]), size: z.union([z.number(), z.string()]) });
const bookLine = z.object({
  capturedAt: z.string(),
  request: z.string(),
  body: z.object({ bids: z.array(level), asks: z.array(level) }),
});

type Book = { readonly kind: 'book'; readonly line: number; readonly atMs: number; readonly slug: string; readonly bid: number | null; readonly ask: number | null };
type BookError = { readonly kind: 'error'; readonly line: number; readonly error: string };

/** A price level's price in ticks (1 tick = 0.001); null when it is not on the grid within [1, 999]. */
function ticksOf(value: number | string): number | null {
  const n = typeof value === 'number' ? value : Number(value);
  const ticks = Math.round(n * 1000);
  return Number.isFinite(n) && Math.abs(n * 1000 - ticks) < 1e-6 && ticks >= 1 && ticks <= 999 ? ticks : null;
}

function readBook(raw: string, line: number, source: string): Book | BookError {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { kind: 'error', line, error: `${source}:${line}: not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const parsed = bookLine.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { kind: 'error', line, error: `${source}:${line}: not an orderbook capture ({capturedAt, request, body: {bids, asks}}): ${issue?.path.join('.') || '(line)'}: ${issue?.message ?? 'invalid'}` };
  }
  const b = parsed.data;
  const atMs = Date.parse(b.capturedAt);
  if (!Number.isFinite(atMs)) return { kind: 'error', line, error: `${source}:${line}: capturedAt is not an instant (got ${JSON.stringify(b.capturedAt)})` };
  const slug = /\/markets\/([^/\s]+)\/orderbook/.exec(b.request)?.[1];
  if (slug === undefined) return { kind: 'error', line, error: `${source}:${line}: request does not name a market's orderbook (got ${JSON.stringify(b.request)})` };
  const side = (levels: readonly z.infer<typeof level>[], field: 'bids' | 'asks'): number[] | string =>
    levels.reduce<number[] | string>((acc, l, i) => {
      if (typeof acc === 'string') return acc;
      const ticks = ticksOf(l.price);
      return ticks === null ? `${source}:${line}: body.${field}[${i}].price is not a price in 0.001 steps within (0, 1) (got ${JSON.stringify(l.price)})` : [...acc, ticks];
    }, []);
  const bids = side(b.body.bids, 'bids');
  if (typeof bids === 'string') return { kind: 'error', line, error: bids };
  const asks = side(b.body.asks, 'asks');
  if (typeof asks === 'string') return { kind: 'error', line, error: asks };
  return { kind: 'book', line, atMs, slug, bid: bids.length === 0 ? null : Math.max(...bids) / 1000, ask: asks.length === 0 ? null : Math.min(...asks) / 1000 };
}

const round = (x: number, digits: number): number => Number(x.toFixed(digits));
const vol = (x: number | null): number | null => (x === null ? null : round(x, 4));

export interface PriceBooksResult {
  readonly lines: readonly string[];
  /** Lines of M or B that could not be read. */
  readonly failed: number;
  /** One JSON line per input line that could not be read (for stderr, never among the data). */
  readonly errors: readonly string[];
  /** What the run found, one line (for stderr): books, fair inside the spread, distance to the mid. */
  readonly summary: string;
}

/** The value at quantile `q` of sorted numbers (nearest rank), or null. Pure. */
function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? null;
}

/**
 * The summary line of `price --books`: books priced (of those read), how many fair values fell inside the book's
 * spread (bid ≤ fair ≤ ask, both sides present), and the median and p90 of |fair − mid| in price units. Pure.
 */
export function booksSummary(priced: readonly { readonly bid: number | null; readonly ask: number | null; readonly mid: number | null; readonly fair: number }[], books: number): string {
  const twoSided = priced.filter((p) => p.bid !== null && p.ask !== null);
  const inside = twoSided.filter((p) => (p.bid ?? 0) <= p.fair && p.fair <= (p.ask ?? 1)).length;
  const distances = priced.flatMap((p) => (p.mid === null ? [] : [Math.abs(p.fair - p.mid)])).sort((a, b) => a - b);
  const at = (q: number): string => {
    const v = quantile(distances, q);
    return v === null ? '—' : v.toFixed(4);
  };
  const pct = twoSided.length === 0 ? '—' : `${((100 * inside) / twoSided.length).toFixed(1)} %`;
  return `price --books: ${books} books, ${priced.length} priced; fair inside the spread ${inside}/${twoSided.length} (${pct}); |fair − mid| median ${at(0.5)}, p90 ${at(0.9)}`;
}

/**
 * Prices every book of `booksText` (file `booksSource`) as the bot would have at its capture instant, from the
 * markets of `marketsText` and the recorded `underlying` prices (any order; sorted here).
 */
export function priceRecordedBooks(marketsText: string, marketsSource: string, booksText: string, booksSource: string, underlying: readonly RecordedPrice[], options: PriceBooksOptions): PriceBooksResult {
  const pricer = new MarketPricer(options.settings);
  const lines: string[] = [];
  const errors: string[] = [];
  const priced: { bid: number | null; ask: number | null; mid: number | null; fair: number }[] = [];
  let failed = 0;
  const termsOf = new Map<string, MarketTerms>();
  const unpriced = new Map<string, string>();
  marketsText.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    const read = readLine(raw, index + 1, marketsSource, options.feedIds);
    if (read.kind === 'error') {
      failed += 1;
      errors.push(JSON.stringify({ line: read.line, error: read.error }));
    } else if (read.kind === 'unpriced') {
      unpriced.set(String(read.out['slug']), String(read.out['reason']));
    } else {
      termsOf.set(read.terms.slug, read.terms);
      pricer.register(read.terms.slug, { ok: true, terms: read.terms });
    }
  });
  const books = booksText.split('\n').flatMap((raw, index) => (raw.trim() === '' ? [] : [readBook(raw, index + 1, booksSource)]));
  const ordered = books.filter((b): b is Book => b.kind === 'book').sort((a, b) => a.atMs - b.atMs || a.line - b.line);
  for (const b of books) {
    if (b.kind === 'error') {
      failed += 1;
      errors.push(JSON.stringify({ line: b.line, error: b.error }));
    }
  }
  const prices = [...underlying].sort((a, b) => a.atMs - b.atMs);
  let next = 0;
  for (const book of ordered) {
    while (next < prices.length && (prices[next]?.atMs ?? Infinity) <= book.atMs) {
      const p = prices[next++];
      if (p !== undefined) pricer.observe({ ticker: p.ticker, price: p.price, conf: null, receiveTimeMs: p.atMs });
    }
    const mid = book.bid !== null && book.ask !== null ? round((book.bid + book.ask) / 2, 4) : null;
    const head = { capturedAt: new Date(book.atMs).toISOString(), slug: book.slug, line: book.line };
    const terms = termsOf.get(book.slug);
    if (terms === undefined) {
      lines.push(JSON.stringify({ ...head, bid: book.bid, ask: book.ask, mid, fair: null, reason: unpriced.get(book.slug) ?? `not a market of ${marketsSource}` }));
      continue;
    }
    const answer = pricer.answer(book.slug, book.atMs);
    const market = { ...head, ticker: terms.ticker, strike: terms.strike, settlesAt: new Date(terms.settlesAtMs).toISOString(), bid: book.bid, ask: book.ask, mid };
    if (answer.kind === 'priced') {
      priced.push({ bid: book.bid, ask: book.ask, mid, fair: answer.view.fair });
      const v = pricer.volatilityOf(book.slug, book.atMs);
      lines.push(
        JSON.stringify({
          ...market,
          fair: round(answer.view.fair, 6),
          delta: answer.view.delta,
          uncertainty: round(answer.view.uncertainty, 6),
          spot: answer.view.underlying.price,
          vol: { realized: vol(v?.realizedVol ?? null), implied: vol(v?.impliedVol ?? null), blended: vol(v?.blendedVol ?? null) },
          tails: v?.tails.kind === 'student-t' ? round(v.tails.dof, 2) : 'normal',
          samples: v?.samples ?? 0,
          impliedWeight: round(v?.impliedWeight ?? 0, 4),
        }),
      );
    } else {
      lines.push(JSON.stringify({ ...market, fair: null, reason: answer.kind === 'halt' ? answer.reason : 'quoted from its book' }));
    }
    pricer.observeBook(book.slug, { bid: book.bid, ask: book.ask }, book.atMs);
  }
  return { lines, failed, errors, summary: booksSummary(priced, ordered.length) };
}
