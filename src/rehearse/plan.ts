/**
 * What a rehearsal of a live config starts (pure): the simulator's world for the config's selection — the crypto
 * world (the live venue lists recurring crypto strike ladders) with the tickers and cadences `markets.select` names
 * (every simulated one where it names none), the config's header prefix, EIP-712 domain and chain id — and when its
 * first market can be joined (the next expiry of each cadence, less `markets.select.joinBeforeSettlementSec`), so a
 * rehearsal that will quote nothing says so before it starts.
 *
 * Owns: that plan. Invariants: pure (the clock is an argument); a config that is not live, or names a ticker the
 * simulator does not simulate, is a `RehearseUsageError` naming the field and the value.
 */
import type { AppConfig } from '../config/types.js';
import { DEFAULT_CRYPTO_MARKETS, DEFAULT_UNDERLYINGS, nextExpiry, type Cadence } from '../sim/engine/index.js';

export class RehearseUsageError extends Error {
  override readonly name = 'RehearseUsageError';
}

export interface RehearsalPlan {
  readonly headerPrefix: string;
  readonly domainName: string;
  readonly chainId: number;
  readonly tickers: readonly string[];
  readonly cadences: readonly Cadence[];
  readonly strikesPerExpiry: number;
  /** The first moment a market of the world can be joined by the selection (its cadence and settlement); null: never. */
  readonly firstJoin: { readonly atMs: number; readonly cadence: Cadence; readonly settlesAtMs: number } | null;
}

export function rehearsalPlan(config: AppConfig, configPath: string, nowMs: number): RehearsalPlan {
  const venue = config.venue;
  if (venue.kind !== 'live') throw new RehearseUsageError(`${configPath} is a simulator config (venue.kind: sim): run it as it is (outcome-maker run --config ${configPath}); rehearse is for a live config`);
  const select = config.markets.select;
  const simulated = DEFAULT_UNDERLYINGS.map((u) => u.ticker);
  const unknown = (select?.tickers ?? []).filter((t) => !simulated.includes(t));
  if (unknown.length > 0) throw new RehearseUsageError(`markets.select.tickers: the simulator has no ${unknown.join(', ')} (it simulates ${simulated.join(', ')})`);
  const tickers = select?.tickers ?? simulated;
  const cadences = select?.cadences ?? DEFAULT_CRYPTO_MARKETS.cadences;
  const joinBefore = select?.joinBeforeSettlementMs ?? null;
  const stopBefore = config.pricing.pricer.stopBeforeSettlementMs;
  const joins = cadences.flatMap((cadence) => {
    // The ladder listed now settles at the next expiry; once it stops, the next one (one period on) follows.
    const first = nextExpiry(cadence, nowMs, DEFAULT_CRYPTO_MARKETS.dailyHourUtc);
    return [first, nextExpiry(cadence, first, DEFAULT_CRYPTO_MARKETS.dailyHourUtc)].flatMap((settlesAtMs) => {
      const atMs = Math.max(nowMs, joinBefore === null ? nowMs : settlesAtMs - joinBefore);
      return atMs < settlesAtMs - stopBefore ? [{ atMs, cadence, settlesAtMs }] : [];
    });
  });
  const firstJoin = joins.sort((a, b) => a.atMs - b.atMs)[0] ?? null;
  return { headerPrefix: venue.headerPrefix, domainName: venue.eip712DomainName, chainId: venue.chainId, tickers, cadences, strikesPerExpiry: DEFAULT_CRYPTO_MARKETS.strikesPerExpiry, firstJoin };
}
