/**
 * The creator fee of Community markets (src/rewards/creator-fee.ts) in the rebate estimate: which markets are
 * Community (a `source`, or a creator other than the venue's own, read from the market object through the real wire
 * parser), and the rebate the live accrual books for a maker fill in each (RewardAccrual, its public entry, on a
 * real ledger): the venue's own market at the full rate, a Community market at the rate on what the creator's cut
 * leaves, a Community market whose cut is not configured with no estimate at all.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { marketInfoOf } from '../../../src/markets/venue-markets.js';
import { RewardAccrual } from '../../../src/rewards/reward-accrual.js';
import { ManualClock } from '../../../src/core/clock.js';
import { DEFAULT_FEE_CURVE } from '../../../src/core/venue-rules/index.js';
import { parseMarket } from '../../../src/exchange/wire.js';
import { creatorFeeShareOf, isCommunityMarket, makerShareOfTakerFee, type CreatorFeeConfig } from '../../../src/rewards/creator-fee.js';
import { estimateMakerRebate } from '../../../src/strategy/rebates.js';
import type { MarketInfo } from '../../../src/strategy/contract.js';
import { activeMarketRecordings } from '../../contract/samples.js';
import { fillInput, memoryLedger, T0 } from '../../support/ledger-fixtures.js';

const EP = { method: 'GET', pathTemplate: '/markets/{slug}' } as const;
const BAND = { minTicks: 10, maxTicks: 990 };

function recorded(): Record<string, unknown> {
  const body = activeMarketRecordings()[0]?.body;
  if (typeof body !== 'object' || body === null) throw new Error('no recorded market');
  return body as Record<string, unknown>;
}

describe('Community markets', () => {
  it('the recorded markets are the venue\'s own (creator "Limitless", no source): no creator fee', () => {
    for (const record of activeMarketRecordings()) {
      const market = parseMarket(record.body, EP, 200);
      expect(market.creatorName).toBe('Limitless');
      expect(isCommunityMarket(market)).toBe(false);
      expect(marketInfoOf(market, BAND).creatorFeeShare).toBe(0);
    }
  });

  it('a source or another creator makes a market Community; its share is the configured guess, else unknown', () => {
    const config: CreatorFeeConfig = { shareOfTakerFee: 0.3, venueCreators: ['Limitless'] };
    const bySource = parseMarket({ ...recorded(), source: 'ugc:alice' }, EP, 200);
    const byCreator = parseMarket({ ...recorded(), creator: { name: 'alice', address: '0xabc' } }, EP, 200);
    expect([bySource.source, byCreator.creatorName]).toEqual(['ugc:alice', 'alice']);
    expect(creatorFeeShareOf(bySource, config)).toBe(0.3);
    expect(marketInfoOf(byCreator, BAND, undefined, config).creatorFeeShare).toBe(0.3);
    expect(creatorFeeShareOf(byCreator)).toBeNull();
    // A creator field that is not an object does not make the market unreadable.
    expect(parseMarket({ ...recorded(), creator: 'alice', source: 7 }, EP, 200)).toMatchObject({ creatorName: null, source: null });
    // A plain source (the simulator's `simulator`) is not a namespace.
    expect(isCommunityMarket(parseMarket({ ...recorded(), source: 'simulator' }, EP, 200))).toBe(false);
  });

  it('the maker\'s share of a taker fee is the rebate rate on what the creator leaves', () => {
    expect(makerShareOfTakerFee(0.25, 0)).toBe(0.25);
    expect(makerShareOfTakerFee(0.25, 0.4)).toBeCloseTo(0.15, 12);
    expect(makerShareOfTakerFee(0.25, null)).toBeNull();
  });
});

describe('the live accrual books the rebate net of the creator fee', () => {
  it('full rate on the venue\'s market, rate × (1 − share) on a Community one, nothing where the share is unknown', () => {
    const clock = new ManualClock(T0);
    const ledger = memoryLedger({ now: () => clock.now() });
    const info = (slug: string, creatorFeeShare: number | null): MarketInfo => ({
      slug,
      tokens: { yes: `${slug}-yes`, no: `${slug}-no` },
      minSizeRaw: 0,
      maxSpreadTicks: 0,
      rewardC: 3,
      dailyRewardRaw: 0,
      rewardable: false,
      expiresAtMs: null,
      band: BAND,
      rebateRate: 0.25,
      creatorFeeShare,
    });
    const markets = [info('venue', 0), info('community', 0.4), info('unknown-cut', null)];
    markets.forEach((m, i) => ledger.recordFill(fillInput({ tradeEventId: `t${i}`, orderId: `o${i}`, marketSlug: m.slug, tokenId: m.tokens.yes, priceTicks: 480, sizeRaw: 5_000_000 })));
    const accrual = new RewardAccrual({
      ledger,
      scheduler: clock,
      strategy: 'fixed-spread',
      markets: () => markets,
      book: () => null,
      ownOrders: () => [],
      rebateRateFallback: null,
      feeCurve: DEFAULT_FEE_CURVE,
      takerBuyShare: 0,
      minuteScoring: 'time-weighted',
      metrics: { rewardAccrued: () => undefined, rebateAccrued: () => undefined },
      log: pino({ level: 'silent' }),
    });
    accrual.tick();
    const rebateOf = (slug: string): number | undefined => ledger.rewards.accruals().find((r) => r.marketSlug === slug)?.rebateRaw;
    const fee = estimateMakerRebate({ side: 'BUY', priceTicks: 480, sizeRaw: 5_000_000 }, 1, { takerBuyShare: 0 }).takerFeeRaw;
    expect(fee).toBeGreaterThan(0);
    expect(rebateOf('venue')).toBe(Math.round(fee * 0.25));
    expect(rebateOf('community')).toBe(Math.round(fee * 0.25 * 0.6));
    expect(rebateOf('unknown-cut') ?? 0).toBe(0);
    expect(ledger.rewards.unrebatedMakerFills(['unknown-cut'])).toHaveLength(1);
    ledger.close();
  });
});
