/**
 * From the config's `rateLimits.shared` to the transport's `shared` option (the Redis URL resolved from the
 * environment when the config names a variable), and from the limiter's state to a /readyz "degraded" line.
 *
 * Owns: resolving the Redis URL. Invariants: the URL (which may carry a password) never appears in an error or a
 * readiness line; an unset or invalid variable is an error naming the variable, not its value.
 */
import type { SharedRateLimitConfig } from '../config/types.js';
import type { SharedLimitState } from './limiter.js';
import type { HttpTransportOptions } from './http.js';

/** The Redis URL of `shared`: the URL itself, or the value of the variable it names. */
export function resolveRedisUrl(shared: SharedRateLimitConfig, env: Readonly<Record<string, string | undefined>>): string {
  if (shared.redis.kind === 'url') return shared.redis.url;
  const name = shared.redis.env;
  const value = env[name]?.trim();
  if (!value) throw new Error(`rateLimits.shared.redis: environment variable ${name} is not set`);
  if (!/^rediss?:\/\/[^\s/]+/.test(value) || !URL.canParse(value)) throw new Error(`rateLimits.shared.redis: ${name} does not hold a redis:// or rediss:// URL`);
  return value;
}

/** The transport options that turn the shared limiter on (none when `shared` is null). */
export function sharedTransportOptions(shared: SharedRateLimitConfig | null, env: Readonly<Record<string, string | undefined>>): Pick<HttpTransportOptions, 'shared'> {
  if (shared === null) return {};
  return { shared: { redisUrl: resolveRedisUrl(shared, env), fallbackShare: shared.fallbackShare } };
}

/** The /readyz degraded line of a shared limiter in fallback; empty while shared or without a shared limiter. */
export function sharedLimitDegraded(state: SharedLimitState | null): string[] {
  if (state === null || state.mode === 'shared') return [];
  return [`rate limit: shared limiter in fallback (${state.reason ?? 'redis unreachable'})`];
}
