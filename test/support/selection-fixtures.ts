/**
 * Fixtures of the market-selection tests: the markets recorded from the live venue (parsed by the bot's own wire
 * parser), the instant they were captured, variants of them, and `markets` configs with only the rules a test names.
 */
import { RECORDED_CLOB_EXCHANGE } from '../../src/config/chain-schema.js';
import { everyMarketConfig } from '../../src/config/markets-schema.js';
import type { MarketSelector, MarketsConfig } from '../../src/config/types.js';
import { parseMarket, type Market } from '../../src/exchange/wire.js';
import { activeMarketRecordings } from '../contract/samples.js';

const ENDPOINT = { method: 'GET', pathTemplate: '/markets/active' } as const;

/** When the recorded items were captured (2025-12-17T00:50:33Z): the hourly ones settle 9 min 27 s later, at 01:00. */
export const CAPTURED_AT_MS = Date.parse('2025-12-17T00:50:33Z');
export const MINUTE = 60_000;

/** The 12 recorded `/markets/active` items in file order (two are repeated), parsed as the bot parses them. */
export function recordedMarkets(): Market[] {
  return activeMarketRecordings().map((record) => parseMarket(record.body, ENDPOINT, 200));
}

/**
 * A listing entry as its details (GET /markets/{slug}) complete it: 7 of the 12 recorded items lack the venue
 * contract, 3 the tokens too (the venue's exchange of every recorded CLOB market; token ids made from the id).
 */
export function detailed(market: Market): Market {
  return {
    ...market,
    venue: market.venue ?? { exchange: RECORDED_CLOB_EXCHANGE, adapter: null },
    tokens: market.tokens ?? { yes: String(market.id * 2), no: String(market.id * 2 + 1) },
  };
}

/** The recorded markets with their details. */
export function detailedMarkets(): Market[] {
  return recordedMarkets().map(detailed);
}

/** The first recorded market of `ticker` and `cadence` tag (e.g. 'BTC', 'Hourly'), with its details. */
export function recorded(ticker: string, cadenceTag: string): Market {
  const found = detailedMarkets().find((m) => m.title.includes(`$${ticker} above`) && m.tags.includes(cadenceTag));
  if (found === undefined) throw new Error(`no recorded ${ticker} ${cadenceTag} market`);
  return found;
}

/** A copy of `base` under another slug, with `overrides`. */
export function variant(base: Market, slug: string, overrides: Partial<Market> = {}): Market {
  return { ...base, slug, ...overrides };
}

/** A daily reward pool of `usdc` (the settings as the venue sends them). */
export function reward(usdc: number): Pick<Market, 'settings' | 'isRewardable'> {
  return { isRewardable: true, settings: { minSize: 100_000_000, maxSpread: 0.035, dailyReward: usdc, rewardsEpoch: null, c: 3 } };
}

/** A `markets` section with a `select` of only the given rules (no bound unless given), and the rest of `rest`. */
export function rules(select: Partial<MarketSelector> | null, rest: Partial<MarketsConfig> = {}): MarketsConfig {
  const base = everyMarketConfig(1);
  const selector = base.select === null || select === null ? null : { ...base.select, top: null, ...select };
  return { ...base, select: selector, ...rest };
}
