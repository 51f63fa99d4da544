/**
 * `outcome-maker record --config FILE --out DIR [--duration S]`: the recorder's process shell. Opens the venue,
 * the client and the markets exactly as the bot does (src/app/resources.ts `openExchange`), reads market data
 * through the bot's feed and book store (src/venue/market-data.ts), and writes a replay stream into DIR
 * (src/replay/writer.ts: rotated by size and UTC day, flushed every second).
 *
 * Owns: the order of start and stop and the exit code. Invariants: nothing is placed or canceled (the recorder
 * has no order manager); SIGINT/SIGTERM or the duration stop it cleanly: listeners off, feed closed, reads
 * drained, the file ended with its gzip trailer; a start-up failure closes what was opened and exits 1. Each market's
 * title and terms (the venue's fields the terms parser reads) go into the header, so a replay names and prices it as
 * live; the underlying is recorded from the venue's oracle frames and, when `pricing.sources` has `hermes` and its key
 * is set, from Pyth Hermes (through the price store's validation, as the bot reads it: ./record-hermes.ts).
 * The recorded set follows the config's `markets` rules while it runs, through the bot's own selection and discovery
 * (./record-markets.ts): a market that starts matching is written as a `listed` event (format v3), added to the header
 * of later parts and subscribed (the book store sends the whole list, again after every reconnect); one that stops
 * matching, resolves or settles is unsubscribed.
 */
import type { Logger } from 'pino';
import type { AppConfig } from '../config/types.js';
import { systemScheduler } from '../core/clock.js';
import { errorText } from '../core/errors.js';
import { createLogger, LogCensor } from '../log.js';
import { buildMarketData } from '../venue/market-data.js';
import { closeResources, openExchange, type OpenedResources } from '../app/resources.js';
import { REPLAY_FORMAT, REPLAY_UNITS, REPLAY_VERSION } from './format.js';
import { Recorder, type RecordedMarket } from './recorder.js';
import { outcomeMakerVersion } from './version.js';
import { ReplayWriter } from './writer.js';
import { normalizeRewardSettings, type Market } from '../exchange/wire.js';
import { readMarketTerms, termsInputOf } from '../pricing/terms.js';
import { oracleFields } from './replay-pricing.js';
import { RecordHermes } from './record-hermes.js';
import { recordMarkets, type RecordFairs } from './record-markets.js';
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
  /** The markets recorded from the start (the first header's, in its order); `recorder.recording()` has those now. */
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
    const recorded = new Map(markets.map((m) => [m.slug, recordedMarket(m, config)]));
    let recorder: Recorder | null = null;
    const { feed, books } = buildMarketData({
      config,
      venue,
      client,
      yesTokenOf: (slug) => recorded.get(slug)?.yesTokenId ?? null,
      scheduler,
      log,
      feedObserver: {},
      booksObserver: { onFrozenFeed: (slug) => recorder?.gap(slug, 'resync') },
      marketCount: recorded.size,
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
    let fairs: RecordFairs | null = null;
    const rec = new Recorder({
      markets: [...recorded.values()],
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
      sink: (event) => {
        out.write(event);
        if (event.kind === 'underlying') fairs?.observe(event);
      },
      scheduler,
      log,
      modeReadIntervalMs: config.maintenance.pollIntervalMs,
      ...(options.tradeReadIntervalMs === undefined ? {} : { tradeReadIntervalMs: options.tradeReadIntervalMs }),
      ...(options.marketTradeRefreshMs === undefined ? {} : { marketTradeRefreshMs: options.marketTradeRefreshMs }),
    });
    // The recorded set follows the config's selection rules while running, as the bot's does (./record-markets.ts).
    const rolling = recordMarkets({
      config,
      api: client.api,
      scheduler,
      log,
      initial: markets,
      steps: {
        join: (market) => {
          const entry = recordedMarket(market, config);
          const header = headerMarket(market);
          // The `listed` event before the header of later parts and before any book of it (see ./writer.ts).
          rec.addMarket(entry, header);
          out.addMarket(header);
          recorded.set(market.slug, entry);
          books.setMarkets(rec.recording());
          hermes.follow(recorded.values());
        },
        leave: (slug) => {
          rec.removeMarket(slug);
          recorded.delete(slug);
          books.setMarkets(rec.recording());
        },
      },
    });
    fairs = rolling.fairs;
    const hermes = new RecordHermes(config, venue.hermes, rec, log);
    recorder = rec;
    books.setMarkets(rec.recording());
    feed.start();
    books.start();
    rec.start();
    hermes.follow(recorded.values());
    feed.onMarketCreated((frame) => void rolling.discovery.created(frame));
    feed.onMarketResolved((frame) => rolling.discovery.resolved(frame.slug));
    rolling.discovery.start();
    log.info({ out: options.out, markets: rec.recording() }, 'recording');
    let stopped: Promise<RecordingSummary> | null = null;
    const initialSlugs = rec.recording();
    return {
      recorder: rec,
      baseUrl: venue.baseUrl,
      markets: initialSlugs,
      stop: () =>
        (stopped ??= (async () => {
          await rolling.stop();
          hermes.stop();
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

/** A market as the recorder reads it: its tokens and the underlying's ticker when its terms name one. */
function recordedMarket(market: Market, config: AppConfig): RecordedMarket {
  const result = readMarketTerms(termsInputOf(market), config.pricing.feedIds);
  return { slug: market.slug, yesTokenId: market.tokens?.yes ?? null, noTokenId: market.tokens?.no ?? null, ticker: result.ok ? result.terms.ticker : result.ticker };
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

/** The venue's reward settings of a rewardable market in exact units (as the bot reads them: src/markets/venue-markets.ts). */
function rewardsOf(market: Market): { rewards?: ReplayRewards } {
  if (!market.isRewardable) return {};
  const reward = normalizeRewardSettings(market.settings);
  if (reward.dailyRewardRaw <= 0 || reward.maxSpreadTicks < 1) return {};
  return { rewards: { minSizeRaw: reward.minSizeRaw, maxSpreadTicks: reward.maxSpreadTicks, dailyRewardRaw: reward.dailyRewardRaw } };
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
