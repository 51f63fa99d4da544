/**
 * A replay of a stream that lists markets over time (format version 3), through `runReplayBacktest`, on the project's
 * own recording (examples/sim-btc-ladder/): one of its four markets made to join at a `listed` event two minutes in
 * and to settle so that its stop before settlement falls a minute before the end. It is joined at its listing (no
 * quote of it before), traded, and left at its stop (no quote of it after); a recorded resolution of a listed market
 * leaves it too. The recording as it is (version 2) replays exactly as before this change (its figures pinned). A market
 * is joined as the daemon joins one: at the listing poll or EVALUATE_SOON_MS after its listing (src/markets/market-discovery.ts).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile, validateStrategy } from '../../../src/config/index.js';
import type { ReplayEvent, ReplayMarket } from '../../../src/replay/format.js';
import { readReplay } from '../../../src/replay/reader.js';
import { runReplayBacktest, type ReplayBacktestOptions } from '../../../src/replay/replay-backtest.js';
import { pooledTimeWeightedInventoryRaw } from '../../../src/replay/replay-totals.js';
import { LEAVE_AFTER_STOP_MS } from '../../../src/backtest/market-roll.js';
import { formatTable, peopleReport, renderHtml, type MarketReplay } from '../../../src/replay/report.js';
import { EVALUATE_SOON_MS } from '../../../src/markets/market-discovery.js';
import { hangBound } from '../../support/hang-bound.js';

const ROOT = join(import.meta.dirname, '../../..');
const recorded = readReplay(join(ROOT, 'examples/sim-btc-ladder/recording.ndjson.gz'));

/** Every market of the stream (the selection of these tests: fixed-spread.yaml's own `top: 3` would leave one out). */
const fixedSpread = loadConfigFile(join(ROOT, 'config/fixed-spread.yaml'));
const config = { ...fixedSpread, markets: { ...fixedSpread.markets, select: null } };
/** The example's markets are priced: they stop at the pricing stop. */
const stopMs = config.pricing.pricer.stopBeforeSettlementMs;

/** The volatility surface off: realized variance only (the intraday profile kept), no realized–implied gap in the uncertainty. */
const realizedOnly = { ...config, pricing: { ...config.pricing, pricer: { ...config.pricing.pricer, surface: { ...config.pricing.pricer.surface, impliedWeight: 0, gapWeight: 0 } } } };

async function replay(header: ReplayBacktestOptions['header'], events: readonly ReplayEvent[], pricing: 'surface' | 'realized-only' = 'surface') {
  const check = await validateStrategy(config);
  if (!check.ok) throw new Error('config/fixed-spread.yaml');
  const report = await runReplayBacktest({ config: pricing === 'surface' ? config : realizedOnly, strategy: check.module.create(check.params), header, events, latencyMs: 50, queueModel: 'conservative', feeRateBps: 0 });
  return { report };
}

/** Seconds from the replay's start at which the market had an order of ours resting (bid or ask in the series). */
function quotedAt(market: MarketReplay): number[] {
  return market.series.t.filter((_, i) => market.series.bid[i] !== null || market.series.ask[i] !== null);
}

const startMs = Math.min(...recorded.events.flatMap((e) => (e.kind === 'underlying' ? [] : [e.t])));
const endMs = Math.max(...recorded.events.flatMap((e) => (e.kind === 'book' || e.kind === 'trade' ? [e.t] : [])));

/** The recording with its last market listed at `listAtMs` (its events before dropped) and settling at `expiresAtMs`. */
function listedLate(listAtMs: number, expiresAtMs: number): { header: ReplayBacktestOptions['header']; events: ReplayEvent[]; late: ReplayMarket } {
  const markets = recorded.header.markets;
  const last = markets.at(-1);
  if (last === undefined) throw new Error('the example has no market');
  const late: ReplayMarket = { ...last, expiresAtMs };
  const events: ReplayEvent[] = [
    ...recorded.events.filter((e) => !('market' in e) || e.market !== late.slug || e.t >= listAtMs),
    { kind: 'listed', t: listAtMs, entry: late },
  ];
  return { header: { ...recorded.header, version: 3, markets: markets.slice(0, -1) }, events, late };
}

describe('backtest --replay of markets listed over time', () => {
  it('joins a market at its listing, trades it, and leaves it at its stop before settlement', async () => {
    const listAtMs = startMs + 120_000;
    const leaveAtMs = endMs - 60_000;
    const { header, events, late } = listedLate(listAtMs, leaveAtMs - LEAVE_AFTER_STOP_MS + stopMs);
    const { report } = await replay(header, events);
    expect(report.markets.map((m) => m.slug)).toEqual(recorded.header.markets.map((m) => m.slug));
    const market = report.markets.find((m) => m.slug === late.slug);
    if (market === undefined) throw new Error('the late market is not in the report');
    expect(market.joinedAtMs).toBeGreaterThanOrEqual(listAtMs);
    expect(market.joinedAtMs).toBeLessThanOrEqual(listAtMs + EVALUATE_SOON_MS);
    expect(market.leftAtMs).toBe(leaveAtMs);
    // nothing of it before its listing, quoted while listed, nothing after it was left
    const quoted = quotedAt(market);
    expect(quoted.length).toBeGreaterThan(0);
    expect(Math.min(...quoted)).toBeGreaterThanOrEqual((listAtMs - startMs) / 1000);
    // its orders canceled at its stop (the gate's halt; cancels start before every queued placement): none rests
    // past its leave a second after the stop, though it is still sampled
    expect(Math.max(...quoted)).toBeLessThanOrEqual((leaveAtMs - startMs) / 1000);
    expect(Math.max(...market.series.t)).toBeGreaterThan((leaveAtMs - startMs) / 1000 + 30);
    expect(market.fills.length).toBeGreaterThan(0);
    for (const fill of market.fills) {
      expect(fill.t).toBeGreaterThanOrEqual((listAtMs - startMs) / 1000);
      expect(fill.t).toBeLessThanOrEqual((leaveAtMs - startMs) / 1000);
    }
    expect(market.figures.marketTimeMs).toBe(leaveAtMs - market.joinedAtMs);
    // the markets there from the start are quoted from the start, to the end
    for (const m of report.markets.filter((x) => x.slug !== late.slug)) {
      expect(m.joinedAtMs).toBe(startMs);
      expect(m.leftAtMs).toBeNull();
    }
  }, hangBound(60_000));

  it('a listed market is left at its recorded resolution; a market listed after its stop is never joined', async () => {
    const listAtMs = startMs + 60_000;
    const resolvedAtMs = startMs + 180_000;
    const { header, events, late } = listedLate(listAtMs, endMs + 86_400_000);
    const resolved: ReplayEvent = { kind: 'resolved', t: resolvedAtMs, market: late.slug, winner: 'YES' };
    const { report } = await replay(header, [...events, resolved]);
    const market = report.markets.find((m) => m.slug === late.slug);
    expect(market?.joinedAtMs).toBeGreaterThanOrEqual(listAtMs);
    expect(market?.joinedAtMs).toBeLessThanOrEqual(listAtMs + EVALUATE_SOON_MS);
    expect(market?.leftAtMs).toBe(resolvedAtMs);

    const tooLate = listedLate(listAtMs, listAtMs + 1000); // its stop before settlement is before its listing
    const { report: without } = await replay(tooLate.header, tooLate.events);
    expect(without.markets.map((m) => m.slug)).not.toContain(late.slug);
    expect(without.markets).toHaveLength(3);
  }, hangBound(60_000));

  it('the recording as it is (version 2, every market from the start) replays as before, the same with the surface on or off', async () => {
    // config/fixed-spread.yaml quotes around the book (referencePrice [mid, adjustedMidpoint]): under the default
    // readModel 'realized' its guard reads the model without the volatility surface, so the surface cannot change a
    // figure of it (docs/pricing.md, "What reaches a book-referenced strategy"). 215 fills and 62.72 USDC until
    // issue 41, pinned then with a flat intraday clock.
    const { report } = await replay(recorded.header, recorded.events, 'realized-only');
    const { report: surface } = await replay(recorded.header, recorded.events, 'surface');
    expect(report.figures.fills).toBe(238);
    expect(report.figures.makerFills).toBe(238);
    expect(report.figures.totalPnlUsdc).toBeCloseTo(73.36, 2);
    expect(report.figures.durationMs).toBe(360_047);
    for (const m of report.markets) expect([m.joinedAtMs, m.leftAtMs]).toEqual([startMs, null]);
    // Surface on or off: the same fills, PnL, requests and markouts against the recorded mid, market by market.
    const figures = (r: typeof report) => r.markets.map((m) => ({ fills: m.fills, pnl: m.figures.totalPnlUsdc, requests: m.figures.requests, markouts: m.figures.markouts }));
    expect(figures(surface)).toEqual(figures(report));
    expect(surface.figures.requests).toBe(report.figures.requests);
    // …while the surface was at work: the fair value with it differs from the realized-only one at the fills, and the
    // report says so (a new section of the table, report.json and the page), with the expiries' implied weights.
    expect(report.surface ?? null).toBeNull();
    const contribution = surface.surface;
    if (contribution == null) throw new Error('no surface section with the surface on');
    expect(contribution.total.fills).toBe(238);
    expect(contribution.total.meanAbsFairDiff).toBeGreaterThan(0.001);
    expect(contribution.total.markoutsWith.find((m) => m.horizonMs === 10_000)?.meanUsdc).not.toBe(contribution.total.markoutsWithout.find((m) => m.horizonMs === 10_000)?.meanUsdc);
    expect(contribution.expiries.length).toBeGreaterThan(0);
    expect(contribution.expiries.some((e) => e.maxWeight > 0)).toBe(true);
    expect(formatTable(surface)).toContain('volatility surface: the fair value with it');
    expect(formatTable(report)).not.toContain('volatility surface');
    expect(peopleReport(surface).surface).toMatchObject({ total: { fills: 238 } });
    expect(renderHtml(surface, { js: '', css: '' })).toContain('<table id="surface">');
    // Several markets: the time-weighted |inventory| is a market's mean (weighted by market time), never above the max.
    expect(report.markets.length).toBeGreaterThan(1);
    expect(report.figures.timeWeightedInventoryRaw).toBeLessThanOrEqual(report.figures.maxInventoryRaw);
    for (const m of report.markets) expect(m.figures.timeWeightedInventoryRaw).toBeLessThanOrEqual(m.figures.maxInventoryRaw);
    expect(report.figures.timeWeightedInventoryRaw).toBeCloseTo(pooledTimeWeightedInventoryRaw(report.markets.map((m) => m.figures)), 6);
  }, hangBound(60_000));
});
