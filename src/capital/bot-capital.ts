/**
 * The capital core in the bot: which port moves the balances (the simulator's engine on paper, the chain port live),
 * which markets it looks after (every market the ledger holds tokens of, with the executor's open SELL orders as
 * locks and the ledger's resolutions), and when it redeems (only where the API does not: `apiRedeems()` false, i.e.
 * redemption off or refused with a 403) — merges are on-chain for every wallet kind.
 *
 * The chain check's differences are repaired through the ledger's reconciliation (./chain-repair.ts); the wallet's USDC
 * is held against the ledger's cash account (./cash-check.ts).
 *
 * Owns: the market references it was told of (`remember`), the wiring. Invariants: no port → no core (a WARN says why,
 * quoting goes on); a redeemed market is dropped from its references; the decisions are the core's (./core.ts).
 */
import type { Logger } from 'pino';
import type { CapitalConfig, RedemptionConfig } from '../config/types.js';
import type { Scheduler } from '../core/clock.js';
import type { Market } from '../exchange/wire.js';
import type { LedgerStore } from '../ledger/index.js';
import { ChainUsdcCheck } from './cash-check.js';
import { chainRepairer } from './chain-repair.js';
import { CapitalCore, type CapitalObserver } from './core.js';
import { EngineCapitalPort } from './engine-port.js';
import { sellLocks, type LockingOrder } from './locks.js';
import type { CapitalMarketRef, CapitalPort, Hex } from './port.js';
import type { HoldingDifference, MarketCapitalState } from './rules.js';
import type { SimEngine } from '../sim/engine/index.js';

export class CapitalConfigError extends Error {
  override readonly name = 'CapitalConfigError';
}

/** The port for this venue: the simulator's engine on paper; live, the chain port given (null: none available). */
export function capitalPortFor(venue: { readonly kind: 'sim' | 'live'; readonly simulator: { readonly engine: SimEngine; readonly demoAccount: { readonly profileId: number } } | null }, chainPort: CapitalPort | null, now: () => number): CapitalPort | null {
  if (venue.kind === 'sim') {
    if (venue.simulator === null) throw new CapitalConfigError('venue.kind sim without its simulator');
    return new EngineCapitalPort({ engine: venue.simulator.engine, profileId: venue.simulator.demoAccount.profileId, now });
  }
  return chainPort;
}

export interface BotCapitalOptions {
  readonly config: CapitalConfig;
  readonly retry: Pick<RedemptionConfig, 'retryInitialMs' | 'retryMaxMs'>;
  readonly ledger: LedgerStore;
  readonly port: CapitalPort | null;
  /** Why there is no port (live without `venue.chain.rpcUrl`, or the chain port not built): logged once. */
  readonly noPortReason?: string;
  readonly markets: readonly Market[];
  readonly scheduler: Scheduler;
  readonly log: Logger;
  readonly openOrders: () => readonly LockingOrder[];
  /** The API redeems for this account (the settler: mode auto, no 403 yet). */
  readonly apiRedeems: () => boolean;
  readonly observer?: CapitalObserver;
  readonly repair?: (differences: readonly HoldingDifference[]) => void;
}

export interface BotCapital {
  readonly core: CapitalCore | null;
  /** A market the bot trades (at start, or joined): its reference for a later redemption or merge. */
  remember(market: Market): void;
  start(): void;
  stop(): void;
}

export function refOf(market: Market): CapitalMarketRef | null {
  if (market.conditionId === null || market.tokens === null || market.venue === null) return null;
  return {
    slug: market.slug,
    conditionId: market.conditionId as Hex,
    negRisk: market.negRiskRequestId !== null || market.venue.adapter !== null,
    adapter: market.venue.adapter,
    exchange: market.venue.exchange,
    yesTokenId: market.tokens.yes,
    noTokenId: market.tokens.no,
  };
}

export function createBotCapital(o: BotCapitalOptions): BotCapital {
  const refs = new Map<string, { readonly ref: CapitalMarketRef; readonly settlesAtMs: number | null }>();
  const remember = (market: Market): void => {
    const ref = refOf(market);
    if (ref !== null) refs.set(market.slug, { ref, settlesAtMs: market.expirationMs });
  };
  for (const market of o.markets) remember(market);
  if (o.config.mode === 'off') return { core: null, remember, start: () => undefined, stop: () => undefined };
  if (o.port === null) {
    return {
      core: null,
      remember,
      start: () => o.log.warn({ reason: o.noPortReason ?? 'no capital port' }, 'on-chain redemption and merges are off: an externally owned wallet\'s winnings stay in their tokens until redeemed by hand'),
      stop: () => undefined,
    };
  }
  const { ledger } = o;
  const markets = (): MarketCapitalState[] => {
    const held = new Map<string, { yesRaw: number; noRaw: number }>();
    for (const b of ledger.tokenBalances()) {
      if (b.balanceRaw <= 0) continue;
      const entry = held.get(b.marketSlug) ?? { yesRaw: 0, noRaw: 0 };
      if (b.token === 'YES') entry.yesRaw = b.balanceRaw;
      else entry.noRaw = b.balanceRaw;
      held.set(b.marketSlug, entry);
    }
    const locks = sellLocks(o.openOrders());
    const apiRedeems = o.apiRedeems();
    const out: MarketCapitalState[] = [];
    for (const [slug, holding] of held) {
      const known = refs.get(slug);
      if (known === undefined) continue;
      const resolution = ledger.getResolution(slug);
      // A server-managed wallet's resolved markets are the API settler's; merges are on-chain for every wallet.
      if (resolution !== null && apiRedeems) continue;
      const lock = locks.get(slug);
      out.push({
        market: known.ref,
        yesRaw: holding.yesRaw,
        noRaw: holding.noRaw,
        lockedYesRaw: lock?.yesRaw ?? 0,
        lockedNoRaw: lock?.noRaw ?? 0,
        resolution,
        redeemed: ledger.hasRedemption(slug),
        settlesAtMs: known.settlesAtMs,
      });
    }
    return out;
  };
  const core = new CapitalCore({
    port: o.port,
    book: ledger,
    markets,
    scheduler: o.scheduler,
    log: o.log,
    settings: {
      merge: { enabled: true, minSetsRaw: o.config.mergeMinSetsRaw, minTimeToSettleMs: o.config.mergeMinTimeToSettleMs },
      intervalMs: o.config.intervalMs,
      checkEveryMs: o.config.chainCheckMs,
      retry: { initialMs: o.retry.retryInitialMs, maxMs: o.retry.retryMaxMs },
      ethPriceUsdcRaw: o.config.ethPriceUsdcRaw,
    },
    ...(o.observer === undefined ? {} : { observer: o.observer }),
    ...(o.repair === undefined ? {} : { repair: o.repair }),
    // The wallet's USDC against the ledger's cash account, repaired by adopting the chain's figure (./cash-check.ts).
    usdcCheck: new ChainUsdcCheck({
      ledger,
      settings: { toleranceRaw: o.config.chainUsdcToleranceRaw, inFlightMs: o.config.chainUsdcInFlightMs },
      log: o.log,
      onVerdict: (verdict) => o.observer?.onChainUsdcVerdict?.(verdict.kind, 'differenceRaw' in verdict ? verdict.differenceRaw : null),
    }),
  });
  return { core, remember, start: () => core.start(), stop: () => core.stop() };
}

/** The bot's wiring in one call (src/app/compose.ts): the port for the venue, the ledger, the executor's orders, the settler's say. */
export function wireBotCapital(input: {
  readonly config: { readonly capital: CapitalConfig; readonly redemption: RedemptionConfig; readonly markets: { readonly exclusive: boolean } };
  readonly resources: { readonly ledger: LedgerStore; readonly markets: readonly Market[]; readonly venue: Parameters<typeof capitalPortFor>[0] };
  readonly chainPort: CapitalPort | null;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  readonly openOrders: () => readonly LockingOrder[];
  readonly apiRedeems: () => boolean;
  readonly observer?: CapitalObserver;
}): BotCapital {
  const { config, resources, scheduler } = input;
  const port = config.capital.mode === 'off' ? null : capitalPortFor(resources.venue, input.chainPort, () => scheduler.now());
  return createBotCapital({
    config: config.capital,
    retry: config.redemption,
    ledger: resources.ledger,
    port,
    noPortReason: resources.venue.kind === 'live' ? 'live venue without a chain port (venue.chain.rpcUrl unset, or the chain port not built)' : 'no simulator',
    markets: resources.markets,
    scheduler,
    log: input.log,
    openOrders: input.openOrders,
    apiRedeems: input.apiRedeems,
    ...(input.observer === undefined ? {} : { observer: input.observer }),
    // A chain difference seen on two checks is repaired as a REST one is (./chain-repair.ts).
    repair: chainRepairer({ ledger: resources.ledger, exclusive: config.markets.exclusive, now: () => scheduler.now(), log: input.log }),
  });
}
