/**
 * The wire of rewards and rebates: `settings.rebateRate` on the recorded market objects (absent there: 0 once
 * normalised) and as the official client types it (a number), and the portfolio's `rewards` per market and in total
 * (the official client's shapes; amounts decimal USDC → raw). Bad values are ResponseValidationErrors naming the field.
 */
import { describe, expect, it } from 'vitest';
import { validationError } from '../../support/response-validation.js';
import type { EndpointRef } from '../../../src/exchange/errors.js';
import { normalizeRewardSettings, parseMarket, parsePortfolio } from '../../../src/exchange/wire.js';
import { activeMarketRecordings } from '../../contract/samples.js';

const EP: EndpointRef = { method: 'GET', pathTemplate: '/test' };

const recorded = (): Record<string, unknown> => {
  const first = activeMarketRecordings()[0];
  if (!first || typeof first.body !== 'object' || first.body === null) throw new Error('no recorded market');
  return first.body as Record<string, unknown>;
};

describe('settings.rebateRate', () => {
  it('is absent from the recorded markets: the settings parse as recorded and the rate normalises to 0', () => {
    for (const record of activeMarketRecordings()) {
      const market = parseMarket(record.body, EP, 200);
      if (market.settings === null) continue;
      expect(market.settings.rebateRate).toBeUndefined();
      const normalized = normalizeRewardSettings(market.settings);
      expect(normalized.rebateRate).toBe(0);
      expect(normalized).toMatchObject({ minSizeRaw: 100_000_000, maxSpreadTicks: 35, c: 3 });
    }
  });

  it('reads the number the official client types (and a numeric string), and refuses anything else naming the field', () => {
    const body = recorded();
    const settings = body['settings'] as Record<string, unknown>;
    expect(parseMarket({ ...body, settings: { ...settings, rebateRate: 0.25 } }, EP, 200).settings?.rebateRate).toBe(0.25);
    expect(normalizeRewardSettings(parseMarket({ ...body, settings: { ...settings, rebateRate: '0.5' } }, EP, 200).settings).rebateRate).toBe(0.5);
    expect(parseMarket({ ...body, settings: { ...settings, rebateRate: null } }, EP, 200).settings?.rebateRate).toBeUndefined();
    for (const bad of ['lots', -0.1, true]) {
      const error = validationError(() => parseMarket({ ...body, settings: { ...settings, rebateRate: bad } }, EP, 200));
      expect(error.issues[0]?.path).toBe('settings.rebateRate');
      expect(error.issues[0]?.value).toBe(JSON.stringify(bad));
    }
  });
});

const POSITION = {
  market: { slug: 'btc-above-1' },
  tokensBalance: { yes: '10000000', no: '0' },
  rewards: {
    epochs: [
      { epochStart: '2026-01-01T00:00:00.000Z', epochEnd: '2026-01-02T00:00:00.000Z', rewards: '12.5', rebates: '0.0102', paid: true },
      { epochStart: '2026-01-02T00:00:00.000Z', epochEnd: null, rewards: '0.694444', rebates: '0', paid: false },
      'an epoch in a shape nobody recorded',
    ],
    isEarning: true,
  },
};

const TOTAL = {
  todaysRewards: '0.694444',
  rewardsByEpoch: [{ epochStart: '2026-01-01T00:00:00.000Z', epochEnd: '2026-01-02T00:00:00.000Z', paidAt: '2026-01-02T00:00:00.000Z', rewards: '12.5', rebates: '0.0102' }],
  rewardsChartData: [],
  totalUnpaidRewards: '0.694444',
  totalUserRewardsLastEpoch: '12.5',
};

describe('GET /portfolio/positions rewards', () => {
  it('reads the per-market and total rewards into raw USDC, epochs where their shape fits', () => {
    const portfolio = parsePortfolio({ clob: [POSITION], rewards: { ...TOTAL, todaysRebates: '0.01', totalPaidRebates: 3 } }, EP, 200);
    const market = portfolio.clob[0]?.rewards;
    expect(market).toEqual({
      isEarning: true,
      epochs: [
        { startMs: Date.UTC(2026, 0, 1), endMs: Date.UTC(2026, 0, 2), rewardsRaw: 12_500_000, rebatesRaw: 10_200, paid: true },
        { startMs: Date.UTC(2026, 0, 2), endMs: null, rewardsRaw: 694_444, rebatesRaw: 0, paid: false },
      ],
      unreadableEpochs: 1,
      rawEpochs: POSITION.rewards.epochs,
    });
    expect(portfolio.rewards).toEqual({
      todaysRewardsRaw: 694_444,
      totalUnpaidRewardsRaw: 694_444,
      lastEpochRewardsRaw: 12_500_000,
      todaysRebatesRaw: 10_000,
      totalUnpaidRebatesRaw: null,
      lastEpochRebatesRaw: null,
      totalPaidRewardsRaw: null,
      totalPaidRebatesRaw: 3_000_000,
      epochs: [{ startMs: Date.UTC(2026, 0, 1), endMs: Date.UTC(2026, 0, 2), rewardsRaw: 12_500_000, rebatesRaw: 10_200, paid: true }],
      unreadableEpochs: 0,
      rawEpochs: TOTAL.rewardsByEpoch,
    });
  });

  it('leaves rewards out when the venue sent none', () => {
    const portfolio = parsePortfolio({ clob: [{ ...POSITION, rewards: undefined }] }, EP, 200);
    expect(portfolio.rewards).toBeUndefined();
    expect(portfolio.clob[0]?.rewards).toBeUndefined();
  });

  it('refuses a declared amount that is not a decimal, or an isEarning that is not a boolean, naming the field', () => {
    const cases: [unknown, string, string][] = [
      [{ clob: [], rewards: { ...TOTAL, todaysRewards: 'twelve' } }, 'rewards.todaysRewards', '"twelve"'],
      [{ clob: [], rewards: { ...TOTAL, totalUnpaidRewards: -1 } }, 'rewards.totalUnpaidRewards', '-1'],
      [{ clob: [], rewards: { ...TOTAL, totalUserRewardsLastEpoch: '1.0000001' } }, 'rewards.totalUserRewardsLastEpoch', '"1.0000001"'],
      [{ clob: [{ ...POSITION, rewards: { epochs: [], isEarning: 'yes' } }] }, 'clob[0].rewards.isEarning', '"yes"'],
    ];
    for (const [body, path, value] of cases) {
      const error = validationError(() => parsePortfolio(body, EP, 200));
      expect(error.issues[0]).toMatchObject({ path, value });
    }
  });
});
