/**
 * Markets of a backtest's listing in the form the daemon's selection reads (`Market`, src/exchange/wire-markets.ts):
 * a simulator market through the venue's own JSON shape (src/sim/server/wire-format.ts `marketWire`, then the bot's
 * own parser, exactly as the daemon reads it over REST), and a replay stream's market entry from what the recording
 * kept (slug, tokens, terms: title, tags, metadata, oracle block, settlement; rewards).
 *
 * Owns: those two conversions. Invariants: pure; a replay entry lacks what a recording does not keep (the venue
 * contract: a placeholder address, since nothing is signed in a replay; the group; the listing time), so rules that
 * need them judge it as the daemon would judge a market without them; the tokens of an entry that names none are the
 * replay's own stand-ins (src/replay/replay-backtest.ts: `<slug>:yes`, `<slug>:no`).
 */
import { parseMarket, type Market } from '../exchange/wire.js';
import type { SimMarket } from '../sim/engine/index.js';
import { marketWire } from '../sim/server/wire-format.js';
import type { ReplayMarket } from '../replay/format.js';
import { oracleFields } from '../replay/replay-pricing.js';

/** The daemon's market record (re-exported for the backtest, which speaks no wire itself). */
export type ListedMarket = Market;

const LISTING = { method: 'GET', pathTemplate: '/markets/{slug}' } as const;
/** A replay places no signed order: its markets' venue contract is this placeholder (the selection only asks that one exists). */
const REPLAY_VENUE = { exchange: '0x0000000000000000000000000000000000000000', adapter: null } as const;

/** A simulator market as the daemon reads it from GET /markets/{slug}. */
export function marketOfSim(market: SimMarket): Market {
  return parseMarket(marketWire(market, undefined), LISTING, 200);
}

/** A replay stream's market entry as the daemon's selection reads it (see the header for what a recording lacks). */
export function marketOfReplay(entry: ReplayMarket): Market {
  const venueTerms = entry.terms?.kind === 'venue' ? entry.terms : null;
  const given = entry.terms?.kind === 'given' ? entry.terms : null;
  const expirationMs = entry.expiresAtMs ?? venueTerms?.expirationMs ?? given?.settlesAtMs ?? null;
  const rewards = entry.rewards;
  return {
    id: 0,
    slug: entry.slug,
    title: entry.title ?? venueTerms?.title ?? entry.slug,
    conditionId: null,
    negRiskRequestId: null,
    status: 'FUNDED',
    expired: false,
    expirationMs,
    createdAtMs: null,
    tokens: { yes: entry.yesTokenId ?? `${entry.slug}:yes`, no: entry.noTokenId ?? `${entry.slug}:no` },
    venue: REPLAY_VENUE,
    isRewardable: rewards !== undefined && rewards.dailyRewardRaw > 0,
    settings:
      rewards === undefined
        ? null
        : { minSize: venueAmount(rewards.minSizeRaw), maxSpread: rewards.maxSpreadTicks / 1000, dailyReward: venueAmount(rewards.dailyRewardRaw), rewardsEpoch: null, c: null },
    tradeType: 'clob',
    marketType: 'single',
    winningOutcomeIndex: null,
    payoutNumerators: null,
    resolved: false,
    categories: [],
    collateral: null,
    groupSlug: null,
    metadata: venueTerms?.metadata ?? {},
    description: venueTerms?.description ?? null,
    tags: venueTerms?.tags ?? [],
    priceOracleMetadata: venueTerms === null ? null : oracleFields(venueTerms.priceOracleMetadata),
  };
}

/**
 * A raw amount as the venue's settings carry it, read back to the same raw integer by `normalizeRewardSettings`: the
 * raw integer from its threshold up (read as raw), whole units below it (read as units, × 1e6).
 */
function venueAmount(raw: number): number {
  return raw >= 100_000 ? raw : raw / 1e6;
}
