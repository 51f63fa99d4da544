/**
 * Market selection as rules (src/markets/market-selection.ts), with known values: the cadence of the recorded live
 * markets (by tag and by lifetime), each rule of `markets.select` alone and combined, named slugs and groups, the
 * exclusions, `top`, `max` and the priority order, the fair band's hysteresis, and listing entries without details.
 */
import { describe, expect, it } from 'vitest';
import { cadenceOf, cadenceOfLifetime, selectMarkets, type SelectionCandidate, type SelectionInput } from '../../../src/markets/market-selection.js';
import type { Market } from '../../../src/exchange/wire.js';
import { CAPTURED_AT_MS, detailedMarkets, MINUTE, recorded, recordedMarkets, reward, rules, variant } from '../../support/selection-fixtures.js';

const NOW = CAPTURED_AT_MS;
const BTC_HOURLY = recorded('BTC', 'Hourly');
const ETH_HOURLY = recorded('ETH', 'Hourly');
const ETH_DAILY = recorded('ETH', 'Daily');
const SOL_HOURLY = recorded('SOL', 'Hourly');
const SOL_WEEKLY = recorded('SOL', 'Weekly');

function candidates(markets: readonly Market[], fairs: Readonly<Record<string, number | null>> = {}): SelectionCandidate[] {
  return markets.map((market) => ({ market, fair: fairs[market.slug] ?? null }));
}

function run(input: Partial<SelectionInput> & Pick<SelectionInput, 'rules' | 'candidates'>): { selected: string[]; skipped: Record<string, string> } {
  const result = selectMarkets({ nowMs: NOW, current: new Set(), ...input });
  return { selected: result.selected.map((m) => m.slug), skipped: Object.fromEntries(result.skipped) };
}

describe('cadenceOf', () => {
  it('reads the recorded live markets from their tags: Hourly, Daily, Weekly', () => {
    expect(recordedMarkets().map(cadenceOf)).toEqual(['hourly', 'hourly', 'hourly', 'hourly', 'daily', 'hourly', 'daily', 'weekly', 'hourly', 'daily', 'hourly', 'hourly']);
  });

  it('without tags, reads the same cadences from their lifetimes (createdAt → expirationTimestamp)', () => {
    const untagged = recordedMarkets().map((m) => ({ ...m, tags: [], categories: [] }));
    expect(untagged.map(cadenceOf)).toEqual(recordedMarkets().map(cadenceOf));
    expect(BTC_HOURLY.createdAtMs).toBe(Date.parse('2025-12-17T00:02:09.571Z'));
  });

  it.each([
    [15, '15m'],
    [13, '15m'],
    [60, 'hourly'],
    [57.8, 'hourly'],
    [1_440, 'daily'],
    [10_080, 'weekly'],
    [5, null],
    [30, null],
    [240, null],
    [20_160, null],
  ] as const)('a lifetime of %s min is %s', (minutes, cadence) => {
    expect(cadenceOfLifetime(minutes * MINUTE)).toBe(cadence);
    const created = BTC_HOURLY.expirationMs! - minutes * MINUTE;
    expect(cadenceOf({ ...BTC_HOURLY, tags: ['Recurring'], categories: [], createdAtMs: created })).toBe(cadence);
  });

  it('a tag naming 15 minutes counts; "Minutely" alone does not (5 or 15?): the lifetime decides', () => {
    const bare = { ...BTC_HOURLY, categories: [], createdAtMs: null };
    for (const tag of ['15m', '15 Min', '15-minute', '15 Minutes', 'minutes_15']) expect(cadenceOf({ ...bare, tags: [tag] })).toBe('15m');
    expect(cadenceOf({ ...bare, tags: ['Minutely'] })).toBeNull();
    expect(cadenceOf({ ...bare, tags: ['Minutely'], createdAtMs: BTC_HOURLY.expirationMs! - 5 * MINUTE })).toBeNull();
    expect(cadenceOf({ ...bare, tags: ['Minutely'], createdAtMs: BTC_HOURLY.expirationMs! - 15 * MINUTE })).toBe('15m');
  });

  it('tags that disagree (Hourly and Daily) leave it to the lifetime; no tag and no createdAt: null', () => {
    expect(cadenceOf({ ...ETH_DAILY, tags: ['Hourly', 'Daily'], categories: [] })).toBe('daily');
    expect(cadenceOf({ ...ETH_DAILY, tags: ['Hourly', 'Daily'], categories: [], createdAtMs: null })).toBeNull();
    expect(cadenceOf({ ...BTC_HOURLY, tags: [], categories: [], createdAtMs: null })).toBeNull();
  });
});

describe('selectMarkets: each rule alone', () => {
  const all = candidates(detailedMarkets());

  it('tickers: the underlying the pricing terms read', () => {
    const { selected, skipped } = run({ rules: rules({ max: 20, tickers: ['BTC', 'ETH'] }), candidates: all });
    expect(selected.sort()).toEqual([BTC_HOURLY.slug, detailedMarkets()[1]!.slug, detailedMarkets()[2]!.slug, ETH_HOURLY.slug, ETH_DAILY.slug].sort());
    expect(skipped[SOL_HOURLY.slug]).toBe('ticker SOL not in [BTC, ETH]');
  });

  it('tickers: a market of the ticker the model cannot price, and a market with no ticker, are skipped', () => {
    const unreadable = variant(BTC_HOURLY, 'btc-no-rule', { description: 'Resolves by committee.' });
    const other = variant(BTC_HOURLY, 'election', { title: 'Who wins the election?', description: null });
    const { selected, skipped } = run({ rules: rules({ max: 5, tickers: ['BTC'] }), candidates: candidates([unreadable, other]) });
    expect(selected).toEqual([]);
    expect(skipped['btc-no-rule']).toMatch(/^a BTC market the model cannot price: the description does not state the Pyth/);
    expect(skipped['election']).toBe('no underlying ticker (not a crypto market the model knows)');
  });

  it('cadences', () => {
    const { selected, skipped } = run({ rules: rules({ max: 20, cadences: ['daily', 'weekly'] }), candidates: all });
    expect(selected).toHaveLength(4);
    expect(skipped[BTC_HOURLY.slug]).toBe('cadence hourly not in [daily, weekly]');
    const unknown = variant(BTC_HOURLY, 'no-cadence', { tags: [], categories: [], createdAtMs: null });
    expect(run({ rules: rules({ max: 1, cadences: ['hourly'] }), candidates: candidates([unknown]) }).skipped['no-cadence']).toBe('cadence unknown not in [hourly]');
  });

  it('joinBeforeSettlementSec: joins only once settlement is that near; a joined market is not judged on it again', () => {
    const select = rules({ max: 20, joinBeforeSettlementMs: 3_000_000 });
    const { selected, skipped } = run({ rules: select, candidates: all });
    expect(selected).toContain(BTC_HOURLY.slug); // settles in 9 min 27 s
    expect(skipped[ETH_DAILY.slug]).toBe('settles in 5h 9min > joinBeforeSettlementSec 3000 s');
    expect(skipped[SOL_WEEKLY.slug]).toBe('settles in 9h 9min > joinBeforeSettlementSec 3000 s');
    expect(run({ rules: select, candidates: candidates([ETH_DAILY]), current: new Set([ETH_DAILY.slug]) }).selected).toEqual([ETH_DAILY.slug]);
    const timeless = variant(BTC_HOURLY, 'no-expiry', { expirationMs: null });
    expect(run({ rules: select, candidates: candidates([timeless]) }).skipped['no-expiry']).toBe('no settlement time (expirationTimestamp): joinBeforeSettlementSec cannot be judged');
  });

  it('the fair band: bounds inclusive, an unknown fair value passes, a non-probability is skipped', () => {
    const markets = ['f-high', 'f-low', 'f-edge-high', 'f-edge-low', 'f-unknown', 'f-nan', 'f-above-one'].map((slug) => variant(BTC_HOURLY, slug));
    const fairs = { 'f-high': 0.991, 'f-low': 0.02, 'f-edge-high': 0.97, 'f-edge-low': 0.03, 'f-unknown': null, 'f-nan': Number.NaN, 'f-above-one': 1.2 };
    const { selected, skipped } = run({ rules: rules({ max: 10, minFairTicks: 30, maxFairTicks: 970 }), candidates: candidates(markets, fairs) });
    expect(selected.sort()).toEqual(['f-edge-high', 'f-edge-low', 'f-unknown']);
    expect(skipped).toEqual({
      'f-high': 'fair 0.991 above maxFair 0.97',
      'f-low': 'fair 0.020 below minFair 0.03',
      'f-nan': 'fair NaN is not a probability in [0, 1]',
      'f-above-one': 'fair 1.2 is not a probability in [0, 1]',
    });
  });

  it('rewardableOnly and minDailyReward', () => {
    const { selected, skipped } = run({ rules: rules({ max: 20, rewardableOnly: true, minDailyRewardRaw: 100_000_000 }), candidates: all });
    expect(skipped[ETH_HOURLY.slug]).toBe('not rewardable (markets.select.rewardableOnly)');
    expect(skipped[SOL_WEEKLY.slug]).toBe('daily reward 20 below minDailyReward 100');
    expect(selected).toHaveLength(7);
  });
});

describe('selectMarkets: hysteresis of the fair band', () => {
  const select = rules({ max: 5, minFairTicks: 30, maxFairTicks: 970, fairHysteresisTicks: 10 });
  const strike = variant(BTC_HOURLY, 'edge-strike');
  const at = (fair: number, joined: boolean) => run({ rules: select, candidates: candidates([strike], { 'edge-strike': fair }), current: new Set(joined ? ['edge-strike'] : []) });

  it('a newcomer joins only inside the band; a joined market leaves only beyond it by more than fairHysteresis', () => {
    expect(at(0.975, false).skipped['edge-strike']).toBe('fair 0.975 above maxFair 0.97');
    expect(at(0.975, true).selected).toEqual(['edge-strike']);
    expect(at(0.98, true).selected).toEqual(['edge-strike']);
    expect(at(0.981, true).skipped['edge-strike']).toBe('fair 0.981 above maxFair 0.97 by more than fairHysteresis 0.01');
    expect(at(0.021, true).selected).toEqual(['edge-strike']);
    expect(at(0.019, true).skipped['edge-strike']).toBe('fair 0.019 below minFair 0.03 by more than fairHysteresis 0.01');
  });

  it('a fair value wandering around the edge: in, stays while within the margin, out, in again only inside the band', () => {
    const path = [0.965, 0.972, 0.978, 0.969, 0.976, 0.984, 0.975, 0.97, 0.974];
    let joined = false;
    const states = path.map((fair) => (joined = at(fair, joined).selected.length === 1));
    expect(states).toEqual([true, true, true, true, true, false, false, true, true]);
  });

  it('zero hysteresis: the band is the band, joined or not', () => {
    const strict = rules({ max: 5, maxFairTicks: 970, fairHysteresisTicks: 0 });
    const result = run({ rules: strict, candidates: candidates([strike], { 'edge-strike': 0.971 }), current: new Set(['edge-strike']) });
    expect(result.skipped['edge-strike']).toBe('fair 0.971 above maxFair 0.97');
  });
});

describe('selectMarkets: the rules combined (every BTC and ETH hourly market from 50 min before settlement, fair 0.03–0.97)', () => {
  it('each market is judged by the first rule it fails', () => {
    const select = rules({ max: 12, tickers: ['BTC', 'ETH'], cadences: ['hourly'], joinBeforeSettlementMs: 3_000_000, minFairTicks: 30, maxFairTicks: 970 });
    const markets = detailedMarkets();
    const fairs = { [markets[0]!.slug]: 0.002, [markets[1]!.slug]: 0.985, [markets[2]!.slug]: 0.02 };
    const { selected, skipped } = run({ rules: select, candidates: candidates(markets, fairs) });
    expect(selected).toEqual([ETH_HOURLY.slug]);
    expect(skipped).toMatchObject({
      [markets[0]!.slug]: 'fair 0.002 below minFair 0.03',
      [markets[1]!.slug]: 'fair 0.985 above maxFair 0.97',
      [markets[2]!.slug]: 'fair 0.020 below minFair 0.03',
      [ETH_DAILY.slug]: 'cadence daily not in [hourly]',
      [SOL_HOURLY.slug]: 'ticker SOL not in [BTC, ETH]',
    });
  });
});

describe('selectMarkets: named markets, groups, exclusions, ended markets', () => {
  it('named slugs are selected whatever the rules, in config order, first', () => {
    const select = rules({ max: 3, cadences: ['hourly'] }, { slugs: [SOL_WEEKLY.slug, ETH_DAILY.slug] });
    const { selected } = run({ rules: select, candidates: candidates(detailedMarkets()) });
    expect(selected.slice(0, 2)).toEqual([SOL_WEEKLY.slug, ETH_DAILY.slug]);
    expect(selected).toHaveLength(3);
  });

  it('group members are selected whatever the rules; an exclusion wins over a name, a group and the rules', () => {
    const members = ['g-1', 'g-2', 'g-3'].map((slug) => variant(SOL_WEEKLY, slug, { groupSlug: 'ladder' }));
    const select = rules({ max: 10, cadences: ['hourly'] }, { slugs: [ETH_DAILY.slug], groups: ['ladder'], exclude: ['g-2', ETH_DAILY.slug, BTC_HOURLY.slug] });
    const { selected, skipped } = run({ rules: select, candidates: candidates([ETH_DAILY, ...members, BTC_HOURLY, SOL_HOURLY]) });
    expect(selected).toEqual(['g-1', 'g-3', SOL_HOURLY.slug]);
    expect(skipped).toEqual({ 'g-2': 'excluded', [ETH_DAILY.slug]: 'excluded', [BTC_HOURLY.slug]: 'excluded' });
  });

  it('nothing is selected once resolved, expired or past its settlement, named or not', () => {
    const select = rules({ max: 10 }, { slugs: ['named-late'] });
    const late = NOW + 10 * MINUTE;
    const markets = [
      variant(BTC_HOURLY, 'named-late'),
      variant(BTC_HOURLY, 'resolved', { resolved: true, winningOutcomeIndex: 0 }),
      variant(BTC_HOURLY, 'expired', { expired: true }),
      variant(ETH_DAILY, 'open-daily'),
    ];
    const { selected, skipped } = run({ rules: select, candidates: candidates(markets), nowMs: late });
    expect(selected).toEqual(['open-daily']);
    expect(skipped).toEqual({
      'named-late': 'not tradable: past its settlement at 2025-12-17T01:00:00.000Z',
      resolved: 'not tradable: resolved',
      expired: 'not tradable: expired',
    });
  });

  it('names what it could not find: a named slug not listed, a joined market no longer listed', () => {
    const { skipped } = run({ rules: rules({ max: 5 }, { slugs: ['gone-named'] }), candidates: [], current: new Set(['gone-joined']) });
    expect(skipped).toEqual({ 'gone-named': 'named in markets.slugs but not among the listed markets', 'gone-joined': 'joined but no longer listed' });
  });

  it('without select, only the named markets; with nothing at all, every tradable market in the listing order', () => {
    const named = run({ rules: rules(null, { slugs: [ETH_DAILY.slug] }), candidates: candidates([BTC_HOURLY, ETH_DAILY]) });
    expect(named.selected).toEqual([ETH_DAILY.slug]);
    expect(named.skipped[BTC_HOURLY.slug]).toBe('not named in markets.slugs or groups, and no markets.select');
    expect(run({ rules: rules(null), candidates: candidates([SOL_WEEKLY, BTC_HOURLY, ETH_DAILY]) }).selected).toEqual([SOL_WEEKLY.slug, BTC_HOURLY.slug, ETH_DAILY.slug]);
  });
});

describe('selectMarkets: top, max and the priority order', () => {
  const pool = [
    variant(BTC_HOURLY, 'r-1000-far', reward(1000)),
    variant(BTC_HOURLY, 'r-1000-near', reward(1000)),
    variant(BTC_HOURLY, 'r-500-atm', reward(500)),
    variant(ETH_DAILY, 'r-1000-near-later', reward(1000)),
    variant(BTC_HOURLY, 'r-1000-near-b', reward(1000)),
  ];
  const fairs = { 'r-1000-far': 0.9, 'r-1000-near': 0.6, 'r-500-atm': 0.5, 'r-1000-near-later': 0.6, 'r-1000-near-b': 0.4 };

  it('by dailyReward: the largest reward, then nearest the money, then the soonest settlement, then the slug', () => {
    expect(run({ rules: rules({ max: 10 }), candidates: candidates(pool, fairs) }).selected).toEqual(['r-1000-near', 'r-1000-near-b', 'r-1000-near-later', 'r-1000-far', 'r-500-atm']);
  });

  it('by nearestTheMoney: |fair − 0.5| first, then the reward; an unknown fair value ranks last', () => {
    const withUnknown = { ...fairs, 'r-1000-far': null };
    expect(run({ rules: rules({ max: 10, by: 'nearestTheMoney' }), candidates: candidates(pool, withUnknown) }).selected).toEqual(['r-500-atm', 'r-1000-near', 'r-1000-near-b', 'r-1000-near-later', 'r-1000-far']);
  });

  it('the result does not depend on the candidates\' order', () => {
    const forward = run({ rules: rules({ max: 3 }), candidates: candidates(pool, fairs) });
    expect(run({ rules: rules({ max: 3 }), candidates: candidates([...pool].reverse(), fairs) })).toEqual(forward);
  });

  it('over max: named slugs, then joined markets, then newcomers; a joined market is not dropped for a better newcomer', () => {
    const select = rules({ max: 3 }, { slugs: ['r-500-atm'] });
    const { selected, skipped } = run({ rules: select, candidates: candidates(pool, fairs), current: new Set(['r-1000-far']) });
    expect(selected).toEqual(['r-500-atm', 'r-1000-far', 'r-1000-near']);
    expect(skipped).toEqual({ 'r-1000-near-b': 'over max 3', 'r-1000-near-later': 'over max 3' });
  });

  it('top counts only what the rules add (named markets are not counted); max counts everything', () => {
    const select = rules({ top: 2 }, { slugs: ['r-500-atm'] });
    const { selected, skipped } = run({ rules: select, candidates: candidates(pool, fairs) });
    expect(selected).toEqual(['r-500-atm', 'r-1000-near', 'r-1000-near-b']);
    expect(skipped['r-1000-far']).toBe('over top 2');
    expect(run({ rules: rules({ top: 2, max: 2 }, { slugs: ['r-500-atm'] }), candidates: candidates(pool, fairs) }).selected).toEqual(['r-500-atm', 'r-1000-near']);
  });
});

describe('selectMarkets: listing entries without their details', () => {
  const bare = variant(BTC_HOURLY, 'bare', { venue: null });
  const tokenless = variant(BTC_HOURLY, 'tokenless', { tokens: null });

  it('are not tradable, unless their details are pending (then selected provisionally)', () => {
    const plain = run({ rules: rules({ max: 5 }), candidates: candidates([bare, tokenless]) });
    expect(plain.skipped).toEqual({ bare: 'not tradable: the venue gave no venue contract', tokenless: 'not tradable: the venue gave no YES/NO tokens' });
    const pending = run({ rules: rules({ max: 5 }), candidates: [bare, tokenless].map((market) => ({ market, fair: null, detailsPending: true })) });
    expect(pending.selected).toEqual(['bare', 'tokenless']);
  });
});
