/**
 * The `markets` section (src/config/markets-schema.ts): the selection rules and the discovery settings in the
 * config's units (ticks, ms), their defaults, and what a config that names no rule keeps doing.
 */
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { loadConfigFile, parseConfigText, type AppConfig } from '../../../src/config/index.js';

const LIVE = 'venue: {kind: live, baseUrl: "https://api.example.test", socketUrl: "wss://ws.example.test"}\nstrategy: {name: fixed-spread}\n';

function parse(markets: string): AppConfig {
  return parseConfigText(`${LIVE}markets: ${markets}\n`, { source: '<test>', baseDir: '/srv/bot' });
}

describe('markets.select rules', () => {
  it('every rule in the config\'s units: tickers, cadences, join time in ms, the fair band and hysteresis in ticks', () => {
    const { select } = parse('{select: {max: 12, tickers: [BTC, ETH], cadences: [hourly, 15m], joinBeforeSettlementSec: 3000, minFair: 0.03, maxFair: 0.97, fairHysteresis: 0.02, by: nearestTheMoney}}').markets;
    expect(select).toEqual({
      top: null,
      max: 12,
      by: 'nearestTheMoney',
      rewardableOnly: false,
      minDailyRewardRaw: 0,
      tickers: ['BTC', 'ETH'],
      cadences: ['hourly', '15m'],
      joinBeforeSettlementMs: 3_000_000,
      minFairTicks: 30,
      maxFairTicks: 970,
      fairHysteresisTicks: 20,
    });
  });

  it('rewardableOnly defaults to true with top (the N rewardable markets of old), to false without', () => {
    expect(parse('{select: {top: 3}}').markets.select).toMatchObject({ top: 3, max: null, rewardableOnly: true, by: 'dailyReward', fairHysteresisTicks: 10, tickers: null, cadences: null, joinBeforeSettlementMs: null, minFairTicks: null, maxFairTicks: null });
    expect(parse('{select: {max: 3}}').markets.select).toMatchObject({ top: null, max: 3, rewardableOnly: false });
    expect(parse('{select: {top: 3, rewardableOnly: false}}').markets.select?.rewardableOnly).toBe(false);
  });

  it('one side of the fair band alone is a band open on the other side', () => {
    expect(parse('{select: {max: 2, minFair: 0.1}}').markets.select).toMatchObject({ minFairTicks: 100, maxFairTicks: null });
  });
});

describe('markets.discovery', () => {
  it('defaults to a poll every 60 s and the lifecycle channel, also for a bare list of slugs', () => {
    expect(parse('[alpha-market]').markets).toMatchObject({ slugs: ['alpha-market'], discovery: { pollIntervalMs: 60_000, lifecycleEvents: true } });
  });

  it('takes the poll in seconds (at least 5) and turns the channel off', () => {
    expect(parse('{slugs: [alpha-market], discovery: {pollIntervalSec: 5, lifecycleEvents: false, clockMarginSec: 1.5}}').markets.discovery).toEqual({ pollIntervalMs: 5_000, lifecycleEvents: false, clockMarginMs: 1_500 });
  });
});

describe('config/hourly-crypto.example.yaml', () => {
  it('every BTC and ETH hourly market from 50 min before settlement, fair 0.03–0.97, 12 at most, priced ones stopping 60 s before', () => {
    const config = loadConfigFile(resolve(import.meta.dirname, '../../../config/hourly-crypto.example.yaml'));
    expect(config.markets.select).toMatchObject({ tickers: ['BTC', 'ETH'], cadences: ['hourly'], joinBeforeSettlementMs: 3_000_000, minFairTicks: 30, maxFairTicks: 970, max: 12, top: null });
    expect(config.pricing.pricer.stopBeforeSettlementMs).toBe(60_000);
  });
});
