/**
 * The simulator's allowance for its own event-loop stalls (src/sim/server/loop-lateness.ts, `forgiveOwnStalls`, on for
 * the simulator embedded in the bot): a request the server came to late does not make the next one, sent on time, look
 * early; a client that sends early is still refused. The loop is blocked on purpose (a synchronous wait) right after a
 * request has reached the server's socket, so the server stamps it late by at least that long: a lower bound that holds
 * however loaded the machine is.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { signRequest } from '../../../src/exchange/auth.js';
import { LoopLateness } from '../../../src/sim/server/loop-lateness.js';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { call } from '../../support/sim-http.js';

/** Keeps this process's loop busy for `ms` (nothing else runs meanwhile: no timer, no socket read). */
function block(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}

/** An authenticated read of the demo account's orders in the simulator's first market. */
const readPath = (running: RunningSimulator): string => `/markets/${running.engine.markets()[0]?.slug ?? 'none'}/user-orders`;

const sleepUntil = (atMs: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, atMs - Date.now())));

describe('LoopLateness', () => {
  it('is the stretch the loop stayed away: while away, and in the turn that ends it; then about nothing again', async () => {
    const lateness = new LoopLateness(5);
    try {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const blockedAt = Date.now();
      block(120);
      expect(lateness.lateMs()).toBeGreaterThanOrEqual(Date.now() - blockedAt - 5);
      // The turn that ends the stretch runs its timers first, then reads what arrived meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
      expect(lateness.lateMs()).toBeGreaterThanOrEqual(120 - 5);
      expect(() => new LoopLateness(0)).toThrow(RangeError);
    } finally {
      lateness.stop();
    }
  });
});

describe('a simulator that forgives its own stalls', () => {
  let sim: RunningSimulator | null = null;
  let socket: Socket | null = null;
  afterEach(async () => {
    socket?.destroy();
    socket = null;
    await sim?.close();
    sim = null;
  });

  /**
   * Sends a read of the demo account over a connected raw socket, blocks the loop `blockMs` once it is on the
   * server's socket, and resolves with the status and the moment it was written.
   */
  async function lateRead(running: RunningSimulator, blockMs: number): Promise<{ status: number; sentAt: number }> {
    const { port } = new URL(running.baseUrl);
    const raw = connect(Number(port), '127.0.0.1');
    socket = raw;
    await new Promise<void>((resolve, reject) => raw.once('connect', resolve).once('error', reject));
    const path = readPath(running);
    const headers = signRequest({ credentials: { tokenId: running.demoAccount.tokenId, secret: running.demoAccount.secret }, method: 'GET', pathWithQuery: path, body: '', nowMs: Date.now(), prefix: running.headerPrefix });
    const lines = [`GET ${path} HTTP/1.1`, `host: 127.0.0.1:${port}`, 'connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    const answer = new Promise<number>((resolve, reject) => {
      let text = '';
      raw.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
        if (status !== null) resolve(Number(status[1]));
      });
      raw.once('error', reject);
    });
    const sentAt = Date.now();
    raw.write(`${lines.join('\r\n')}\r\n\r\n`);
    block(blockMs);
    return { status: await answer, sentAt };
  }

  const read = (running: RunningSimulator): Promise<number> =>
    call(running.baseUrl, 'GET', readPath(running), { creds: { tokenId: running.demoAccount.tokenId, secret: running.demoAccount.secret }, prefix: running.headerPrefix }).then((r) => r.status);

  it('admits a request sent 350 ms after one it stamped 250 ms late', async () => {
    sim = await startSimulator({ seed: 5, markets: 2, forgiveOwnStalls: true });
    const first = await lateRead(sim, 250);
    expect(first.status).toBe(200);
    await sleepUntil(first.sentAt + 350);
    expect(await read(sim)).toBe(200);
    expect(sim.control.requestStats()[sim.demoAccount.tokenId]?.rateLimited).toBe(0);
  });

  it("still refuses a client that sends early: the allowance is the server's lateness, not the client's gap", async () => {
    sim = await startSimulator({ seed: 5, markets: 2, forgiveOwnStalls: true });
    const first = await lateRead(sim, 100);
    expect(first.status).toBe(200);
    expect(await read(sim)).toBe(429);
  });

  it('without the allowance the late stamp is held against the client', async () => {
    sim = await startSimulator({ seed: 5, markets: 2 });
    const first = await lateRead(sim, 250);
    expect(first.status).toBe(200);
    await sleepUntil(first.sentAt + 350);
    expect(await read(sim)).toBe(429);
  });
});
