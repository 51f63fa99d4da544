import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  credentialIssues,
  credentialStatus,
  parseConfigText,
  resolvedConfigView,
  resolveSecrets,
  secretValues,
  SecretValue,
  type CredentialsConfig,
} from '../../../src/config/index.js';

const NAMES: CredentialsConfig = { apiTokenId: 'T_ID', apiSecret: 'T_SECRET', privateKey: 'T_KEY' };
const KEY_HEX = '11'.repeat(32);
const SECRET = Buffer.from('super-secret-key-0123456789').toString('base64');
const GOOD_ENV = { T_ID: 'token-123', T_SECRET: SECRET, T_KEY: KEY_HEX };

function issuesOf(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('resolveSecrets', () => {
  it('reads the named variables and normalises the private key', () => {
    const resolved = resolveSecrets({ ...NAMES, onBehalfOf: { kind: 'env', env: 'T_SUB' } }, { ...GOOD_ENV, T_SUB: '42' });
    expect(resolved.apiTokenId.reveal()).toBe('token-123');
    expect(resolved.apiSecret.reveal()).toBe(SECRET);
    expect(resolved.privateKey.reveal()).toBe(`0x${KEY_HEX}`);
    expect(resolved.onBehalfOf).toBe(42);
    expect(secretValues(resolved)).toEqual(['token-123', SECRET, `0x${KEY_HEX}`, KEY_HEX]);
  });

  it('takes a literal delegation id', () => {
    expect(resolveSecrets({ ...NAMES, onBehalfOf: { kind: 'id', id: 7 } }, GOOD_ENV).onBehalfOf).toBe(7);
  });

  it('lists every unset variable by name', () => {
    const error = issuesOf(() => resolveSecrets(NAMES, {}));
    expect(error.issues.map((i) => [i.path, i.message])).toEqual([
      ['credentials.apiTokenId', 'environment variable T_ID is not set'],
      ['credentials.apiSecret', 'environment variable T_SECRET is not set'],
      ['credentials.privateKey', 'environment variable T_KEY is not set'],
    ]);
  });

  it('rejects malformed values without printing them', () => {
    const env = { T_ID: 'has space', T_SECRET: 'not base64!!', T_KEY: '0x1234', T_SUB: 'abc' };
    const error = issuesOf(() => resolveSecrets({ ...NAMES, onBehalfOf: { kind: 'env', env: 'T_SUB' } }, env));
    expect(error.issues.map((i) => i.path)).toEqual(['credentials.apiTokenId', 'credentials.apiSecret', 'credentials.privateKey', 'credentials.onBehalfOf']);
    expect(error.message).toContain('T_KEY is not a 32-byte hex private key');
    for (const value of Object.values(env)) expect(error.message).not.toContain(value);
    expect(error.issues.every((i) => i.value === '[redacted]')).toBe(true);
  });

  it('credentialIssues is empty without credentials (simulator) and lists problems otherwise', () => {
    expect(credentialIssues(null, {})).toEqual([]);
    expect(credentialIssues(NAMES, GOOD_ENV)).toEqual([]);
    expect(credentialIssues(NAMES, { ...GOOD_ENV, T_KEY: '' }).map((i) => i.path)).toEqual(['credentials.privateKey']);
  });
});

describe('SecretValue', () => {
  it('never shows its value through string conversion, JSON or inspect', () => {
    const secret = new SecretValue('T_SECRET', SECRET);
    expect(String(secret)).toBe('[secret T_SECRET]');
    expect(JSON.stringify({ secret })).toBe('{"secret":"[secret T_SECRET]"}');
    expect(inspect({ nested: { secret } })).not.toContain(SECRET);
    expect(Object.keys(secret)).toEqual(['envName']);
  });
});

describe('what check-config shows', () => {
  it('variable names and whether they are set, never values', () => {
    expect(credentialStatus(NAMES, { T_ID: 'x', T_KEY: '' })).toEqual([
      { field: 'apiTokenId', env: 'T_ID', set: true },
      { field: 'apiSecret', env: 'T_SECRET', set: false },
      { field: 'privateKey', env: 'T_KEY', set: false },
    ]);
    const config = parseConfigText(
      'venue: {kind: live, baseUrl: "https://a.test", socketUrl: "wss://a.test"}\nmarkets: [m]\nstrategy: {name: x}\ncredentials: {onBehalfOf: 99}\n',
      { source: 't', baseDir: '/tmp' },
    );
    const env = { OM_API_TOKEN_ID: 'tok-abcdef', OM_API_SECRET: SECRET, OM_PRIVATE_KEY: KEY_HEX };
    const view = resolvedConfigView(config, env);
    expect(view['credentials']).toEqual({
      apiTokenId: { env: 'OM_API_TOKEN_ID', set: true },
      apiSecret: { env: 'OM_API_SECRET', set: true },
      privateKey: { env: 'OM_PRIVATE_KEY', set: true },
      onBehalfOf: 99,
    });
    const text = JSON.stringify(view);
    for (const value of Object.values(env)) expect(text).not.toContain(value);
  });

  it('says the simulator generates its own wallet when there are no credentials', () => {
    const config = parseConfigText('strategy: {name: x}\n', { source: 't', baseDir: '/tmp' });
    expect(resolvedConfigView(config, {})['credentials']).toMatch(/simulator generates a wallet/);
  });
});
