import { describe, expect, it } from 'vitest';
import {
  authHeaderNames,
  computeSignature,
  signingMessage,
  signRequest,
  signaturesEqual,
  socketHandshakeHeaders,
} from '../../../src/exchange/auth.js';

const SECRET = Buffer.from('super-secret-key').toString('base64');

describe('HMAC auth (exchange-facts §4)', () => {
  it('matches the published test vector', () => {
    const message = signingMessage('2026-03-23T12:34:56.789Z', 'patch', '/orders?market=btc', '{"foo":"bar"}');
    expect(message).toBe('2026-03-23T12:34:56.789Z\nPATCH\n/orders?market=btc\n{"foo":"bar"}');
    expect(computeSignature(SECRET, message)).toBe('mgMUpOd7FH4sOSti2MF30YKF9yDq+67VjFksPa5I5eE=');
  });

  it('builds the three headers under the configured prefix with an ISO timestamp', () => {
    const headers = signRequest({
      credentials: { tokenId: 'tok-1', secret: SECRET },
      method: 'PATCH',
      pathWithQuery: '/orders?market=btc',
      body: '{"foo":"bar"}',
      nowMs: Date.parse('2026-03-23T12:34:56.789Z'),
      prefix: 'Acme',
    });
    expect(headers).toEqual({
      'acme-api-key': 'tok-1',
      'acme-timestamp': '2026-03-23T12:34:56.789Z',
      'acme-signature': 'mgMUpOd7FH4sOSti2MF30YKF9yDq+67VjFksPa5I5eE=',
    });
    // The default is the live venue's prefix; the specification's `svc` is an option.
    expect(authHeaderNames()).toEqual({ apiKey: 'lmts-api-key', timestamp: 'lmts-timestamp', signature: 'lmts-signature' });
    expect(authHeaderNames('svc')).toEqual({ apiKey: 'svc-api-key', timestamp: 'svc-timestamp', signature: 'svc-signature' });
  });

  it('signs the socket handshake path with an empty body, fresh per timestamp', () => {
    const creds = { tokenId: 't', secret: SECRET };
    const a = socketHandshakeHeaders(creds, 1_000);
    const b = socketHandshakeHeaders(creds, 31_000);
    const expected = computeSignature(SECRET, `${a['lmts-timestamp']}\nGET\n/socket.io/?EIO=4&transport=websocket\n`);
    expect(a['lmts-signature']).toBe(expected);
    expect(a['lmts-timestamp']).not.toBe(b['lmts-timestamp']);
    expect(a['lmts-signature']).not.toBe(b['lmts-signature']);
  });

  it('compares signatures exactly', () => {
    expect(signaturesEqual('abc=', 'abc=')).toBe(true);
    expect(signaturesEqual('abc=', 'abd=')).toBe(false);
    expect(signaturesEqual('abc=', 'abc')).toBe(false);
  });
});
