/**
 * Pyth price feed ids of the underlyings the venue lists (../shared/spec/exchange-facts.md §9), and the one parser
 * of a feed id. A market's own `priceOracleMetadata.pythAddress` wins over this map; config may add or replace ids.
 *
 * Owns: the default map and the id format. Invariants: an id is `0x` + 64 lower-case hex digits; parsing accepts
 * the id with or without `0x`, in either case, and nothing else.
 */
import type { FeedId } from './types.js';

export class FeedIdError extends Error {
  override readonly name = 'FeedIdError';
  constructor(
    readonly field: string,
    readonly value: unknown,
  ) {
    super(`${field}: expected a Pyth feed id (64 hex digits, 0x optional) (got ${typeof value === 'string' ? JSON.stringify(value.slice(0, 80)) : String(value)})`);
  }
}

const FEED_ID = /^(?:0x)?([0-9a-fA-F]{64})$/;

/** The feed id in its one form (`0x` + lower-case hex), or a FeedIdError naming the field. */
export function parseFeedId(field: string, text: unknown): FeedId {
  const match = typeof text === 'string' ? FEED_ID.exec(text.trim()) : null;
  if (!match?.[1]) throw new FeedIdError(field, text);
  return `0x${match[1].toLowerCase()}`;
}

/** Pyth USD feeds (Crypto.BTC/USD …). */
export const DEFAULT_PYTH_FEED_IDS: Readonly<Record<string, FeedId>> = {
  BTC: '0xe62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43',
  ETH: '0xff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace',
  SOL: '0xef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d',
  XRP: '0xec5d399846a9209f3fe5881d70aae9268c94339ff9817e8d18ff19fa05eea1c8',
};
