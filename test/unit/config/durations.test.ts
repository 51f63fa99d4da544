/**
 * Durations: the YAML keys stay in seconds (`…Sec`), AppConfig carries milliseconds (`…Ms`), converted once where the
 * config is loaded (src/config/schema.ts). Defaults, fractional seconds, per-market overrides and the transport's
 * retry policy derived from `rateLimits.retry`.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfigText, riskLimitsFor, transportRetryPolicy, type AppConfig } from '../../../src/config/index.js';

const parse = (text: string): AppConfig => parseConfigText(text, { source: '<test>', baseDir: '/srv/bot' });

describe('config durations: seconds in the file, milliseconds in AppConfig', () => {
  it('defaults arrive in milliseconds', () => {
    const config = parse('strategy: {name: fixed-spread}\n');
    expect(config.orders).toMatchObject({ maxOrderAgeMs: 1_800_000, filledOrderDelayMs: 10_000 });
    expect(config.risk).toMatchObject({ stopBeforeExpiryMs: 3_600_000, staleGraceMs: 5_000, socketDownGraceMs: 10_000 });
    expect(config.rateLimits.retry).toEqual({ maxRetries: 3, initialBackoffMs: 1000, maxBackoffMs: 30_000, maxRetryAfterMs: 120_000 });
    expect(config.maintenance).toEqual({ pollIntervalMs: 30_000, ledgerCheckMs: 60_000, historyPollMs: 600_000 });
    expect(config.redemption).toEqual({ mode: 'auto', retryInitialMs: 30_000, retryMaxMs: 600_000 });
    expect(config.feed).toEqual({ watchdogIntervalMs: 1_000, quietThresholdMs: 20_000, staleAfterMs: 30_000, firstBookWaitMs: 2_000 });
  });

  it('written seconds (fractional too) are converted, per-market overrides included', () => {
    const config = parse(
      [
        'strategy: {name: fixed-spread}',
        'orders: {maxOrderAgeSec: 0, filledOrderDelaySec: 0.25}',
        'risk: {stopBeforeExpirySec: 90, staleGraceSec: 1.5, socketDownGraceSec: 2, perMarket: {m-1: {stopBeforeExpirySec: 0.5}}}',
        'rateLimits: {retry: {maxRetryAfterSec: 7}}',
        'maintenance: {pollIntervalSec: 0.5, ledgerCheckSec: 2.5, historyPollSec: 1.5}',
        'redemption: {retryInitialSec: 0.2, retryMaxSec: 0.4}',
        'feed: {watchdogIntervalSec: 0.5, quietThresholdSec: 2, staleAfterSec: 4}',
        '',
      ].join('\n'),
    );
    expect(config.orders).toMatchObject({ maxOrderAgeMs: 0, filledOrderDelayMs: 250 });
    expect(config.risk).toMatchObject({ stopBeforeExpiryMs: 90_000, staleGraceMs: 1_500, socketDownGraceMs: 2_000 });
    expect(riskLimitsFor(config.risk, 'm-1').stopBeforeExpiryMs).toBe(500);
    expect(riskLimitsFor(config.risk, 'm-2').stopBeforeExpiryMs).toBe(90_000);
    expect(config.rateLimits.retry.maxRetryAfterMs).toBe(7_000);
    expect(config.maintenance).toEqual({ pollIntervalMs: 500, ledgerCheckMs: 2_500, historyPollMs: 1_500 });
    expect(config.redemption).toMatchObject({ retryInitialMs: 200, retryMaxMs: 400 });
    expect(config.feed).toEqual({ watchdogIntervalMs: 500, quietThresholdMs: 2_000, staleAfterMs: 4_000, firstBookWaitMs: 2_000 });
    // No field of the parsed config is still in seconds.
    expect(JSON.stringify(config)).not.toMatch(/Sec"/);
  });

  it('bounds and cross-field rules still speak the YAML keys and the written values', () => {
    const error = ((): unknown => {
      try {
        return parse('strategy: {name: x}\nfeed: {watchdogIntervalSec: 30, quietThresholdSec: 20}\n');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues).toContainEqual(expect.objectContaining({ path: 'feed.watchdogIntervalSec', value: '30' }));
  });

  it('log.statusIntervalSec: 60 s by default, 0 turns the status line off, anything else below 1 s or not a number is refused by name', () => {
    expect(parse('strategy: {name: fixed-spread}\n').log.statusIntervalMs).toBe(60_000);
    expect(parse('strategy: {name: fixed-spread}\nlog: {statusIntervalSec: 0}\n').log.statusIntervalMs).toBe(0);
    expect(parse('strategy: {name: fixed-spread}\nlog: {statusIntervalSec: 2.5}\n').log.statusIntervalMs).toBe(2_500);
    for (const [written, value] of [['0.5', '0.5'], ['-1', '-1'], ['"often"', '"often"']] as const) {
      const error = ((): unknown => {
        try {
          return parse(`strategy: {name: fixed-spread}\nlog: {statusIntervalSec: ${written}}\n`);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error, written).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).issues, written).toContainEqual(expect.objectContaining({ path: 'log.statusIntervalSec' }));
      expect((error as ConfigError).message, written).toContain(value.replace(/"/g, ''));
    }
  });

  it('rateLimits.retry → the transport retry policy: one count and one backoff for 429 and 5xx', () => {
    const config = parse('strategy: {name: fixed-spread}\nrateLimits: {retry: {maxRetries: 2, initialBackoffMs: 50, maxBackoffMs: 400, maxRetryAfterSec: 9}}\n');
    expect(transportRetryPolicy(config.rateLimits.retry)).toEqual({
      maxRateLimitRetries: 2,
      maxServerErrorRetries: 2,
      rateLimitBaseMs: 50,
      serverErrorBaseMs: 50,
      rateLimitMaxMs: 400,
      serverErrorMaxMs: 400,
      maxRetryAfterMs: 9_000,
    });
  });
});
