/**
 * The hidden fair value of a market: read (the crypto world's true digital price for an oracle market, else the
 * log-odds random walk) and set by the admin.
 *
 * Invariant: a fair value in ticks is always an integer tick in [MIN_TICK, MAX_TICK].
 */
import { MAX_TICK, MIN_TICK, TICKS_PER_UNIT } from '../../core/venue-rules/index.js';
import type { EngineCore } from './core.js';
import { worldFair } from './crypto-markets.js';
import { failure, fieldFailure, MESSAGES } from './errors.js';
import type { FairValueOutcome } from './types.js';

export function fairValueTicks(core: EngineCore, slug: string): number | null {
  const m = core.marketsBySlug.get(slug);
  if (!m) return null;
  if (m.spec.oracle && core.world && !m.expired) {
    core.world.advanceTo(core.clock.now());
    const fair = worldFair(core.world, m.spec.oracle, m.spec.expirationMs, core.clock.now(), 'true');
    if (fair !== null) return Math.min(MAX_TICK, Math.max(MIN_TICK, Math.round(fair * TICKS_PER_UNIT)));
  }
  return logOddsToTicks(m.fairLogOdds);
}

export function setFairValue(core: EngineCore, slug: string, ticks: number): FairValueOutcome {
  const m = core.marketsBySlug.get(slug);
  if (!m) return failure(404, 'MARKET_NOT_FOUND', MESSAGES.marketNotFound);
  if (!Number.isInteger(ticks) || ticks < MIN_TICK || ticks > MAX_TICK) {
    return fieldFailure('INVALID_ARGUMENT', 'fairValueTicks', `must be an integer tick in [${MIN_TICK}, ${MAX_TICK}] (got ${ticks})`);
  }
  const p = ticks / TICKS_PER_UNIT;
  m.fairLogOdds = Math.log(p / (1 - p));
  return { ok: true, fairValueTicks: ticks };
}

export function logOddsToTicks(logOdds: number): number {
  const p = 1 / (1 + Math.exp(-logOdds));
  return Math.min(MAX_TICK, Math.max(MIN_TICK, Math.round(p * TICKS_PER_UNIT)));
}
