/**
 * Where `run` serves its metrics: `--metrics-port N`, else `$OM_METRICS_PORT` (the Docker image's health check reads the
 * same variable), else the config's `metrics.port`.
 *
 * Owns: reading a port number and that order (pure). Invariants: a port is a whole number 0..65535 (0: any free
 * port); a bad value is a MetricsPortUsageError naming where it came from and the value; the answer says where the
 * port came from, so a busy-port error can name `--metrics-port` or the variable rather than the file.
 */
import type { AppConfig } from '../config/types.js';

/** The environment variable that moves the metrics port of `run`. */
export const METRICS_PORT_ENV = 'OM_METRICS_PORT';

export class MetricsPortUsageError extends Error {
  override readonly name = 'MetricsPortUsageError';
}

/** A port number 0..65535 from text; `what` names the flag or variable in the error. */
export function parsePort(value: string, what = '--metrics-port'): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(port) || port > 65_535) throw new MetricsPortUsageError(`${what}=${JSON.stringify(value)}: expected a port number, 0 to 65535`);
  return port;
}

/** The port that replaces `metrics.port` and where it came from, or null (the config's own). */
export function metricsPortOverride(flag: number | undefined, env: Readonly<Record<string, string | undefined>>): { readonly port: number; readonly setBy: string } | null {
  if (flag !== undefined) return { port: flag, setBy: '--metrics-port' };
  const text = env[METRICS_PORT_ENV];
  if (text === undefined || text.trim() === '') return null;
  return { port: parsePort(text, METRICS_PORT_ENV), setBy: METRICS_PORT_ENV };
}

/** `config` with its metrics port replaced (frozen like the loaded config); a disabled metrics server is an error. */
export function withMetricsPort(config: AppConfig, override: { readonly port: number; readonly setBy: string }, file: string): AppConfig {
  if (!config.metrics.enabled) throw new MetricsPortUsageError(`${override.setBy} ${override.port}: ${file} sets metrics.enabled: false`);
  return Object.freeze({ ...config, metrics: Object.freeze({ ...config.metrics, port: override.port }) });
}
