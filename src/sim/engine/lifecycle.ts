/**
 * Market lifecycle: listing a market (checks, indexes, NegRisk groups, its expiry timer, the `marketCreated` notice
 * and the engine's `marketListed` one), expiry (trading stops, resting orders canceled) and, in the crypto world,
 * settlement by the oracle price and the opening of the next ladder of a recurring market. Reads go through
 * `freshView`, so expiry holds even when its timer is late.
 *
 * Invariants: slugs, ids, condition ids and token ids are unique across markets (and slugs across groups); a market
 * is expired once `now >= expirationMs` whatever its timer did; an oracle market resolves YES iff the price at the
 * settlement instant is strictly above the strike.
 */
import { getAddress, isAddress } from 'viem';
import { MAX_TICK, MIN_TICK } from '../../core/venue-rules/index.js';
import type { EngineCore } from './core.js';
import { CADENCE_PERIOD_MS, successorSpecs } from './crypto-markets.js';
import { EngineConfigError, EngineInvariantError } from './errors.js';
import { cancelAllResting } from './order-exit.js';
import { resolve } from './resolve.js';
import { isoTime } from './wire.js';
import { MarketState } from './state.js';
import type { MarketSpec, SimMarket } from './types.js';

export function addMarket(core: EngineCore, spec: MarketSpec, field: string): void {
  if (!Number.isSafeInteger(spec.id) || spec.id <= 0) throw new EngineConfigError(`${field}.id`, spec.id, 'must be a positive integer');
  if (!/^[a-z0-9][a-z0-9-]*$/.test(spec.slug)) throw new EngineConfigError(`${field}.slug`, spec.slug, 'must be lowercase [a-z0-9-]');
  if (core.marketsBySlug.has(spec.slug) || core.groupsBySlug.has(spec.slug)) {
    throw new EngineConfigError(`${field}.slug`, spec.slug, 'duplicate slug');
  }
  if (core.marketsById.has(spec.id)) throw new EngineConfigError(`${field}.id`, spec.id, 'duplicate market id');
  if (!/^0x[0-9a-fA-F]{64}$/.test(spec.conditionId)) throw new EngineConfigError(`${field}.conditionId`, spec.conditionId, 'must be 0x + 64 hex');
  if (core.marketsByCondition.has(spec.conditionId.toLowerCase())) {
    throw new EngineConfigError(`${field}.conditionId`, spec.conditionId, 'duplicate condition id');
  }
  for (const [key, token] of [['yesTokenId', spec.yesTokenId], ['noTokenId', spec.noTokenId]] as const) {
    if (!/^[0-9]{1,78}$/.test(token)) throw new EngineConfigError(`${field}.${key}`, token, 'must be a decimal uint256');
  }
  if (spec.yesTokenId === spec.noTokenId) throw new EngineConfigError(`${field}.noTokenId`, spec.noTokenId, 'equals yesTokenId');
  for (const existing of core.marketsBySlug.values()) {
    const tokens = [existing.spec.yesTokenId, existing.spec.noTokenId];
    if (tokens.includes(spec.yesTokenId) || tokens.includes(spec.noTokenId)) {
      throw new EngineConfigError(`${field}.yesTokenId`, spec.yesTokenId, `token id already used by ${existing.spec.slug}`);
    }
  }
  for (const key of ['exchange', 'adapter'] as const) {
    if (!isAddress(spec.venue[key], { strict: false })) throw new EngineConfigError(`${field}.venue.${key}`, spec.venue[key], 'not an address');
  }
  if (!Number.isSafeInteger(spec.expirationMs)) throw new EngineConfigError(`${field}.expirationMs`, spec.expirationMs, 'must be ms since epoch');
  const fv = spec.initialFairValueTicks;
  if (fv !== undefined && (!Number.isInteger(fv) || fv < MIN_TICK || fv > MAX_TICK)) {
    throw new EngineConfigError(`${field}.initialFairValueTicks`, fv, 'must be an integer tick in [1, 999]');
  }
  const rebateRate = spec.settings.rebateRate;
  if (rebateRate !== undefined && (!Number.isFinite(rebateRate) || rebateRate < 0 || rebateRate > 1)) {
    throw new EngineConfigError(`${field}.settings.rebateRate`, rebateRate, 'must be a fraction of the taker fee in [0, 1]');
  }
  const normalised: MarketSpec = {
    ...spec,
    venue: { exchange: getAddress(spec.venue.exchange), adapter: getAddress(spec.venue.adapter) },
  };
  const market = new MarketState(normalised, spec.createdAtMs ?? core.clock.now());
  core.marketsBySlug.set(spec.slug, market);
  core.marketsById.set(spec.id, market);
  core.marketsByCondition.set(spec.conditionId.toLowerCase(), market);
  if (spec.groupSlug !== undefined) {
    if (core.marketsBySlug.has(spec.groupSlug)) throw new EngineConfigError(`${field}.groupSlug`, spec.groupSlug, 'collides with a market slug');
    let group = core.groupsBySlug.get(spec.groupSlug);
    if (!group) {
      group = { title: spec.groupTitle ?? spec.groupSlug, negRiskRequestId: spec.negRiskRequestId ?? null, markets: [] };
      core.groupsBySlug.set(spec.groupSlug, group);
    }
    group.markets.push(market);
  }
  // Nobody listens while the engine is being built: only markets listed later reach `marketCreated` listeners.
  core.enqueue({
    kind: 'created',
    frame: {
      slug: spec.slug,
      title: spec.title,
      type: 'CLOB',
      ...(spec.groupSlug === undefined ? {} : { groupSlug: spec.groupSlug }),
      categoryIds: [...spec.categoryIds],
      createdAt: isoTime(market.createdAtMs),
    },
  });
  // Heard only by listeners subscribed already: the markets listed at construction are read with `markets()`.
  core.enqueue({ kind: 'listed', slug: spec.slug });
  const delay = spec.expirationMs - core.clock.now();
  if (delay <= 0) market.expired = true;
  else core.schedule(delay, () => core.command(() => refreshExpiry(core, market)));
}

export function refreshExpiry(core: EngineCore, market: MarketState): void {
  if (market.expired || core.clock.now() < market.spec.expirationMs) return;
  market.expired = true;
  cancelAllResting(core, market, 'MARKET_EXPIRED');
  core.enqueue({ kind: 'status', slug: market.spec.slug });
  if (market.spec.oracle && core.world) settleByOracle(core, market, market.spec.oracle);
}

/**
 * The crypto world's rule: YES iff the price at the settlement instant (the open of the 1-minute candle that opens
 * then) is strictly above the strike; then, for a recurring market, the next set of its ticker opens.
 */
function settleByOracle(core: EngineCore, market: MarketState, oracle: NonNullable<MarketState['spec']['oracle']>): void {
  const world = core.world;
  if (!world) return;
  world.advanceTo(market.spec.expirationMs);
  const price = world.priceAt(oracle.ticker, market.spec.expirationMs);
  if (price === null) throw new EngineInvariantError(`no ${oracle.ticker} price at the settlement of ${market.spec.slug}`);
  market.settlementPrice = price;
  if (market.status !== 'RESOLVED') resolve(core, market.spec.slug, { winningOutcomeIndex: price > Number(oracle.strike) ? 0 : 1 });
  const options = core.worldOptions?.markets;
  if (!options?.recurring || oracle.recurring === false) return;
  // All of a ladder settle at the same instant: the first of them to settle opens the next ladder.
  const opened = [...core.marketsBySlug.values()].some(
    (m) =>
      m !== market &&
      m.expired &&
      m.spec.expirationMs === market.spec.expirationMs &&
      m.spec.oracle?.ticker === oracle.ticker &&
      m.spec.oracle.cadence === oracle.cadence &&
      m.spec.oracle.recurring !== false,
  );
  if (opened) return;
  const next = market.spec.expirationMs + CADENCE_PERIOD_MS[oracle.cadence];
  successorSpecs(world, oracle.ticker, oracle.cadence, next, market.spec.expirationMs, options, core.worldIds).forEach((spec) => addMarket(core, spec, `world.successor.${spec.slug}`));
}

export function freshView(core: EngineCore, market: MarketState): SimMarket {
  refreshExpiry(core, market);
  return market.view();
}
