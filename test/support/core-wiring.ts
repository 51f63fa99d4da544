/**
 * The trading core's wiring as its unit tests give it (test/unit/trading/): the traded markets over a map of infos,
 * the config's risk, mode poll, order settings and requote interval on the injected clock, and an account with no
 * halts. Each test adds the venue, the strategy, the books, the ledger and its observers.
 */
import type { ManualClock } from '../../src/core/clock.js';
import type { AppConfig } from '../../src/config/types.js';
import type { VenuePort } from '../../src/orders/venue-port.js';
import type { MarketInfo } from '../../src/strategy/contract.js';
import { coreSettingsOf, type TradingCoreOptions } from '../../src/trading/core.js';

export function coreWiring(config: AppConfig, scheduler: ManualClock, venue: VenuePort, infos: ReadonlyMap<string, MarketInfo>): Pick<TradingCoreOptions, 'markets' | 'risk' | 'mode' | 'orders' | 'account' | 'runner'> {
  const settings = coreSettingsOf(config);
  return {
    markets: { slugs: () => [...infos.keys()], info: (slug) => infos.get(slug), isResolved: () => false, infoList: () => [...infos.values()] },
    risk: config.risk,
    mode: { pollIntervalMs: settings.modePollIntervalMs, fetchStatus: () => venue.maintenanceStatus() },
    orders: settings.orders,
    account: { halts: () => ({ killSwitch: false, stale: false }), onBlocked: () => undefined, log: { info: () => undefined } },
    runner: { requoteIntervalMs: settings.requoteIntervalMs, setInterval: (fn, ms) => scheduler.schedule(ms, fn) },
  };
}
