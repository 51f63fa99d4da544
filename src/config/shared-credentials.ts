/**
 * Bots that share one API token share the venue's rate limit (2 in flight, 300 ms between starts, per token): two
 * config files naming the same credentials on the same venue must both use the shared limiter (rateLimits.shared,
 * the same Redis), or together they exceed the limit and get 429s. Used by `check-config` and `doctor`.
 *
 * Owns: what "the same credentials" means: the same venue base URL and the same API token (its value when the
 * environment holds it, compared by hash; otherwise the variable name). Embedded simulators (`venue.kind: sim`) never
 * share: each bot has its own. Invariants: pure; no secret or token value appears in a result.
 */
import { createHash } from 'node:crypto';
import type { AppConfig } from './types.js';

export interface NamedConfig {
  /** Where the config came from (a file path). */
  readonly path: string;
  readonly config: AppConfig;
}

export interface UnsharedCredentials {
  /** The venue and the token's variable name(s), e.g. `http://127.0.0.1:7070 (OM_API_TOKEN_ID)`. */
  readonly account: string;
  /** Every config on that account. */
  readonly paths: readonly string[];
  /** The configs among them without the shared limiter (all of them when their Redis targets differ). */
  readonly unshared: readonly string[];
  readonly message: string;
}

/** The account key of a config: null for an embedded simulator or a config without credentials. */
export function accountKey(config: AppConfig, env: Readonly<Record<string, string | undefined>> = {}): string | null {
  if (config.venue.kind !== 'live' || config.credentials === null) return null;
  const name = config.credentials.apiTokenId;
  const value = env[name]?.trim();
  const token = value ? `token#${createHash('sha256').update(value).digest('hex').slice(0, 16)}` : `env:${name}`;
  return `${config.venue.baseUrl}|${token}`;
}

function redisTarget(config: AppConfig): string | null {
  const shared = config.rateLimits.shared;
  if (shared === null) return null;
  return shared.redis.kind === 'url' ? shared.redis.url : `env:${shared.redis.env}`;
}

/** Groups of configs on one account that do not all share one limiter (one entry per such account). */
export function findUnsharedCredentials(configs: readonly NamedConfig[], env: Readonly<Record<string, string | undefined>> = {}): UnsharedCredentials[] {
  const groups = new Map<string, NamedConfig[]>();
  for (const named of configs) {
    const key = accountKey(named.config, env);
    if (key === null) continue;
    const group = groups.get(key) ?? [];
    group.push(named);
    groups.set(key, group);
  }
  const found: UnsharedCredentials[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const targets = new Set(group.map((g) => redisTarget(g.config)));
    const missing = group.filter((g) => redisTarget(g.config) === null).map((g) => g.path);
    if (missing.length === 0 && targets.size === 1) continue;
    const first = group[0]!.config;
    const names = [...new Set(group.map((g) => g.config.credentials?.apiTokenId ?? ''))].join(', ');
    const account = `${first.venue.kind === 'live' ? first.venue.baseUrl : 'sim'} (${names})`;
    const unshared = missing.length > 0 ? missing : group.map((g) => g.path);
    const why = missing.length > 0 ? `without rateLimits.shared: ${missing.join(', ')}` : 'with different rateLimits.shared.redis targets';
    found.push({
      account,
      paths: group.map((g) => g.path),
      unshared,
      message: `${group.length} configs trade on the same API token at ${account} (${group.map((g) => g.path).join(', ')}), ${why}: together they exceed the venue's per-token rate limit (429s); give each the same rateLimits.shared.redis (docs/rate-limits.md)`,
    });
  }
  return found;
}
