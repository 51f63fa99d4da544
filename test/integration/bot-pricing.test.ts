/**
 * The whole bot pricing crypto strike markets from their underlying, against the simulator's crypto world: it
 * quotes around the model's fair value (not the book), publishes the model's figures, refuses bad oracle prices
 * (counted, never priced), pulls its quotes when the underlying's price goes stale, and checks each resolution against
 * the price it held.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CRYPTO_MARKETS, DEFAULT_UNDERLYINGS, type SimMarket } from '../../src/sim/engine/index.js';
import {
  cleanupAfterTest,
  gaugeValue,
  liveOrders,
  startHarnessSim,
  liveEnv,
  startBot,
  startLiveBot,
  testConfig,
  thirdPartyPlace,
  waitFor,
  when,
  yesTerms,
  type RunningBot,
} from '../support/bot-harness.js';
import type { RunningSimulator } from '../../src/sim/index.js';

/** A daily expiry 12 hours from now, whatever the time of day: nothing settles during the test. */
const dailyHour = (new Date().getUTCHours() + 12) % 24;

async function cryptoSim(): Promise<RunningSimulator> {
  return startHarnessSim({
    markets: [],
    synthetic: { makers: { enabled: true }, noise: { ratePerMinute: 0 }, informed: { ratePerMinute: 0 } },
    extra: {
      world: {
        underlying: { underlyings: DEFAULT_UNDERLYINGS.filter((u) => u.ticker === 'BTC'), leadMs: 500, makerLagMs: 0 },
        markets: { ...DEFAULT_CRYPTO_MARKETS, cadences: ['daily'], strikesPerExpiry: 2, dailyHourUtc: dailyHour, recurring: false },
      },
    },
  });
}

async function counter(running: RunningBot, name: string, labels: Record<string, string>): Promise<number> {
  return (await gaugeValue(running.bot, name, labels)) ?? 0;
}

describe('bot pricing from the underlying (simulator crypto world)', () => {
  it('quotes around the model fair value, refuses bad oracle prices, and pulls quotes when the price goes stale', async ({ onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const sim = await cryptoSim();
    cleanup.add(() => sim.close());
    const markets = sim.engine.markets().filter((m): m is SimMarket & { oracle: NonNullable<SimMarket['oracle']> } => m.oracle !== undefined);
    expect(markets).toHaveLength(2);
    const slugs = markets.map((m) => m.slug);
    const running = await startLiveBot(sim, cleanup, {
      markets: slugs,
      strategy: { bidSpread: 0.005, askSpread: 0.005 },
      pricing: { staleSec: 3, guard: { enabled: false } },
    });

    // Each market: the log says it is priced from the model, with the rule it read.
    for (const slug of slugs) expect(running.logs.some((l) => l.includes(`pricing ${slug} from the model: BTC > `) && l.includes('pyth-candle-open-1m'))).toBe(true);

    // Quotes straddle the model's fair value (published as a metric), for both strikes; the lower strike is worth more.
    const fairs: number[] = [];
    for (const slug of slugs) {
      // The fair value moves with the underlying while we read (and a loaded machine can hold the requote back a
      // moment): poll for a reading where the quotes' centre is within a few ticks of the fair value.
      let last: { fair?: number; bid?: number; ask?: number } = {};
      const { fair, bid, ask } = await waitFor(async () => {
        const orders = liveOrders(sim, slug, 'it').map((o) => yesTerms(o.order));
        const f = await gaugeValue(running.bot, 'outcome_maker_model_fair', { market: slug });
        const bids = orders.filter((o) => o.side === 'bid').map((o) => o.ticks);
        const asks = orders.filter((o) => o.side === 'ask').map((o) => o.ticks);
        if (f === undefined || bids.length === 0 || asks.length === 0) return undefined;
        const reading = { fair: f, bid: Math.max(...bids), ask: Math.min(...asks) };
        last = reading;
        return Math.abs((reading.bid + reading.ask) / 2 - f * 1000) < 6 ? reading : undefined;
      }, 20_000, `two-sided quotes around the model fair value in ${slug}`, () => last);
      expect(bid).toBeLessThan(ask);
      expect(Math.abs((bid + ask) / 2 - fair * 1000)).toBeLessThan(6);
      expect(await gaugeValue(running.bot, 'outcome_maker_quoted_from', { market: slug, source: 'model' })).toBe(1);
      fairs.push(fair);
    }
    const strikes = markets.map((m) => Number(m.oracle.strike));
    expect(Math.sign(strikes[1]! - strikes[0]!)).toBe(-Math.sign(fairs[1]! - fairs[0]!));
    expect(await counter(running, 'outcome_maker_underlying_updates_total', { ticker: 'BTC', source: 'venue' })).toBeGreaterThan(0);

    // Bad oracle input: refused and counted, never priced.
    const slug = slugs[0]!;
    const now = Date.now();
    const before = { nonPositive: await counter(running, 'outcome_maker_underlying_refusals_total', { source: 'venue', reason: 'non-positive' }), future: await counter(running, 'outcome_maker_underlying_refusals_total', { source: 'venue', reason: 'future-dated' }) };
    expect(sim.control.injectFrame({ kind: 'custom', marketSlug: slug, event: 'oraclePriceData', payload: { marketAddress: null, marketSlug: slug, timestamp: now, value: -5 } })).toBe(1);
    expect(sim.control.injectFrame({ kind: 'custom', marketSlug: slug, event: 'oraclePriceData', payload: { marketAddress: null, marketSlug: slug, timestamp: now + 3_600_000, value: 1 } })).toBe(1);
    expect(sim.control.injectFrame({ kind: 'custom', marketSlug: slug, event: 'oraclePriceData', payload: { marketAddress: null, marketSlug: slug, timestamp: now, value: 'NaN' } })).toBe(1);
    await waitFor(async () => when((await counter(running, 'outcome_maker_underlying_refusals_total', { source: 'venue', reason: 'non-positive' })) > before.nonPositive), 5_000, 'the non-positive price refused');
    await waitFor(async () => when((await counter(running, 'outcome_maker_underlying_refusals_total', { source: 'venue', reason: 'future-dated' })) > before.future), 5_000, 'the future-dated price refused');
    await waitFor(async () => when((await counter(running, 'outcome_maker_feed_malformed_frames_total', { event: 'oraclePriceData' })) > 0), 5_000, 'the malformed frame dropped', () => running.logs.filter((l) => l.includes('malformed') || l.includes('refused')).slice(-5));
    const price = await gaugeValue(running.bot, 'outcome_maker_underlying_price', { ticker: 'BTC', source: 'venue' });
    expect(price).toBeGreaterThan(50_000); // the last ACCEPTED price: the bad ones never reached it
    expect(running.logs.some((l) => l.includes('venue price refused: price non-positive'))).toBe(true);

    // The underlying goes stale (the venue stops publishing it): every priced market's quotes are pulled.
    sim.control.freezeFeed('oracle');
    for (const s of slugs) await waitFor(() => when(liveOrders(sim, s, 'it').length === 0), 15_000, `quotes pulled in ${s}`);
    expect(running.logs.some((l) => l.includes('"reason":"underlying-stale"'))).toBe(true);
    expect(await gaugeValue(running.bot, 'outcome_maker_quoted_from', { market: slug, source: 'halted' })).toBe(1);

    // Prices again: quoting resumes.
    sim.control.unfreezeFeed();
    await waitFor(() => when(liveOrders(sim, slug, 'it').length > 0), 20_000, 'quotes back after the price returns');

    // A resolution reaches the settlement check (here long before the instant: no print held there, so no verdict).
    sim.control.resolveMarket(slugs[1]!, { winningOutcomeIndex: 0 });
    await waitFor(async () => when((await counter(running, 'outcome_maker_settlement_checks_total', { result: 'no-price' })) === 1), 10_000, 'the settlement check of the resolved market');
    expect(running.logs.some((l) => l.includes('"msg":"settlement check"') && l.includes(slugs[1]!))).toBe(true);
    const { clean } = await running.stop();
    expect(clean).toBe(true);
  }, 90_000);

  it('caps the exposure to the underlying: past it, only the side that reduces it is quoted', async ({ onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const sim = await cryptoSim();
    cleanup.add(() => sim.close());
    const slug = sim.engine.markets()[0]!.slug;
    const running = await startLiveBot(sim, cleanup, { markets: [slug], strategy: { bidSpread: 0.005, askSpread: 0.005 }, pricing: { maxExposureUsdc: 50, guard: { enabled: false } } });
    const bid = await waitFor(() => liveOrders(sim, slug, 'it').find((o) => yesTerms(o.order).side === 'bid'), 20_000, 'the bot\'s bid');
    // The third party sells YES down to the bot's bid (BUY NO at 1 − bid, sized to take every bid at or above it): the
    // bot now holds 5 YES (≈ 100 USDC of BTC delta).
    const bidTicks = yesTerms(bid.order).ticks;
    const ahead = (sim.engine.book(slug)?.bids ?? []).filter((l) => l.priceTicks >= bidTicks).reduce((sum, l) => sum + l.sizeRaw, 0);
    thirdPartyPlace(sim, slug, { outcome: 'NO', side: 'BUY', priceTicks: 1000 - bidTicks, sizeRaw: ahead, orderType: 'FAK' });
    const exposure = await waitFor(async () => {
      const usdc = await gaugeValue(running.bot, 'outcome_maker_underlying_exposure', { ticker: 'BTC', unit: 'usdc' });
      return usdc !== undefined && usdc > 50 ? usdc : undefined;
    }, 20_000, 'the exposure past the cap', () => ({ fills: sim.engine.accountTrades(sim.demoAccount.profileId).length, orders: liveOrders(sim, slug, 'it').map((o) => yesTerms(o.order)), exposureLines: running.logs.filter((l) => l.includes('fill')).slice(-3) }));
    expect(exposure).toBeLessThan(1_000);
    // Only asks (they sell the exposure back) stay on the book.
    await waitFor(() => {
      const sides = liveOrders(sim, slug, 'it').map((o) => yesTerms(o.order).side);
      return when(sides.length > 0 && sides.every((side) => side === 'ask'));
    }, 20_000, 'asks only');
  }, 60_000);

  it('prices from Pyth Hermes (the simulator\'s stand-in, through the real client) when it is a source, and says when the key is refused', async ({ onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const sim = await cryptoSim();
    cleanup.add(() => sim.close());
    sim.hermes.setApiKey('pyth-test-key');
    const slug = sim.engine.markets()[0]!.slug;
    const config = testConfig({ venue: { kind: 'live', sim }, markets: [slug], strategy: { bidSpread: 0.005, askSpread: 0.005 }, pricing: { staleSec: 3, guard: { enabled: false } } });
    expect(config.pricing.hermes.endpoint).toBe(sim.hermesUrl);
    const running = await startBot(config, { ...liveEnv(sim), PYTH_API_KEY: 'pyth-test-key' }, cleanup);
    await waitFor(async () => when((await counter(running, 'outcome_maker_underlying_updates_total', { ticker: 'BTC', source: 'hermes' })) >= 3), 15_000, 'Hermes prices in the store');
    // The venue's frames stop: Hermes alone keeps the market priced (no stale halt), and quoted.
    sim.control.freezeFeed('oracle');
    const before = await counter(running, 'outcome_maker_underlying_updates_total', { ticker: 'BTC', source: 'hermes' });
    await waitFor(async () => when((await counter(running, 'outcome_maker_underlying_updates_total', { ticker: 'BTC', source: 'hermes' })) >= before + 5), 15_000, 'Hermes prices keep coming');
    expect(running.logs.some((l) => l.includes('"reason":"underlying-stale"'))).toBe(false);
    expect(liveOrders(sim, slug, 'it').length).toBeGreaterThan(0);
    expect(running.logs.some((l) => l.includes('pyth-test-key'))).toBe(false); // the key is never logged

    // A refused key: said plainly (naming the variable, not the key), and the venue's frames carry the pricing.
    await running.stop();
    sim.control.unfreezeFeed();
    sim.hermes.setApiKey('another-key');
    const refused = await startBot(testConfig({ venue: { kind: 'live', sim }, markets: [slug], pricing: { guard: { enabled: false } } }), { ...liveEnv(sim), PYTH_API_KEY: 'pyth-test-key' }, cleanup);
    await waitFor(() => when(refused.logs.some((l) => l.includes('Pyth Hermes refused the API key in $PYTH_API_KEY (401)'))), 15_000, 'the refused key reported');
    expect(refused.logs.some((l) => l.includes('pyth-test-key'))).toBe(false);
    await waitFor(() => when(liveOrders(sim, slug, 'it').length > 0), 15_000, 'quotes from the venue\'s frames');
  }, 90_000);
});
