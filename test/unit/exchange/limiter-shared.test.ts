/**
 * The shared rate limit (src/exchange/shared-limiter.ts) against a REAL redis-server on a free loopback port:
 * several limiters, as separate processes would have, on one token: never more than 2 in flight, starts ≥ minTimeMs
 * apart across all of them (measured when each request is sent), cancels still first within a process; a killed
 * holder's leases expire; Redis stopped mid-run → fallback (state reported), still no overlap; Redis back → shared.
 * The fallback schedule (shared-limiter-slots.ts) is checked as pure arithmetic.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestLimiter, type RequestPriority, type SharedLimitState } from '../../../src/exchange/limiter.js';
import { fallbackSlots, redactRedisUrl, RedisStartGate, sharedKeyBase } from '../../../src/exchange/shared-limiter.js';
import { guessSlotIndex, nextSlotStart, type SlotPlan } from '../../../src/exchange/shared-limiter-slots.js';
import { poll } from '../../support/poll.js';
import { REDIS_MISSING, redisServerBinary, startTestRedis, type TestRedis } from '../../support/redis-server.js';

const hasRedis = redisServerBinary() !== null;
if (!hasRedis) console.warn(REDIS_MISSING);

const MIN_TIME_MS = 120;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** Polls `condition` every 20 ms until true, at most `timeoutMs`. */
function until(condition: () => boolean, timeoutMs: number): Promise<true> {
  return poll(() => (condition() ? true : undefined), { timeoutMs, intervalMs: 20, failure: () => `condition not met within ${timeoutMs} ms` });
}

async function redis(): Promise<TestRedis> {
  const server = await startTestRedis();
  cleanups.push(() => server.stop());
  return server;
}

function gate(url: string, token: string, extra: Partial<ConstructorParameters<typeof RedisStartGate>[0]> = {}): RedisStartGate {
  const g = new RedisStartGate({ redisUrl: url, tokenId: token, maxConcurrent: 2, minTimeMs: MIN_TIME_MS, fallbackGuardMs: 80, ...extra });
  cleanups.push(() => g.close());
  return g;
}

/** What every "process" did, on one clock: send times and the in-flight count across all of them. */
class VenueModel {
  readonly sends: { at: number; who: number; priority: RequestPriority }[] = [];
  inFlight = 0;
  maxInFlight = 0;

  task(who: number, priority: RequestPriority, holdMs: number) {
    return async (markSent: () => void): Promise<void> => {
      this.inFlight += 1;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      this.sends.push({ at: performance.now(), who, priority });
      markSent();
      await new Promise((resolve) => setTimeout(resolve, holdMs));
      this.inFlight -= 1;
    };
  }

  /** Smallest gap between two consecutive sends (of any process). */
  minGap(from = 0): number {
    const times = this.sends.slice(from).map((s) => s.at).sort((a, b) => a - b);
    let min = Number.POSITIVE_INFINITY;
    for (let i = 1; i < times.length; i++) min = Math.min(min, times[i]! - times[i - 1]!);
    return min;
  }
}

describe('fallback slots (pure)', () => {
  const plan: SlotPlan = { slotMs: 400, windowMs: 100, slots: 3, index: 1 };

  it('starts only inside the own slot window, once per slot', () => {
    expect(nextSlotStart(450, plan, null)).toEqual({ atMs: 450, slot: 1 }); // slot 1 = [400, 800), window to 500
    expect(nextSlotStart(520, plan, null)).toEqual({ atMs: 1600, slot: 4 }); // window closed: next round
    expect(nextSlotStart(450, plan, 1)).toEqual({ atMs: 1600, slot: 4 }); // slot 1 already used
    expect(nextSlotStart(0, plan, null)).toEqual({ atMs: 400, slot: 1 });
    expect(nextSlotStart(1000, { ...plan, index: 0 }, null)).toEqual({ atMs: 1200, slot: 3 });
  });

  it('keeps starts of different slots at least slotMs - windowMs apart', () => {
    const starts: number[] = [];
    for (let index = 0; index < 3; index++) {
      let last: number | null = null;
      for (let now = 0; now < 10_000; ) {
        const next = nextSlotStart(now, { ...plan, index }, last);
        starts.push(next.atMs + 99); // latest possible moment in the window
        starts.push(next.atMs);
        last = next.slot;
        now = next.atMs + 1;
      }
    }
    const sorted = [...new Set(starts)].sort((a, b) => a - b);
    // Pairs from the same window are the same process; across processes the gap is ≥ 400 - 100.
    for (let i = 1; i < sorted.length; i++) {
      const gap = sorted[i]! - sorted[i - 1]!;
      if (gap !== 99) expect(gap).toBeGreaterThanOrEqual(300);
    }
  });

  it('has at least 1/share slots, more when more processes were seen', () => {
    expect(fallbackSlots(1 / 3, 0)).toBe(3);
    expect(fallbackSlots(1 / 3, 5)).toBe(5);
    expect(fallbackSlots(0.5, 1)).toBe(2);
    expect(fallbackSlots(1, 0)).toBe(1);
    expect(guessSlotIndex('1234:om:rl:abc', 3)).toBe(guessSlotIndex('1234:om:rl:abc', 3));
  });

  it('keys derive from a hash of the token id; URLs are redacted', () => {
    expect(sharedKeyBase('tok-1')).toMatch(/^om:rl:[0-9a-f]{16}$/);
    expect(sharedKeyBase('tok-1')).not.toContain('tok-1');
    expect(redactRedisUrl('redis://user:hunter2@127.0.0.1:6379/0')).not.toContain('hunter2');
  });

  it('refuses a fallback share outside (0, 1]', () => {
    expect(() => new RedisStartGate({ redisUrl: 'redis://127.0.0.1:1', tokenId: 't', maxConcurrent: 2, minTimeMs: 300, fallbackShare: 0 })).toThrow(/fallbackShare/);
  });
});

describe.skipIf(!hasRedis)('shared limiter on a real redis-server', () => {
  it('three limiters on one token: ≤ 2 in flight and ≥ minTimeMs between sends across all of them; cancels first', async () => {
    const server = await redis();
    const venue = new VenueModel();
    const limiters = [0, 1, 2].map(() => new RequestLimiter({ maxConcurrent: 2, minTimeMs: MIN_TIME_MS }, { gate: gate(server.url, 'tok-a') }));
    await until(() => limiters.every((l) => l.sharedState()?.mode === 'shared'), 5000);
    const jobs: Promise<void>[] = [];
    limiters.forEach((limiter, who) => {
      for (let i = 0; i < 6; i++) jobs.push(limiter.schedule('read', venue.task(who, 'read', 150 + 40 * who)));
    });
    // Queued last, in process 2: its cancel must go before its remaining reads.
    jobs.push(limiters[2]!.schedule('cancel', venue.task(2, 'cancel', 10)));
    await Promise.all(jobs);
    expect(venue.sends).toHaveLength(19);
    expect(venue.maxInFlight).toBeLessThanOrEqual(2);
    // The start lock is re-leased for minTimeMs at each send (on the Redis clock): allow 2 ms of clock granularity.
    expect(venue.minGap()).toBeGreaterThanOrEqual(MIN_TIME_MS - 2);
    const ofTwo = venue.sends.filter((s) => s.who === 2);
    expect(ofTwo.findIndex((s) => s.priority === 'cancel')).toBeLessThanOrEqual(2);
    // Near the limit: 19 starts at ≥ 120 ms each take about 19 × 120 ms, not much more.
    const span = venue.sends.at(-1)!.at - venue.sends[0]!.at;
    expect(span).toBeLessThan(19 * MIN_TIME_MS * 1.8);
  }, 30_000);

  it('a killed holder cannot keep its permits: its leases expire', async () => {
    const server = await redis();
    const holder = gate(server.url, 'tok-b', { leaseMs: 600, holdMs: 600, minTimeMs: 50 });
    await until(() => holder.state().mode === 'shared', 5000);
    const first = await holder.acquire();
    first.sent();
    const second = await holder.acquire();
    // Both in-flight permits are held; the holder dies without giving anything back (no release, no refresh).
    void second;
    await holder.close();
    const other = gate(server.url, 'tok-b', { leaseMs: 600, holdMs: 600, minTimeMs: 50 });
    await until(() => other.state().mode === 'shared', 5000);
    const started = performance.now();
    const permit = await other.acquire();
    const waited = performance.now() - started;
    permit.release();
    expect(waited).toBeGreaterThan(200); // it did wait for the dead holder's leases...
    expect(waited).toBeLessThan(3000); // ...only until they expired
    expect(other.state().mode).toBe('shared');
  }, 20_000);

  it('Redis stopped mid-run: fallback (reported, 1 in flight, spaced); Redis back: shared again', async () => {
    const server = await redis();
    const venue = new VenueModel();
    const states: SharedLimitState[][] = [[], []];
    const limiters = [0, 1].map((who) => {
      const limiter = new RequestLimiter({ maxConcurrent: 2, minTimeMs: MIN_TIME_MS }, { gate: gate(server.url, 'tok-c', { probeMs: 200 }) });
      limiter.observe({ onSharedLimitState: (state) => states[who]!.push(state) });
      return limiter;
    });
    await until(() => limiters.every((l) => l.sharedState()?.mode === 'shared'), 5000);
    const run = (count: number): Promise<void[]> =>
      Promise.all(limiters.flatMap((limiter, who) => Array.from({ length: count }, () => limiter.schedule('read', venue.task(who, 'read', 30)))));
    await run(3);

    await server.stop();
    await until(() => limiters.every((l) => l.sharedState()?.mode === 'fallback'), 5000);
    for (const limiter of limiters) expect(limiter.sharedState()?.reason).toMatch(/redis/);
    const fallbackFrom = venue.sends.length;
    venue.maxInFlight = 0;
    await run(3);
    // Fallback: each process 1 in flight and its own slot (slots of 120 + 80 ms, one start per round of 3).
    expect(venue.maxInFlight).toBeLessThanOrEqual(2);
    expect(venue.minGap(fallbackFrom)).toBeGreaterThanOrEqual(MIN_TIME_MS - 2);
    const ofZero = venue.sends.slice(fallbackFrom).filter((s) => s.who === 0).map((s) => s.at);
    for (let i = 1; i < ofZero.length; i++) expect(ofZero[i]! - ofZero[i - 1]!).toBeGreaterThanOrEqual(3 * 200 - 80 - 5);

    await server.start();
    await until(() => limiters.every((l) => l.sharedState()?.mode === 'shared'), 8000);
    const backFrom = venue.sends.length;
    await run(3);
    expect(venue.minGap(backFrom)).toBeGreaterThanOrEqual(MIN_TIME_MS - 2);
    for (const seen of states) {
      expect(seen.map((s) => s.mode)).toEqual(expect.arrayContaining(['fallback', 'shared']));
      expect(seen.at(-1)?.mode).toBe('shared');
      for (const s of seen) expect(s.reason ?? '').not.toContain('redis://');
    }
  }, 40_000);

  it('Redis stopped, the machine loaded on purpose (CPU-burning neighbours) and each request late to the wire: sends stay ≥ minTimeMs apart', async () => {
    // The suite's multi-bot phase once drew a 429: a fallback start sent 207 ms after another process's, because the
    // permit was granted inside its slot window but the request reached the wire a loaded event loop later. Here each
    // request takes 0–250 ms (seeded) between its permit and the wire, as signing a batch on a loaded machine does,
    // while two neighbour processes burn both cores (bounded: they end by themselves). A fallback start counts when it
    // is SENT: one whose window passed meanwhile is not sent but waits for its next slot (StartPermit.onTime).
    const server = await redis();
    const neighbours = [0, 1].map(() => spawn(process.execPath, ['-e', 'const end = Date.now() + 15000; while (Date.now() < end) {}'], { stdio: 'ignore' }));
    cleanups.push(async () => {
      for (const neighbour of neighbours) neighbour.kill('SIGKILL');
    });
    const limiters = [0, 1, 2].map(() => new RequestLimiter({ maxConcurrent: 2, minTimeMs: MIN_TIME_MS }, { gate: gate(server.url, 'tok-load', { probeMs: 200 }) }));
    await until(() => limiters.every((l) => l.sharedState()?.mode === 'shared'), 8000);
    await server.stop();
    await until(() => limiters.every((l) => l.sharedState()?.mode === 'fallback'), 8000);
    let seed = 7;
    const prepMs = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % 251;
    };
    const sends: { at: number; who: number }[] = [];
    let late = 0;
    /** The transport's loop (http.ts): prepare, ask `onTime` at the wire, send, or schedule again when late. */
    const request = async (limiter: RequestLimiter, who: number): Promise<void> => {
      for (;;) {
        const sent = await limiter.schedule('read', async (markSent, onTime) => {
          await new Promise((resolve) => setTimeout(resolve, prepMs()));
          if (!onTime()) return false;
          sends.push({ at: performance.now(), who });
          markSent();
          await new Promise((resolve) => setTimeout(resolve, 20));
          return true;
        });
        if (sent) return;
        late += 1;
      }
    };
    await Promise.all(limiters.flatMap((limiter, who) => Array.from({ length: 3 }, () => request(limiter, who))));
    expect(sends).toHaveLength(9);
    const sorted = [...sends].sort((a, b) => a.at - b.at);
    const gaps = sorted.slice(1).map((s, i) => ({ gap: s.at - sorted[i]!.at, across: s.who !== sorted[i]!.who }));
    // Across processes (what the venue counts against the token): at least minTimeMs, under load, with late requests.
    expect(Math.min(...gaps.filter((g) => g.across).map((g) => g.gap))).toBeGreaterThanOrEqual(MIN_TIME_MS - 2);
    // The load did make requests late (the case that was counted wrong), and they were held back, not sent.
    expect(late).toBeGreaterThan(0);
  }, 60_000);

  it('never reached: requests still go, in fallback, after the connect timeout', async () => {
    const unused = await redis();
    const port = unused.port;
    await unused.stop();
    const limiter = new RequestLimiter({ maxConcurrent: 2, minTimeMs: MIN_TIME_MS }, { gate: gate(`redis://127.0.0.1:${port}`, 'tok-d') });
    const venue = new VenueModel();
    await Promise.all([limiter.schedule('read', venue.task(0, 'read', 10)), limiter.schedule('read', venue.task(0, 'read', 10))]);
    expect(venue.sends).toHaveLength(2);
    expect(venue.maxInFlight).toBe(1);
    expect(limiter.sharedState()).toMatchObject({ mode: 'fallback' });
    expect(limiter.sharedState()?.reason).toMatch(/slot guessed/);
  }, 20_000);
});
