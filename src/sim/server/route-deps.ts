/**
 * What the route modules need from the server, in one place: the engine, the clock, trading modes,
 * placement answers, the signing domain, and the partner lookup used for delegation.
 */
import type { SimClock, SimEngine } from '../engine/index.js';
import type { PartnerLookup } from './delegation.js';
import type { PlacementStore } from './placement-store.js';
import type { TradingModeSchedule } from './trading-mode.js';

export interface SigningDomain {
  /** EIP-712 domain name (default 'Limitless CTF Exchange'). */
  readonly domainName: string;
  /** Chain id (8453). */
  readonly chainId: number;
}

export interface RouteDeps {
  readonly engine: SimEngine;
  readonly clock: SimClock;
  readonly modes: TradingModeSchedule;
  readonly placements: PlacementStore;
  readonly signing: SigningDomain;
  readonly partnerOf: PartnerLookup;
}

export function partnerLookup(engine: SimEngine): PartnerLookup {
  return (profileId) => {
    const account = engine.account(profileId);
    return account === undefined ? undefined : account.partnerProfileId;
  };
}
