/**
 * What the embedded simulator lists, said in words: `check-config` prints it, so nobody reads `venue.markets` as the
 * number of markets of a crypto-world config (that key sizes the generic world only).
 *
 * Owns: the sentence (pure). Invariant: its count is the schema's (schema.ts `simMarketCount`, the default number a
 * sim config without a `markets` section trades): tickers × expiry cadences × strikes per expiry in the crypto world,
 * `venue.markets` in the generic one.
 */
import type { SimVenueConfig } from './types.js';

export interface SimListing {
  readonly count: number;
  readonly text: string;
}

export function simListing(venue: SimVenueConfig): SimListing {
  if (venue.world === 'generic') {
    return { count: venue.markets, text: `the simulator's generic world lists ${venue.markets} long-dated markets (venue.markets)` };
  }
  const { tickers, cadences, strikesPerExpiry } = venue.underlying;
  const count = tickers.length * cadences.length * strikesPerExpiry;
  return {
    count,
    text:
      `the simulator's crypto world lists ${count} strike markets: ${tickers.join(', ')} × ${cadences.join(', ')} expiries × ` +
      `${strikesPerExpiry} strike${strikesPerExpiry === 1 ? '' : 's'} each (venue.underlying; venue.markets sizes the generic world only)`,
  };
}
