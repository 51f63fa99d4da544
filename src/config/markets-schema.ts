/**
 * The `markets:` section of the config (docs/configuration.md, `markets`): named slugs, groups, the selection rules
 * (`select`), exclusions, and how the run-time discovery learns about new markets (`discovery`). Written back into the
 * file's units by file-view.ts.
 *
 * Owns: the section's schema, defaults and cross-field rules. Invariants: every object is strict; a selection always
 * has a bound (`top` or `max`: an unbounded selection on a venue listing hundreds of markets would overrun the rate
 * limit); the fair band has minFair < maxFair; `max` is at least the number of named slugs; `rewardableOnly` defaults
 * to true when `top` is given (the legacy "N rewardable markets with the highest reward") and to false otherwise
 * (a rule-based selection names what it wants: hourly crypto markets are often not rewardable); tickers are upper case.
 */
import { z } from 'zod';
import { parseScaled } from '../core/venue-rules/index.js';
import { exact, price, usdc } from './units-schema.js';
import type { MarketCadence, MarketDiscoveryConfig, MarketSelector, MarketsConfig } from './types.js';

const CADENCES = ['15m', 'hourly', 'daily', 'weekly'] as const satisfies readonly MarketCadence[];

/** `markets.discovery` when the file has none (the poll of GET /markets/active every minute, lifecycle events on). */
export const DEFAULT_DISCOVERY: MarketDiscoveryConfig = { pollIntervalMs: 60_000, lifecycleEvents: true, clockMarginMs: 30_000 };
/** The default fair-value hysteresis (0.01) and the largest (0.2: beyond it the band no longer means anything). */
const DEFAULT_HYSTERESIS_TICKS = 10;
const MAX_HYSTERESIS_TICKS = 200;

/** A list whose items are distinct: a repeated one is an error at its index. */
function distinct<T extends z.ZodType>(item: T) {
  return z.array(item).superRefine((list, ctx) => {
    const seen = new Set<unknown>();
    list.forEach((value, index) => {
      if (seen.has(value)) ctx.addIssue({ code: 'custom', path: [index], message: 'listed twice', input: value });
      seen.add(value);
    });
  });
}

export const slug = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,199}$/, 'expected a market slug (lower-case letters, digits, - . _)');
const slugList = distinct(slug);

/** An underlying's ticker as the pricing terms read it (src/pricing/terms.ts): upper case, 2–10 letters or digits. */
const ticker = z.string().superRefine((text, ctx) => {
  if (/^[A-Z][A-Z0-9]{1,9}$/.test(text)) return;
  const upper = text.toUpperCase();
  ctx.addIssue({
    code: 'custom',
    input: text,
    message: /^[A-Z][A-Z0-9]{1,9}$/.test(upper) ? `expected upper case: ${upper}` : 'expected a ticker such as BTC (2–10 upper-case letters or digits)',
  });
});

const cadence = z.enum(CADENCES, { error: 'expected 15m, hourly, daily or weekly' });

/** A price distance (0 to 0.2, at most 3 decimals) → ticks. */
const hysteresis = exact((value) => parseScaled('fairHysteresis', value, 3)).refine((ticks) => ticks >= 0 && ticks <= MAX_HYSTERESIS_TICKS, {
  error: `expected 0 to ${MAX_HYSTERESIS_TICKS / 1000}`,
});

const selector = z
  .strictObject({
    top: z.int().min(1).max(200).optional(),
    max: z.int().min(1).max(200).optional(),
    by: z.enum(['dailyReward', 'nearestTheMoney'], { error: 'expected dailyReward or nearestTheMoney' }).default('dailyReward'),
    rewardableOnly: z.boolean().optional(),
    minDailyReward: usdc.prefault(0),
    tickers: distinct(ticker).min(1).optional(),
    cadences: distinct(cadence).min(1).optional(),
    joinBeforeSettlementSec: z.number().positive().max(365 * 86_400).optional(),
    minFair: price.optional(),
    maxFair: price.optional(),
    fairHysteresis: hysteresis.prefault(DEFAULT_HYSTERESIS_TICKS / 1000),
  })
  .superRefine((s, ctx) => {
    if (s.top === undefined && s.max === undefined) {
      ctx.addIssue({ code: 'custom', message: 'give top or max (how many markets at most): an unbounded selection would overrun the rate limit', input: s });
    }
    if (s.minFair !== undefined && s.maxFair !== undefined && s.minFair >= s.maxFair) {
      ctx.addIssue({ code: 'custom', path: ['maxFair'], message: `must be above minFair ${s.minFair / 1000}`, input: s.maxFair / 1000 });
    }
  })
  .transform(
    (s): MarketSelector => ({
      top: s.top ?? null,
      max: s.max ?? null,
      by: s.by,
      rewardableOnly: s.rewardableOnly ?? s.top !== undefined,
      minDailyRewardRaw: s.minDailyReward,
      tickers: s.tickers ?? null,
      cadences: s.cadences ?? null,
      joinBeforeSettlementMs: s.joinBeforeSettlementSec === undefined ? null : Math.round(s.joinBeforeSettlementSec * 1000),
      minFairTicks: s.minFair ?? null,
      maxFairTicks: s.maxFair ?? null,
      fairHysteresisTicks: s.fairHysteresis,
    }),
  );

const discovery = z
  .strictObject({
    pollIntervalSec: z.number().min(5).max(3600).default(DEFAULT_DISCOVERY.pollIntervalMs / 1000),
    lifecycleEvents: z.boolean().default(DEFAULT_DISCOVERY.lifecycleEvents),
    clockMarginSec: z.number().min(0).max(3600).default(DEFAULT_DISCOVERY.clockMarginMs / 1000),
  })
  .transform((d): MarketDiscoveryConfig => ({ pollIntervalMs: Math.round(d.pollIntervalSec * 1000), lifecycleEvents: d.lifecycleEvents, clockMarginMs: Math.round(d.clockMarginSec * 1000) }));

/** The section; a bare list means `slugs`. */
export const marketsSchema = z.preprocess(
  (value) => (Array.isArray(value) ? { slugs: value } : value),
  z
    .strictObject({
      slugs: slugList.default([]),
      groups: slugList.default([]),
      select: selector.optional(),
      exclude: slugList.default([]),
      exclusive: z.boolean().default(false),
      discovery: discovery.prefault({}),
    })
    .superRefine((m, ctx) => {
      if (m.slugs.length === 0 && m.groups.length === 0 && m.select === undefined) {
        ctx.addIssue({ code: 'custom', message: 'name at least one market: slugs, groups or select', input: m });
      }
      const max = m.select?.max ?? null;
      if (max !== null && m.slugs.length > max) {
        ctx.addIssue({ code: 'custom', path: ['select', 'max'], message: `is below the ${m.slugs.length} markets named in markets.slugs`, input: max });
      }
    })
    .transform((m): MarketsConfig => ({ slugs: m.slugs, groups: m.groups, exclude: m.exclude, select: m.select ?? null, exclusive: m.exclusive, discovery: m.discovery })),
);

/** A config without `markets:` (the simulator only): every listed market, `count` of them, rewardable or not. */
export function everyMarketConfig(count: number): MarketsConfig {
  return {
    slugs: [],
    groups: [],
    exclude: [],
    select: {
      top: count,
      max: null,
      by: 'dailyReward',
      rewardableOnly: false,
      minDailyRewardRaw: 0,
      tickers: null,
      cadences: null,
      joinBeforeSettlementMs: null,
      minFairTicks: null,
      maxFairTicks: null,
      fairHysteresisTicks: DEFAULT_HYSTERESIS_TICKS,
    },
    exclusive: false,
    discovery: DEFAULT_DISCOVERY,
  };
}
