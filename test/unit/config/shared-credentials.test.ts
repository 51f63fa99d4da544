/**
 * rateLimits.shared in the config (validated, env-name or URL, no password literal) and `findUnsharedCredentials`
 * (the check-config / doctor warning: two configs on one API token without one shared limiter); the pm2 ecosystem's
 * simulator credentials match the simulator's own derivation and it starts redis-server for a loopback shared limiter.
 */
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, type AppConfig } from '../../../src/config/index.js';
import { findUnsharedCredentials } from '../../../src/config/shared-credentials.js';
import { resolveRedisUrl, sharedLimitDegraded } from '../../../src/exchange/shared-limiter-config.js';
import { deriveAccountCredentials } from '../../../src/sim/index.js';

function config(extra: Record<string, unknown> = {}, baseUrl = 'http://127.0.0.1:7070'): AppConfig {
  return parseConfig(
    {
      venue: { kind: 'live', baseUrl, socketUrl: baseUrl },
      markets: { slugs: ['m-1'] },
      strategy: { name: 'fixed-spread', params: { bidSpread: 0.02, askSpread: 0.02 } },
      ...extra,
    },
    { source: '<test>', baseDir: tmpdir() },
  );
}

const shared = (redis: string) => ({ rateLimits: { shared: { redis } } });

describe('rateLimits.shared', () => {
  it('is off by default, takes a URL or a variable name, and a fallback share in (0, 1]', () => {
    expect(config().rateLimits.shared).toBeNull();
    expect(config(shared('redis://127.0.0.1:6380')).rateLimits.shared).toEqual({ redis: { kind: 'url', url: 'redis://127.0.0.1:6380' }, fallbackShare: 1 / 3 });
    expect(config(shared('OM_REDIS_URL')).rateLimits.shared?.redis).toEqual({ kind: 'env', env: 'OM_REDIS_URL' });
    expect(config({ rateLimits: { shared: { redis: 'redis://127.0.0.1:6380', fallbackShare: 0.5 } } }).rateLimits.shared?.fallbackShare).toBe(0.5);
  });

  it('refuses a bad URL, a password written in the file, and a share outside (0, 1], naming the field', () => {
    expect(() => config(shared('http://127.0.0.1:6380'))).toThrow(/rateLimits\.shared\.redis/);
    const withPassword = (): AppConfig => config(shared('redis://:hunter2@127.0.0.1:6380'));
    expect(withPassword).toThrow(ConfigError);
    expect(withPassword).toThrow(/environment variable/);
    expect(withPassword).not.toThrow(/hunter2/);
    expect(() => config({ rateLimits: { shared: { redis: 'redis://127.0.0.1:1', fallbackShare: 0 } } })).toThrow(/fallbackShare/);
    expect(() => config({ rateLimits: { shared: { redis: 'redis://127.0.0.1:1', fallbackShare: 1.5 } } })).toThrow(/fallbackShare/);
  });

  it('resolves a variable without revealing its value in errors', () => {
    const s = config(shared('OM_REDIS_URL')).rateLimits.shared!;
    expect(resolveRedisUrl(s, { OM_REDIS_URL: 'redis://:pw@10.0.0.1:6379' })).toBe('redis://:pw@10.0.0.1:6379');
    expect(() => resolveRedisUrl(s, {})).toThrow(/OM_REDIS_URL is not set/);
    expect(() => resolveRedisUrl(s, { OM_REDIS_URL: 'nonsense-secret' })).toThrow(/OM_REDIS_URL does not hold/);
    expect(() => resolveRedisUrl(s, { OM_REDIS_URL: 'nonsense-secret' })).not.toThrow(/nonsense-secret/);
  });

  it('reports a fallback as a /readyz degraded line, nothing while shared', () => {
    expect(sharedLimitDegraded(null)).toEqual([]);
    expect(sharedLimitDegraded({ mode: 'shared', reason: null, sinceMs: 0 })).toEqual([]);
    expect(sharedLimitDegraded({ mode: 'fallback', reason: 'redis connection lost', sinceMs: 0 })[0]).toMatch(/fallback \(redis connection lost/);
  });
});

describe('findUnsharedCredentials', () => {
  it('warns when two configs on one token do not both use the same shared limiter', () => {
    const found = findUnsharedCredentials([
      { path: 'a.yaml', config: config(shared('redis://127.0.0.1:6380')) },
      { path: 'b.yaml', config: config() },
    ]);
    expect(found).toHaveLength(1);
    expect(found[0]!.unshared).toEqual(['b.yaml']);
    expect(found[0]!.message).toMatch(/a\.yaml, b\.yaml/);
    // Different Redis targets do not share either.
    expect(findUnsharedCredentials([
      { path: 'a.yaml', config: config(shared('redis://127.0.0.1:6380')) },
      { path: 'b.yaml', config: config(shared('redis://127.0.0.1:6381')) },
    ])[0]!.unshared).toEqual(['a.yaml', 'b.yaml']);
  });

  it('is quiet when they share one Redis, trade different venues or tokens, or run embedded simulators', () => {
    expect(findUnsharedCredentials([
      { path: 'a.yaml', config: config(shared('redis://127.0.0.1:6380')) },
      { path: 'b.yaml', config: config(shared('redis://127.0.0.1:6380')) },
    ])).toEqual([]);
    expect(findUnsharedCredentials([
      { path: 'a.yaml', config: config() },
      { path: 'b.yaml', config: config({}, 'http://127.0.0.1:7071') },
      { path: 'c.yaml', config: config({ credentials: { apiTokenId: 'OTHER_TOKEN' } }) },
    ])).toEqual([]);
    const sim = (): AppConfig => parseConfig({ strategy: { name: 'fixed-spread', params: { bidSpread: 0.02, askSpread: 0.02 } } }, { source: '<test>', baseDir: tmpdir() });
    expect(findUnsharedCredentials([{ path: 'a.yaml', config: sim() }, { path: 'b.yaml', config: sim() }])).toEqual([]);
  });

  it('compares token values (hashed) when the environment holds them: two variable names, one token', () => {
    const a = config({ credentials: { apiTokenId: 'TOKEN_A' } });
    const b = config({ credentials: { apiTokenId: 'TOKEN_B' } });
    const found = findUnsharedCredentials([{ path: 'a.yaml', config: a }, { path: 'b.yaml', config: b }], { TOKEN_A: 'same-token', TOKEN_B: 'same-token' });
    expect(found).toHaveLength(1);
    expect(JSON.stringify(found)).not.toContain('same-token');
  });
});

describe('ecosystem.config.cjs', () => {
  const ecosystem = createRequire(import.meta.url)('../../../ecosystem.config.cjs') as { apps: { name: string; args?: string[]; env?: Record<string, string> }[] };

  it('gives the shared-limit pair the standalone simulator’s demo credentials (seed 1), as the simulator derives them', () => {
    const demo = deriveAccountCredentials(1, 'demo', 1);
    for (const name of ['om-shared-limit-a', 'om-shared-limit-b']) {
      const env = ecosystem.apps.find((app) => app.name === name)?.env;
      expect(env, name).toMatchObject({ OM_SIM_API_TOKEN_ID: demo.tokenId, OM_SIM_API_SECRET: demo.secret, OM_SIM_PRIVATE_KEY: demo.privateKey });
    }
  });

  it('runs redis-server on loopback for the pair’s shared limiter, when it is installed', () => {
    const redis = ecosystem.apps.find((app) => app.name === 'om-redis');
    if (redis === undefined) return; // not installed here: the ecosystem warns and the bots use their fallback share
    expect(redis.args).toEqual(['--port', '6380', '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes']);
  });
});
