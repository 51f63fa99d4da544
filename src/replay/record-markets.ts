/**
 * The markets `record` records while it runs, chosen exactly as the bot chooses the markets it quotes: the same rules
 * (`markets` in the config: src/markets/market-selection.ts `selectMarkets`) run by the same discovery loop
 * (src/markets/market-discovery.ts: the lifecycle channel's `marketCreated` / `marketResolved`, a slow poll of the active
 * listing, an evaluation every SELECTION_EVERY_MS). A market that starts matching joins the recording; one that stops
 * matching, resolves or reaches its settlement leaves it.
 *
 * Owns: the recorded set (`RecordRoster`) and the model fair values the selection's fair band reads (`RecordFairs`: the
 * bot's pricer fed with the underlying prices the recorder writes). Invariants: a join and a leave are local changes
 * only (the discovery's reads are the only requests); the steps of one change run in the caller's order (record-command:
 * `listed` event, then the header of later parts, then the book subscription — the whole set); a failing step is logged
 * and leaves the set as it was, so the next evaluation tries again; a market is left at its settlement, not at the
 * bot's stop before it (`recordLeaveAtMs`), so a replay whose config stops later still has its data; nothing changes
 * after `stop()`.
 */
import type { Logger } from 'pino';
import type { AppConfig } from '../config/types.js';
import type { PricingConfig } from '../config/pricing-schema.js';
import type { Scheduler } from '../core/clock.js';
import { errorText } from '../core/errors.js';
import type { ExchangeApi } from '../exchange/api.js';
import type { Market } from '../exchange/wire.js';
import { MarketDiscovery, SELECTION_EVERY_MS } from '../markets/market-discovery.js';
import type { RosterPlan } from '../markets/market-roster.js';
import { isStaticSelection, selectMarkets } from '../markets/market-selection.js';
import { activeMarkets } from '../markets/venue-markets.js';
import { MarketPricer } from '../pricing/market-pricer.js';
import { readMarketTerms, termsInputOf } from '../pricing/terms.js';
import type { UnderlyingEvent } from './format.js';

/** What a join and a leave do (record-command's steps). */
export interface RecordSteps {
  join(market: Market): void;
  leave(slug: string): void;
}

/** The recorded set, changed by the discovery's plans; the roster the discovery loop drives. */
export class RecordRoster {
  private readonly joined: Set<string>;
  private stopped = false;

  constructor(
    private readonly steps: RecordSteps,
    private readonly log: Logger,
    initial: readonly string[],
  ) {
    this.joined = new Set(initial);
  }

  current(): ReadonlySet<string> {
    return this.joined;
  }

  /** Leaves, then joins; each market's change is whole or not at all (logged, retried by a later plan). */
  apply(plan: RosterPlan): Promise<void> {
    if (this.stopped) return Promise.resolve();
    for (const { slug, reason } of plan.leave) {
      if (!this.joined.has(slug)) continue;
      this.change(slug, 'leaving', () => {
        this.steps.leave(slug);
        this.joined.delete(slug);
        this.log.info({ market: slug, reason }, 'market left the recording');
      });
    }
    for (const market of plan.join) {
      if (this.joined.has(market.slug)) continue;
      this.change(market.slug, 'joining', () => {
        this.steps.join(market);
        this.joined.add(market.slug);
        const settlesAt = market.expirationMs === null ? null : new Date(market.expirationMs).toISOString();
        this.log.info({ market: market.slug, title: market.title, settlesAt }, 'market joined the recording');
      });
    }
    return Promise.resolve();
  }

  stop(): void {
    this.stopped = true;
  }

  private change(slug: string, what: string, step: () => void): void {
    try {
      step();
    } catch (error) {
      this.log.warn({ market: slug, err: errorText(error) }, `${what} a market of the recording failed: retried at the next evaluation`);
    }
  }
}

/**
 * The model's fair value of a market for the selection's fair band (`minFair`/`maxFair`), from the prices the recorder
 * writes (the venue's oracle frames of recorded markets and Pyth Hermes), the latest received of each ticker, through
 * the bot's own pricer (src/pricing/market-pricer.ts). As in the bot, a ticker none of the recorded markets names has
 * no price: its markets' fair value is unknown, which the band lets through.
 */
export class RecordFairs {
  private readonly pricer: MarketPricer;

  constructor(private readonly config: PricingConfig) {
    this.pricer = new MarketPricer(config.pricer);
  }

  register(market: Market): void {
    this.pricer.register(market.slug, readMarketTerms(termsInputOf(market), this.config.feedIds));
  }

  unregister(slug: string): void {
    this.pricer.unregister(slug);
  }

  /** An underlying price as written to the recording. */
  observe(event: UnderlyingEvent): void {
    this.pricer.observe({ ticker: event.ticker, price: event.price, conf: event.conf, receiveTimeMs: event.t });
  }

  fairOf(market: Market, nowMs: number): number | null {
    const result = readMarketTerms(termsInputOf(market), this.config.feedIds);
    return result.ok ? this.pricer.fairOf(result.terms, nowMs) : null;
  }
}

/** When the recorder leaves a market: at its settlement (null: never by time). */
export function recordLeaveAtMs(market: Market): number | null {
  return market.expirationMs;
}

export interface RecordMarketsDeps {
  readonly config: AppConfig;
  readonly api: ExchangeApi;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  /** The markets recorded from the start (start-up's selection: src/markets/venue-markets.ts `resolveMarkets`). */
  readonly initial: readonly Market[];
  readonly steps: RecordSteps;
}

export interface RecordMarkets {
  readonly roster: RecordRoster;
  readonly discovery: MarketDiscovery;
  readonly fairs: RecordFairs;
  /** No evaluation or change after this; resolves once a plan in flight ended. */
  stop(): Promise<void>;
}

/** The recorder's discovery: the bot's loop and rules over a roster of recorded markets (started by the caller). */
export function recordMarkets(deps: RecordMarketsDeps): RecordMarkets {
  const { config, scheduler } = deps;
  const fairs = new RecordFairs(config.pricing);
  for (const market of deps.initial) fairs.register(market);
  const roster = new RecordRoster(
    {
      join: (market) => {
        deps.steps.join(market);
        fairs.register(market);
      },
      leave: (slug) => {
        deps.steps.leave(slug);
        fairs.unregister(slug);
      },
    },
    deps.log,
    deps.initial.map((m) => m.slug),
  );
  const discovery = new MarketDiscovery(
    {
      scheduler,
      log: deps.log,
      listActive: () => activeMarkets(deps.api),
      details: (slug) => deps.api.getMarket(slug),
      select: ({ candidates, nowMs, current }) => selectMarkets({ rules: config.markets, candidates, nowMs, current, feedIds: config.pricing.feedIds }),
      fairOf: (market) => fairs.fairOf(market, scheduler.now()),
      leaveAtMs: recordLeaveAtMs,
      roster,
      // A static list of slugs needs no listing poll (a day): its markets only leave when they settle.
      pollIntervalMs: isStaticSelection(config.markets) ? 86_400_000 : config.markets.discovery.pollIntervalMs,
      evaluateIntervalMs: SELECTION_EVERY_MS,
    },
    deps.initial,
  );
  return {
    roster,
    discovery,
    fairs,
    stop: async () => {
      await discovery.stop();
      roster.stop();
    },
  };
}
