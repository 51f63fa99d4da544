/**
 * The `pricing:` section of the config (docs/pricing.md): how the bot prices crypto strike markets from the
 * underlying that settles them. Validated like the rest (every error names its path); durations in seconds in the
 * file, in ms once converted here; defaults that work on the live venue.
 *
 * Owns: the section's schema and its conversion into the pricer's settings (src/pricing/market-pricer.ts) and the
 * price store's (src/pricing/underlying/store.ts). Invariants: a feed id is checked by the one feed-id parser;
 * the configured map is merged over the default one (BTC, ETH, SOL, XRP).
 */
import { z } from 'zod';
import { DEFAULT_PYTH_FEED_IDS, FeedIdError, parseFeedId } from '../pricing/feed-ids.js';
import { DEFAULT_PRICER_SETTINGS, type PricerSettings } from '../pricing/market-pricer.js';
import { DEFAULT_VOLATILITY } from '../pricing/model/index.js';
import { DEFAULT_HOURLY_VARIANCE, DEFAULT_SURFACE, HOURS_PER_DAY, makeProfile, type SurfaceSettings } from '../pricing/surface/index.js';
import type { FeedId } from '../pricing/types.js';
import type { StoreSettings } from '../pricing/underlying/store.js';

const positive = z.number().positive();
const seconds = (fallback: number, max: number) => z.number().min(0).max(max).default(fallback);

const feedIds = z.record(z.string().regex(/^[A-Z][A-Z0-9]{0,15}$/, 'expected an upper-case ticker such as BTC'), z.string()).superRefine((map, ctx) => {
  for (const [ticker, id] of Object.entries(map)) {
    try {
      parseFeedId(`pricing.feedIds.${ticker}`, id);
    } catch (error) {
      if (!(error instanceof FeedIdError)) throw error;
      ctx.addIssue({ code: 'custom', path: [ticker], message: 'expected a Pyth feed id (64 hex digits, 0x optional)', input: id });
    }
  }
});

const v = DEFAULT_VOLATILITY;
const volatility = z
  .strictObject({
    fastHalfLifeSec: positive.max(86_400).default(v.fastHalfLifeMs / 1000),
    slowHalfLifeSec: positive.max(30 * 86_400).default(v.slowHalfLifeMs / 1000),
    fastWeight: z.number().min(0).max(1).default(v.fastWeight),
    jumpCapSigmas: positive.max(1000).default(v.jumpCapSigmas),
    priorAnnualVol: positive.max(50).default(v.priorAnnualVol),
    warmupSec: z.number().min(0).max(86_400).default(v.warmupMs / 1000),
    minAnnualVol: positive.max(50).default(v.minAnnualVol),
    maxAnnualVol: positive.max(50).default(v.maxAnnualVol),
  })
  .superRefine((s, ctx) => {
    if (s.minAnnualVol > s.maxAnnualVol) ctx.addIssue({ code: 'custom', path: ['minAnnualVol'], message: 'must not exceed maxAnnualVol', input: s.minAnnualVol });
    if (s.priorAnnualVol < s.minAnnualVol || s.priorAnnualVol > s.maxAnnualVol) ctx.addIssue({ code: 'custom', path: ['priorAnnualVol'], message: 'must lie within [minAnnualVol, maxAnnualVol]', input: s.priorAnnualVol });
  });

const sf = DEFAULT_SURFACE;
/** `pricing.surface`: the volatility surface per underlying and expiry (docs/pricing.md, "The volatility surface"). */
const surface = z
  .strictObject({
    /** α: weight of the ladder's implied variance against the realized one (0: realized only). */
    impliedWeight: z.number().min(0).max(1).default(sf.impliedWeight),
    /** The intraday variance profile: 24 relative variances per UTC hour (normalised to mean 1) and its strength (0: a flat clock). */
    profile: z
      .strictObject({
        strength: z.number().min(0).max(1).default(1),
        hourly: z.array(positive.max(1000)).length(HOURS_PER_DAY, `expected ${HOURS_PER_DAY} relative variances, one per UTC hour`).default([...DEFAULT_HOURLY_VARIANCE]),
      })
      .prefault({}),
    /** The realized estimate is de-seasonalised by the profile's mean over this look-back. */
    realizedLookbackSec: positive.max(86_400).default(sf.realizedLookbackMs / 1000),
    /** Which books of the ladder count, and how their implied variances are averaged. */
    implied: z
      .strictObject({
        maxSpread: positive.max(1).default(sf.filter.maxSpread),
        midMin: z.number().gt(0).lt(1).default(sf.filter.midMin),
        midMax: z.number().gt(0).lt(1).default(sf.filter.midMax),
        minAbsD: z.number().min(0).max(10).default(sf.filter.minAbsD),
        windowSec: positive.max(86_400).default(sf.windowMs / 1000),
        maxSpotAgeSec: positive.max(3600).default(sf.maxSpotAgeMs / 1000),
        sampleEverySec: z.number().min(0).max(3600).default(sf.sampleEveryMs / 1000),
        minSamples: z.number().int().min(1).max(10_000).default(sf.minSamples),
        trim: z.number().min(0).max(0.5).default(sf.trim),
        /** The evidence behind an expiry's implied part (src/pricing/surface/evidence.ts): fewer strikes than minStrikes: none. */
        minStrikes: z.number().int().min(1).max(100).default(sf.evidence.minStrikes),
        /** Strikes, and books in the window, at which their counts stop lowering the implied weight. */
        fullStrikes: z.number().int().min(1).max(100).default(sf.evidence.fullStrikes),
        fullBooks: z.number().int().min(1).max(10_000).default(sf.evidence.fullBooks),
        /** The books' mean spread (price units) at which the implied weight is halved. */
        spreadHalf: positive.max(1).default(sf.evidence.spreadHalf),
      })
      .superRefine((v, ctx) => {
        if (v.midMin >= v.midMax) ctx.addIssue({ code: 'custom', path: ['midMin'], message: 'must be below midMax', input: v.midMin });
      })
      .prefault({}),
    /** Fit a Student-t per expiry to its ladder, ν floored at minDof (off: pricing.tails everywhere). */
    tails: z
      .strictObject({
        fit: z.boolean().default(sf.tailFit !== null),
        minDof: z.number().gt(2).max(1000).default(sf.tailFit?.minDof ?? 3),
        maxDof: z.number().gt(2).max(1000).default(sf.tailFit?.maxDof ?? 50),
        refitEverySec: z.number().min(0).max(3600).default((sf.tailFit?.refitEveryMs ?? 30_000) / 1000),
      })
      .superRefine((v, ctx) => {
        if (v.minDof >= v.maxDof) ctx.addIssue({ code: 'custom', path: ['minDof'], message: 'must be below maxDof', input: v.minDof });
      })
      .prefault({}),
    /** g: weight of the realized–implied volatility gap in the model's uncertainty (0: ignored). */
    gapWeight: z.number().min(0).max(10).default(sf.gapWeight),
  })
  .prefault({});

type SurfaceInput = z.output<typeof surface>;

/** `pricing.surface` (seconds) → the surface's settings (ms). */
export function toSurfaceSettings(p: SurfaceInput): SurfaceSettings {
  const i = p.implied;
  return {
    impliedWeight: p.impliedWeight,
    evidence: { minStrikes: i.minStrikes, fullStrikes: i.fullStrikes, fullBooks: i.fullBooks, spreadHalf: i.spreadHalf },
    profile: makeProfile(p.profile.hourly, p.profile.strength),
    realizedLookbackMs: ms(p.realizedLookbackSec),
    filter: { maxSpread: i.maxSpread, midMin: i.midMin, midMax: i.midMax, minAbsD: i.minAbsD },
    windowMs: ms(i.windowSec),
    maxSpotAgeMs: ms(i.maxSpotAgeSec),
    sampleEveryMs: ms(i.sampleEverySec),
    minSamples: i.minSamples,
    trim: i.trim,
    tailFit: p.tails.fit ? { minDof: p.tails.minDof, maxDof: p.tails.maxDof, refitEveryMs: ms(p.tails.refitEverySec) } : null,
    gapWeight: p.gapWeight,
  };
}

const d = DEFAULT_PRICER_SETTINGS;
const httpUrl = z.string().refine((text) => /^https?:\/\/[^\s/]+/.test(text) && URL.canParse(text), 'expected an http(s) URL');
const envName = z.string().regex(/^[A-Z_][A-Z0-9_]{0,127}$/, 'expected an environment variable NAME (upper-case letters, digits, _)');

export const pricingSchema = z.strictObject({
  /** Where the underlying's price comes from: Pyth Hermes (preferred while fresh) and the venue's oraclePriceData frames. */
  sources: z
    .array(z.enum(['hermes', 'venue']))
    .min(1)
    .refine((list) => new Set(list).size === list.length, { message: 'sources must be distinct' })
    .default(['hermes', 'venue']),
  hermes: z
    .strictObject({
      /** Hermes's base URL (Pyth's newer docs also show https://pyth.dourolabs.app/hermes). On the simulator: its /hermes stand-in. */
      endpoint: httpUrl.transform((text) => text.replace(/\/+$/, '')).default('https://hermes.pyth.network'),
      /** The environment variable holding the Pyth API key (required by Pyth since 2026-08-18); never the key itself. */
      apiKeyEnv: envName.default('PYTH_API_KEY'),
    })
    .prefault({}),
  /** Quote recognised crypto markets the model cannot price from their book ('book') or leave them alone ('skip'). */
  unpriced: z.enum(['skip', 'book'], { error: 'expected "skip" (leave an unpriced crypto market alone) or "book" (quote it from its book)' }).default('skip'),
  /** Ticker → Pyth feed id, over the defaults (BTC, ETH, SOL, XRP); a market's own priceOracleMetadata.pythAddress wins. */
  feedIds: feedIds.default({}),
  /** An underlying price older than this halts its markets. */
  staleSec: positive.max(3600).default(d.staleMs / 1000),
  /** Two sources further apart than this (basis points) put the price in doubt: its markets halt. */
  maxDivergenceBps: positive.max(10_000).default(50),
  volatility: volatility.prefault({}),
  surface,
  /** 'normal', or fat tails: a Student-t of `dof` degrees of freedom (> 2) scaled to the same variance. */
  tails: z
    .discriminatedUnion('kind', [z.strictObject({ kind: z.literal('normal') }), z.strictObject({ kind: z.literal('student-t'), dof: z.number().gt(2).max(1000) })])
    .default({ kind: 'normal' }),
  /** The settlement print's own noise (basis points of the price): the model's variance floor in the last seconds. */
  settlementNoiseBps: z.number().min(0).max(1000).default(Math.sqrt(d.settlementNoiseVariance) * 10_000),
  /** Relative standard error of the volatility estimate, in the model's uncertainty. */
  volRelErr: z.number().min(0).max(5).default(d.volRelErr),
  /** Quoting stops this long before a priced market's settlement instant (replaces risk.stopBeforeExpirySec there). */
  stopBeforeSettlementSec: seconds(d.stopBeforeSettlementMs / 1000, 86_400),
  /**
   * Cap of the exposure to one underlying: Σ over its markets of net YES × delta × S (the USDC notional of the
   * delta-equivalent holding; a 1 % move changes the markets' value by 1 % of it). Past it, a market quotes only the
   * side that reduces it.
   */
  maxExposureUsdc: positive.max(1e9).default(10_000),
  /** The fast-market guard: a move beyond k standard deviations within windowSec pulls the underlying's quotes for cooldownSec. */
  guard: z
    .strictObject({
      enabled: z.boolean().default(d.guard.enabled),
      k: positive.max(100).default(d.guard.k),
      windowSec: positive.max(3600).default(d.guard.windowMs / 1000),
      cooldownSec: seconds(d.guard.cooldownMs / 1000, 3600),
    })
    .prefault({}),
});

export type PricingInput = z.output<typeof pricingSchema>;

export interface PricingConfig {
  readonly pricer: PricerSettings;
  readonly store: StoreSettings;
  /** The configured map merged over the defaults. */
  readonly feedIds: Readonly<Record<string, FeedId>>;
  /** Cap of the USDC exposure to one underlying (see the schema). */
  readonly maxExposureUsdc: number;
  readonly sources: readonly ('hermes' | 'venue')[];
  readonly hermes: { readonly endpoint: string; readonly apiKeyEnv: string };
}

const ms = (sec: number): number => Math.round(sec * 1000);

export function toPricingConfig(p: PricingInput): PricingConfig {
  const configured = Object.fromEntries(Object.entries(p.feedIds).map(([ticker, id]) => [ticker, parseFeedId(`pricing.feedIds.${ticker}`, id)]));
  const noise = p.settlementNoiseBps / 10_000;
  return {
    pricer: {
      volatility: {
        fastHalfLifeMs: ms(p.volatility.fastHalfLifeSec),
        slowHalfLifeMs: ms(p.volatility.slowHalfLifeSec),
        fastWeight: p.volatility.fastWeight,
        jumpCapSigmas: p.volatility.jumpCapSigmas,
        priorAnnualVol: p.volatility.priorAnnualVol,
        warmupMs: ms(p.volatility.warmupSec),
        minAnnualVol: p.volatility.minAnnualVol,
        maxAnnualVol: p.volatility.maxAnnualVol,
      },
      surface: toSurfaceSettings(p.surface),
      tails: p.tails,
      floor: d.floor,
      cap: d.cap,
      settlementNoiseVariance: noise * noise,
      volRelErr: p.volRelErr,
      staleMs: ms(p.staleSec),
      stopBeforeSettlementMs: ms(p.stopBeforeSettlementSec),
      guard: { enabled: p.guard.enabled, k: p.guard.k, windowMs: ms(p.guard.windowSec), cooldownMs: ms(p.guard.cooldownSec) },
      unpricedCrypto: p.unpriced,
    },
    store: { staleMs: ms(p.staleSec), maxDivergenceBps: p.maxDivergenceBps, maxFutureSkewMs: 5_000 },
    feedIds: { ...DEFAULT_PYTH_FEED_IDS, ...configured },
    maxExposureUsdc: p.maxExposureUsdc,
    sources: p.sources,
    hermes: p.hermes,
  };
}
