/**
 * Files the standalone simulator reads: a markets file (JSON or YAML; the engine's MarketSpec fields,
 * with `expiresInMs` as an alternative to an absolute `expirationMs`) and an accounts file (see
 * accounts-config.ts). Synthetic-trader options come from the engine's own schema.
 *
 * Invariants: unknown keys are errors; every error names the file and the field; secrets in an accounts
 * file never appear in an error message.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { MarketSpec } from '../engine/index.js';
import { AccountConfigError, parseAccountsFile, type AccountConfig } from './accounts-config.js';
import { errorText } from '../../core/errors.js';

export class ConfigFileError extends Error {
  override readonly name = 'ConfigFileError';
  constructor(
    readonly file: string,
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${file}: ${field}: ${reason}`);
  }
}

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, { error: 'must be a 0x-prefixed 20-byte hex address' });

const marketEntrySchema = z
  .strictObject({
    id: z.number().int().min(1),
    slug: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, { error: 'must be lowercase letters, digits and dashes' }),
    title: z.string().min(1),
    description: z.string().default(''),
    conditionId: z.string().regex(/^0x[0-9a-fA-F]{64}$/, { error: 'must be 0x + 64 hex digits' }),
    yesTokenId: z.string().regex(/^\d+$/, { error: 'must be a decimal string' }),
    noTokenId: z.string().regex(/^\d+$/, { error: 'must be a decimal string' }),
    venue: z.strictObject({ exchange: address, adapter: address }),
    expirationMs: z.number().int().min(0).optional(),
    expiresInMs: z.number().int().min(1).optional(),
    categories: z.array(z.string()).default([]),
    categoryIds: z.array(z.number().int().min(0)).default([]),
    settings: z.strictObject({
      minSizeRaw: z.number().int().min(0),
      maxSpreadTicks: z.number().int().min(1).max(999),
      dailyRewardRaw: z.number().int().min(0),
      c: z.number().positive().default(3),
      rebateRate: z.number().min(0).max(1).optional(),
    }),
    isRewardable: z.boolean().default(false),
    groupSlug: z.string().min(1).optional(),
    groupTitle: z.string().min(1).optional(),
    negRiskRequestId: z.string().optional(),
    initialFairValueTicks: z.number().int().min(1).max(999).optional(),
  })
  .refine((m) => (m.expirationMs === undefined) !== (m.expiresInMs === undefined), {
    error: 'give exactly one of expirationMs or expiresInMs',
    path: ['expirationMs'],
  });

export const marketsFileSchema = z.union([z.array(marketEntrySchema), z.strictObject({ markets: z.array(marketEntrySchema) })]);

/** Reads JSON (`.json`) or YAML (anything else) into a plain value. */
export async function readStructuredFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigFileError(path, '(file)', errorText(error));
  }
  try {
    const value: unknown = extname(path).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text);
    return value;
  } catch (error) {
    throw new ConfigFileError(path, '(file)', `not valid ${extname(path).toLowerCase() === '.json' ? 'JSON' : 'YAML'}: ${errorText(error)}`);
  }
}

/** Validates a markets file's content; relative expiries are taken from `nowMs`. */
export function parseMarketsFile(value: unknown, nowMs: number, file = 'markets'): MarketSpec[] {
  const result = marketsFileSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ConfigFileError(file, issue ? issue.path.map(String).join('.') || '(root)' : '(root)', issue?.message ?? 'invalid');
  }
  const entries = Array.isArray(result.data) ? result.data : result.data.markets;
  return entries.map((m) => ({
    id: m.id,
    slug: m.slug,
    title: m.title,
    description: m.description,
    conditionId: m.conditionId,
    yesTokenId: m.yesTokenId,
    noTokenId: m.noTokenId,
    venue: m.venue,
    expirationMs: m.expirationMs ?? nowMs + (m.expiresInMs ?? 0),
    categories: m.categories,
    categoryIds: m.categoryIds,
    settings: (({ rebateRate, ...rest }) => (rebateRate === undefined ? rest : { ...rest, rebateRate }))(m.settings),
    isRewardable: m.isRewardable,
    ...(m.groupSlug === undefined ? {} : { groupSlug: m.groupSlug }),
    ...(m.groupTitle === undefined ? {} : { groupTitle: m.groupTitle }),
    ...(m.negRiskRequestId === undefined ? {} : { negRiskRequestId: m.negRiskRequestId }),
    ...(m.initialFairValueTicks === undefined ? {} : { initialFairValueTicks: m.initialFairValueTicks }),
  }));
}

export async function loadMarketsFile(path: string, nowMs: number): Promise<MarketSpec[]> {
  return parseMarketsFile(await readStructuredFile(path), nowMs, path);
}

export async function loadAccountsFile(path: string): Promise<AccountConfig[]> {
  const value = await readStructuredFile(path);
  try {
    return parseAccountsFile(value);
  } catch (error) {
    if (error instanceof AccountConfigError) throw new ConfigFileError(path, error.field, error.reason);
    throw error;
  }
}
