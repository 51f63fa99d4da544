/**
 * Order signatures in a worker thread (src/exchange/worker-signer.ts): byte-identical to viem's `sign` and to the
 * main thread's signer, in the order asked; a small burst with nothing in flight is signed on the main thread; a worker that dies loses nothing (its jobs are signed on the main thread,
 * the same bytes) and is reported once without the key; close() leaves nothing hanging; OrderSigner with
 * `signingThread: 'worker'` signs orders exactly as viem's signTypedData.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { privateKeyToAccount, sign as viemSign } from 'viem/accounts';
import { baseTable, DigestSigningError } from '../../../src/exchange/ecdsa.js';
import { ORDER_TYPES, ZERO_ADDRESS } from '../../../src/exchange/eip712.js';
import { OrderBuildError } from '../../../src/exchange/errors.js';
import { OrderSigner, type SigningMarket } from '../../../src/exchange/signer.js';
import { WorkerDigestSigner } from '../../../src/exchange/worker-signer.js';
import { seededRandom } from '../../support/fake-time.js';

function randomHex(random: () => number, bytes: number): Hex {
  let out = '0x';
  for (let i = 0; i < bytes; i++) out += Math.floor(random() * 256).toString(16).padStart(2, '0');
  return out as Hex;
}

const KEY = `0x${'3c'.repeat(32)}` as const;
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((signer) => signer.close()));
});

function workerSigner(...args: ConstructorParameters<typeof WorkerDigestSigner>): WorkerDigestSigner {
  const signer = new WorkerDigestSigner(...args);
  opened.push(signer);
  return signer;
}

describe('WorkerDigestSigner', () => {
  it('signs a burst of 60 seeded random digests in the worker exactly as viem sign() does, answers in order', async () => {
    const signer = workerSigner(KEY);
    expect(signer.address).toBe(privateKeyToAccount(KEY).address);
    const random = seededRandom(11);
    const hashes = Array.from({ length: 60 }, () => randomHex(random, 32));
    const answered: number[] = [];
    const signatures = await Promise.all(hashes.map((hash, i) => signer.sign({ hash }).then((signature) => (answered.push(i), signature))));
    expect(signer.inWorker).toBe(true);
    expect(answered).toEqual(hashes.map((_, i) => i));
    for (const [i, hash] of hashes.entries()) expect(signatures[i], `digest ${i}`).toBe(await viemSign({ hash, privateKey: KEY, to: 'hex' }));
  });

  it('refuses a digest that is not 32 bytes (in the worker too), and a key that is not a secp256k1 scalar without echoing it', async () => {
    const signer = workerSigner(KEY);
    await expect(signer.sign({ hash: '0x1234' })).rejects.toBeInstanceOf(DigestSigningError);
    await expect(signer.signBytes(new Uint8Array(31))).rejects.toBeInstanceOf(DigestSigningError);
    // In a burst the worker signs: the short digest is refused there, its neighbours signed.
    const burst = [new Uint8Array(32).fill(1), new Uint8Array(31), ...Array.from({ length: 4 }, (_, i) => new Uint8Array(32).fill(i + 2))];
    const results = await Promise.allSettled(burst.map((digest) => signer.signBytes(digest)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(results[1]?.status === 'rejected' && results[1].reason instanceof DigestSigningError).toBe(true);
    expect(signer.inWorker).toBe(true);
    const bad = `0x${'ff'.repeat(32)}` as const;
    let message = '';
    try {
      workerSigner(bad);
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
    }
    expect(message).toMatch(/not a valid secp256k1/);
    expect(message).not.toContain('ff'.repeat(8));
  });

  it('a worker that dies: the jobs in flight and later ones are signed on the main thread (same bytes), reported once without the key', async () => {
    const reasons: string[] = [];
    const signer = workerSigner(KEY, { onFallback: (reason) => reasons.push(reason), startWorker: () => new Worker('setTimeout(() => process.exit(3), 20)', { eval: true }) });
    const random = seededRandom(12);
    const hashes = Array.from({ length: 5 }, () => randomHex(random, 32));
    const inFlight = hashes.map((hash) => signer.sign({ hash }));
    const signatures = await Promise.all(inFlight);
    expect(signer.inWorker).toBe(false);
    const later = await signer.sign({ hash: hashes[0]! });
    for (const [i, hash] of hashes.entries()) expect(signatures[i]).toBe(await viemSign({ hash, privateKey: KEY, to: 'hex' }));
    expect(later).toBe(signatures[0]);
    expect(reasons).toEqual(['the signing worker exited (code 3)']);
    expect(reasons.join('')).not.toContain(KEY.slice(2, 20));
  });

  it('up to 4 digests a turn with nothing in flight are signed on the main thread (no round trip); more wait for the worker', async () => {
    baseTable(); // this thread's table (built, or adopted from an earlier worker): what signing here needs
    // A worker that never answers: only what is signed here can resolve before close().
    const signer = workerSigner(KEY, { startWorker: () => new Worker('setInterval(() => undefined, 1000)', { eval: true }) });
    const random = seededRandom(13);
    const small = Array.from({ length: 4 }, () => randomHex(random, 32));
    expect(await Promise.all(small.map((hash) => signer.sign({ hash })))).toEqual(await Promise.all(small.map((hash) => viemSign({ hash, privateKey: KEY, to: 'hex' }))));
    await new Promise((resolve) => setImmediate(resolve)); // the next turn of the loop: its own budget of 4
    // Small bursts in separate microtasks of one turn: 3 here, then the next 3 would pass the turn's 4: the worker.
    const three = small.slice(0, 3);
    expect(await Promise.all(three.map((hash) => signer.sign({ hash })))).toHaveLength(3);
    let second = 0;
    const secondBurst = Promise.all(three.map((hash) => signer.sign({ hash }).then(() => (second += 1))));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(second).toBe(0); // waiting for the (silent) worker
    const wave = Array.from({ length: 5 }, () => randomHex(random, 32));
    let answered = 0;
    const waiting = Promise.all(wave.map((hash) => signer.sign({ hash }).then((signature) => ((answered += 1), signature))));
    // Behind the wave in the worker, even one digest waits its turn (answers stay in order).
    const behind = signer.sign({ hash: small[0]! });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(0);
    await signer.close(); // what the worker held is signed here, in order
    expect(await waiting).toEqual(await Promise.all(wave.map((hash) => viemSign({ hash, privateKey: KEY, to: 'hex' }))));
    expect(await behind).toBe(await viemSign({ hash: small[0]!, privateKey: KEY, to: 'hex' }));
    expect(await secondBurst).toHaveLength(3);
  });

  it('a thread without the base-point table signs nothing itself until the worker hands it its own: the process builds it once', async () => {
    // A fresh thread (its own modules, no table yet) runs the signer and reports what it saw.
    const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
    const ecdsa = new URL('../../../src/exchange/ecdsa.ts', import.meta.url).href;
    const signerModule = new URL('../../../src/exchange/worker-signer.ts', import.meta.url).href;
    const random = seededRandom(21);
    const [early, late] = [randomHex(random, 32), randomHex(random, 32)];
    const script = `
      const { parentPort } = require('node:worker_threads');
      import(${JSON.stringify(tsxApi)}).then(async ({ register }) => {
        register();
        const e = await import(${JSON.stringify(ecdsa)});
        const { WorkerDigestSigner } = await import(${JSON.stringify(signerModule)});
        const tableAtStart = e.hasBaseTable();
        const signer = new WorkerDigestSigner(${JSON.stringify(KEY)});
        const first = await signer.sign({ hash: ${JSON.stringify(early)} });
        const tableAfterFirst = e.hasBaseTable();
        await signer.whenReady();
        const adopted = e.hasBaseTable() && e.baseTable().bytes !== null;
        const second = await signer.sign({ hash: ${JSON.stringify(late)} });
        await signer.close();
        parentPort.postMessage({ tableAtStart, tableAfterFirst, adopted, first, second });
      });`;
    const thread = new Worker(script, { eval: true });
    const seen = await new Promise<Record<string, unknown>>((resolve, reject) => {
      thread.once('message', resolve);
      thread.once('error', reject);
    });
    await thread.terminate();
    expect(seen).toEqual({
      tableAtStart: false,
      // The first digest, asked before the worker was ready, was signed there: this thread built no table for it.
      tableAfterFirst: true,
      adopted: true,
      first: await viemSign({ hash: early, privateKey: KEY, to: 'hex' }),
      second: await viemSign({ hash: late, privateKey: KEY, to: 'hex' }),
    });
  });

  it('close() terminates the worker: a job in flight still resolves, later ones sign on the main thread; idempotent', async () => {
    const reasons: string[] = [];
    const signer = workerSigner(KEY, { onFallback: (reason) => reasons.push(reason) });
    await signer.whenReady();
    const hash = `0x${'42'.repeat(32)}` as const;
    const inFlight = Array.from({ length: 6 }, () => signer.sign({ hash })); // more than a small burst: the worker's
    await Promise.resolve(); // posted
    await signer.close();
    await signer.close();
    const expected = await viemSign({ hash, privateKey: KEY, to: 'hex' });
    expect(await Promise.all(inFlight)).toEqual(Array.from({ length: 6 }, () => expected));
    expect(signer.inWorker).toBe(false);
    expect(await signer.sign({ hash })).toBe(expected);
    expect(reasons).toEqual([]); // a stop asked for is no failure
  });
});

describe("OrderSigner with signingThread: 'worker'", () => {
  it('signs 30 seeded random orders exactly as viem signTypedData and as the main-thread signer (same salts)', async () => {
    const random = seededRandom(31);
    const venue = randomHex(random, 20);
    const options = { privateKey: KEY, feeRateBps: 300, now: () => 1_790_000_000_000 } as const;
    const inWorker = new OrderSigner({ ...options, signingThread: 'worker', random: seededRandom(5) });
    opened.push(inWorker);
    const onMain = new OrderSigner({ ...options, random: seededRandom(5) });
    const viemAccount = privateKeyToAccount(KEY);
    const requests = Array.from({ length: 30 }, (_, i) => {
      const market: SigningMarket = { slug: `m-${i % 3}`, venueExchange: venue ?? ZERO_ADDRESS, tokens: { yes: String(1000 + i), no: String(2000 + i) } };
      return { market, tokenId: market.tokens.yes, side: i % 2 === 0 ? 'BUY' : 'SELL', orderType: 'GTC', priceTicks: 1 + Math.floor(random() * 999), sizeRaw: 1000 * (5000 + i) } as const;
    });
    const signed = await Promise.all(requests.map((request) => inWorker.createOrder(request)));
    for (const [i, request] of requests.entries()) {
      const main = await onMain.createOrder(request);
      expect(signed[i], `order ${i}`).toEqual(main);
      expect(signed[i]!.signature).toBe(await viemAccount.signTypedData({ domain: main.domain, types: ORDER_TYPES, primaryType: 'Order', message: main.struct }));
    }
  });

  it('a malformed key is refused as before, naming the field and never the key', () => {
    let error: unknown;
    try {
      new OrderSigner({ privateKey: `0x${'00'.repeat(32)}`, signingThread: 'worker' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(OrderBuildError);
    expect(String(error)).toContain('privateKey');
  });
});
