/**
 * `outcome-maker price`: a trader's way to see what the bot thinks. Reads market objects (one JSON object a line, as
 * the venue's `/markets` answers hold them; a `{capturedAt, request, body}` capture line is read through its `body`)
 * and prints, one JSON line each, the terms it read or why it cannot price the market; given a spot, an annualized
 * volatility and an instant, also the model's fair value, sensitivity and uncertainty.
 *
 * Owns: the command's pure core (`priceLines`) and its option parsing. Invariants: each line is independent (a bad line
 * gives an error line naming the line number and the command's exit code 1, the other lines are still priced); flags
 * are checked before any line is read (a usage error names the flag and the value), except that a bare `--spot` (no
 * ticker) applies only when every market read has the same ticker, else it is a usage error naming the tickers; every
 * line without a fair value says why (`reason`: the terms cannot be read, no spot for its ticker, settled, no strike
 * yet); `--vol` is an annualized volatility in [VOL_MIN, VOL_MAX]; no network, no clock but `--at` (default: the
 * caller's now).
 */
import { DEFAULT_PYTH_FEED_IDS } from './feed-ids.js';
import { DEFAULT_PRICER_SETTINGS } from './market-pricer.js';
import { digitalFairValue } from './model/index.js';
import { readMarketTerms, termsInputOfJson } from './terms.js';
import type { FeedId, MarketTerms } from './types.js';

const SECONDS_PER_YEAR = 365 * 86_400;

export class PriceUsageError extends Error {
  override readonly name = 'PriceUsageError';
  constructor(
    readonly flag: string,
    readonly value: string,
    readonly reason: string,
  ) {
    super(`${flag}: ${reason} (got ${JSON.stringify(value)})`);
  }
}

export interface PriceOptions {
  /** Spot per ticker (USD); '*' applies to every ticker. */
  readonly spot: Readonly<Record<string, number>> | null;
  /** Annualized volatility (0.6 = 60 %/yr). */
  readonly vol: number | null;
  /** The instant to price at, ms. */
  readonly atMs: number;
  readonly feedIds: Readonly<Record<string, FeedId>>;
}

/** `--spot 88000` (every ticker) or `--spot BTC=88000,ETH=3000`. */
export function parseSpot(text: string): Readonly<Record<string, number>> {
  const out: Record<string, number> = {};
  const parts = text.includes('=') ? text.split(',') : [`*=${text}`];
  for (const part of parts) {
    const [ticker = '', value = ''] = part.split('=');
    const n = Number(value);
    if (!/^(\*|[A-Z][A-Z0-9]{0,15})$/.test(ticker.trim()) || !(n > 0) || !Number.isFinite(n)) throw new PriceUsageError('--spot', text, 'expected a positive price, or TICKER=price pairs separated by commas');
    out[ticker.trim()] = n;
  }
  return out;
}

/** `--vol`'s range: 1 %/yr to 500 %/yr, annualized, as a fraction (crypto's is usually 0.3 to 1.5). */
export const VOL_MIN = 0.01;
export const VOL_MAX = 5;

export function parseVol(text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < VOL_MIN || n > VOL_MAX) {
    const hint = Number.isFinite(n) && n > VOL_MAX && n <= 500 ? ` (${n} %/yr is --vol ${n / 100})` : '';
    throw new PriceUsageError('--vol', text, `expected an annualized volatility as a fraction, from ${VOL_MIN} to ${VOL_MAX} (0.6 = 60 %/yr)${hint}`);
  }
  return n;
}

/** An ISO-8601 instant or ms since the epoch. */
export function parseAt(text: string): number {
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(ms)) throw new PriceUsageError('--at', text, 'expected an ISO-8601 instant or ms since the epoch');
  return ms;
}

export interface PriceResult {
  readonly lines: readonly string[];
  /** Lines that could not be read (each has an error line). */
  readonly failed: number;
}

export type ReadLine =
  | { readonly kind: 'error'; readonly line: number; readonly error: string }
  | { readonly kind: 'unpriced'; readonly line: number; readonly out: Record<string, unknown> }
  | { readonly kind: 'terms'; readonly line: number; readonly terms: MarketTerms };

/** One line of the file: an error, a market whose terms cannot be read (and why), or its terms. */
export function readLine(raw: string, line: number, source: string, feedIds: PriceOptions['feedIds']): ReadLine {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { kind: 'error', line, error: `${source}:${line}: not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const body: unknown = typeof value === 'object' && value !== null && 'body' in value && 'capturedAt' in value ? Reflect.get(value, 'body') : value;
  let input;
  try {
    input = termsInputOfJson(body);
  } catch (error) {
    return { kind: 'error', line, error: `${source}:${line}: ${error instanceof Error ? error.message : String(error)}` };
  }
  const result = readMarketTerms(input, feedIds);
  if (!result.ok) return { kind: 'unpriced', line, out: { line, slug: input.slug, priced: false, reason: result.reason, crypto: result.recognisedCrypto, ticker: result.ticker } };
  return { kind: 'terms', line, terms: result.terms };
}

/** Why a market with terms gets no fair value at `atMs` (null: it gets one). */
function noFairReason(t: MarketTerms, spot: number | undefined, options: PriceOptions): string | null {
  if (t.strikeValue === null) return 'no strike yet: the market\'s opening price is not known';
  if (t.settlesAtMs <= options.atMs) return `settled: its price was fixed at ${new Date(t.settlesAtMs).toISOString()}, before --at ${new Date(options.atMs).toISOString()} (the venue's resolution says the outcome, not the model)`;
  if (spot === undefined) return `no spot for ${t.ticker}: give --spot ${t.ticker}=price`;
  return null;
}

/**
 * Prices every non-empty line of `text` (the file named `source`). Throws PriceUsageError when a bare `--spot` meets
 * markets of several tickers (nothing is printed then).
 */
export function priceLines(text: string, source: string, options: PriceOptions): PriceResult {
  const read = text.split('\n').flatMap((raw, index) => (raw.trim() === '' ? [] : [readLine(raw, index + 1, source, options.feedIds)]));
  const bare = options.spot?.['*'];
  const tickers = [...new Set(read.flatMap((r) => (r.kind === 'terms' ? [r.terms.ticker] : [])))].sort();
  if (bare !== undefined && tickers.length > 1) {
    const pairs = tickers.map((ticker) => `${ticker}=price`).join(',');
    throw new PriceUsageError('--spot', String(bare), `one price without a ticker, but the markets have several tickers (${tickers.join(', ')}): give --spot ${pairs}`);
  }
  const lines = read.map((r) => {
    if (r.kind === 'error') return JSON.stringify({ line: r.line, error: r.error });
    if (r.kind === 'unpriced') return JSON.stringify(r.out);
    const t = r.terms;
    const out: Record<string, unknown> = { line: r.line, slug: t.slug, priced: true, ticker: t.ticker, strike: t.strike, comparison: t.comparison, settlesAt: new Date(t.settlesAtMs).toISOString(), rule: t.rule, source: t.source, feedId: t.feedId, cadence: t.cadence };
    if (options.spot === null || options.vol === null) return JSON.stringify(out);
    const spot = options.spot[t.ticker] ?? bare;
    const reason = noFairReason(t, spot, options);
    if (reason !== null || spot === undefined || t.strikeValue === null) return JSON.stringify({ ...out, at: new Date(options.atMs).toISOString(), fair: null, reason });
    const secondsLeft = (t.settlesAtMs - options.atMs) / 1000;
    const value = digitalFairValue({
      spot,
      strike: t.strikeValue,
      comparison: t.comparison,
      secondsLeft,
      variancePerSecond: (options.vol * options.vol) / SECONDS_PER_YEAR,
      settlementNoiseVariance: DEFAULT_PRICER_SETTINGS.settlementNoiseVariance,
      spotConf: null,
      spotAgeMs: 0,
      volRelErr: DEFAULT_PRICER_SETTINGS.volRelErr,
      tails: { kind: 'normal' },
      floor: DEFAULT_PRICER_SETTINGS.floor,
      cap: DEFAULT_PRICER_SETTINGS.cap,
    });
    return JSON.stringify({ ...out, at: new Date(options.atMs).toISOString(), spot, vol: options.vol, secondsToSettlement: secondsLeft, fair: value.fair, delta: value.delta, uncertainty: value.uncertainty });
  });
  return { lines, failed: read.filter((r) => r.kind === 'error').length };
}

export { DEFAULT_PYTH_FEED_IDS };
