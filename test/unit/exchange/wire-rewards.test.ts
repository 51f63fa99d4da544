/**
 * The wire of rewards and rebates: `settings.rebateRate` on the recorded market objects (absent there: 0 once
 * normalised) and as the official client types it (a number), and the portfolio's `rewards` per market and in total
 * (the official client's shapes; amounts raw 6-decimal integers, as the API reference shows). A bad part is left out and
 * named by its path; only an answer that is not the portfolio is a ResponseValidationError.
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

const EPOCH = { epochId: 1, timestamp: '2026-01-01T00:00:00.000Z', totalRewards: '125000000', userRewards: '12500000', earnedPercent: 0.1 };

const POSITION = {
  market: { slug: 'btc-above-1' },
  tokensBalance: { yes: '10000000', no: '0' },
  positions: { yes: { cost: '7500000', fillPrice: '750000', realisedPnl: '0', unrealizedPnl: '-500000', marketValue: '7000000' } },
  rewards: { epochs: [EPOCH, 'an epoch in a shape nobody recorded'], isEarning: true },
};

const TOTAL = {
  todaysRewards: '694444',
  rewardsByEpoch: [EPOCH],
  rewardsChartData: [{ timestamp: 1767312000000, userRewards: '12500000', totalRewards: '125000000' }],
  totalUnpaidRewards: '694444',
  totalUserRewardsLastEpoch: '12500000',
};

describe('GET /portfolio/positions rewards', () => {
  it('reads every amount as a raw 6-decimal integer (the API reference), the epoch lists kept as sent for the configured reading', () => {
    const portfolio = parsePortfolio({ clob: [POSITION], rewards: { ...TOTAL, todaysRebates: '10000', totalPaidRebates: 3_000_000 } }, EP, 200);
    expect(portfolio.clob[0]).toMatchObject({ yes: { cost: 7_500_000, fillPrice: 750_000, realisedPnl: 0, unrealizedPnl: -500_000 }, rewards: { isEarning: true, rawEpochs: POSITION.rewards.epochs } });
    expect(portfolio.rewards).toEqual({
      todaysRewardsRaw: 694_444,
      totalUnpaidRewardsRaw: 694_444,
      lastEpochRewardsRaw: 12_500_000,
      todaysRebatesRaw: 10_000,
      totalUnpaidRebatesRaw: null,
      lastEpochRebatesRaw: null,
      totalPaidRewardsRaw: null,
      totalPaidRebatesRaw: 3_000_000,
      rawEpochs: TOTAL.rewardsByEpoch,
      skipped: [],
    });
    expect(portfolio.skipped).toEqual([]);
  });

  it('leaves rewards out when the venue sent none', () => {
    const portfolio = parsePortfolio({ clob: [{ ...POSITION, rewards: undefined }] }, EP, 200);
    expect(portfolio.rewards).toBeUndefined();
    expect(portfolio.clob[0]?.rewards).toBeUndefined();
  });

  it('leaves out a total that is not a raw amount (a decimal is the old guess), and a position whose figures do not read, each named by its path; the rest stands', () => {
    const cases: [unknown, string, string][] = [
      [{ clob: [], rewards: { ...TOTAL, todaysRewards: 'twelve' } }, 'rewards.todaysRewards', 'not a raw integer amount (got "twelve")'],
      [{ clob: [], rewards: { ...TOTAL, totalUnpaidRewards: -1 } }, 'rewards.totalUnpaidRewards', 'not a raw integer amount (got -1)'],
      [{ clob: [], rewards: { ...TOTAL, totalUserRewardsLastEpoch: '12.5' } }, 'rewards.totalUserRewardsLastEpoch', 'not a raw integer amount (got "12.5")'],
      [{ clob: [{ ...POSITION, rewards: { epochs: [], isEarning: 'yes' } }] }, 'clob[0].rewards.isEarning', 'Invalid input: expected boolean, received string (got "yes")'],
      [{ clob: [{ ...POSITION, positions: { yes: { fillPrice: '0.75' } } }] }, 'clob[0].positions.yes.fillPrice', 'not a raw integer amount (got "0.75")'],
    ];
    for (const [body, path, reason] of cases) {
      const portfolio = parsePortfolio(body, EP, 200);
      expect(portfolio.skipped).toEqual([{ path, reason }]);
    }
    expect(parsePortfolio(cases[0]?.[0], EP, 200).rewards?.todaysRewardsRaw).toBeNull();
    expect(parsePortfolio(cases[0]?.[0], EP, 200).rewards?.lastEpochRewardsRaw).toBe(12_500_000);
  });

  it('refuses only an answer that is not the portfolio at all', () => {
    const error = validationError(() => parsePortfolio({ clob: 'none' }, EP, 200));
    expect(error.issues[0]).toMatchObject({ path: 'clob' });
  });
});
