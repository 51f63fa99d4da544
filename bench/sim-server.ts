/**
 * Simulator server benchmark, over loopback with real HTTP and Socket.IO: signed placements per second
 * (HMAC + zod + EIP-712 recovery + engine) sequentially and 8 in flight, with p50/p99 latency; orderbook
 * GETs per second; and the delay from a book change to the `orderbookUpdate` frame at a subscriber
 * (bounded by the coalescing tick, 50 ms by default). Rate limits off; orders are pre-signed so the figures
 * are the server's.
 *
 * Run: npx tsx bench/sim-server.ts   (exports `run()` for bench/all.ts)
 */
import { pathToFileURL } from 'node:url';
import { io } from 'socket.io-client';
import { signRequest } from '../src/exchange/auth.js';
import { ORDER_TYPES, orderDomain, ZERO_ADDRESS } from '../src/exchange/eip712.js';
import { privateKeyToAccount } from 'viem/accounts';
import { startSimulator, type RunningSimulator } from '../src/sim/index.js';
import { limitOrderAmounts } from '../src/core/venue-rules/index.js';

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

async function presign(sim: RunningSimulator, count: number, saltBase: number): Promise<string[]> {
  const market = sim.engine.markets()[0]!;
  const account = privateKeyToAccount(sim.demoAccount.privateKey);
  const bodies: string[] = [];
  for (let i = 0; i < count; i++) {
    const priceTicks = 100 + (i % 300);
    const { makerAmount, takerAmount } = limitOrderAmounts('BUY', priceTicks, 1_000_000);
    const salt = saltBase + i;
    const message = {
      salt: BigInt(salt), maker: account.address, signer: account.address, taker: ZERO_ADDRESS, tokenId: BigInt(market.yesTokenId),
      makerAmount: BigInt(makerAmount), takerAmount: BigInt(takerAmount), expiration: 0n, nonce: 0n, feeRateBps: 300n, side: 0 as const, signatureType: 0,
    };
    const signature = await account.signTypedData({ domain: orderDomain(market.venue.exchange), types: ORDER_TYPES, primaryType: 'Order', message });
    bodies.push(
      JSON.stringify({
        order: {
          salt, maker: account.address, signer: account.address, taker: ZERO_ADDRESS, tokenId: market.yesTokenId, makerAmount, takerAmount,
          expiration: '0', nonce: 0, feeRateBps: 300, side: 0, signatureType: 0, price: priceTicks / 1000, signature,
        },
        orderType: 'GTC',
        marketSlug: market.slug,
        ownerId: sim.demoAccount.profileId,
      }),
    );
  }
  return bodies;
}

async function post(sim: RunningSimulator, body: string): Promise<number> {
  const credentials = { tokenId: sim.demoAccount.tokenId, secret: sim.demoAccount.secret };
  const headers = { ...signRequest({ credentials, method: 'POST', pathWithQuery: '/orders', body, nowMs: Date.now() }), 'content-type': 'application/json' };
  const started = performance.now();
  const response = await fetch(`${sim.baseUrl}/orders`, { method: 'POST', headers, body });
  await response.arrayBuffer();
  if (response.status !== 201) throw new Error(`placement failed: ${response.status}`);
  return performance.now() - started;
}

export async function run(): Promise<Record<string, number | string>> {
  const sim = await startSimulator({ rateLimit: false, demo: { usdc: '100000000' }, markets: 4 });
  try {
    // Sequential placements.
    const sequential = await presign(sim, 400, 1);
    for (const body of sequential.slice(0, 50)) await post(sim, body);
    const latencies: number[] = [];
    const seqStart = performance.now();
    for (const body of sequential.slice(50)) latencies.push(await post(sim, body));
    const seqPerSecond = (sequential.length - 50) / ((performance.now() - seqStart) / 1000);

    // 8 in flight.
    const parallel = await presign(sim, 800, 10_000);
    const parStart = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < parallel.length) {
          const body = parallel[next++]!;
          await post(sim, body);
        }
      }),
    );
    const parPerSecond = parallel.length / ((performance.now() - parStart) / 1000);

    // Orderbook reads (book has ~300 levels by now).
    const slug = sim.engine.markets()[0]!.slug;
    const reads = 1000;
    const readStart = performance.now();
    for (let i = 0; i < reads; i++) await (await fetch(`${sim.baseUrl}/markets/${slug}/orderbook`)).arrayBuffer();
    const readsPerSecond = reads / ((performance.now() - readStart) / 1000);

    // Book change → orderbookUpdate at a subscriber.
    const socket = io(`${sim.socketUrl}/markets`, { transports: ['websocket'], forceNew: true, reconnection: false });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let waiting: ((at: number) => void) | null = null;
    socket.on('orderbookUpdate', () => waiting?.(performance.now()));
    socket.emit('subscribe_market_prices', { marketSlugs: [slug] });
    await new Promise((r) => setTimeout(r, 200));
    const feedLatencies: number[] = [];
    const changes = await presign(sim, 20, 50_000);
    for (const body of changes) {
      const received = new Promise<number>((resolve) => (waiting = resolve));
      const sent = performance.now();
      await post(sim, body);
      feedLatencies.push((await received) - sent);
      waiting = null;
      await new Promise((r) => setTimeout(r, 60));
    }
    socket.close();

    return {
      'place_sequential_per_s': round(seqPerSecond),
      'place_p50_ms': round(percentile(latencies, 0.5), 2),
      'place_p99_ms': round(percentile(latencies, 0.99), 2),
      'place_8_in_flight_per_s': round(parPerSecond),
      'orderbook_get_per_s': round(readsPerSecond),
      'feed_update_p50_ms': round(percentile(feedLatencies, 0.5), 1),
      'feed_update_max_ms': round(Math.max(...feedLatencies), 1),
      'feed_coalesce_ms': 50,
    };
  } finally {
    await sim.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await run();
  for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(28)} ${value}`);
}
