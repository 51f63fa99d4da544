/**
 * `outcome-maker record` follows the config's selection rules while it runs (the real CLI as a child process, against
 * the simulator's crypto world in this process, selecting every BTC market): two strike markets listed at run time
 * (`POST /_sim/markets`, the venue's `marketCreated`) join the recording as `listed` events and are subscribed; one
 * resolved is dropped from the subscription (its resolution still written); after a dropped connection the whole list
 * is subscribed again. `backtest --replay` of the file then joins the listed market at its listing and quotes it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { readReplay } from '../../src/replay/reader.js';
import type { PeopleReport } from '../../src/replay/report.js';
import { botEnv, spawnWatched, startBtcDailyWorld, writeBotConfig } from '../support/bot-process.js';
import { runCliInProcess } from '../support/cli-process.js';
import { hasMsg, jsonLines, pollFor, stopAfterEach } from './ops-support.js';

const ROOT = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'om-record-rolling-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const started = stopAfterEach();

it('records markets listed while it runs, drops one that resolves, resubscribes the whole list; the replay joins and quotes the new one', async () => {
  const { venue, daily } = await startBtcDailyWorld();
  started.sim = venue;
  const { configPath } = writeBotConfig(venue, { marketsSection: { select: { tickers: ['BTC'], rewardableOnly: false, max: 10 }, discovery: { pollIntervalSec: 600 } } }, dir);
  const out = join(dir, 'rec');
  const recording = spawnWatched(process.execPath, [join(ROOT, 'bin', 'outcome-maker.mjs'), 'record', '--config', configPath, '--out', out], botEnv(venue));
  started.bot = recording;
  await recording.waitForLine(hasMsg('recording'), 30_000);
  // Subscribed (the lifecycle channel is asked for right after the markets' prices, whose frames show they were
  // served): a listing before that would be found only by the listing poll, here 10 minutes away.
  await recording.waitForLine(hasMsg('venue oracle frames seen on subscribe_market_prices'), 10_000);
  const probe = (slug: string): number => venue.control.injectFrame({ kind: 'custom', marketSlug: slug, event: 'system', payload: { message: 'probe' } });

  // Two strike markets listed at run time, settling in 10 and 11 minutes: both join the recording within seconds.
  const minute = Math.ceil(Date.now() / 60_000) * 60_000;
  const kept = venue.control.listMarket({ ticker: 'BTC', settlesAt: minute + 600_000 }).slug;
  const resolved = venue.control.listMarket({ ticker: 'BTC', settlesAt: minute + 660_000 }).slug;
  const joined = (slug: string) => (line: string) => hasMsg('market joined the recording')(line) && line.includes(slug);
  await recording.waitForLine(joined(kept), 10_000);
  await recording.waitForLine(joined(resolved), 10_000);
  await pollFor('both listed markets subscribed', () => (probe(kept) === 1 && probe(resolved) === 1 ? true : undefined), 10_000, 50);

  // One resolves: dropped from the subscription; the others stay.
  venue.control.resolveMarket(resolved, { winningOutcomeIndex: 0 });
  await recording.waitForLine((line) => hasMsg('market left the recording')(line) && line.includes(resolved), 10_000);
  await pollFor('the resolved market unsubscribed', () => (probe(resolved) === 0 && probe(kept) === 1 && probe(daily) === 1 ? true : undefined), 10_000, 50);

  // A dropped connection: the whole list subscribed again (the market joined at run time included), and no more.
  venue.control.dropConnections();
  await pollFor('the whole list subscribed again', () => (probe(kept) === 1 && probe(daily) === 1 ? true : undefined), 20_000, 100);
  expect(probe(resolved)).toBe(0);

  // Enough of the new market for a replay to quote it: its books beside the underlying, 1.5 s on.
  const joinedAt = Date.now();
  await pollFor('books of the new market recorded', () => {
    const so = readReplay(out, { allowTruncated: true });
    const books = so.events.filter((e) => e.kind === 'book' && e.market === kept && e.t >= joinedAt + 1_500);
    return books.length > 0 ? true : undefined;
  }, 20_000, 250);
  const stopped = await recording.stop('SIGTERM');
  expect(stopped.code).toBe(0);
  expect(jsonLines(recording).filter((line) => line['level'] === 40 || line['level'] === 50).map((line) => line.msg)).toEqual([]);

  const stream = readReplay(out);
  expect(stream.header.version).toBe(3);
  expect(stream.header.markets.map((m) => m.slug)).toEqual([daily]);
  const listed = stream.events.flatMap((e) => (e.kind === 'listed' ? [e] : []));
  // (each joins once its details are read: in either order)
  expect(listed.map((e) => e.entry.slug).sort()).toEqual([kept, resolved].sort());
  for (const event of listed) {
    // each listed market's own events only after its `listed` event, its settlement written for the replay's leave
    const first = stream.events.findIndex((e) => 'market' in e && e.market === event.entry.slug);
    expect(first).toBeGreaterThan(stream.events.indexOf(event));
    expect(event.entry.expiresAtMs).toBe(event.entry.slug === kept ? minute + 600_000 : minute + 660_000);
  }
  expect(stream.events.filter((e) => e.kind === 'resolved').map((e) => e.market)).toEqual([resolved]);
  const leftAt = Number(jsonLines(recording).find((line) => line.msg === 'market left the recording')?.['time']);
  expect(stream.events.filter((e) => e.kind === 'book' && e.market === resolved && e.t > leftAt + 100)).toEqual([]);
  expect(stream.events.some((e) => e.kind === 'book' && e.market === kept)).toBe(true);

  // The replay joins the new market at its listing and quotes it; nothing of it before.
  const reportDir = join(dir, 'report');
  const run = await runCliInProcess(['backtest', '--replay', out, '--config', join(ROOT, 'config/fixed-spread.yaml'), '--out', reportDir]);
  expect(run.err).toBe('');
  const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as PeopleReport;
  // The replay joins as the daemon does (the config's selection, EVALUATE_SOON_MS after a listing or at the listing
  // poll): the market resolved moments after its listing is joined only if its resolution came after that.
  const replayed = report.markets.map((m) => m.slug);
  expect(replayed).toEqual(expect.arrayContaining([daily, kept]));
  expect([daily, kept, resolved]).toEqual(expect.arrayContaining(replayed));
  const startMs = Math.min(...stream.events.flatMap((e) => (e.kind === 'underlying' || e.kind === 'listed' ? [] : [e.t])));
  const market = report.markets.find((m) => m.slug === kept);
  const quoted = market?.series.t.filter((_, i) => market.series.bid[i] !== null || market.series.ask[i] !== null) ?? [];
  expect(quoted.length).toBeGreaterThan(0);
  const keptListedAt = listed.find((e) => e.entry.slug === kept)?.t ?? Number.NaN;
  expect(Math.min(...quoted)).toBeGreaterThanOrEqual((keptListedAt - startMs) / 1000);
}, 90_000);
