/**
 * `outcome-maker record` on the embedded simulator, through `startRecording` (the command's own entry, without the
 * process shell): books of every configured market, public trades in YES terms once each, the trading mode and its
 * changes, a resolution, a disconnect as a gap; the file reads back with the stream reader. The recorder places
 * and cancels nothing (the account's orders stay empty).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/index.js';
import { readReplay } from '../../src/replay/reader.js';
import { startRecording } from '../../src/replay/record-command.js';
import { poll } from '../support/poll.js';
import { runCliInProcess } from '../support/cli-process.js';
import type { PeopleFigures } from '../../src/replay/report.js';

const ROOT = join(import.meta.dirname, '../..');

const dir = mkdtempSync(join(tmpdir(), 'om-record-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = parseConfigText(
  `venue:
  kind: sim
  seed: 11
  markets: 2
  flow: {enabled: true, noiseTakersPerMinute: 120}
strategy: {name: fixed-spread}
metrics: {enabled: false}
maintenance: {pollIntervalSec: 1}
log: {level: warn}
`,
  { source: 'record.yaml', baseDir: dir },
);

async function admin(baseUrl: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const answer = await fetch(`${baseUrl}/_sim${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  expect(answer.status, `${method} ${path}`).toBeLessThan(300);
  return answer.json();
}

describe('record', () => {
  it('writes books, trades, modes, a resolution and gaps of the configured markets, and places nothing', async () => {
    const out = join(dir, 'rec');
    const recording = await startRecording(config, { out, tradeReadIntervalMs: 250, marketTradeRefreshMs: 0 }, { env: {}, log: pino({ level: 'silent' }) });
    const { recorder, baseUrl } = recording;
    let requests: string[] = [];
    try {
      await poll(() => (recorder.counts.books >= 4 && recorder.counts.trades >= 3 ? true : undefined), { timeoutMs: 30_000, intervalMs: 50, failure: () => `too little recorded: ${JSON.stringify(recorder.counts)}` });
      await admin(baseUrl, 'PUT', '/trading-mode', { mode: 'post_only', resumeAt: new Date(Date.now() + 60_000).toISOString() });
      await poll(() => (recorder.counts.modes >= 2 ? true : undefined), { timeoutMs: 10_000, intervalMs: 50, failure: () => 'the mode change was not recorded' });
      const resolvedSlug = recording.markets[1] ?? '';
      await admin(baseUrl, 'POST', `/markets/${resolvedSlug}/resolve`, { winningOutcomeIndex: 0 });
      await poll(() => (recorder.counts.resolutions >= 1 ? true : undefined), { timeoutMs: 10_000, intervalMs: 50, failure: () => 'the resolution was not recorded' });
      await admin(baseUrl, 'POST', '/socket/drop', { kind: 'transport' });
      await poll(() => (recorder.counts.gaps >= 2 ? true : undefined), { timeoutMs: 10_000, intervalMs: 50, failure: () => 'the disconnect was not recorded' });
      const log = (await admin(baseUrl, 'GET', '/requests')) as { entries: { method: string; path: string }[] };
      requests = log.entries.map((e) => `${e.method} ${e.path.split('?')[0] ?? ''}`);
    } finally {
      await recording.stop().catch(() => undefined);
    }
    const summary = await recording.stop();
    const stream = readReplay(out);
    expect(stream.files).toEqual(summary.files);
    expect(stream.truncated).toEqual([]);
    const slugs = stream.header.markets.map((m) => m.slug);
    expect(slugs).toHaveLength(2);
    expect(stream.header).toMatchObject({ venue: { name: 'simulator' }, source: { tool: 'record' } });

    const books = stream.events.flatMap((e) => (e.kind === 'book' ? [e] : []));
    for (const slug of slugs) expect(books.some((b) => b.market === slug)).toBe(true);
    for (const book of books) {
      const bid = book.bids[0]?.[0];
      const ask = book.asks[0]?.[0];
      if (bid !== undefined && ask !== undefined) expect(bid).toBeLessThan(ask);
    }
    const trades = stream.events.flatMap((e) => (e.kind === 'trade' ? [e] : []));
    expect(trades.length).toBeGreaterThanOrEqual(3);
    const startedAt = stream.header.createdAtMs;
    for (const trade of trades) {
      expect(slugs).toContain(trade.market);
      expect(trade.venueTs).not.toBeNull();
      expect(trade.venueTs ?? 0).toBeGreaterThanOrEqual(startedAt - 1000);
    }
    const keys = trades.map((t) => `${t.market}|${t.venueTs}|${t.priceTicks}|${t.sizeRaw}|${t.takerSide}|${t.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(stream.events.filter((e) => e.kind === 'mode').map((e) => (e.kind === 'mode' ? e.mode : null))).toEqual(['normal', 'post_only']);
    expect(stream.events.filter((e) => e.kind === 'gap').map((e) => (e.kind === 'gap' ? e.cause : null))).toEqual(['recorder-start', 'disconnect', 'recorder-stop']);
    expect(stream.events.filter((e) => e.kind === 'resolved')).toEqual([expect.objectContaining({ market: recording.markets[1], winner: 'YES' })]);
    expect(summary.recorded.readErrors).toBe(0);
    // reads only: the recorder never places or cancels
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((r) => !r.startsWith('GET '))).toEqual([]);
  });

  it('on the crypto world: keeps the underlying (oracle frames and Hermes, with receive times) and each market\'s title and terms', async () => {
    const crypto = parseConfigText(
      `venue:
  kind: sim
  seed: 5
  world: crypto
  underlying: {tickers: [BTC], strikesPerExpiry: 2}
  flow: {enabled: true, noiseTakersPerMinute: 60}
strategy: {name: fixed-spread}
metrics: {enabled: false}
log: {level: warn}
`,
      { source: 'record-crypto.yaml', baseDir: dir },
    );
    const out = join(dir, 'rec-crypto');
    const startedAt = Date.now();
    const recording = await startRecording(crypto, { out }, { env: {}, log: pino({ level: 'silent' }) });
    const { recorder } = recording;
    try {
      await poll(() => (recorder.counts.books >= 20 && recorder.counts.underlying >= 40 && Date.now() - startedAt >= 15_000 ? true : undefined), { timeoutMs: 40_000, intervalMs: 50, failure: () => `too little recorded: ${JSON.stringify(recorder.counts)}` });
    } finally {
      await recording.stop().catch(() => undefined);
    }
    const stream = readReplay(out);
    expect(stream.header.version).toBe(3);
    for (const market of stream.header.markets) {
      expect(market.title).toMatch(/^.*\$BTC above \$[0-9.]+ on /);
      expect(market.terms).toMatchObject({ kind: 'venue', title: market.title });
      // v3: its settlement time, where a replay leaves it (at its stop before settlement)
      expect(market.expiresAtMs).toBe(market.terms?.kind === 'venue' ? market.terms.expirationMs : null);
      // the simulator's crypto markets are rewardable: 100 shares, 0.035, 1000 USDC a day (src/sim/engine/crypto-markets.ts)
      expect(market.rewards).toEqual({ minSizeRaw: 100_000_000, maxSpreadTicks: 35, dailyRewardRaw: 1_000_000_000 });
    }
    const prices = stream.events.flatMap((e) => (e.kind === 'underlying' ? [e] : []));
    const sources = new Set(prices.map((p) => p.source));
    expect(sources).toEqual(new Set(['venue', 'hermes']));
    for (const price of prices) {
      expect(price.ticker).toBe('BTC');
      expect(price.price).toBeGreaterThan(0);
      expect(price.t).toBeGreaterThanOrEqual(stream.header.createdAtMs);
      if (price.source === 'venue') expect(stream.header.markets.map((m) => m.slug)).toContain(price.market);
      else expect(price.market).toBeNull();
    }
    expect(recorder.counts.refusedPrices).toBe(0);

    // replayed through the CLI: every market together, priced from the recorded underlying as live
    const run = await runCliInProcess(['backtest', '--replay', out, '--config', join(ROOT, 'config/fixed-spread.yaml'), '--json']);
    expect(run.err).toBe('');
    const figures = JSON.parse(run.out) as PeopleFigures;
    // The config's own selection decides what the replay trades (fixed-spread.yaml: its `markets` rules, `max` included).
    const recordedSlugs = stream.header.markets.map((m) => m.slug);
    expect(figures.slugs.length).toBeGreaterThan(0);
    for (const slug of figures.slugs) expect(recordedSlugs).toContain(slug);
    expect(figures.market).toBe(`${figures.slugs.length} markets`);
    expect(figures.underlyingPrices).toBe(prices.length);
    expect(figures.timeFromModelPct).toBeGreaterThan(0);
    expect(figures.fairMarkouts).not.toBeNull();
    expect(figures.markouts.map((m) => m.horizonSec)).toEqual([1, 10, 60, 300]);
    expect(Number.isFinite(figures.totalPnlUsdc)).toBe(true);
    expect(figures.queueModelNote).toMatch(/^queue models/);
    const report = await runCliInProcess(['backtest', '--replay', out, '--config', join(ROOT, 'config/fixed-spread.yaml')]);
    // one headline and one queue models' line per market (each market has its own queue)
    for (const market of stream.header.markets.filter((m) => figures.slugs.includes(m.slug))) expect(report.out).toMatch(new RegExp(`^${(market.title ?? '').replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')}: total PnL -?\\d+\\.\\d{2} USDC.*\\nqueue models`, 'm'));
  });
});
