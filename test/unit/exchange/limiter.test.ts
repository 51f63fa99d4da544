import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { performance } from 'node:perf_hooks';
import { HttpTransport, type HttpRequest } from '../../../src/exchange/http.js';
import { LimiterRegistry, RequestLimiter, type RequestPriority, type StartGate } from '../../../src/exchange/limiter.js';
import { stalledMs } from '../../support/chaos-invariants.js';
import { startStallRecorder } from '../../support/chaos-stalls.js';
import { fakeTime } from '../../support/fake-time.js';
import { startRecordingServer, type RecordingServer } from '../../support/recording-server.js';

const CREDS = { tokenId: 'tok-1', secret: Buffer.from('k').toString('base64') };

let server: RecordingServer;
beforeEach(async () => {
  server = await startRecordingServer();
});
afterEach(async () => {
  await server.close();
});

function request(priority: RequestPriority, path: string): HttpRequest {
  return { method: 'GET', pathTemplate: path, path, auth: true, priority, kind: 'read' };
}

describe('the real limiter against a local server (timing)', () => {
  it('keeps ≥ 300 ms between request starts and ≤ 2 requests in flight', async () => {
    // Each answer takes 700 ms: without the concurrency cap a third request would start at 600 ms.
    server.setHandler(() => ({ status: 200, body: {}, delayMs: 700 }));
    const sent: number[] = [];
    // The server stamps arrivals on this process's loop: its stalls (on the stamps' clock) explain a late stamp.
    const recorder = startStallRecorder({ now: () => performance.now() });
    const limiter = new RequestLimiter();
    const transport = new HttpTransport({
      baseUrl: server.url,
      credentials: CREDS,
      limiter,
      observer: { onRequestSent: () => sent.push(performance.now()) },
    });
    await Promise.all([1, 2, 3, 4].map((i) => transport.send(request('read', `/r${i}`))));
    recorder.stop();
    expect(limiter.config).toEqual({ maxConcurrent: 2, minTimeMs: 300, maxSendWaitMs: 1000 });
    expect(server.maxInFlight).toBe(2);
    const arrivals = server.requests.map((r) => r.arrivedAt);
    for (let i = 1; i < arrivals.length; i++) {
      // The limiter spaces the moments requests are handed to the OS, on its own clock: exactly ≥ 300 ms.
      expect(sent[i]! - sent[i - 1]!).toBeGreaterThanOrEqual(300);
      // Arrivals add loopback and event-loop jitter (server and client share this process's loop): 5 ms, plus the
      // time the loop stalled before stamping the previous arrival (it was stamped that much late at most; the rule
      // of chaos-invariants.ts rateLimitViolations). A request sent early shows with no stall before it.
      const stalled = stalledMs(recorder.stalls, arrivals[i - 1]! - 300, arrivals[i - 1]!);
      expect(arrivals[i]! - arrivals[i - 1]!, `arrival gap ${i}; ${stalled.toFixed(1)} ms stalled before the previous stamp`).toBeGreaterThanOrEqual(295 - stalled);
    }
    expect(Math.max(...server.requests.map((r) => r.inFlightAtArrival))).toBe(2);
  });

  it('starts queued requests in priority order: cancel, then probe, then place, then read', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.setHandler(async (r) => {
      if (r.pathname === '/first') await gate;
      return { status: 200, body: {} };
    });
    const transport = new HttpTransport({ baseUrl: server.url, credentials: CREDS, limiter: new RequestLimiter({ maxConcurrent: 1, minTimeMs: 0 }) });
    const first = transport.send(request('read', '/first'));
    await server.waitForRequests(1);
    // All three queue while /first holds the only slot.
    const queued = [transport.send(request('read', '/read')), transport.send(request('place', '/place')), transport.send(request('probe', '/probe')), transport.send(request('cancel', '/cancel'))];
    release();
    await Promise.all([first, ...queued]);
    expect(server.requests.map((r) => r.pathname)).toEqual(['/first', '/cancel', '/probe', '/place', '/read']);
  });
});

describe('limiter mechanics (injected clock and timers)', () => {
  it('spaces starts by minTimeMs and caps concurrency', async () => {
    const time = fakeTime(0);
    const limiter = new RequestLimiter({ maxConcurrent: 2, minTimeMs: 300 }, { now: time.now, setTimer: time.setTimer });
    const starts: number[] = [];
    const finishers: (() => void)[] = [];
    const jobs = [1, 2, 3].map(() =>
      limiter.schedule('read', (markSent) => {
        markSent();
        starts.push(time.now());
        return new Promise<void>((resolve) => finishers.push(resolve));
      }),
    );
    await flush();
    expect(starts).toEqual([0, 300]);
    expect(limiter.running()).toBe(2);
    expect(limiter.queued()).toBe(1);
    time.advance(1000);
    finishers[0]!();
    await flush();
    expect(starts).toEqual([0, 300, 1300]);
    finishers[1]!();
    finishers[2]!();
    await Promise.all(jobs);
    expect(limiter.running()).toBe(0);
  });

  it('spaces from the moment a request was sent, waiting at most maxSendWaitMs for it', async () => {
    const time = fakeTime(0);
    let fire: (() => void) | null = null;
    const limiter = new RequestLimiter(
      { maxConcurrent: 2, minTimeMs: 300, maxSendWaitMs: 1000 },
      { now: time.now, setTimer: (fn) => ((fire = fn), () => (fire = null)) },
    );
    const starts: number[] = [];
    let send: () => void = () => {};
    const first = limiter.schedule('read', (markSent) => {
      starts.push(time.now());
      send = markSent;
      return new Promise<void>(() => {});
    });
    const second = limiter.schedule('read', async () => {
      starts.push(time.now());
    });
    time.advance(300);
    fire!();
    await flush();
    expect(starts).toEqual([0]); // the first is not on the wire yet: a cold connection must not squeeze the gap
    time.advance(50);
    send();
    time.advance(299);
    fire!();
    await flush();
    expect(starts).toEqual([0]);
    time.advance(1);
    fire!();
    await second;
    expect(starts).toEqual([0, 650]);
    void first;

    const stuck = new RequestLimiter({ maxConcurrent: 2, minTimeMs: 300, maxSendWaitMs: 1000 }, { now: time.now, setTimer: time.setTimer });
    const t0 = time.now();
    const at: number[] = [];
    void stuck.schedule('read', () => new Promise<void>(() => at.push(time.now() - t0)));
    await stuck.schedule('cancel', async () => {
      at.push(time.now() - t0);
    });
    expect(at).toEqual([0, 1000]);
  });

  it('picks by priority at the moment of starting, not when a slot frees', async () => {
    const time = fakeTime(0);
    let fire: (() => void) | null = null;
    const limiter = new RequestLimiter({ maxConcurrent: 2, minTimeMs: 300 }, { now: time.now, setTimer: (fn) => ((fire = fn), () => (fire = null)) });
    const order: string[] = [];
    const run = (name: string) => async (markSent: () => void): Promise<void> => {
      markSent();
      order.push(name);
    };
    await limiter.schedule('read', run('r0'));
    // A slot is free, but the spacing holds the next start for 300 ms; these queue meanwhile, the read first.
    const queued = ['r1', 'p1', 'c1', 'c2'].map((name) =>
      limiter.schedule(name.startsWith('c') ? 'cancel' : name.startsWith('p') ? 'place' : 'read', run(name)),
    );
    for (let i = 0; i < 4; i++) {
      expect(order).toHaveLength(1 + i);
      time.advance(300);
      fire!();
      await flush();
    }
    await Promise.all(queued);
    expect(order).toEqual(['r0', 'c1', 'c2', 'p1', 'r1']);
  });

  it('a 429 pause holds every start until it ends; a shorter pause does not shorten it', async () => {
    const time = fakeTime(1000);
    let fire: (() => void) | null = null;
    const limiter = new RequestLimiter({ minTimeMs: 0 }, { now: time.now, setTimer: (fn) => ((fire = fn), () => (fire = null)) });
    limiter.pauseFor(5000);
    limiter.pauseFor(100);
    expect(limiter.pausedFor()).toBe(5000);
    let ran = false;
    const job = limiter.schedule('cancel', async () => {
      ran = true;
    });
    await flush();
    expect(ran).toBe(false);
    time.advance(4999);
    fire!();
    await flush();
    expect(ran).toBe(false);
    time.advance(1);
    fire!();
    await job;
    expect(ran).toBe(true);
    expect(limiter.pausedFor()).toBe(0);
  });

  it('reports queue depth and wait per priority', async () => {
    const time = fakeTime(0);
    const depths: number[] = [];
    const waits: [RequestPriority, number][] = [];
    const limiter = new RequestLimiter({ maxConcurrent: 1, minTimeMs: 0 }, { now: time.now, setTimer: time.setTimer });
    limiter.observe({ onQueueDepth: (d) => depths.push(d), onQueueWait: (p, ms) => waits.push([p, ms]) });
    let unblock: () => void = () => {};
    const blocker = limiter.schedule('read', () => new Promise<void>((resolve) => (unblock = resolve)));
    const second = limiter.schedule('place', async () => {});
    expect(limiter.queued()).toBe(1);
    expect(limiter.running()).toBe(1);
    time.advance(250);
    unblock();
    await Promise.all([blocker, second]);
    expect(waits).toEqual([['read', 0], ['place', 250]]);
    expect(depths).toEqual([1, 0, 1, 0]);
  });

  it('a failing task frees its slot and rejects only its own caller', async () => {
    const limiter = new RequestLimiter({ maxConcurrent: 1, minTimeMs: 0 });
    const failing = limiter.schedule('read', async () => {
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    await expect(limiter.schedule('read', async () => 7)).resolves.toBe(7);
  });

  it('a request withheld before it was sent keeps the spacing of the last one sent and gives a gate permit back unused', async () => {
    const time = fakeTime(0);
    const permits: string[] = [];
    const gate: StartGate = {
      acquire: () => Promise.resolve({ sent: () => permits.push('sent'), release: () => permits.push('release'), cancel: () => permits.push('cancel') }),
      state: () => ({ mode: 'shared', reason: null, sinceMs: 0 }),
      onState: () => () => undefined,
      close: () => Promise.resolve(),
    };
    const limiter = new RequestLimiter({ maxConcurrent: 2, minTimeMs: 300 }, { now: time.now, setTimer: time.setTimer, gate });
    const starts: [string, number][] = [];
    const sentOne = limiter.schedule('read', async (markSent) => {
      starts.push(['sent', time.now()]);
      markSent();
    });
    await sentOne;
    // Queued placements found stale as they leave (the bot stopping): each refused before anything reached the wire.
    const withheld = [1, 2, 3].map((i) =>
      limiter.schedule('place', async (_markSent, _onTime, markNotSent) => {
        starts.push([`withheld-${i}`, time.now()]);
        markNotSent();
        throw new Error('withheld');
      }),
    );
    const cancel = limiter.schedule('read', async (markSent) => {
      starts.push(['after', time.now()]);
      markSent();
    });
    // The limiter's timer moves the fake clock to the next start allowed (300).
    await Promise.all(withheld.map((p) => p.catch(() => undefined)));
    await cancel;
    // All start at 300 (the spacing from the request sent at 0); before, each refused one counted a start: 300, 600…
    expect(starts).toEqual([['sent', 0], ['withheld-1', 300], ['withheld-2', 300], ['withheld-3', 300], ['after', 300]]);
    expect(permits).toEqual(['sent', 'release', 'cancel', 'cancel', 'cancel', 'sent', 'release']);
  });

  it('one limiter per credentials key', () => {
    const registry = new LimiterRegistry();
    const a = registry.get('tok-1', { minTimeMs: 500 });
    expect(registry.get('tok-1')).toBe(a);
    expect(registry.get('tok-2')).not.toBe(a);
    expect(a.config.minTimeMs).toBe(500);
  });

  it('refuses nonsense limits', () => {
    expect(() => new RequestLimiter({ maxConcurrent: 0 })).toThrow(RangeError);
    expect(() => new RequestLimiter({ minTimeMs: -1 })).toThrow(RangeError);
  });
});

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}
