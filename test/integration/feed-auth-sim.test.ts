/**
 * Socket authentication refused by the simulator (which verifies the HMAC handshake and answers a failure with an
 * `exception`, keeping the connection open for public data): the feed reports `failed`, drops the connection and
 * retries with freshly computed headers; once a handshake is accepted it reports `ok` again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { systemScheduler, type Scheduler } from '../../src/core/clock.js';
import { MarketFeed, type FeedAuthState } from '../../src/exchange/socket.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { waitFor } from '../unit/book/helpers/socket-server.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function sim(): Promise<RunningSimulator> {
  const started = await startSimulator({ seed: 11, markets: 1, synthetic: { autoStep: false }, feedCoalesceMs: 10 });
  cleanups.push(() => started.close());
  return started;
}

function feedOf(running: RunningSimulator, scheduler: Scheduler, secret = running.demoAccount.secret) {
  const auth: Array<[FeedAuthState, string | null]> = [];
  const failures: string[] = [];
  const feed = new MarketFeed({
    url: running.socketUrl,
    credentials: { tokenId: running.demoAccount.tokenId, secret },
    headerPrefix: running.headerPrefix,
    scheduler,
    backoff: { initialMs: 20, maxMs: 100, seed: 3 },
    authConfirmMs: 300,
    observer: { onAuthFailure: (message) => failures.push(message) },
  });
  cleanups.push(() => feed.close());
  feed.onAuthChange((state, message) => auth.push([state, message]));
  feed.setMarkets([running.engine.markets()[0]!.slug]);
  return { feed, auth, failures };
}

describe('MarketFeed authentication against the simulator', () => {
  it('an expired handshake timestamp: failed, reconnects with fresh headers, ok once the clock is right', async () => {
    const running = await sim();
    let skewMs = -60_000; // handshake signed 60 s in the past: outside the venue's 30 s window
    const skewed: Scheduler = { now: () => Date.now() + skewMs, schedule: (ms, fn) => systemScheduler.schedule(ms, fn) };
    const { feed, auth, failures } = feedOf(running, skewed);
    feed.start();
    await waitFor(() => feed.authState() === 'failed', 5_000, 'auth failed');
    expect(auth[0]).toEqual(['failed', expect.stringMatching(/Authentication failed/)]);
    await waitFor(() => failures.length >= 2, 5_000, 'a second refused attempt');
    expect(feed.connectionState().connects, 'reconnected after each refusal').toBeGreaterThanOrEqual(2);
    skewMs = 0;
    await waitFor(() => feed.authState() === 'ok', 5_000, 'auth ok again');
    expect(auth.at(-1)).toEqual(['ok', null]);
    expect(feed.connectionState().status).toBe('connected');
  });

  it('a wrong secret keeps failing (and retrying with backoff) without ever reporting ok', async () => {
    const running = await sim();
    const { feed, auth, failures } = feedOf(running, systemScheduler, Buffer.from('not-the-right-secret-at-all').toString('base64'));
    feed.start();
    await waitFor(() => failures.length >= 3, 5_000, 'three refusals');
    expect(auth).toEqual([['failed', expect.stringMatching(/Authentication failed/)]]);
    expect(feed.authState()).toBe('failed');
  });

  it('a correct handshake never reports a failure', async () => {
    const running = await sim();
    const { feed, auth } = feedOf(running, systemScheduler);
    const system: string[] = [];
    feed.onSystem((frame) => system.push(frame.message ?? ''));
    feed.start();
    // The simulator reports a refusal before its `system` greeting: once greeted, no refusal can still come.
    await waitFor(() => system.includes('Subscribed to order events'), 5_000, 'the order-event subscription confirmed');
    expect(auth).toEqual([]);
    expect(feed.authState()).toBe('ok');
  });
});
