/**
 * Pyth Hermes for `record`: the feeds of the recorded markets' tickers (when `pricing.sources` has `hermes` and its key
 * is set; on the simulator its Hermes stand-in), through the price store's validation as the bot reads them, into the
 * recording as `underlying` events.
 *
 * Owns: the Hermes stream and its feed set. Invariants: the stream follows the recorded markets (`follow`): restarted
 * when a market of a new feed joins, never for a market of a feed already streamed, never narrowed (a ticker's prices
 * go on after its market left); a missing key is warned once; nothing runs after `stop()`.
 */
import type { Logger } from 'pino';
import type { AppConfig } from '../config/types.js';
import { systemScheduler } from '../core/clock.js';
import { UnderlyingStore } from '../pricing/underlying/store.js';
import { HermesSource } from '../pricing/underlying/hermes-source.js';
import type { Recorder, RecordedMarket } from './recorder.js';

export interface HermesEndpoint {
  readonly endpoint: string;
  readonly apiKey: string | null;
  readonly apiKeyEnv: string;
}

export class RecordHermes {
  private readonly store: UnderlyingStore;
  /** Feed id (no 0x) → ticker, of the stream running now. */
  private feeds = new Map<string, string>();
  private source: HermesSource | null = null;
  private warned = false;
  private stopped = false;

  constructor(
    private readonly config: AppConfig,
    private readonly hermes: HermesEndpoint | null,
    recorder: Recorder,
    private readonly log: Logger,
  ) {
    this.store = new UnderlyingStore(config.pricing.store, () => systemScheduler.now());
    this.store.onQuote((quote) => {
      if (quote.source === 'hermes') recorder.underlying({ ticker: quote.ticker, source: 'hermes', price: quote.price, conf: quote.conf, publishTimeMs: quote.publishTimeMs });
    });
  }

  /** Streams the feeds of `markets`' tickers besides those streamed already (restarting the stream when one is new). */
  follow(markets: Iterable<RecordedMarket>): void {
    if (this.stopped || this.hermes === null) return;
    const feeds = new Map(this.feeds);
    for (const market of markets) {
      const feed = market.ticker ? this.config.pricing.feedIds[market.ticker] : undefined;
      if (market.ticker && feed) feeds.set(feed.slice(2), market.ticker);
    }
    if (feeds.size === this.feeds.size) return;
    const { endpoint, apiKey, apiKeyEnv } = this.hermes;
    if (apiKey === null) {
      if (!this.warned) this.log.warn({ env: apiKeyEnv }, `Pyth Hermes not recorded: $${apiKeyEnv} is not set; the underlying comes from the venue's oracle frames only`);
      this.warned = true;
      return;
    }
    this.source?.stop();
    this.feeds = feeds;
    this.source = new HermesSource({ endpoint, apiKey, apiKeyEnv, feeds, store: this.store, scheduler: systemScheduler, log: this.log });
    this.source.start();
  }

  stop(): void {
    this.stopped = true;
    this.source?.stop();
    this.source = null;
  }
}
