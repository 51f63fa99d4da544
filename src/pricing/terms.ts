/**
 * Market terms: what decides a market, read from the venue's market object (../shared/spec/exchange-facts.md §9).
 *
 * The venue's crypto strike markets say it three times: the title ("$BTC above $88640.73 on Dec 17, 01:00 UTC?"),
 * the description ("…if the opening price of the 1-minute BTC (…symbol=PYTH:BTCUSD) candle on Dec 17, 2025, at 01:00
 * UTC is above $88640.73…"), and the data (`metadata.openPrice` = the strike, `expirationTimestamp` = the settlement
 * minute, `priceOracleMetadata` on newer objects). A market is priced only when all of them agree: pricing a market
 * whose rule was misread is worse than not quoting it.
 *
 * Owns: the parser (pure) and the conversion of a wire Market or a raw market object into its input. Invariants: the
 * strike is kept as the venue's exact decimal string (compared as decimals, never through a float); "above" is strict;
 * every refusal carries a reason a person can act on; `recognisedCrypto` is true whenever a crypto underlying was
 * named, so such a market is left alone rather than quoted from its book by default.
 */
import { z } from 'zod';
import type { Market } from '../exchange/wire.js';
import { FeedIdError, parseFeedId } from './feed-ids.js';
import type { FeedId, MarketTerms, TermsResult } from './types.js';

export interface TermsInput {
  readonly slug: string;
  readonly title: string;
  readonly description: string | null;
  readonly tags: readonly string[];
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly priceOracleMetadata: { readonly ticker?: string; readonly pythAddress?: string; readonly assetType?: string } | null;
  /** The settlement instant, ms; null when the venue gave none. */
  readonly expirationMs: number | null;
}

export function termsInputOf(market: Market): TermsInput {
  return {
    slug: market.slug,
    title: market.title,
    description: market.description,
    tags: market.tags,
    metadata: market.metadata,
    priceOracleMetadata: market.priceOracleMetadata,
    expirationMs: market.expirationMs,
  };
}

const RawMarket = z.object({
  slug: z.string().min(1),
  title: z.string(),
  description: z.string().nullish(),
  tags: z.array(z.unknown()).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  priceOracleMetadata: z.unknown().optional(),
  expirationTimestamp: z.number().int().nullish(),
});

export class TermsInputError extends Error {
  override readonly name = 'TermsInputError';
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

/** A raw market object as `/markets` answers hold it; a TermsInputError names the first field it cannot read. */
export function termsInputOfJson(value: unknown): TermsInput {
  const parsed = RawMarket.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'market';
    throw new TermsInputError(field, value, issue?.message ?? 'not a market object');
  }
  const m = parsed.data;
  const oracle = m.priceOracleMetadata;
  const oracleFields = typeof oracle === 'object' && oracle !== null && !Array.isArray(oracle) ? stringFields(oracle, ['ticker', 'pythAddress', 'assetType']) : null;
  const expiration = m.expirationTimestamp ?? null;
  return {
    slug: m.slug,
    title: m.title,
    description: m.description ?? null,
    tags: (m.tags ?? []).filter((t): t is string => typeof t === 'string'),
    metadata: m.metadata ?? {},
    priceOracleMetadata: oracleFields,
    expirationMs: expiration === null ? null : expiration < 1e11 ? expiration * 1000 : expiration,
  };
}

function stringFields(value: object, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) {
    const field: unknown = Reflect.get(value, key);
    if (typeof field === 'string') out[key] = field;
  }
  return out;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DECIMAL = String.raw`[0-9][0-9,]*(?:\.[0-9]+)?`;
/** "$BTC above $88640.73 on Dec 17, 01:00 UTC?" (the live titles start with an emoji). */
const TITLE_STRIKE = new RegExp(String.raw`\$([A-Z][A-Z0-9]{1,9}) above \$(${DECIMAL}) on ([A-Z][a-z]{2}) (\d{1,2}), (\d{2}):(\d{2}) UTC\?`);
/** "…opening price of the 1-minute BTC (…symbol=PYTH:BTCUSD) candle on Dec 17, 2025, at 01:00 UTC is above $88640.73." */
const PYTH_RULE = new RegExp(
  String.raw`opening price of the 1-minute ([A-Z][A-Z0-9]{1,9}) \([^)]*symbol=PYTH:([A-Z][A-Z0-9]{1,9})USD\) candle on ([A-Z][a-z]{2}) (\d{1,2}), (\d{4}), at (\d{2}):(\d{2}) UTC is above \$(${DECIMAL})`,
);
const TITLE_TICKER = /\$([A-Z][A-Z0-9]{1,9})\b/;
const DESCRIPTION_TICKER = /PYTH:([A-Z][A-Z0-9]{1,9})USD/;
const UP_DOWN = /\b([A-Z][A-Z0-9]{1,9})\b.*\b[Uu]p or [Dd]own\b/;
const KNOWN_CRYPTO = new Set(['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'BNB', 'ADA', 'AVAX', 'LINK', 'HYPE', 'SUI', 'LTC', 'TRX', 'DOT']);

/** A decimal string in one form: no thousands separators, no trailing fractional zeros ("88,640.70" → "88640.7"). */
export function canonicalDecimal(text: string): string | null {
  const plain = text.replace(/,/g, '');
  if (!/^[0-9]+(\.[0-9]+)?$/.test(plain)) return null;
  const [whole = '', fraction = ''] = plain.split('.');
  const w = whole.replace(/^0+(?=\d)/, '');
  const f = fraction.replace(/0+$/, '');
  return f === '' ? w : `${w}.${f}`;
}

function cadenceOf(tags: readonly string[]): MarketTerms['cadence'] {
  const lower = new Set(tags.map((t) => t.toLowerCase()));
  if (lower.has('hourly')) return 'hourly';
  if (lower.has('daily')) return 'daily';
  if (lower.has('weekly')) return 'weekly';
  return null;
}

function tickerOf(input: TermsInput): string | null {
  const fromOracle = input.priceOracleMetadata?.ticker?.trim().toUpperCase();
  if (fromOracle) return fromOracle.replace(/[/-]?USDT?$/, '') || fromOracle;
  return TITLE_TICKER.exec(input.title)?.[1] ?? DESCRIPTION_TICKER.exec(input.description ?? '')?.[1] ?? UP_DOWN.exec(input.title)?.[1] ?? null;
}

/** The UTC instant named by a month, day, year, hour and minute; null when the month is not one. */
function instantOf(month: string, day: string, hour: string, minute: string, year: number): number | null {
  const m = MONTHS.indexOf(month);
  if (m < 0) return null;
  const at = Date.UTC(year, m, Number(day), Number(hour), Number(minute));
  return Number.isFinite(at) ? at : null;
}

/** Reads the terms of one market. `feedIds`: ticker → Pyth feed id (the configured map over the defaults). */
export function readMarketTerms(input: TermsInput, feedIds: Readonly<Record<string, FeedId>>): TermsResult {
  const ticker = tickerOf(input);
  const crypto = ticker !== null && (KNOWN_CRYPTO.has(ticker) || input.priceOracleMetadata?.assetType === 'CRYPTO' || feedIds[ticker] !== undefined || DESCRIPTION_TICKER.test(input.description ?? ''));
  const unpriced = (reason: string): TermsResult => ({ ok: false, reason, recognisedCrypto: crypto, ticker: crypto ? ticker : null });
  if (!crypto) return unpriced('not a crypto market the model knows (no crypto ticker in the title, description or priceOracleMetadata)');

  const stream = input.metadata['chainlinkDataStream'];
  if (typeof stream === 'object' && stream !== null) {
    return unpriced('an up/down market settled on a Chainlink TWAP (metadata.chainlinkDataStream): no Chainlink source is implemented');
  }
  if (UP_DOWN.test(input.title)) return unpriced('an up/down market settled on an exchange candle (close against open): its source is not implemented');

  const title = TITLE_STRIKE.exec(input.title);
  if (!title) return unpriced(`the title does not read "$TICKER above $STRIKE on Mon D, HH:MM UTC?" (got ${JSON.stringify(input.title)})`);
  const rule = PYTH_RULE.exec(input.description ?? '');
  if (!rule) return unpriced('the description does not state the Pyth 1-minute candle rule ("opening price of the 1-minute … PYTH:XXXUSD candle … is above $K")');

  const [, titleTicker = '', titleStrike = '', titleMonth = '', titleDay = '', titleHour = '', titleMinute = ''] = title;
  const [, ruleTicker = '', pythTicker = '', ruleMonth = '', ruleDay = '', ruleYear = '', ruleHour = '', ruleMinute = '', ruleStrike = ''] = rule;
  if (new Set([ticker, titleTicker, ruleTicker, pythTicker]).size !== 1) {
    return unpriced(`the underlying is named differently: title ${titleTicker}, description ${ruleTicker} / PYTH:${pythTicker}USD, oracle ${ticker}`);
  }

  const openPrice = input.metadata['openPrice'];
  const strike = typeof openPrice === 'string' || typeof openPrice === 'number' ? String(openPrice).trim() : null;
  const canonical = strike === null ? null : canonicalDecimal(strike);
  if (strike === null || canonical === null) return unpriced(`metadata.openPrice is not a decimal strike (got ${JSON.stringify(openPrice ?? null)})`);
  if (canonicalDecimal(titleStrike) !== canonical || canonicalDecimal(ruleStrike) !== canonical) {
    return unpriced(`the strike is written differently: metadata.openPrice ${strike}, title ${titleStrike}, description ${ruleStrike}`);
  }
  const strikeValue = Number(strike);
  if (!(strikeValue > 0)) return unpriced(`the strike must be positive (got ${strike})`);

  const settlesAtMs = input.expirationMs;
  if (settlesAtMs === null) return unpriced('the market has no expirationTimestamp (the settlement instant)');
  const ruleAt = instantOf(ruleMonth, ruleDay, ruleHour, ruleMinute, Number(ruleYear));
  const titleAt = instantOf(titleMonth, titleDay, titleHour, titleMinute, new Date(settlesAtMs).getUTCFullYear());
  if (ruleAt !== settlesAtMs || titleAt !== settlesAtMs) {
    return unpriced(`the settlement instant is written differently: expirationTimestamp ${new Date(settlesAtMs).toISOString()}, description ${ruleMonth} ${ruleDay}, ${ruleYear} ${ruleHour}:${ruleMinute} UTC, title ${titleMonth} ${titleDay} ${titleHour}:${titleMinute} UTC`);
  }

  let feedId: FeedId | null = null;
  const own = input.priceOracleMetadata?.pythAddress;
  if (own !== undefined) {
    try {
      feedId = parseFeedId('priceOracleMetadata.pythAddress', own);
    } catch (error) {
      if (error instanceof FeedIdError) return unpriced(error.message);
      throw error;
    }
  } else {
    feedId = feedIds[ticker] ?? null;
  }
  if (feedId === null) return unpriced(`no Pyth feed id for ${ticker}: set pricing.feedIds.${ticker}`);

  return {
    ok: true,
    terms: {
      slug: input.slug,
      ticker,
      feedId,
      family: 'strike',
      strike,
      strikeValue,
      comparison: 'above',
      settlesAtMs,
      windowStartMs: null,
      rule: 'pyth-candle-open-1m',
      source: 'pyth',
      cadence: cadenceOf(input.tags),
    },
  };
}

/** One line for logs: "BTC > 88640.73 at 2025-12-17T01:00:00.000Z (pyth-candle-open-1m)". */
export function describeTerms(terms: MarketTerms): string {
  const op = terms.comparison === 'above' ? '>' : '>=';
  return `${terms.ticker} ${op} ${terms.strike ?? 'window open'} at ${new Date(terms.settlesAtMs).toISOString()} (${terms.rule})`;
}
