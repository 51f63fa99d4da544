/**
 * The capital core in a backtest: the same core as the bot's (src/capital/core.ts), over the engine's port
 * (src/capital/engine-port.ts) and the backtest's books (./capital-books.ts). The markets it looks after are every
 * market the books hold, with the executor's open SELL orders as locks and the engine's resolutions.
 *
 * Owns: nothing but the wiring; the decisions are the core's, the moves the engine's.
 */
import { CapitalCore } from '../capital/core.js';
import { EngineCapitalPort } from '../capital/engine-port.js';
import type { Hex } from '../capital/port.js';
import { sellLocks } from '../capital/locks.js';
import { gasWeiForUsdc, type MarketCapitalState } from '../capital/rules.js';
import type { Scheduler } from '../core/clock.js';
import type { TrackedOrder } from '../orders/order-record.js';
import type { SimEngine } from '../sim/engine/index.js';
import type { BotAccounting } from './accounting.js';
import { BacktestCapitalBook } from './capital-books.js';
import { payoutOf } from './market-runs.js';
import type { ResolvedOptions } from './options.js';

export interface BacktestCapitalDeps {
  readonly engine: SimEngine;
  readonly profileId: number;
  readonly accounting: BotAccounting;
  readonly scheduler: Scheduler;
  readonly openOrders: () => readonly TrackedOrder[];
  readonly options: ResolvedOptions;
}

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

export function createBacktestCapital(deps: BacktestCapitalDeps): { readonly core: CapitalCore; readonly book: BacktestCapitalBook } {
  const { engine, accounting, options } = deps;
  const settings = options.capital;
  const book = new BacktestCapitalBook(accounting, options.startMs);
  const port = new EngineCapitalPort({ engine, profileId: deps.profileId, now: () => deps.scheduler.now(), gasWei: gasWeiForUsdc(settings.gasUsdcRaw, settings.ethPriceUsdcRaw) });
  const markets = (): MarketCapitalState[] => {
    const locks = sellLocks(deps.openOrders());
    const out: MarketCapitalState[] = [];
    for (const slug of accounting.slugs()) {
      if (accounting.redeemed(slug)) continue;
      const yesRaw = accounting.holding(slug, 'YES');
      const noRaw = accounting.holding(slug, 'NO');
      if (yesRaw <= 0 && noRaw <= 0) continue;
      const market = engine.market(slug);
      if (market === undefined) continue;
      const lock = locks.get(slug);
      out.push({
        market: {
          slug,
          conditionId: market.conditionId as Hex,
          negRisk: market.groupSlug !== undefined,
          adapter: market.groupSlug === undefined ? null : (market.venue.adapter as Hex),
          exchange: market.venue.exchange as Hex,
          yesTokenId: market.yesTokenId,
          noTokenId: market.noTokenId,
        },
        yesRaw,
        noRaw,
        lockedYesRaw: lock?.yesRaw ?? 0,
        lockedNoRaw: lock?.noRaw ?? 0,
        resolution: payoutOf(market),
        redeemed: false,
        settlesAtMs: market.expirationMs,
      });
    }
    return out;
  };
  const core = new CapitalCore({
    port,
    book,
    markets,
    scheduler: deps.scheduler,
    log: quiet,
    settings: { merge: settings.merge, intervalMs: settings.intervalMs, checkEveryMs: 0, retry: settings.retry, ethPriceUsdcRaw: settings.ethPriceUsdcRaw },
  });
  return { core, book };
}
