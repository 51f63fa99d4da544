/**
 * The bot's config reaches the embedded simulator's reward and fee settings: config/paper.yaml's short cycle (scored
 * every 5 s, paid every 15 s) and minimum size (10 shares, so its 10-share quotes earn) arrive in the simulator that
 * `openVenue` starts, with the crypto world's fee curve and rebate rate; `venue.feeModel` and the reward keys are
 * checked like every other key (a bad value names its path).
 */
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openVenue } from '../../src/venue/venue.js';
import { ConfigError, loadConfigFile, parseConfigText, type ConfigIssue } from '../../src/config/index.js';

const CONFIG_DIR = resolve(import.meta.dirname, '../../config');

function issuesOf(text: string): readonly ConfigIssue[] {
  try {
    parseConfigText(text, { source: '<test>', baseDir: '/srv/bot' });
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('the simulator venue: rewards and fees from the config', () => {
  it('paper.yaml starts a simulator that scores every 5 s, pays every 15 s, on the fee curve, 10-share minimum', async () => {
    const config = loadConfigFile(join(CONFIG_DIR, 'paper.yaml'));
    expect(config.venue).toMatchObject({ kind: 'sim', rewards: { scoreIntervalMs: 5_000, payoutIntervalMs: 15_000, minSizeRaw: 10_000_000 } });
    const venue = await openVenue({ ...config, metrics: { ...config.metrics, port: 0 } }, {});
    try {
      const sim = venue.simulator;
      if (sim === null) throw new Error('no simulator');
      expect(sim.engine.rewardSchedule()).toEqual({ enabled: true, scoreIntervalMs: 5_000, payoutIntervalMs: 15_000, payoutAtUtcMs: 81_000_000, feeModel: 'curve' });
      const markets = sim.engine.markets();
      expect(markets.length).toBeGreaterThan(0);
      for (const m of markets) expect(m.settings).toMatchObject({ minSizeRaw: 10_000_000, maxSpreadTicks: 35, dailyRewardRaw: 1_000_000_000, c: 3, rebateRate: 0.2 });
    } finally {
      await venue.close();
    }
  });

  it('names a bad reward or fee key with its value', () => {
    const paths = (text: string): string[] => issuesOf(text).map((i) => i.path);
    expect(paths('venue: {kind: sim, rewards: {payoutIntervalSec: 0}}')).toContain('venue.rewards.payoutIntervalSec');
    expect(paths('venue: {kind: sim, rewards: {rebateRate: 2}}')).toContain('venue.rewards.rebateRate');
    expect(paths('venue: {kind: sim, rewards: {bonus: 1}}')).toContain('venue.rewards.bonus');
    expect(paths('venue: {kind: sim, feeModel: tiered}')).toContain('venue.feeModel');
    // The bot's side: the minute scoring, the payout cycle it reads after, the names the epoch lists are read under.
    expect(paths('rewards: {minuteScoring: hourly}')).toContain('rewards.minuteScoring');
    expect(paths('rewards: {payoutCycleSec: 0}')).toContain('rewards.payoutCycleSec');
    expect(paths('rewards: {venueEpochs: {amountUnit: cents}}')).toContain('rewards.venueEpochs.amountUnit');
    // The API reference settles raw amounts: the old decimal reading is refused, naming the field.
    expect(paths('rewards: {venueEpochs: {amountUnit: decimal}}')).toContain('rewards.venueEpochs.amountUnit');
    expect(paths('rewards: {payoutTimeUtc: "24:00"}')).toContain('rewards.payoutTimeUtc');
    expect(paths('venue: {kind: sim, rewards: {payoutTimeUtc: "9:5"}}')).toContain('venue.rewards.payoutTimeUtc');
    expect(paths('rewards: {venueEpochs: {fields: {rewards: []}}}')).toContain('rewards.venueEpochs.fields.rewards');
    expect(paths('rewards: {venueEpochs: {fields: {bonus: [x]}}}').filter((path) => path.startsWith('rewards.venueEpochs.fields'))).toHaveLength(1);
    const config = parseConfigText('strategy: {name: fixed-spread}\nrewards: {payoutCycleSec: 86400, venueEpochs: {amountUnit: raw, fields: {rewards: [payout]}}}', { source: '<test>', baseDir: '/srv/bot' });
    expect(config.rewards).toMatchObject({ minuteScoring: 'time-weighted', payoutCycleMs: 86_400_000, payoutReadDelayMs: null, payoutAtUtcMs: 81_000_000, venueEpochs: { epochLengthMs: null, fields: { rewards: ['payout'] } } });
    expect(parseConfigText('strategy: {name: fixed-spread}\nrewards: {payoutTimeUtc: "00:00"}', { source: '<test>', baseDir: '/srv/bot' }).rewards.payoutAtUtcMs).toBe(0);
    expect(config.rewards.venueEpochs.fields.end).toContain('epochEnd');
  });
});
