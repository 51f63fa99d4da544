/**
 * `outcome-maker price`: a trader's way to see what the bot thinks. Reads market objects (one JSON object a line, as
 * the venue's `/markets` answers hold them; a `{capturedAt, request, body}` capture line is read through its `body`)
 * and prints, one JSON line each, the terms it read or why it cannot price the market; given a spot, an annualized
 * volatility and an instant, also the model's fair value, sensitivity and uncertainty.
 *
 * Owns: the command's pure core (`priceLines`) and its option parsing. Invariants: each line is independent (a bad line
 * gives an error line naming the line number and the command's exit code 1, the other lines are still priced); flags
 * are checked before any line is read (a usage error names the flag and the value); no network, no clock but `--at`
 * (default: the caller's now).
 */
import { DEFAULT_PYTH_FEED_IDS } from './feed-ids.js';
import { DEFAULT_PRICER_SETTINGS } from './market-pricer.js';
import { digitalFairValue } from './model/index.js';
import { readMarketTerms, termsInputOfJson } from './terms.js';
import type { FeedId } from './types.js';

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

export function parseVol(text: string): number {
  const n = Number(text);
  if (!(n > 0) || n > 50) throw new PriceUsageError('--vol', text, 'expected an annualized volatility such as 0.6 (60 %/yr), in (0, 50]');
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

/** Prices every non-empty line of `text` (the file named `source`). */
export function priceLines(text: string, source: string, options: PriceOptions): PriceResult {
  const lines: string[] = [];
  let failed = 0;
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    const line = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      failed += 1;
      lines.push(JSON.stringify({ line, error: `${source}:${line}: not JSON (${error instanceof Error ? error.message : String(error)})` }));
      return;
    }
    const body: unknown = typeof value === 'object' && value !== null && 'body' in value && 'capturedAt' in value ? Reflect.get(value, 'body') : value;
    let input;
    try {
      input = termsInputOfJson(body);
    } catch (error) {
      failed += 1;
      lines.push(JSON.stringify({ line, error: `${source}:${line}: ${error instanceof Error ? error.message : String(error)}` }));
      return;
    }
    const result = readMarketTerms(input, options.feedIds);
    if (!result.ok) {
      lines.push(JSON.stringify({ line, slug: input.slug, priced: false, reason: result.reason, crypto: result.recognisedCrypto, ticker: result.ticker }));
      return;
    }
    const t = result.terms;
    const out: Record<string, unknown> = { line, slug: t.slug, priced: true, ticker: t.ticker, strike: t.strike, comparison: t.comparison, settlesAt: new Date(t.settlesAtMs).toISOString(), rule: t.rule, source: t.source, feedId: t.feedId, cadence: t.cadence };
    const spot = options.spot?.[t.ticker] ?? options.spot?.['*'];
    if (spot !== undefined && options.vol !== null && t.strikeValue !== null) {
      const secondsLeft = Math.max(0, (t.settlesAtMs - options.atMs) / 1000);
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
      Object.assign(out, { at: new Date(options.atMs).toISOString(), spot, vol: options.vol, secondsToSettlement: secondsLeft, fair: value.fair, delta: value.delta, uncertainty: value.uncertainty });
    }
    lines.push(JSON.stringify(out));
  });
  return { lines, failed };
}

export { DEFAULT_PYTH_FEED_IDS };
