/**
 * The simulator's Pyth Hermes stand-in, driven by the REAL `@pythnetwork/hermes-client`: latest prices and the
 * server-sent-events stream in Hermes's wire shape, the bearer key, unknown ids, the rate limit and stream closing.
 */
import { HermesClient } from '@pythnetwork/hermes-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PYTH_FEED_IDS } from '../../../src/pricing/feed-ids.js';
import { DEFAULT_CRYPTO_MARKETS, DEFAULT_UNDERLYINGS } from '../../../src/sim/engine/index.js';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { poll } from '../../support/poll.js';

const KEY = 'hermes-test-key';
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    seed: 4242,
    world: { underlying: { underlyings: DEFAULT_UNDERLYINGS, leadMs: 1000 }, markets: { ...DEFAULT_CRYPTO_MARKETS, cadences: ['daily'], recurring: false } },
    hermes: { apiKey: KEY, rateLimit: { requests: 1000, windowMs: 10_000 }, streamEveryMs: 100 },
  });
});
afterAll(async () => {
  await sim.close();
});

const client = (key = KEY): HermesClient => new HermesClient(sim.hermesUrl, { accessToken: key, httpRetries: 0, timeout: 5000 });

describe('Hermes stand-in', () => {
  it('answers latest prices in Hermes\'s shape, scaled by 10^expo, as the world publishes them', async () => {
    const ids = [DEFAULT_PYTH_FEED_IDS['BTC']!, DEFAULT_PYTH_FEED_IDS['XRP']!.slice(2)];
    const update = await client().getLatestPriceUpdates(ids, { parsed: true });
    expect(update.parsed).toHaveLength(2);
    const btc = update.parsed?.find((p) => `0x${p.id}` === DEFAULT_PYTH_FEED_IDS['BTC']);
    expect(btc).toBeDefined();
    const price = Number(btc!.price.price) * 10 ** btc!.price.expo;
    const world = sim.engine.underlying()!;
    const published = world.publishedAt('BTC', Date.now());
    expect(Math.abs(price - published!) / published!).toBeLessThan(0.01);
    expect(btc!.price.publish_time).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(Number(btc!.price.conf)).toBeGreaterThan(0);
  });

  it('streams updates over server-sent events', async () => {
    const source = await client().getPriceUpdatesStream([DEFAULT_PYTH_FEED_IDS['ETH']!], { parsed: true });
    const prices: number[] = [];
    source.onmessage = (event: { readonly data: string }) => {
      const data = JSON.parse(event.data) as { parsed: { price: { price: string; expo: number } }[] };
      for (const p of data.parsed) prices.push(Number(p.price.price) * 10 ** p.price.expo);
    };
    await poll(() => (prices.length >= 3 ? true : undefined), { timeoutMs: 10_000, intervalMs: 20, failure: () => 'three streamed updates' });
    source.close();
    expect(prices.every((p) => p > 1000 && p < 10_000)).toBe(true);
    await poll(() => (sim.hermes.openStreams() === 0 ? true : undefined), { timeoutMs: 5_000, intervalMs: 20, failure: () => 'the stream closed on the server' });
  });

  it('refuses a wrong key (401), an unknown id (404) and too many requests (429)', async () => {
    await expect(client('wrong').getLatestPriceUpdates([DEFAULT_PYTH_FEED_IDS['BTC']!])).rejects.toThrow(/status: 401/);
    await expect(client().getLatestPriceUpdates([`0x${'ab'.repeat(32)}`])).rejects.toThrow(/status: 404.*Price ids not found: abab/);
    const limited = await startSimulator({
      port: 0,
      seed: 4243,
      world: { underlying: { underlyings: DEFAULT_UNDERLYINGS, leadMs: 0 }, markets: { ...DEFAULT_CRYPTO_MARKETS, cadences: ['daily'], recurring: false } },
      hermes: { rateLimit: { requests: 2, windowMs: 10_000 } },
    });
    try {
      const c = new HermesClient(limited.hermesUrl, { httpRetries: 0 });
      await c.getLatestPriceUpdates([DEFAULT_PYTH_FEED_IDS['BTC']!]);
      await c.getLatestPriceUpdates([DEFAULT_PYTH_FEED_IDS['BTC']!]);
      await expect(c.getLatestPriceUpdates([DEFAULT_PYTH_FEED_IDS['BTC']!])).rejects.toThrow(/status: 429/);
    } finally {
      await limited.close();
    }
  });

  it('closes a stream after its maximum length, as Hermes does after 24 h', async () => {
    const short = await startSimulator({
      port: 0,
      seed: 4244,
      world: { underlying: { underlyings: DEFAULT_UNDERLYINGS, leadMs: 0 }, markets: { ...DEFAULT_CRYPTO_MARKETS, cadences: ['daily'], recurring: false } },
      hermes: { streamMaxMs: 300, streamEveryMs: 50 },
    });
    try {
      const source = await new HermesClient(short.hermesUrl, {}).getPriceUpdatesStream([DEFAULT_PYTH_FEED_IDS['SOL']!], { parsed: true });
      let errors = 0;
      source.onerror = () => (errors += 1);
      await poll(() => (errors > 0 ? true : undefined), { timeoutMs: 10_000, intervalMs: 20, failure: () => 'the stream to end' });
      source.close();
    } finally {
      await short.close();
    }
  });
});
