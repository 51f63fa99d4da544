/**
 * `outcome-maker record --config FILE --out DIR [--duration S]`: the recorder's process shell. Opens the venue,
 * the client and the markets exactly as the bot does (src/app/resources.ts `openExchange`), reads market data
 * through the bot's feed and book store (src/app/market-data.ts), and writes a replay stream into DIR
 * (src/replay/writer.ts: rotated by size and UTC day, flushed every second).
 *
 * Owns: the order of start and stop and the exit code. Invariants: nothing is placed or canceled (the recorder
 * has no order manager); SIGINT/SIGTERM or the duration stop it cleanly: listeners off, feed closed, reads
 * drained, the file ended with its gzip trailer; a start-up failure closes what was opened and exits 1. Each market's
 * title and terms (the venue's fields the terms parser reads) go into the header, so a replay names and prices it as
 * live; the underlying is recorded from the venue's oracle frames and, when `pricing.sources` has `hermes` and its key
 * is set, from Pyth Hermes (through the price store's validation, as the bot reads it).
 */
import type { Logger } from 'pino';
import type { AppConfig } from '../config/types.js';
import { systemScheduler } from '../core/clock.js';
import { errorText } from '../core/errors.js';
import { createLogger, LogCensor } from '../log.js';
import { buildMarketData } from '../app/market-data.js';
import { closeResources, openExchange, type OpenedResources } from '../app/resources.js';
import { REPLAY_FORMAT, REPLAY_UNITS, REPLAY_VERSION } from './format.js';
import { Recorder, type RecordedMarket } from './recorder.js';
import { outcomeMakerVersion } from './version.js';
import { ReplayWriter } from './writer.js';
import { normalizeRewardSettings, type Market } from '../exchange/wire.js';
import { readMarketTerms, termsInputOf } from '../pricing/terms.js';
import { oracleFields } from './replay-pricing.js';
import { UnderlyingStore } from '../pricing/underlying/store.js';
import { HermesSource } from '../pricing/underlying/hermes-source.js';
import type { ReplayMarket, ReplayRewards } from './format.js';

export interface RecordOptions {
  readonly out: string;
  readonly durationMs?: number;
  /** Trades of one market are read this often, markets in turn (default 2000 ms). */
  readonly tradeReadIntervalMs?: number;
  /** A market's trades are read again no sooner than this (default 30 s, the venue's cache of the answer). */
  readonly marketTradeRefreshMs?: number;
}

/** How long a stop waits for reads in flight before the file is closed. */
const DRAIN_MS = 5_000;

export interface Recording {
  readonly recorder: Recorder;
  /** The venue's REST base URL (the embedded simulator's on `kind: sim`). */
  readonly baseUrl: string;
  /** The recorded markets' slugs, in the header's order. */
  readonly markets: readonly string[];
  /** Stops the recorder, drains reads in flight, ends the file and closes the venue; idempotent. */
  stop(): Promise<RecordingSummary>;
}

export interface RecordingSummary {
  readonly recorded: Recorder['counts'];
  readonly files: readonly string[];
}

export interface RecordingDeps {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly log: Logger;
  readonly onSecret?: (secret: string) => void;
}

/** Opens the venue and starts recording; on a start-up failure closes what it opened and throws. */
export async function startRecording(config: AppConfig, options: RecordOptions, deps: RecordingDeps): Promise<Recording> {
  const { log } = deps;
  const scheduler = systemScheduler;
  const opened: OpenedResources = {};
  let writer: ReplayWriter | null = null;
  try {
    const { venue, client, markets } = await openExchange(
      config,
      { env: deps.env, log, scheduler, httpObserver: {}, ...(deps.onSecret === undefined ? {} : { onSecret: deps.onSecret }), dryRun: true },
      opened,
    );
    const recorded: RecordedMarket[] = markets.map((m) => ({ slug: m.slug, yesTokenId: m.tokens?.yes ?? null, noTokenId: m.tokens?.no ?? null, ticker: tickerOf(m, config) }));
    let recorder: Recorder | null = null;
    const { feed, books } = buildMarketData({
      config,
      venue,
      client,
      yesTokenOf: (slug) => recorded.find((m) => m.slug === slug)?.yesTokenId ?? null,
      scheduler,
      log,
      feedObserver: {},
      booksObserver: { onFrozenFeed: (slug) => recorder?.gap(slug, 'resync') },
      marketCount: recorded.length,
    });
    const out = new ReplayWriter({
      dir: options.out,
      name: 'record',
      scheduler,
      header: {
        kind: 'header',
        format: REPLAY_FORMAT,
        version: REPLAY_VERSION,
        venue: { name: config.venue.kind === 'sim' ? 'simulator' : 'live', baseUrl: venue.baseUrl },
        source: { tool: 'record', version: outcomeMakerVersion() },
        units: REPLAY_UNITS,
        markets: markets.map(headerMarket),
        createdAtMs: scheduler.now(),
      },
    });
    writer = out;
    const rec = new Recorder({
      markets: recorded,
      data: {
        onBookFrame: (listener) => feed.onBook((slug, _snapshot, frame) => listener(slug, frame.venueTimestampMs)),
        onMarketResolved: (listener) => feed.onMarketResolved(listener),
        onDisconnect: (listener) =>
          feed.onStateChange((state) => {
            if (state.status === 'disconnected') listener();
          }),
        books: (slug) => books.books(slug),
        onBookChange: (listener) => books.onChange(listener),
        onStale: (listener) =>
          books.onStaleChange((slug, stale) => {
            if (stale) listener(slug);
          }),
        onOraclePrice: (listener) => feed.onOraclePrice(listener),
      },
      venue: {
        recentTrades: async (slug) => (await client.api.getMarketTrades(slug, { limit: 100 })).trades,
        tradingMode: async () => (await client.api.getMaintenanceStatus()).mode,
      },
      sink: (event) => out.write(event),
      scheduler,
      log,
      modeReadIntervalMs: config.maintenance.pollIntervalMs,
      ...(options.tradeReadIntervalMs === undefined ? {} : { tradeReadIntervalMs: options.tradeReadIntervalMs }),
      ...(options.marketTradeRefreshMs === undefined ? {} : { marketTradeRefreshMs: options.marketTradeRefreshMs }),
    });
    recorder = rec;
    books.setMarkets(recorded.map((m) => m.slug));
    feed.start();
    books.start();
    rec.start();
    const hermes = startHermes(config, venue.hermes, recorded, rec, log);
    log.info({ out: options.out, markets: recorded.map((m) => m.slug) }, 'recording');
    let stopped: Promise<RecordingSummary> | null = null;
    return {
      recorder: rec,
      baseUrl: venue.baseUrl,
      markets: recorded.map((m) => m.slug),
      stop: () =>
        (stopped ??= (async () => {
          hermes?.stop();
          rec.stop();
          books.stop();
          feed.close();
          const drainUntil = Date.now() + DRAIN_MS;
          while (rec.busy && Date.now() < drainUntil) await new Promise((resolve) => setTimeout(resolve, 20));
          await out.close();
          await closeResources(opened);
          return { recorded: rec.counts, files: out.paths() };
        })()),
    };
  } catch (error) {
    await writer?.close();
    await closeResources(opened);
    throw error;
  }
}

/** The underlying's ticker of a market whose terms name one (priced or only recognised as crypto); null otherwise. */
function tickerOf(market: Market, config: AppConfig): string | null {
  const result = readMarketTerms(termsInputOf(market), config.pricing.feedIds);
  return result.ok ? result.terms.ticker : result.ticker;
}

/** A recorded market in the header: ids, title and the fields its terms are read from. */
function headerMarket(market: Market): ReplayMarket {
  const input = termsInputOf(market);
  return {
    slug: market.slug,
    yesTokenId: market.tokens?.yes ?? null,
    noTokenId: market.tokens?.no ?? null,
    tickTicks: 1,
    ...(market.title === '' ? {} : { title: market.title }),
    ...rewardsOf(market),
    // v3: the replay leaves the market at its stop before settlement (src/replay/replay-roll.ts).
    ...(input.expirationMs === null ? {} : { expiresAtMs: input.expirationMs }),
    terms: {
      kind: 'venue',
      title: input.title,
      description: input.description,
      tags: [...input.tags],
      metadata: { ...input.metadata },
      priceOracleMetadata: oracleFields(input.priceOracleMetadata),
      expirationMs: input.expirationMs,
    },
  };
}

/** The venue's reward settings of a rewardable market in exact units (as the bot reads them: src/app/markets.ts). */
function rewardsOf(market: Market): { rewards?: ReplayRewards } {
  if (!market.isRewardable) return {};
  const reward = normalizeRewardSettings(market.settings);
  if (reward.dailyRewardRaw <= 0 || reward.maxSpreadTicks < 1) return {};
  return { rewards: { minSizeRaw: reward.minSizeRaw, maxSpreadTicks: reward.maxSpreadTicks, dailyRewardRaw: reward.dailyRewardRaw } };
}

/** Pyth Hermes for the recorded markets' feeds, into the recording (null when it is not a source or has no key). */
function startHermes(config: AppConfig, hermes: { readonly endpoint: string; readonly apiKey: string | null; readonly apiKeyEnv: string } | null, recorded: readonly RecordedMarket[], rec: Recorder, log: Logger): HermesSource | null {
  const feeds = new Map<string, string>();
  for (const market of recorded) {
    const feed = market.ticker ? config.pricing.feedIds[market.ticker] : undefined;
    if (market.ticker && feed) feeds.set(feed.slice(2), market.ticker);
  }
  if (hermes === null || feeds.size === 0) return null;
  if (hermes.apiKey === null) {
    log.warn({ env: hermes.apiKeyEnv }, `Pyth Hermes not recorded: $${hermes.apiKeyEnv} is not set; the underlying comes from the venue's oracle frames only`);
    return null;
  }
  const store = new UnderlyingStore(config.pricing.store, () => systemScheduler.now());
  store.onQuote((quote) => {
    if (quote.source === 'hermes') rec.underlying({ ticker: quote.ticker, source: 'hermes', price: quote.price, conf: quote.conf, publishTimeMs: quote.publishTimeMs });
  });
  const source = new HermesSource({ endpoint: hermes.endpoint, apiKey: hermes.apiKey, apiKeyEnv: hermes.apiKeyEnv, feeds, store, scheduler: systemScheduler, log });
  source.start();
  return source;
}

/** The `record` command: start, wait for the duration or a signal, stop, print the summary. */
export async function runRecord(config: AppConfig, options: RecordOptions): Promise<number> {
  const censor = new LogCensor();
  const log = createLogger({ level: config.log.level, pretty: config.log.pretty === 'auto' ? process.stdout.isTTY : config.log.pretty, censor });
  let recording: Recording;
  try {
    recording = await startRecording(config, options, { env: process.env, log, onSecret: (secret) => censor.addSecret(secret) });
  } catch (error) {
    log.error({ err: errorText(error) }, 'recorder start-up failed');
    return 1;
  }
  if (typeof process.send === 'function') process.send('ready');
  let onSignal = (_signal: NodeJS.Signals): void => {};
  const reason = await new Promise<string>((resolve) => {
    onSignal = (signal) => resolve(signal);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    if (options.durationMs !== undefined) setTimeout(() => resolve('duration elapsed'), options.durationMs).unref();
  });
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  log.info({ reason }, 'recorder stopping');
  process.stdout.write(`${JSON.stringify(await recording.stop())}\n`);
  return 0;
}
