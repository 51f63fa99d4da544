/**
 * The `pricing:` section and the simulator's crypto world in the config: defaults, conversion to the pricer's units,
 * and errors that name the path and the value.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfigText, type AppConfig } from '../../../src/config/index.js';
import { DEFAULT_PYTH_FEED_IDS } from '../../../src/pricing/feed-ids.js';
import { DEFAULT_PRICER_SETTINGS } from '../../../src/pricing/market-pricer.js';

const parse = (text: string): AppConfig => parseConfigText(text, { source: '<test>', baseDir: '/srv/bot' });
const BASE = 'strategy: { name: fixed-spread }\n';

function issues(text: string): { path: string; value: unknown }[] {
  try {
    parse(text);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((i) => ({ path: i.path, value: i.value }));
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('pricing config', () => {
  it('defaults to the pricer defaults and the default feed ids', () => {
    const c = parse(BASE);
    expect(c.pricing.pricer).toEqual(DEFAULT_PRICER_SETTINGS);
    expect(c.pricing.feedIds).toEqual(DEFAULT_PYTH_FEED_IDS);
    expect(c.pricing.store).toEqual({ staleMs: 10_000, maxDivergenceBps: 50, maxFutureSkewMs: 5_000 });
  });

  it('converts seconds and basis points once, and merges feed ids over the defaults', () => {
    const c = parse(`${BASE}pricing:
  unpriced: book
  staleSec: 2.5
  stopBeforeSettlementSec: 120
  settlementNoiseBps: 3
  tails: { kind: student-t, dof: 5 }
  guard: { k: 5, windowSec: 3, cooldownSec: 20 }
  feedIds: { DOGE: "DCFA8F3D2E9B7D2B5E3F1A0C8B7A6F5E4D3C2B1A0F9E8D7C6B5A4F3E2D1C0B9A" }
`);
    expect(c.pricing.pricer).toMatchObject({ unpricedCrypto: 'book', staleMs: 2_500, stopBeforeSettlementMs: 120_000, tails: { kind: 'student-t', dof: 5 }, guard: { enabled: true, k: 5, windowMs: 3_000, cooldownMs: 20_000 } });
    expect(c.pricing.pricer.settlementNoiseVariance).toBeCloseTo(9e-8, 20);
    expect(c.pricing.feedIds['DOGE']).toBe('0xdcfa8f3d2e9b7d2b5e3f1a0c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a');
    expect(c.pricing.feedIds['BTC']).toBe(DEFAULT_PYTH_FEED_IDS['BTC']);
  });

  it('names the path and the value of what it refuses', () => {
    expect(issues(`${BASE}pricing: { feedIds: { BTC: "0x12" } }\n`)).toContainEqual({ path: 'pricing.feedIds.BTC', value: '"0x12"' });
    expect(issues(`${BASE}pricing: { unpriced: maybe }\n`)).toContainEqual(expect.objectContaining({ path: 'pricing.unpriced' }));
    expect(issues(`${BASE}pricing: { tails: { kind: student-t, dof: 2 } }\n`)).toContainEqual(expect.objectContaining({ path: 'pricing.tails.dof', value: '2' }));
    expect(issues(`${BASE}pricing: { volatility: { minAnnualVol: 2, maxAnnualVol: 1 } }\n`)).toContainEqual(expect.objectContaining({ path: 'pricing.volatility.minAnnualVol' }));
    expect(issues(`${BASE}pricing: { staleSec: -1 }\n`)).toContainEqual(expect.objectContaining({ path: 'pricing.staleSec', value: '-1' }));
  });

  it('paper trading runs in the crypto world and trades every market it lists', () => {
    const c = parseConfigText(readFileSync('config/paper.yaml', 'utf8'), { source: 'config/paper.yaml', baseDir: 'config' });
    if (c.venue.kind !== 'sim') throw new Error('paper is not on the simulator');
    expect(c.venue.world).toBe('crypto');
    const u = c.venue.underlying;
    expect(c.markets.select?.top).toBe(u.tickers.length * u.cadences.length * u.strikesPerExpiry);
  });
});
