/**
 * The replay backtest through `outcome-maker backtest --replay` (the CLI's public entry) on the third-party Polymarket
 * sample beside the clone (test/support/replay-samples.ts, imported first; skipped, saying so, where it is absent): every strategy replays; the fill invariants hold on every replay (a maker
 * fill only when a recorded trade printed at or through its price, never more than that trade's size, on the side
 * the trade's taker hit; a taker fill only at a recorded level; nothing before the first request could land); the
 * figures are the same twice (deterministic); the HTML report is self-contained; sweeps print one row per combination;
 * everything a person reads is in shares, USDC, prices, seconds and percent (no raw field, no 6-decimal number); the
 * queue models' line says why they fill the same on the sample and where they differ on a hand-built recording.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_OK } from '../../../src/cli.js';
import { runCliInProcess } from '../../support/cli-process.js';
import { readReplay } from '../../../src/replay/reader.js';
import { formatTable, headline, queueModelNote, type PeopleFigures, type PeopleReport } from '../../../src/replay/report.js';
import { loadConfigFile, validateStrategy } from '../../../src/config/index.js';
import { eventLine, headerLine, REPLAY_FORMAT, REPLAY_UNITS, REPLAY_VERSION, type ReplayEvent, type ReplayHeader } from '../../../src/replay/format.js';
import { runReplayBacktest } from '../../../src/replay/replay-backtest.js';
import { POLYMARKET_SAMPLE_PRESENT, POLYMARKET_SOL_STEM, samplesTitle } from '../../support/replay-samples.js';

const ROOT = join(import.meta.dirname, '../../..');
const stem = POLYMARKET_SOL_STEM;
const dir = mkdtempSync(join(tmpdir(), 'om-replay-bt-'));
const stream = join(dir, 'sol.ndjson.gz');
const TITLE = 'Solana Up or Down - December 11, 6:00AM-6:15AM ET';
const SLUG = 'sol-updown-15m-1765450800';
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = runCliInProcess;

beforeAll(async () => {
  if (!POLYMARKET_SAMPLE_PRESENT) return;
  const imported = await cli(['import', 'polymarket', '--books', `${stem}-up-books.json`, '--trades', `${stem}-up-trades.json`, '--books-other', `${stem}-down-books.json`, '--trades-other', `${stem}-down-trades.json`, '--market', 'sol-updown-15m-1765450800', '--title', TITLE, '--out', stream]);
  expect(imported.code).toBe(EXIT_OK);
});

/** A one-market stream header of a test recording. */
function testHeader(slug: string, createdAtMs: number, tickTicks: number): ReplayHeader {
  return { kind: 'header', format: REPLAY_FORMAT, version: REPLAY_VERSION, venue: { name: 'test', baseUrl: null }, source: { tool: 'test', version: '0' }, units: REPLAY_UNITS, markets: [{ slug, yesTokenId: null, noTokenId: null, tickTicks }], createdAtMs, part: 0 };
}

/** No raw field name and no number with more than 4 decimals (prices and per-fill markouts have 4; money has 2). */
function expectPeopleUnits(json: string): void {
  expect(json).not.toMatch(/Raw"|Ticks"|(?<!latency)Ms"/);
  expect(json).not.toMatch(/[:,[]-?\d+\.\d{5,}[,\]}]/);
}

/**
 * Runs the page's own chart script (the last <script>) against a stand-in uPlot and DOM: every chart it draws, with
 * its title and its data columns.
 */
function drawPage(html: string): { charts: { title: string; data: unknown[][] }[]; rendered: unknown } {
  const script = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].at(-1)?.[1] ?? '';
  const charts: { title: string; data: unknown[][] }[] = [];
  const body = { dataset: {} as Record<string, string> };
  class UPlot {
    constructor(opts: { title: string }, data: unknown[][]) {
      charts.push({ title: opts.title, data });
    }
  }
  runInNewContext(script, { uPlot: UPlot, window: { innerWidth: 1200 }, document: { getElementById: (id: string) => ({ id }), body } });
  return { charts, rendered: body.dataset.rendered };
}

/** Shares at 2 decimals: a fill's size in report.json is within half a hundredth of the exact one. */
const ROUNDING_RAW = 5_000;

function checkFillInvariants(report: Pick<PeopleReport, 'markets'>, latencyMs: number): void {
  const recorded = readReplay(stream);
  const t0 = recorded.events[0]?.t ?? 0;
  const trades = recorded.events.flatMap((e) => (e.kind === 'trade' ? [e] : []));
  const books = recorded.events.flatMap((e) => (e.kind === 'book' ? [e] : []));
  const makerByTime = new Map<number, number>();
  for (const fill of report.markets.flatMap((m) => m.fills)) {
    expect(fill.t * 1000).toBeGreaterThanOrEqual(latencyMs);
    const atMs = Math.round(t0 + fill.t * 1000);
    const ticks = Math.round(fill.price * 1000);
    if (fill.liquidity === 'maker') {
      const trade = trades.find((tr) => tr.t === atMs);
      expect(trade, `a recorded trade at ${atMs} for the maker fill`).toBeDefined();
      if (trade === undefined) continue;
      // the taker hit the other side, at or through our price
      expect(fill.side).toBe(trade.takerSide === 'BUY' ? 'SELL' : 'BUY');
      if (fill.side === 'BUY') expect(ticks).toBeGreaterThanOrEqual(trade.priceTicks);
      else expect(ticks).toBeLessThanOrEqual(trade.priceTicks);
      makerByTime.set(atMs, (makerByTime.get(atMs) ?? 0) + Math.round(fill.size * 1e6) - ROUNDING_RAW);
      expect(makerByTime.get(atMs)).toBeLessThanOrEqual(trades.filter((tr) => tr.t === atMs).reduce((s, tr) => s + tr.sizeRaw, 0));
    } else {
      const book = [...books].reverse().find((b) => b.t <= atMs);
      const levels = fill.side === 'BUY' ? book?.asks : book?.bids;
      expect(levels?.some(([price]) => price === ticks)).toBe(true);
    }
  }
}

describe.skipIf(!POLYMARKET_SAMPLE_PRESENT)(samplesTitle('backtest --replay (the Polymarket sample)'), () => {
  it.each(['fixed-spread', 'avellaneda-stoikov', 'liquidity-rewards'])('%s replays; every fill obeys the invariants', async (strategy) => {
    // liquidity-rewards.yaml selects rewardable markets only: the imported market (no rewards) is named with --market.
    const named = strategy === 'liquidity-rewards' ? ['--market', SLUG] : [];
    const run = await cli(['backtest', '--replay', stream, '--config', join(ROOT, `config/${strategy}.yaml`), '--latency-ms', '80', '--json', ...named]);
    expect(run.err).toBe('');
    expect(run.code).toBe(EXIT_OK);
    // What a person reads: shares, USDC, seconds, percent; no raw unit anywhere.
    expectPeopleUnits(run.out);
    const figures = JSON.parse(run.out) as PeopleFigures;
    expect(figures.market).toBe(TITLE);
    expect(figures.durationSec).toBeGreaterThan(340);
    expect(figures.timeCarriedForwardSec).toBeGreaterThan(0);
    expect(figures.fillRatioPct).toBeGreaterThanOrEqual(0);
    expect(figures.fillRatioPct).toBeLessThanOrEqual(100);
    expect(figures.queueModelNote).toMatch(/^queue models/);
    const out = join(dir, strategy);
    const full = await cli(['backtest', '--replay', stream, '--config', join(ROOT, `config/${strategy}.yaml`), '--latency-ms', '80', '--out', out, ...named]);
    expect(full.code).toBe(EXIT_OK);
    const written = readFileSync(join(out, 'report.json'), 'utf8');
    expectPeopleUnits(written);
    const report = JSON.parse(written) as PeopleReport;
    expect(report.figures).toEqual(figures); // deterministic
    expect(report.markets[0]?.fills.length).toBe(figures.fills);
    checkFillInvariants(report, 80);
    if (strategy === 'liquidity-rewards') {
      // Without --market its own selection matches nothing in this stream: said plainly, exit 2, no table.
      const refused = await cli(['backtest', '--replay', stream, '--config', join(ROOT, `config/${strategy}.yaml`)]);
      expect(refused.code).toBe(2);
      expect(refused.out).toBe('');
      expect(refused.err).toContain('joined none of the 1 markets of the stream: 1× not rewardable (markets.select.rewardableOnly)');
    }
  });

  it('fixed-spread fills on the sample, the report page is self-contained, and a sweep prints one row per combination', async () => {
    const out = join(dir, 'page');
    const run = await cli(['backtest', '--replay', stream, '--config', join(ROOT, 'config/paper.yaml'), '--out', out]);
    expect(run.code).toBe(EXIT_OK);
    expect(run.out).toMatch(/fills \(maker\)\s+[1-9]\d* \(/);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('uPlot');
    expect(html).toMatch(/<p id="queue-note">queue models: conservative and probabilistic fill the same on this recording: [^<]+<\/p>/);
    expect(html).toMatch(/<th>realized PnL \(USDC\)<\/th><td>-?\d+\.\d{2}<\/td>/);
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<link[^>]+href=/);
    // the page's charts draw from the people's report it embeds (seconds, prices, USDC)
    const page = drawPage(html);
    expect(page.rendered).toBe('yes');
    expect(page.charts).toHaveLength(5);
    for (const chart of page.charts) for (const column of chart.data) expect(column.length).toBe(chart.data[0]?.length);
    expect(page.charts.find((c) => c.title.startsWith('Mean markout'))?.data[0]).toEqual([1, 10, 60, 300]);
    // the table in people's units, ending with the queue models' line
    expect(run.out).toMatch(/^volume \(shares\)\s+\d+\.\d{2}$/m);
    expect(run.out.trim().split('\n').at(-1)).toMatch(/^queue models: conservative and probabilistic fill the same on this recording: /);

    const sweep = await cli(['backtest', '--replay', stream, '--config', join(ROOT, 'config/paper.yaml'), '--sweep', 'bidSpread=0.01,0.02', '--sweep', 'queueModel=conservative,probabilistic']);
    expect(sweep.code).toBe(EXIT_OK);
    const lines = sweep.out.trim().split('\n');
    const notes = lines.filter((line) => line.startsWith('queue models'));
    expect(lines.length - notes.length).toBe(5);
    expect(notes.length).toBeGreaterThanOrEqual(1);
    expect(lines[0]).toMatch(/bidSpread\s+queueModel\s+total PnL \$\s+trading \$\s+rewards \$\s+rebates \$\s+fills\s+volume sh/);
    expect(lines[0]).toMatch(/q-canceled sh$/);
    for (const row of lines.slice(1, 5)) expect(row).not.toMatch(/\d\.\d{5}/);

    const bad = await cli(['backtest', '--replay', stream, '--config', join(ROOT, 'config/paper.yaml'), '--sweep', 'bidSpread=-1']);
    expect(bad.code).not.toBe(EXIT_OK);
    expect(bad.err).toContain('bidSpread');
  });

  it('the queue models: the sample says why they fill the same; a recording where a queue ahead is canceled and a trade then reaches the order fills differently, and says so', async () => {
    const same = await cli(['backtest', '--replay', stream, '--config', join(ROOT, 'config/paper.yaml'), '--sweep', 'queueModel=conservative,probabilistic']);
    expect(same.code).toBe(EXIT_OK);
    expect(same.out).toMatch(/^queue models: conservative and probabilistic fill the same on this recording: .+/m);

    // fixed-spread (config/paper.yaml) bids 0.49 on a 0.49/0.51 book: it joins behind 100 recorded shares at 0.49.
    // Others join behind it (200), then 50 are canceled (150, no trade): the probabilistic model takes 25 of them from
    // ahead of the bot (100 × 50 / 200), the conservative none. A 90-share sell print at 0.49 then fills the bot
    // (ahead 75 < 90) under the probabilistic model only.
    const t0 = Date.UTC(2026, 10, 24);
    const sh = 1_000_000;
    const book = (t: number, bidSize: number): ReplayEvent => ({ kind: 'book', t, venueTs: null, market: 'q', bids: [[490, bidSize * sh], [470, 100 * sh]], asks: [[510, 100 * sh], [530, 100 * sh]] });
    const events: ReplayEvent[] = [
      book(t0, 100),
      book(t0 + 10_000, 200),
      book(t0 + 20_000, 150),
      { kind: 'trade', t: t0 + 30_000, venueTs: t0 + 30_000, market: 'q', priceTicks: 490, sizeRaw: 90 * sh, takerSide: 'SELL', id: 'p1' },
      book(t0 + 40_000, 60),
    ];
    const queued = join(dir, 'queued.ndjson.gz');
    writeFileSync(queued, gzipSync(headerLine(testHeader('q', t0, 10)) + events.map(eventLine).join('')));
    const sweep = await cli(['backtest', '--replay', queued, '--config', join(ROOT, 'config/paper.yaml'), '--sweep', 'queueModel=conservative,probabilistic', '--json']);
    expect(sweep.err).toBe('');
    expectPeopleUnits(sweep.out);
    const runs = JSON.parse(sweep.out) as { params: Record<string, string>; figures: PeopleFigures }[];
    const [conservative, probabilistic] = runs.map((r) => r.figures);
    // Behind a recorded queue: the bid at 0.49 and the second level's at 0.47 (100 shares ahead of each).
    expect(conservative?.queue).toMatchObject({ ordersBehindQueue: 2, aheadOnArrivalShares: 200, canceledAheadShares: 25, tradesReachingMovedOrders: 1 });
    expect(conservative?.makerFills).toBe(0);
    expect(probabilistic?.makerFills).toBe(1);
    expect(probabilistic?.volumeShares).toBe(10);
    expect(probabilistic?.queueModelNote).toMatch(/^queue models can differ here: 1 recorded trade reached orders with 25\.00 shares canceled ahead of them/);
    const table = await cli(['backtest', '--replay', queued, '--config', join(ROOT, 'config/paper.yaml'), '--queue-model', 'probabilistic']);
    expect(table.out).toMatch(/^canceled ahead of resting orders \(shares\)\s+25\.00$/m);
    expect(table.out).toMatch(/^orders rested \(behind a recorded queue\)\s+\d+ \(2, 200\.00 shares ahead\)$/m);
    expect(table.out.trim().split('\n').at(-1)).toMatch(/^queue models can differ here/);
    const compare = await cli(['backtest', '--replay', queued, '--config', join(ROOT, 'config/paper.yaml'), '--compare', join(ROOT, 'config/fixed-spread.yaml'), '--queue-model', 'probabilistic']);
    expect(compare.out).toMatch(/config\/paper\.yaml: queue models can differ here/);
  });

  it('a crossed recorded book is counted, not quoted on; trades play at their own time even when written later', async () => {
    const config = loadConfigFile(join(ROOT, 'config/paper.yaml'));
    const check = await validateStrategy(config);
    if (!check.ok) throw new Error('config/paper.yaml');
    const t0 = Date.UTC(2026, 10, 24);
    const book = (t: number, bid: number, ask: number): ReplayEvent => ({ kind: 'book', t, venueTs: null, market: 'x', bids: [[bid, 100_000_000]], asks: [[ask, 100_000_000]] });
    const events: ReplayEvent[] = [
      book(t0, 480, 520),
      book(t0 + 10_000, 530, 510), // crossed
      book(t0 + 20_000, 480, 520),
      // written at 40 s by a recorder that read it late, but it happened at 30 s
      book(t0 + 40_000, 480, 520),
      { kind: 'trade', t: t0 + 30_000, venueTs: t0 + 30_000, market: 'x', priceTicks: 450, sizeRaw: 500_000_000, takerSide: 'SELL', id: null },
    ];
    const report = await runReplayBacktest({
      config,
      strategy: check.module.create(check.params),
      header: testHeader('x', t0, 1),
      events,
      latencyMs: 50,
      queueModel: 'conservative',
      feeRateBps: 0,
    });
    expect(report.figures.unusableBooks).toBe(1);
    expect(report.figures.durationMs).toBe(40_000);
    // the sell print at 450 went through the bot's bids (below 480, above 450): they filled at 30 s, not at 40 s
    const fills = report.markets[0]?.fills ?? [];
    expect(fills.filter((f) => f.side === 'BUY').map((f) => f.t)).not.toHaveLength(0);
    expect(fills.every((f) => f.t === 30)).toBe(true);
  });

  it('priced from the sample\'s underlying with the reward settings of the import: fair value, markouts, rewards and total PnL in the report; --compare prints one row per config', async () => {
    const priced = join(dir, 'sol-priced.ndjson.gz');
    const imported = await cli([
      'import', 'polymarket', '--books', `${stem}-up-books.json`, '--trades', `${stem}-up-trades.json`, '--books-other', `${stem}-down-books.json`, '--trades-other', `${stem}-down-trades.json`,
      '--market', 'sol-updown-15m-1765450800', '--title', TITLE, '--ticker', 'SOL', '--strike', '130.805', '--settles', '2025-12-11T11:15:00Z',
      '--reward-min-size', '50', '--reward-max-spread', '0.045', '--reward-daily', '100', '--asset-price-ticker', 'SOL', '--out', priced,
    ]);
    expect(imported.err).toBe('');
    const out = join(dir, 'priced-report');
    const run = await cli(['backtest', '--replay', priced, '--config', join(ROOT, 'config/liquidity-rewards.yaml'), '--out', out]);
    expect(run.err).toBe('');
    expect(run.code).toBe(EXIT_OK);
    expect(run.out.split('\n')[0]).toMatch(new RegExp(`^${TITLE}: total PnL -?\\d+\\.\\d{2} USDC = trading -?\\d+\\.\\d{2} \\(realized -?\\d+\\.\\d{2} \\+ unrealized -?\\d+\\.\\d{2} − fees \\d+\\.\\d{2}\\) \\+ rewards \\d+\\.\\d{2} \\+ rebates est\\. (\\d+\\.\\d{2}|—) \\| \\d+ fills \\| volume \\d+\\.\\d{2} shares \\| max inventory \\d+\\.\\d{2} shares \\| mean 10 s markout (-?\\d+\\.\\d{4}|—) USDC$`));
    const written = readFileSync(join(out, 'report.json'), 'utf8');
    expectPeopleUnits(written);
    const report = JSON.parse(written) as PeopleReport;
    const f = report.figures;
    expect(f.market).toBe(TITLE);
    expect(f.fills).toBeGreaterThan(0);
    expect(f.rewardsUsdc).toBeGreaterThan(0); // the reward settings of the import reach the strategy and the scoring
    // each part at cents: the total is their sum within the parts' rounding
    expect(Math.abs(f.totalPnlUsdc - (f.realizedPnlUsdc + f.unrealizedPnlUsdc - f.feesUsdc + f.rewardsUsdc + (f.rebatesUsdc ?? 0)))).toBeLessThanOrEqual(0.025);
    expect(Math.abs(f.tradingPnlUsdc - (f.realizedPnlUsdc + f.unrealizedPnlUsdc - f.feesUsdc))).toBeLessThanOrEqual(0.015);
    expect(Math.abs(f.spreadCapturedUsdc + f.adverseSelectionUsdc - (f.realizedPnlUsdc + f.unrealizedPnlUsdc))).toBeLessThanOrEqual(0.025);
    expect(f.timeFromModelPct).toBeGreaterThan(0);
    expect(f.underlyingPrices).toBeGreaterThan(40);
    expect(f.markouts.map((m) => m.horizonSec)).toEqual([1, 10, 60, 300]);
    expect(f.markouts[1]?.fills).toBeGreaterThan(0);
    expect(f.fairMarkouts?.[1]?.fills).toBeGreaterThan(0);
    const series = report.markets[0]?.series;
    expect(report.markets[0]?.ticker).toBe('SOL');
    expect(series?.fair.some((v) => v !== null && v > 0 && v < 1)).toBe(true);
    expect(series?.underlying.some((v) => v !== null && v > 100)).toBe(true);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<p id="headline" class="headline">Solana Up or Down');
    expect(html).toContain('model fair value');
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toContain('polymarket-sol-updown-15m'); // named from its data, never after a file

    const configs = ['fixed-spread', 'avellaneda-stoikov', 'liquidity-rewards'].map((name) => join(ROOT, `config/${name}.yaml`));
    const compare = await cli(['backtest', '--replay', priced, '--config', configs[0] ?? '', '--compare', configs[1] ?? '', '--compare', configs[2] ?? '']);
    expect(compare.err).toBe('');
    const lines = compare.out.trim().split('\n');
    expect(lines).toHaveLength(7); // the header, a row per config, then each config's queue models' line
    expect(lines[0]).toMatch(/config\s+total PnL \(USDC\)\s+trading\s+rewards\s+rebates est\.\s+fills\s+markout 1 s\s+markout 10 s\s+markout 60 s\s+against\s+max \|inv\| \(shares\)\s+time quoted\s+q-canceled sh/);
    configs.forEach((config, i) => expect(lines[i + 1]?.trim().startsWith(config)).toBe(true));
    configs.forEach((config, i) => expect(lines[i + 4]?.startsWith(`${config}: queue models`)).toBe(true));
    expect(lines[3]).toContain(` ${f.totalPnlUsdc.toFixed(2)} `); // the same run as alone
    for (const line of lines.slice(1, 4)) {
      expect(line).toMatch(/ model /);
      expect(line).not.toMatch(/\d\.\d{5}/);
    }
    const compareJson = await cli(['backtest', '--replay', priced, '--config', configs[0] ?? '', '--compare', configs[2] ?? '', '--json']);
    expectPeopleUnits(compareJson.out);
    const compared = JSON.parse(compareJson.out) as { config: string; figures: PeopleFigures }[];
    expect(compared[1]?.figures).toEqual(f);
  });

  it('several markets of one stream replay together under one bot', async () => {
    const config = loadConfigFile(join(ROOT, 'config/paper.yaml'));
    const check = await validateStrategy(config);
    if (!check.ok) throw new Error('config/paper.yaml');
    const recorded = readReplay(stream);
    const slug = recorded.header.markets[0]?.slug ?? '';
    const copy = (market: string): ReplayEvent[] => recorded.events.map((e) => ('market' in e && e.market === slug ? { ...e, market } : e));
    const events = [...copy('a'), ...copy('b')].sort((x, y) => x.t - y.t);
    const options = {
      config,
      header: { ...recorded.header, markets: [{ slug: 'a', yesTokenId: null, noTokenId: null, tickTicks: 10, title: 'Market A' }, { slug: 'b', yesTokenId: null, noTokenId: null, tickTicks: 10 }] },
      events,
      latencyMs: 50,
      queueModel: 'conservative' as const,
      feeRateBps: 0,
    };
    // Maker rebates at the config's fallback rate (the recording carries none): beside trading PnL, in the total.
    const withRebates = { ...config, rewards: { ...config.rewards, rebateRateFallback: 0.25 } };
    const both = await runReplayBacktest({ ...options, config: withRebates, strategy: check.module.create(check.params) });
    for (const m of both.markets) {
      expect(m.figures.makerFills).toBeGreaterThan(0);
      expect(m.figures.rebatesRaw).toBeGreaterThan(0);
      expect(m.figures.rebateRate).toBe(0.25);
      const trading = (m.figures.realizedPnlRaw + m.figures.unrealizedPnlRaw - m.figures.feesRaw) / 1e6;
      expect(m.figures.totalPnlUsdc).toBeCloseTo(trading + m.figures.rewardsUsdc + m.figures.rebatesRaw / 1e6, 9);
    }
    expect(both.figures.rebatesRaw).toBe(both.markets.reduce((n, m) => n + m.figures.rebatesRaw, 0));
    expect(formatTable(both)).toMatch(/maker rebates est\. \(USDC\)\s+\d+\.\d{2} \(rate 0\.25\)/);
    expect(both.markets.map((m) => m.figures.market)).toEqual(['Market A', 'b']);
    expect(both.figures.market).toBe('2 markets');
    for (const m of both.markets) expect(m.figures.fills).toBeGreaterThan(0);
    expect(both.figures.fills).toBe(both.markets.reduce((n, m) => n + m.figures.fills, 0));
    expect(both.figures.totalPnlUsdc).toBeCloseTo(both.markets.reduce((n, m) => n + m.figures.totalPnlUsdc, 0), 9);
    // each market has its own queue (its own matcher); the total sums them
    for (const m of both.markets) expect(m.figures.queue.restingOrders).toBeGreaterThan(0);
    expect(both.figures.queue.restingOrders).toBe(both.markets.reduce((n, m) => n + m.figures.queue.restingOrders, 0));
    const page = formatTable(both);
    for (const m of both.markets) expect(page).toContain(`${headline(m.figures)}\n${queueModelNote(m.figures.queue)}\n`);
    // one bot, one rate limit: the two markets share the request budget the single one had alone
    const alone = await runReplayBacktest({ ...options, market: 'a', strategy: check.module.create(check.params) });
    expect(alone.markets).toHaveLength(1);
    // No rate known (paper.yaml sets no fallback): no estimate, and the report says so rather than 0.
    expect(alone.figures.rebatesRaw).toBe(0);
    expect(alone.figures.rebateRate).toBeNull();
    expect(headline(alone.figures)).toContain('+ rebates est. — |');
    expect(both.figures.requests).toBeGreaterThan(alone.figures.requests);
  });
});
