/**
 * Deterministic market fixtures: `generateMarkets(count, seed, nowMs)` returns `count` markets with
 * distinct ids, slugs, condition ids, token ids and per-market venues, the last 2–3 of which form one
 * NegRisk group (when count ≥ 2). Same arguments → same markets.
 */
import { getAddress } from 'viem';
import { RAW_PER_UNIT } from '../../core/venue-rules/index.js';
import { Prng } from './prng.js';
import type { MarketSpec } from './types.js';

const DAY_MS = 86_400_000;

const SUBJECTS: readonly { readonly slug: string; readonly title: string; readonly category: string }[] = [
  { slug: 'btc-above-100k', title: 'Will BTC close above $100k', category: 'Crypto' },
  { slug: 'eth-above-5k', title: 'Will ETH close above $5k', category: 'Crypto' },
  { slug: 'fed-cut', title: 'Will the Fed cut rates', category: 'Economy' },
  { slug: 'cpi-above-3', title: 'Will CPI print above 3%', category: 'Economy' },
  { slug: 'rain-in-london', title: 'Will it rain in London', category: 'Weather' },
  { slug: 'home-team-wins', title: 'Will the home team win', category: 'Sports' },
  { slug: 'box-office-hit', title: 'Will the film gross $500M', category: 'Culture' },
  { slug: 'launch-on-time', title: 'Will the rocket launch on time', category: 'Science' },
];
const CATEGORY_IDS: Readonly<Record<string, number>> = {
  Crypto: 2,
  Economy: 5,
  Weather: 11,
  Sports: 17,
  Culture: 23,
  Science: 29,
  Politics: 31,
};
const CANDIDATES = ['alice', 'bob', 'carol'] as const;

export function generateMarkets(count: number, seed: number, nowMs: number): MarketSpec[] {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count: must be a non-negative integer (got ${count})`);
  const rng = new Prng(seed ^ 0x5eed_4a4b);
  const groupSize = count >= 4 ? 3 : count >= 2 ? 2 : 0;
  const groupSlug = 'sim-election-winner';
  const negRiskRequestId = `0x${rng.hex(32)}`;
  const markets: MarketSpec[] = [];
  for (let i = 0; i < count; i += 1) {
    const inGroup = i >= count - groupSize;
    const expirationMs = nowMs + rng.int(7, 60) * DAY_MS;
    const common = {
      id: 1000 + i,
      conditionId: `0x${rng.hex(32)}`,
      yesTokenId: BigInt(`0x${rng.hex(32)}`).toString(),
      noTokenId: BigInt(`0x${rng.hex(32)}`).toString(),
      venue: { exchange: getAddress(`0x${rng.hex(20)}`), adapter: getAddress(`0x${rng.hex(20)}`) },
      expirationMs,
      createdAtMs: nowMs,
      settings: {
        minSizeRaw: rng.int(1, 10) * 10 * RAW_PER_UNIT,
        maxSpreadTicks: rng.int(2, 6) * 5,
        dailyRewardRaw: rng.int(0, 20) * 25 * RAW_PER_UNIT,
        c: 3,
      },
      initialFairValueTicks: rng.int(150, 850),
    };
    if (inGroup) {
      const candidate = CANDIDATES[i - (count - groupSize)] ?? `candidate-${i}`;
      markets.push({
        ...common,
        slug: `${groupSlug}-${candidate}`,
        title: `Will ${candidate} win the election?`,
        description: `Simulated NegRisk submarket: resolves YES if ${candidate} wins.`,
        categories: ['Politics'],
        categoryIds: [CATEGORY_IDS['Politics'] ?? 31],
        isRewardable: true,
        groupSlug,
        groupTitle: 'Who will win the election?',
        negRiskRequestId,
      });
    } else {
      const subject = SUBJECTS[i % SUBJECTS.length] ?? { slug: 'event', title: 'Will the event happen', category: 'Culture' };
      const date = new Date(expirationMs).toISOString().slice(0, 10);
      markets.push({
        ...common,
        slug: `sim-${subject.slug}-${i}`,
        title: `${subject.title} by ${date}?`,
        description: `Simulated market #${i}: resolves YES if the event happens before ${date}.`,
        categories: [subject.category],
        categoryIds: [CATEGORY_IDS[subject.category] ?? 1],
        isRewardable: common.settings.dailyRewardRaw > 0,
      });
    }
  }
  return markets;
}
