import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMarket } from '../../../src/exchange/wire.js';
import { DEFAULT_PYTH_FEED_IDS, parseFeedId } from '../../../src/pricing/feed-ids.js';
import { canonicalDecimal, describeTerms, readMarketTerms, termsInputOf, termsInputOfJson, type TermsInput } from '../../../src/pricing/terms.js';
import type { MarketTerms } from '../../../src/pricing/types.js';
import { activeMarketRecordings } from '../../contract/samples.js';

const ENDPOINT = { method: 'GET', pathTemplate: '/markets/active' } as const;

function priced(input: TermsInput): MarketTerms {
  const result = readMarketTerms(input, DEFAULT_PYTH_FEED_IDS);
  if (!result.ok) throw new Error(`unpriced: ${result.reason}`);
  return result.terms;
}

function reason(input: TermsInput): string {
  const result = readMarketTerms(input, DEFAULT_PYTH_FEED_IDS);
  if (result.ok) throw new Error('priced');
  return result.reason;
}

/** The first live sample ($BTC above $88640.73 on Dec 17, 01:00 UTC?) as a raw object. */
function liveBtc(): Record<string, unknown> {
  const body = activeMarketRecordings()[0]!.body;
  return JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
}

describe('market terms of the live venue', () => {
  it('reads all 12 recorded markets: ticker, exact strike, settlement instant, rule', () => {
    const records = activeMarketRecordings();
    expect(records).toHaveLength(12);
    for (const record of records) {
      const body = record.body as { slug: string; title: string; metadata: { openPrice: string }; expirationTimestamp: number; tags: string[] };
      const fromWire = priced(termsInputOf(parseMarket(body, ENDPOINT, 200)));
      const fromJson = priced(termsInputOfJson(body));
      expect(fromJson).toEqual(fromWire);
      expect(fromWire.ticker).toBe(/\$([A-Z]+) above/.exec(body.title)?.[1]);
      expect(fromWire.strike).toBe(body.metadata.openPrice);
      expect(fromWire.settlesAtMs).toBe(body.expirationTimestamp);
      expect(fromWire.rule).toBe('pyth-candle-open-1m');
      expect(fromWire.comparison).toBe('above');
      expect(fromWire.feedId).toBe(DEFAULT_PYTH_FEED_IDS[fromWire.ticker]);
      expect(fromWire.cadence).toBe(body.tags.includes('Hourly') ? 'hourly' : body.tags.includes('Daily') ? 'daily' : 'weekly');
    }
  });

  it('gives the first sample exactly', () => {
    expect(priced(termsInputOfJson(liveBtc()))).toEqual({
      slug: 'dollarbtc-above-dollar8864073-on-dec-17-0100-utc-1765929729571',
      ticker: 'BTC',
      feedId: DEFAULT_PYTH_FEED_IDS['BTC'],
      family: 'strike',
      strike: '88640.73',
      strikeValue: 88640.73,
      comparison: 'above',
      settlesAtMs: Date.parse('2025-12-17T01:00:00Z'),
      windowStartMs: null,
      rule: 'pyth-candle-open-1m',
      source: 'pyth',
      cadence: 'hourly',
    });
    expect(describeTerms(priced(termsInputOfJson(liveBtc())))).toBe('BTC > 88640.73 at 2025-12-17T01:00:00.000Z (pyth-candle-open-1m)');
  });
});

describe('market terms: variants', () => {
  it('takes the feed id from priceOracleMetadata.pythAddress over the map', () => {
    const own = `0x${'ab'.repeat(32)}`;
    const body = { ...liveBtc(), priceOracleMetadata: { ticker: 'BTC', assetType: 'CRYPTO', pythAddress: own.slice(2).toUpperCase(), symbol: 'BTC', name: 'Bitcoin', logo: null } };
    expect(priced(termsInputOfJson(body)).feedId).toBe(own);
    expect(priced(termsInputOf(parseMarket(body, ENDPOINT, 200))).feedId).toBe(own);
    const bad = { ...body, priceOracleMetadata: { ticker: 'BTC', pythAddress: 'not-an-id' } };
    expect(reason(termsInputOfJson(bad))).toMatch(/priceOracleMetadata\.pythAddress/);
  });

  it('refuses a strike written differently in the title, the description and openPrice', () => {
    const body = liveBtc();
    expect(reason(termsInputOfJson({ ...body, metadata: { ...(body['metadata'] as object), openPrice: '88640.74' } }))).toMatch(/strike is written differently/);
    expect(reason(termsInputOfJson({ ...body, metadata: { ...(body['metadata'] as object), openPrice: undefined } }))).toMatch(/metadata\.openPrice/);
    // Trailing zeros are the same decimal; the strike is kept as the venue wrote it.
    expect(priced(termsInputOfJson({ ...body, metadata: { ...(body['metadata'] as object), openPrice: '88640.730' } })).strike).toBe('88640.730');
  });

  it('refuses a settlement instant that disagrees with the words', () => {
    const body = liveBtc();
    expect(reason(termsInputOfJson({ ...body, expirationTimestamp: 1765933200000 + 3_600_000 }))).toMatch(/settlement instant is written differently/);
    expect(reason(termsInputOfJson({ ...body, expirationTimestamp: null }))).toMatch(/expirationTimestamp/);
  });

  it('refuses an underlying named two ways', () => {
    const body = liveBtc();
    expect(reason(termsInputOfJson({ ...body, description: String(body['description']).replace('PYTH:BTCUSD', 'PYTH:ETHUSD') }))).toMatch(/named differently/);
  });

  it('knows a crypto market it cannot price: unknown feed, no rule, up/down families', () => {
    const body = liveBtc();
    const doge = {
      ...body,
      title: '$DOGE above $0.1234 on Dec 17, 01:00 UTC?',
      description: String(body['description']).replace(/BTC/g, 'DOGE').replace('$88640.73', '$0.1234'),
      metadata: { openPrice: '0.1234' },
    };
    const noFeed = readMarketTerms(termsInputOfJson(doge), DEFAULT_PYTH_FEED_IDS);
    expect(noFeed).toEqual({ ok: false, reason: 'no Pyth feed id for DOGE: set pricing.feedIds.DOGE', recognisedCrypto: true, ticker: 'DOGE' });
    expect(readMarketTerms(termsInputOfJson(doge), { DOGE: parseFeedId('x', 'cd'.repeat(32)) }).ok).toBe(true);

    const noRule = readMarketTerms(termsInputOfJson({ ...body, description: 'Resolves by the admins.' }), DEFAULT_PYTH_FEED_IDS);
    expect(noRule).toMatchObject({ ok: false, recognisedCrypto: true, ticker: 'BTC' });
    expect(!noRule.ok && noRule.reason).toMatch(/Pyth 1-minute candle rule/);

    const twap = {
      ...body,
      title: 'BTC Up or Down - 15 minutes',
      metadata: { chainlinkDataStream: { pair: 'BTC/USD', streamType: 'twap', twapWindowSeconds: 60, toleranceSeconds: 5, feedId: '0x01' } },
    };
    expect(readMarketTerms(termsInputOfJson(twap), DEFAULT_PYTH_FEED_IDS)).toMatchObject({ ok: false, recognisedCrypto: true, ticker: 'BTC' });
    expect(reason(termsInputOfJson(twap))).toMatch(/Chainlink TWAP/);
    expect(reason(termsInputOfJson({ ...body, title: 'SOL Up or Down on Dec 17, 1AM ET?', metadata: {} }))).toMatch(/exchange candle/);
  });

  it('does not take a market on anything else for a crypto one', () => {
    const fed = readMarketTerms(termsInputOfJson({ slug: 'fed-cut', title: 'Will the Fed cut rates?', description: 'Resolves YES if the FOMC cuts.', expirationTimestamp: 1 }), DEFAULT_PYTH_FEED_IDS);
    expect(fed).toMatchObject({ ok: false, recognisedCrypto: false, ticker: null });
  });

  it('names the field of a raw object it cannot read', () => {
    expect(() => termsInputOfJson({ title: 'x' })).toThrow(/^slug:/);
    expect(() => termsInputOfJson('nope')).toThrow(/market/);
  });
});

describe('decimals and feed ids', () => {
  it('writes a decimal one way', () => {
    expect(canonicalDecimal('88,640.70')).toBe('88640.7');
    expect(canonicalDecimal('007.500')).toBe('7.5');
    expect(canonicalDecimal('1.0')).toBe('1');
    expect(canonicalDecimal('1e5')).toBeNull();
    expect(canonicalDecimal('-1')).toBeNull();
  });

  it('reads a feed id with or without 0x, in either case, and names the field otherwise', () => {
    expect(parseFeedId('f', 'E62DF6C8B4A85FE1A67DB44DC12DE5DB330F7AC66B72DC658AFEDF0F4A415B43')).toBe(DEFAULT_PYTH_FEED_IDS['BTC']);
    expect(() => parseFeedId('pricing.feedIds.BTC', '0x12')).toThrow(/pricing\.feedIds\.BTC/);
    expect(() => parseFeedId('f', 42)).toThrow(/got 42/);
  });

  it('round-trips any strike the venue writes (property)', () => {
    const body = liveBtc();
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200_000 }), fc.integer({ min: 0, max: 9999 }), fc.constantFrom('BTC', 'ETH', 'SOL', 'XRP'), (whole, frac, ticker) => {
        const strike = `${whole}.${String(frac).padStart(4, '0')}`;
        const input = termsInputOfJson({
          ...body,
          title: `💎 $${ticker} above $${strike} on Dec 17, 01:00 UTC?`,
          description: String(body['description']).replace(/BTC/g, ticker).replace('$88640.73', `$${strike}`),
          metadata: { openPrice: strike },
        });
        const terms = priced(input);
        expect(terms.strike).toBe(strike);
        expect(terms.ticker).toBe(ticker);
        expect(terms.strikeValue).toBe(Number(strike));
      }),
    );
  });
});
