/**
 * Synthetic-trader options: the zod schema (strict: unknown keys are errors) and the resolved,
 * fully-defaulted configuration the engine runs with. Defaults live here and nowhere else.
 */
import { z } from 'zod';
import { RAW_PER_UNIT, SIZE_STEP_RAW } from '../../core/venue-rules/index.js';
import { EngineConfigError } from './errors.js';
import type { SyntheticOptions } from './types.js';

const sizeRaw = z
  .number()
  .int()
  .positive()
  .refine((n) => n % SIZE_STEP_RAW === 0, { message: `must be a multiple of the size step ${SIZE_STEP_RAW}` });
const rate = z.number().finite().min(0).max(600);

export const syntheticOptionsSchema = z.strictObject({
  stepMs: z.number().int().min(10).max(3_600_000).optional(),
  autoStep: z.boolean().optional(),
  markets: z.array(z.string().min(1)).optional(),
  profileIdBase: z.number().int().min(1).max(2_147_483_000).optional(),
  usdcPerAccountRaw: z.number().int().positive().max(Number.MAX_SAFE_INTEGER / 4).optional(),
  fairValue: z
    .strictObject({
      volatilityPerSqrtHour: z.number().finite().min(0).max(20).optional(),
      jumpsPerHour: rate.optional(),
      jumpStdLogOdds: z.number().finite().min(0).max(10).optional(),
    })
    .optional(),
  makers: z
    .strictObject({
      enabled: z.boolean().optional(),
      levels: z.number().int().min(1).max(20).optional(),
      spreadTicks: z.number().int().min(1).max(400).optional(),
      levelStepTicks: z.number().int().min(1).max(100).optional(),
      sizeRaw: sizeRaw.optional(),
      requoteThresholdTicks: z.number().int().min(1).max(100).optional(),
    })
    .optional(),
  noise: z
    .strictObject({ ratePerMinute: rate.optional(), minSizeRaw: sizeRaw.optional(), maxSizeRaw: sizeRaw.optional() })
    .optional(),
  informed: z
    .strictObject({
      ratePerMinute: rate.optional(),
      edgeTicks: z.number().int().min(1).max(500).optional(),
      maxSizeRaw: sizeRaw.optional(),
    })
    .optional(),
  streams: z.enum(['shared', 'per-market']).optional(),
});

export interface ResolvedSynthetic {
  readonly stepMs: number;
  readonly autoStep: boolean;
  readonly markets: readonly string[] | null;
  readonly profileIdBase: number;
  readonly usdcPerAccountRaw: number;
  readonly fairValue: { readonly volatilityPerSqrtHour: number; readonly jumpsPerHour: number; readonly jumpStdLogOdds: number };
  readonly makers: {
    readonly enabled: boolean;
    readonly levels: number;
    readonly spreadTicks: number;
    readonly levelStepTicks: number;
    readonly sizeRaw: number;
    readonly requoteThresholdTicks: number;
  };
  readonly noise: { readonly ratePerMinute: number; readonly minSizeRaw: number; readonly maxSizeRaw: number };
  readonly informed: { readonly ratePerMinute: number; readonly edgeTicks: number; readonly maxSizeRaw: number };
  readonly streams: 'shared' | 'per-market';
}

export function resolveSynthetic(options: SyntheticOptions): ResolvedSynthetic {
  const parsed = syntheticOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue ? ['synthetic', ...issue.path.map(String)].join('.') : 'synthetic';
    throw new EngineConfigError(path, options, issue?.message ?? 'invalid synthetic options');
  }
  const o = parsed.data;
  const noiseMin = o.noise?.minSizeRaw ?? 5 * RAW_PER_UNIT;
  const noiseMax = o.noise?.maxSizeRaw ?? 50 * RAW_PER_UNIT;
  if (noiseMax < noiseMin) throw new EngineConfigError('synthetic.noise.maxSizeRaw', noiseMax, 'must be >= minSizeRaw');
  return {
    stepMs: o.stepMs ?? 1000,
    autoStep: o.autoStep ?? true,
    markets: o.markets ?? null,
    profileIdBase: o.profileIdBase ?? 900_000,
    usdcPerAccountRaw: o.usdcPerAccountRaw ?? 10_000_000 * RAW_PER_UNIT,
    fairValue: {
      volatilityPerSqrtHour: o.fairValue?.volatilityPerSqrtHour ?? 0.6,
      jumpsPerHour: o.fairValue?.jumpsPerHour ?? 0.5,
      jumpStdLogOdds: o.fairValue?.jumpStdLogOdds ?? 0.8,
    },
    makers: {
      enabled: o.makers?.enabled ?? true,
      levels: o.makers?.levels ?? 3,
      spreadTicks: o.makers?.spreadTicks ?? 20,
      levelStepTicks: o.makers?.levelStepTicks ?? 10,
      sizeRaw: o.makers?.sizeRaw ?? 50 * RAW_PER_UNIT,
      requoteThresholdTicks: o.makers?.requoteThresholdTicks ?? 3,
    },
    noise: { ratePerMinute: o.noise?.ratePerMinute ?? 2, minSizeRaw: noiseMin, maxSizeRaw: noiseMax },
    informed: {
      ratePerMinute: o.informed?.ratePerMinute ?? 6,
      edgeTicks: o.informed?.edgeTicks ?? 5,
      maxSizeRaw: o.informed?.maxSizeRaw ?? 100 * RAW_PER_UNIT,
    },
    streams: o.streams ?? 'shared',
  };
}
