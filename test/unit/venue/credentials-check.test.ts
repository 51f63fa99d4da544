import { describe, expect, it } from 'vitest';
import { AuthRefusalCounter, likelyCredentialCause, type RefusalSource } from '../../../src/venue/credentials-check.js';
import { authRefusalText } from '../../../src/exchange/feed-auth.js';

describe('likelyCredentialCause', () => {
  const read = (status: number | null, message: string): string => likelyCredentialCause({ status, message, headerPrefix: 'lmts' });
  it('names the header prefix the venue asks for when it differs from the one sent', () => {
    expect(read(401, 'Unauthorized: Missing authentication header(s): svc-api-key, svc-timestamp')).toBe(
      'header prefix: the venue asks for svc-api-key headers, the bot sends lmts-api-key (venue.headerPrefix: lmts); set venue.headerPrefix: svc',
    );
  });
  it('reads missing headers without a name, a stale timestamp, a bad signature, an unknown token and a 403', () => {
    expect(read(401, 'missing auth headers')).toMatch(/^header prefix: .*lmts-api-key/);
    expect(read(401, 'svc-timestamp is more than 30 s away from server time')).toMatch(/^clock:/);
    expect(read(401, 'Invalid signature')).toMatch(/^secret:/);
    expect(read(401, 'Invalid API token')).toMatch(/^token:/);
    expect(read(403, 'Forbidden')).toMatch(/^scope:/);
  });
  it('names every candidate when the answer says nothing', () => {
    expect(read(401, 'Unauthorized')).toBe('check in this order: venue.headerPrefix (lmts), the API token id, the API secret, the clock; `outcome-maker doctor --config <file>` checks each');
  });
});

describe('AuthRefusalCounter', () => {
  it('fires once at the limit of refusals in a row; a signed 2xx ends the run; public answers do not', () => {
    const counted: RefusalSource[] = [];
    const fired: number[] = [];
    const counter = new AuthRefusalCounter({ limit: 3, onRefusal: (s) => counted.push(s), onLimit: (n) => fired.push(n) });
    counter.answer('POST /orders', 401);
    counter.answer('GET /markets/{slug}/orderbook', 200); // public: proves nothing
    counter.feedRefused();
    expect(fired).toEqual([]);
    counter.answer('GET /portfolio/positions', 403);
    expect(fired).toEqual([3]);
    counter.answer('POST /orders', 401);
    expect(fired).toEqual([3]); // once per run of refusals
    counter.answer('GET /markets/{slug}/user-orders', 200);
    expect(counter.refusalsInARow).toBe(0);
    for (let i = 0; i < 3; i += 1) counter.answer('DELETE /orders/{orderId}', 401);
    expect(fired).toEqual([3, 3]);
    expect(counted).toEqual(['rest', 'feed', 'rest', 'rest', 'rest', 'rest', 'rest']);
  });
  it('ignores timeouts, network failures and other statuses', () => {
    const fired: number[] = [];
    const counter = new AuthRefusalCounter({ limit: 1, onRefusal: () => undefined, onLimit: (n) => fired.push(n) });
    counter.answer('POST /orders', 'timeout');
    counter.answer('POST /orders', 'network');
    counter.answer('POST /orders', 429);
    expect(fired).toEqual([]);
  });
});

describe('authRefusalText', () => {
  it('reads a system frame "Connected" with authenticated: false as an unauthenticated connection, not a message', () => {
    const text = authRefusalText('system', { message: 'Connected', payload: { message: 'Connected', authenticated: false } });
    expect(text).toContain('connected the feed unauthenticated');
    expect(text).not.toMatch(/^Connected/);
  });
  it('keeps the venue\'s own words when they name the refusal', () => {
    expect(authRefusalText('exception', { message: 'Authentication failed: Invalid signature', payload: {} })).toBe('Authentication failed: Invalid signature');
  });
});
