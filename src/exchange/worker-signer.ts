/**
 * Order signatures off the main thread: an `OrderSigningAccount` whose `sign({ hash })` runs in a worker thread
 * (src/exchange/digest-signer-worker.ts), so a requote wave across many markets (1–2 ms of secp256k1 per order) does
 * not hold the bot's event loop; the loop only posts the digests and takes the answers.
 *
 * Owns: the worker, the jobs in flight and their order. Invariants:
 * - signatures are byte-identical to `localDigestAccount`'s (the same ecdsa.ts in the worker; RFC 6979 makes a
 *   signature a function of key and digest), so an order is never signed twice differently whoever signs it;
 * - answers come back in the order the digests were asked (one worker, FIFO); the digests asked in one synchronous
 *   burst go to the worker in one message; a burst with nothing in flight in the worker is signed on this thread
 *   instead while the turn of the loop has signed at most `inlineBurstMax` (4) here (a single order's reaction does
 *   not pay the round trip; a requote wave, the stall the soak saw, goes to the worker, whether it comes as one burst
 *   or as many small ones in one turn), once this thread has the base-point table: the worker's, adopted when it is
 *   ready (ecdsa.ts adoptBaseTable), so the process builds it once, off this thread (until then bursts go to the worker);
 * - the private key is posted to the worker once, at start, and lives there only in the closure of its account; on
 *   this thread it stays in the closure of the fallback account (as it did before the worker), never a property,
 *   never logged, never in an error;
 * - nothing is lost if the worker dies: every job in flight (and every later one) is signed on this thread, and
 *   `onFallback` is told once; a digest the worker refused (not 32 bytes) rejects with DigestSigningError;
 * - the worker holds the process only while it starts or a job is in flight (unref'd when idle); `close()` terminates it, after
 *   which signing happens on this thread (a job in flight at close is signed here, never left hanging).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Address, Hex } from 'viem';
import { adoptBaseTable, DigestSigningError, hasBaseTable, localDigestAccount, type DigestSigningAccount } from './ecdsa.js';
import type { SignerAnswer, SignerRequest } from './digest-signer-worker.js';

const DIGEST = /^0x[0-9a-fA-F]{64}$/;

interface Job {
  readonly digest: Uint8Array;
  readonly resolve: (signature: Hex) => void;
  readonly reject: (error: Error) => void;
}

export interface WorkerSignerOptions {
  /** Told once when the worker stopped unasked (signing then continues on the main thread). Never carries the key. */
  readonly onFallback?: (reason: string) => void;
  /** Starts the worker (default: digest-signer-worker beside this module); tests inject one that dies. */
  readonly startWorker?: () => Worker;
  /**
   * At most this many digests per turn of the loop are signed on this thread, a burst at a time and only with nothing
   * in flight in the worker (default 4: ≈ 1 ms on an idle core): one order's reaction keeps its tick-to-trade; a wave
   * goes to the worker.
   */
  readonly inlineBurstMax?: number;
}

export const DEFAULT_INLINE_BURST_MAX = 4;

/**
 * The worker: the compiled .js beside this module, or (run from the TypeScript source: tests, `tsx`) a two-line
 * bootstrap that registers tsx's loader in the worker, then imports the .ts entry (a worker does not inherit the
 * loader the parent registered, and Node 20 applies `--import` hooks only after a worker's entry is resolved).
 */
function startWorker(): Worker {
  const options = { stdout: false, stderr: false } as const;
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./digest-signer-worker.js', import.meta.url), options);
  const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const entry = new URL('./digest-signer-worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** The worker's base-point table, adopted by this thread (once per process); one that does not decode is left (this thread then builds its own if it signs). */
function adoptTable(bytes: Uint8Array): void {
  try {
    adoptBaseTable(bytes);
  } catch {
    // Not the table it should be: signing here builds this thread's own on first use, as without the worker's.
  }
}

export class WorkerDigestSigner {
  readonly address: Address;
  /** Signs on this thread when the worker is gone (and checks the key at construction, as before the worker). */
  private readonly local: DigestSigningAccount;
  private worker: Worker | null;
  private readonly jobs = new Map<number, Job>();
  private outbox: { readonly id: number; readonly digest: Uint8Array }[] = [];
  private nextId = 1;
  private closed = false;
  private readonly ready: Promise<void>;
  private readonly inlineBurstMax: number;
  /** Digests signed on this thread in the current turn of the loop (reset at its check phase). */
  private inlineThisTurn = 0;

  /** Throws DigestSigningError (without the key) when `privateKey` is not a valid secp256k1 key. */
  constructor(privateKey: Hex, private readonly options: WorkerSignerOptions = {}) {
    this.local = localDigestAccount(privateKey);
    this.inlineBurstMax = Math.max(0, Math.trunc(options.inlineBurstMax ?? DEFAULT_INLINE_BURST_MAX));
    this.address = this.local.address;
    const worker = (options.startWorker ?? startWorker)();
    this.worker = worker;
    let markReady: () => void = () => undefined;
    this.ready = new Promise((resolveReady) => (markReady = resolveReady));
    worker.on('message', (answer: SignerAnswer) => {
      if (answer.kind === 'ready') {
        adoptTable(answer.table);
        if (this.jobs.size === 0) worker.unref();
        markReady();
      }
      else if (answer.kind === 'refused') this.fallBack('the signing worker refused the key');
      else this.settle(answer);
    });
    worker.on('error', (error) => this.fallBack(`the signing worker failed: ${error.name}`));
    worker.on('exit', (code) => this.fallBack(`the signing worker exited (code ${code})`));
    const start: SignerRequest = { kind: 'key', key: privateKey };
    worker.postMessage(start);
  }

  /** Resolves once the worker holds the key and its base-point table (signing before that just waits in its queue). */
  whenReady(): Promise<void> {
    return this.ready;
  }

  /** Whether signatures are made in the worker (false once it stopped or the signer closed). */
  get inWorker(): boolean {
    return this.worker !== null;
  }

  /** viem's account shape: the signature of a 32-byte hash (0x + 64 hex), `r ‖ s ‖ v`. */
  sign({ hash }: { hash: Hex }): Promise<Hex> {
    if (!DIGEST.test(hash)) return Promise.reject(new DigestSigningError('hash must be 0x followed by 64 hex digits'));
    return this.signBytes(Uint8Array.from(Buffer.from(hash.slice(2), 'hex')));
  }

  /** The signature of a 32-byte digest, made in the worker (on this thread once the worker is gone). */
  signBytes(digest: Uint8Array): Promise<Hex> {
    const worker = this.worker;
    if (worker === null) return this.signHere(digest);
    const id = this.nextId++;
    const job = new Promise<Hex>((resolve, reject) => this.jobs.set(id, { digest, resolve, reject }));
    this.outbox.push({ id, digest });
    if (this.outbox.length === 1) queueMicrotask(() => this.post());
    return job;
  }

  /** Terminates the worker; what is in flight is signed on this thread. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.signInFlightHere();
    if (worker !== null) await worker.terminate();
  }

  private post(): void {
    const burst = this.outbox;
    this.outbox = [];
    const worker = this.worker;
    if (burst.length === 0 || worker === null) return;
    if (this.inlineThisTurn + burst.length <= this.inlineBurstMax && this.jobs.size === burst.length && hasBaseTable()) {
      // A small burst with nothing ahead of it in the worker: signed here, without the round trip (order kept). The
      // budget is per turn of the loop: a wave made of many small bursts (one per market's plan, each in its own
      // microtask of one macrotask) goes to the worker once the turn has signed `inlineBurstMax` here.
      if (this.inlineThisTurn === 0) setImmediate(() => (this.inlineThisTurn = 0));
      this.inlineThisTurn += burst.length;
      for (const { id } of burst) {
        const job = this.jobs.get(id);
        this.jobs.delete(id);
        if (job !== undefined) this.signHere(job.digest).then(job.resolve, job.reject);
      }
      return;
    }
    worker.ref(); // unref'd again by the last answer
    const request: SignerRequest = { kind: 'sign', jobs: burst };
    worker.postMessage(request);
  }

  private settle(answer: Extract<SignerAnswer, { id: number }>): void {
    const job = this.jobs.get(answer.id);
    if (job === undefined) return;
    this.jobs.delete(answer.id);
    if (this.jobs.size === 0) this.worker?.unref();
    if (answer.kind === 'signed') job.resolve(answer.signature);
    else job.reject(new DigestSigningError(answer.message));
  }

  private fallBack(reason: string): void {
    if (this.worker === null) return;
    const worker = this.worker;
    this.worker = null;
    this.signInFlightHere();
    void worker.terminate();
    if (!this.closed) this.options.onFallback?.(reason);
  }

  /** Every job not yet answered, signed on this thread (the same bytes the worker would have sent). */
  private signInFlightHere(): void {
    this.outbox = [];
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    for (const job of jobs) this.signHere(job.digest).then(job.resolve, job.reject);
  }

  private signHere(digest: Uint8Array): Promise<Hex> {
    try {
      return Promise.resolve(this.local.signDigest(digest));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new DigestSigningError(String(error)));
    }
  }
}
