/**
 * Signing benchmark: orders signed per second by OrderSigner beside viem's `signTypedData` on the same inputs, in
 * the same run (interleaved rounds, so machine load hits both alike; medians of the rounds).
 *
 * - `signedOrdersPerSec`: OrderSigner.signOrder (EIP-712 digest from precomputed parts + secp256k1, ecdsa.ts).
 * - `viemSignTypedDataPerSec`: `privateKeyToAccount(key).signTypedData({domain, types, primaryType, message})` on the
 *   same built orders; `speedupVsViem` is the ratio (target ≥ 2).
 * - `fullOrderBodyPerSec`: the whole path from (price ticks, raw size, side) to the POST /orders body text:
 *   validation, amounts, salt, digest, signature, body object and JSON.stringify; `usPerOrderMedian`/`P99` per order.
 * - `buildOrderOnlyUs`, `digestOnlyUs` and `hmacRequestSignatureUs`: the parts.
 * Every signature of the timed rounds is checked to equal viem's (a mismatch fails the bench).
 *
 * Run: npx tsx bench/signing.ts   (exports `run()` for bench/all.ts)
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { privateKeyToAccount } from 'viem/accounts';
import { signRequest } from '../src/exchange/auth.js';
import { ORDER_TYPES, orderDigestBytes } from '../src/exchange/eip712.js';
import { orderRequestBody, OrderSigner, type LimitOrderRequest, type UnsignedOrder } from '../src/exchange/signer.js';

const KEY = `0x${'11'.repeat(32)}` as const;
const MARKETS = [
  { slug: 'bench-a', venueExchange: '0xa4409D988CA2218d956BeEFD3874100F444f0DC3', tokens: { yes: '101', no: '102' } },
  {
    slug: 'bench-b',
    venueExchange: '0x5a38afc17F7E97ad8d6C547ddb837E40B4aEDfC6',
    tokens: {
      yes: '19633204485790857949828516737993423758628930235371629943999544859571526710916',
      no: '34262350587592117734127298543926961539430458024512018843052227102787640931131',
    },
  },
];
const CREDENTIALS = { tokenId: 'bench', secret: Buffer.from('bench-secret').toString('base64') };
const ROUNDS = 7;
const ORDERS_PER_ROUND = 300;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

function request(i: number): LimitOrderRequest {
  const market = MARKETS[i % MARKETS.length] ?? MARKETS[0]!;
  return {
    market,
    tokenId: i % 4 < 2 ? market.tokens.yes : market.tokens.no,
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
  const viemAccount = privateKeyToAccount(KEY);
  const orders: UnsignedOrder[] = Array.from({ length: ORDERS_PER_ROUND }, (_, i) => signer.buildOrder(request(i)));
  const viemSign = (order: UnsignedOrder) =>
    viemAccount.signTypedData({ domain: order.domain, types: ORDER_TYPES, primaryType: 'Order', message: order.struct });

  // Warm-up: JIT, the domain caches and both curves' base-point tables; and the two must agree.
  for (let i = 0; i < 40; i++) {
    const order = orders[i % orders.length]!;
    const [ours, theirs] = [(await signer.signOrder(order)).signature, await viemSign(order)];
    if (ours !== theirs) throw new Error(`signature differs from viem's on order ${i}`);
    JSON.stringify(orderRequestBody(await signer.createOrder(request(i)), 1, Date.now()));
  }

  const oursPerSec: number[] = [];
  const viemPerSec: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const ours: string[] = [];
    let start = performance.now();
    for (const order of orders) ours.push((await signer.signOrder(order)).signature);
    oursPerSec.push(orders.length / ((performance.now() - start) / 1000));
    const theirs: string[] = [];
    start = performance.now();
    for (const order of orders) theirs.push(await viemSign(order));
    viemPerSec.push(orders.length / ((performance.now() - start) / 1000));
    for (let i = 0; i < orders.length; i++) if (ours[i] !== theirs[i]) throw new Error(`round ${r}: signature ${i} differs from viem's`);
  }

  const fullPerSec: number[] = [];
  const micros: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = performance.now();
    for (let i = 0; i < ORDERS_PER_ROUND; i++) {
      const t0 = performance.now();
      const body = JSON.stringify(orderRequestBody(await signer.createOrder(request(i)), 1, Date.now()));
      micros.push((performance.now() - t0) * 1000);
      if (body.length === 0) throw new Error('empty body');
    }
    fullPerSec.push(ORDERS_PER_ROUND / ((performance.now() - start) / 1000));
  }

  const partMicros = (fn: (i: number) => unknown): number => {
    const each: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const start = performance.now();
      for (let i = 0; i < ORDERS_PER_ROUND; i++) fn(i);
      each.push(((performance.now() - start) * 1000) / ORDERS_PER_ROUND);
    }
    return round(median(each), 2);
  };
  const sample = JSON.stringify(orderRequestBody(await signer.createOrder(request(1)), 1, Date.now()));

  const ours = median(oursPerSec);
  const viem = median(viemPerSec);
  return {
    signedOrdersPerSec: Math.round(ours),
    viemSignTypedDataPerSec: Math.round(viem),
    speedupVsViem: round(ours / viem, 2),
    fullOrderBodyPerSec: Math.round(median(fullPerSec)),
    usPerOrderMedian: round(median(micros)),
    usPerOrderP99: round(percentile(micros, 0.99)),
    buildOrderOnlyUs: partMicros((i) => signer.buildOrder(request(i))),
    digestOnlyUs: partMicros((i) => orderDigestBytes(orders[i]!.domain, orders[i]!.struct)),
    hmacRequestSignatureUs: partMicros(() => signRequest({ credentials: CREDENTIALS, method: 'POST', pathWithQuery: '/orders', body: sample, nowMs: Date.now() })),
    runs: `${ROUNDS} interleaved rounds x ${ORDERS_PER_ROUND} orders; signatures checked equal to viem's`,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await run();
  for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(24)} ${value}`);
}
