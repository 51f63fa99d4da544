/**
 * Signing benchmark: from (price ticks, raw size, side) to the exact POST /orders request body text: validation,
 * amounts, salt, EIP-712 digest, secp256k1 signature, body object and JSON.stringify. Prints signed orders per
 * second (median of several runs) and the median and p99 µs per order, plus the cost of buildOrder alone and
 * of the HMAC request signature for that body.
 *
 * Run: npx tsx bench/signing.ts   (exports `run()` for bench/all.ts)
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { signRequest } from '../src/exchange/auth.js';
import { orderRequestBody, OrderSigner, type LimitOrderRequest } from '../src/exchange/signer.js';

const KEY = `0x${'11'.repeat(32)}`;
const MARKET = { slug: 'bench-market', venueExchange: '0xa4409D988CA2218d956BeEFD3874100F444f0DC3', tokens: { yes: '101', no: '102' } };
const CREDENTIALS = { tokenId: 'bench', secret: Buffer.from('bench-secret').toString('base64') };
const RUNS = 5;
const ORDERS_PER_RUN = 400;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

function request(i: number): LimitOrderRequest {
  return {
    market: MARKET,
    tokenId: i % 2 === 0 ? '101' : '102',
    side: i % 3 === 0 ? 'SELL' : 'BUY',
    orderType: 'GTC',
    priceTicks: 100 + (i % 800),
    sizeRaw: 1_000_000 + (i % 97) * 1000,
    postOnly: true,
    clientOrderId: `bench-m-bid-${i % 8}-${i}`,
  };
}

const round = (value: number, digits = 1): number => Number(value.toFixed(digits));

export async function run(): Promise<Record<string, number | string>> {
  const signer = new OrderSigner({ privateKey: KEY });
  // Warm-up: JIT, the domain cache and the curve tables.
  for (let i = 0; i < 50; i++) JSON.stringify(orderRequestBody(await signer.createOrder(request(i)), 1, Date.now()));

  const perSecond: number[] = [];
  const micros: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const start = performance.now();
    for (let i = 0; i < ORDERS_PER_RUN; i++) {
      const t0 = performance.now();
      const body = JSON.stringify(orderRequestBody(await signer.createOrder(request(i)), 1, Date.now()));
      micros.push((performance.now() - t0) * 1000);
      if (body.length === 0) throw new Error('empty body');
    }
    perSecond.push(ORDERS_PER_RUN / ((performance.now() - start) / 1000));
  }

  const buildMicros: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const start = performance.now();
    for (let i = 0; i < ORDERS_PER_RUN; i++) signer.buildOrder(request(i));
    buildMicros.push(((performance.now() - start) * 1000) / ORDERS_PER_RUN);
  }

  const sample = JSON.stringify(orderRequestBody(await signer.createOrder(request(1)), 1, Date.now()));
  const hmacMicros: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const start = performance.now();
    for (let i = 0; i < ORDERS_PER_RUN; i++) signRequest({ credentials: CREDENTIALS, method: 'POST', pathWithQuery: '/orders', body: sample, nowMs: Date.now() });
    hmacMicros.push(((performance.now() - start) * 1000) / ORDERS_PER_RUN);
  }

  return {
    signedOrdersPerSec: Math.round(median(perSecond)),
    usPerOrderMedian: round(median(micros)),
    usPerOrderP99: round(percentile(micros, 0.99)),
    buildOrderOnlyUs: round(median(buildMicros), 2),
    hmacRequestSignatureUs: round(median(hmacMicros), 2),
    runs: `${RUNS} x ${ORDERS_PER_RUN} orders`,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await run();
  for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(24)} ${value}`);
}
