/**
 * The signing worker's entry (a worker_threads thread started by src/exchange/worker-signer.ts): signs 32-byte
 * digests with src/exchange/ecdsa.ts, off the bot's main thread.
 *
 * Protocol (messages on the parent port): first `{ kind: 'key', key }` (0x + 64 hex) exactly once: the key is kept only
 * in the closure of the local account made from it (never a property, never logged, never in a message or an error),
 * then the base-point table is built at once (its ≈ 0.1–0.4 s are the worker's, not the first order's); answered
 * `{ kind: 'ready', address, table }` (the table encoded, ecdsa.ts baseTableBytes: the main thread adopts it rather than
 * build its own) or `{ kind: 'refused' }` (a key that is not a secp256k1 scalar: the worker then exits).
 * Then `{ kind: 'sign', jobs: [{ id, digest }] }` (digest: 32 bytes), answered job by job, in order, with
 * `{ kind: 'signed', id, signature }` or `{ kind: 'failed', id, message }`.
 */
import { parentPort } from 'node:worker_threads';
import type { Hex } from 'viem';
import { baseTableBytes, localDigestAccount, type DigestSigningAccount } from './ecdsa.js';

/** Main thread → worker. */
export type SignerRequest =
  | { readonly kind: 'key'; readonly key: Hex }
  | { readonly kind: 'sign'; readonly jobs: readonly { readonly id: number; readonly digest: Uint8Array }[] };

/** Worker → main thread. */
export type SignerAnswer =
  | { readonly kind: 'ready'; readonly address: string; readonly table: Uint8Array }
  | { readonly kind: 'refused' }
  | { readonly kind: 'signed'; readonly id: number; readonly signature: Hex }
  | { readonly kind: 'failed'; readonly id: number; readonly message: string };

const port = parentPort;
if (port !== null) {
  let account: DigestSigningAccount | null = null;
  const answer = (message: SignerAnswer): void => port.postMessage(message);
  port.on('message', (request: SignerRequest) => {
    if (request.kind === 'key') {
      if (account !== null) return; // the key is taken once
      try {
        account = localDigestAccount(request.key);
      } catch {
        answer({ kind: 'refused' });
        port.close();
        return;
      }
      const table = baseTableBytes();
      port.postMessage({ kind: 'ready', address: account.address, table } satisfies SignerAnswer, [table.buffer]);
      return;
    }
    for (const job of request.jobs) {
      if (account === null) {
        answer({ kind: 'failed', id: job.id, message: 'the signing worker has no key' });
        continue;
      }
      try {
        answer({ kind: 'signed', id: job.id, signature: account.signDigest(job.digest) });
      } catch (error) {
        // ecdsa.ts's errors never carry the key (a digest of the wrong length is the only one a job can meet).
        answer({ kind: 'failed', id: job.id, message: error instanceof Error ? error.message : 'signing failed' });
      }
    }
  });
}
