/**
 * A venue that gives no answer: at start-up, retried on a manual clock only until `startup.venueTimeoutSec` (then a
 * VenueUnreachableError naming the URL and the cause), with a plain retry message; while running, VenueReachability
 * logs once per outage and names the URL and cause for /readyz until any answer comes.
 */
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { Writable } from 'node:stream';
import { noAnswerCause, retryStartupRead, startupRetryMessage, VenueUnreachableError } from '../../../src/venue/startup-retry.js';
import { VenueReachability } from '../../../src/venue/venue-reachability.js';
import { ExchangeRateLimitedError, MessageError, NetworkError } from '../../../src/exchange/errors.js';
import { evaluateReadiness } from '../../../src/metrics/server.js';

const endpoint = { method: 'GET', pathTemplate: '/profiles/{address}' } as const;
const refused = (): NetworkError => new NetworkError(endpoint, 'connection', 'connect ECONNREFUSED 127.0.0.1:9');

function capture(): { log: pino.Logger; lines: { msg: string; [key: string]: unknown }[] } {
  const lines: { msg: string; [key: string]: unknown }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as { msg: string });
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

describe('start-up against a venue that does not answer', () => {
  it('gives up once venueTimeout has passed since the first failure, naming the URL and the cause', async () => {
    let now = 0;
    const waits: number[] = [];
    let calls = 0;
    const failing = retryStartupRead(
      'profile',
      () => {
        calls += 1;
        now += 50; // each attempt takes a little time
        return Promise.reject(refused());
      },
      {
        initialBackoffMs: 1_000,
        maxBackoffMs: 30_000,
        budgetMs: 120_000,
        venue: { url: 'http://127.0.0.1:9', unreachableBudgetMs: 5_000, now: () => now },
        sleep: async (ms) => {
          waits.push(ms);
          now += ms;
        },
      },
    );
    const error = await failing.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VenueUnreachableError);
    const unreachable = error as VenueUnreachableError;
    expect(unreachable.url).toBe('http://127.0.0.1:9');
    expect(unreachable.failure).toBe('ECONNREFUSED');
    expect(unreachable.message).toMatch(/^the venue at http:\/\/127\.0\.0\.1:9 cannot be reached: ECONNREFUSED \(no answer for 5\.\d s, startup\.venueTimeoutSec: 5;/);
    // 1 s, 2 s, then only what is left of the 5 s, then one last attempt.
    expect(waits).toEqual([1_000, 2_000, 1_900]);
    expect(calls).toBe(4);
    expect(now).toBeLessThanOrEqual(50 + 5_000 + 50);
  });

  it('a rate-limited venue is not unreachable: the general budget applies', async () => {
    let now = 0;
    let calls = 0;
    const value = await retryStartupRead(
      'markets',
      async () => {
        calls += 1;
        if (calls < 5) throw new ExchangeRateLimitedError(endpoint, 4, 4_000);
        return 'ok';
      },
      { initialBackoffMs: 1_000, maxBackoffMs: 30_000, budgetMs: 120_000, venue: { url: 'u', unreachableBudgetMs: 1_000, now: () => now }, sleep: async (ms) => void (now += ms) },
    );
    expect(value).toBe('ok');
  });

  it('says plainly what happened', () => {
    expect(startupRetryMessage(refused())).toBe('start-up read: the venue does not answer; retrying');
    expect(startupRetryMessage(new ExchangeRateLimitedError(endpoint, 4, null))).toContain('the account may be busy');
    expect(startupRetryMessage(new MessageError(503, endpoint, { message: 'down' }))).toBe('start-up read failed (the venue answered with an error): retrying');
    expect(noAnswerCause('connection', 'getaddrinfo ENOTFOUND venue.invalid')).toBe('ENOTFOUND');
    expect(noAnswerCause('timeout', 'no answer within 10000 ms')).toBe('timed out');
    expect(noAnswerCause('connection', 'socket hang up')).toBe('connection failed');
  });
});

describe('VenueReachability (the running bot)', () => {
  it('one warning per outage, the reason for /readyz, and one line when the venue answers again', () => {
    const { log, lines } = capture();
    let now = 1_000;
    const reach = new VenueReachability({ url: 'http://127.0.0.1:9', log, now: () => now });
    expect(reach.readinessReason()).toBeNull();
    // During start-up the retries log themselves: not ready, but no second line for the same event.
    reach.observer.onNoAnswer('GET /profiles/{address}', 'connection', 'connect ECONNREFUSED 127.0.0.1:9');
    expect(reach.readinessReason()).toBe('venue unreachable: http://127.0.0.1:9 (ECONNREFUSED)');
    reach.observer.onRequestEnd('GET /profiles/{address}', 200, 3, 0);
    expect(reach.readinessReason()).toBeNull();
    expect(lines).toEqual([]);
    reach.running();
    // The request in flight as the venue went away is cut short (ECONNRESET); the ones after it are refused: the reason
    // says what fails now, the outage is still logged once.
    reach.observer.onNoAnswer('POST /orders', 'connection', 'read ECONNRESET');
    expect(reach.readinessReason()).toBe('venue unreachable: http://127.0.0.1:9 (ECONNRESET)');
    for (let i = 0; i < 3; i += 1) {
      reach.observer.onRequestEnd('GET /markets/{slug}', 'network', 3, 0);
      reach.observer.onNoAnswer('GET /markets/{slug}', 'connection', 'connect ECONNREFUSED 127.0.0.1:9');
    }
    expect(reach.readinessReason()).toBe('venue unreachable: http://127.0.0.1:9 (ECONNREFUSED)');
    expect(evaluateReadiness({ feedConnected: true, staleMarkets: [], paused: false, venueUnreachable: reach.readinessReason() })).toEqual({
      ready: false,
      reasons: ['venue unreachable: http://127.0.0.1:9 (ECONNREFUSED)'],
    });
    expect(lines.map((l) => l.msg)).toEqual(['venue unreachable: requests get no answer; retrying, not ready until it answers']);
    expect(lines.some((l) => l.msg.includes('account may be busy'))).toBe(false);
    now = 4_000;
    reach.observer.onRequestEnd('GET /markets/{slug}', 503, 3, 0); // any answer is an answer
    expect(reach.readinessReason()).toBeNull();
    expect(lines[1]).toMatchObject({ msg: 'venue reachable again', downMs: 3_000 });
    reach.observer.onRequestEnd('GET /markets/{slug}', 200, 3, 0);
    expect(lines).toHaveLength(2);
  });
});
