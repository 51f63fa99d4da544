/**
 * Accounts of the simulator as an operator writes them (accounts file, admin API, startSimulator):
 * wallet address, profile id, starting USDC and token balances in decimal units, and the API tokens
 * (token id, base64 secret, scopes) that authenticate as that profile.
 *
 * Owns: the zod schema of an account entry and its conversion to the engine's AccountSpec (raw units)
 * and the server's ApiTokenSpec. Invariants: unknown keys are errors; amounts are parsed exactly
 * (src/core/venue-rules/units.ts, never through a float); error messages never contain a secret.
 */
import { z } from 'zod';
import { parseScaled, UnitError } from '../../core/venue-rules/index.js';
import type { AccountSpec } from '../engine/index.js';
import { KNOWN_SCOPES, type ApiTokenSpec } from './hmac-verify.js';

const decimalAmount = z.union([z.string(), z.number()], { error: 'must be a decimal number (string or number)' });

export const apiTokenConfigSchema = z.strictObject({
  tokenId: z.string().min(1),
  secret: z.string().min(1),
  scopes: z.array(z.enum(KNOWN_SCOPES)).default(['trading']),
});

export const accountConfigSchema = z.strictObject({
  profileId: z.number().int().min(1).max(2_147_483_647),
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, { error: 'must be a 0x-prefixed 20-byte hex address' }),
  /** Starting USDC in whole units, e.g. "10000" or 10000.5. */
  usdc: decimalAmount.default('0'),
  /** Starting outcome tokens: token id → shares in units. */
  tokens: z.record(z.string().regex(/^\d+$/, { error: 'token ids are decimal strings' }), decimalAmount).optional(),
  feeRateBps: z.number().int().min(0).max(10_000).optional(),
  partnerProfileId: z.number().int().min(1).optional(),
  serverManagedWallet: z.boolean().optional(),
  apiTokens: z.array(apiTokenConfigSchema).default([]),
});

export const accountsFileSchema = z.union([z.array(accountConfigSchema), z.strictObject({ accounts: z.array(accountConfigSchema) })]);

export type AccountConfigInput = z.input<typeof accountConfigSchema>;
export type AccountConfig = z.output<typeof accountConfigSchema>;

export class AccountConfigError extends Error {
  override readonly name = 'AccountConfigError';
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${field}: ${reason} (got ${JSON.stringify(value)})`);
  }
}

function raw(field: string, value: string | number): number {
  try {
    return parseScaled(field, value, 6);
  } catch (error) {
    if (error instanceof UnitError) throw new AccountConfigError(field, value, error.reason);
    throw error;
  }
}

export function accountSpecOf(config: AccountConfig): AccountSpec {
  const tokens: Record<string, number> = {};
  for (const [tokenId, amount] of Object.entries(config.tokens ?? {})) tokens[tokenId] = raw(`tokens.${tokenId}`, amount);
  return {
    profileId: config.profileId,
    address: config.address,
    usdcRaw: raw('usdc', config.usdc),
    ...(Object.keys(tokens).length > 0 ? { tokens } : {}),
    ...(config.feeRateBps === undefined ? {} : { feeRateBps: config.feeRateBps }),
    ...(config.partnerProfileId === undefined ? {} : { partnerProfileId: config.partnerProfileId }),
    ...(config.serverManagedWallet === undefined ? {} : { serverManagedWallet: config.serverManagedWallet }),
  };
}

export function apiTokensOf(config: AccountConfig): ApiTokenSpec[] {
  return config.apiTokens.map((t) => ({ tokenId: t.tokenId, secret: t.secret, scopes: t.scopes, profileId: config.profileId }));
}

/** Parses one account entry; throws AccountConfigError naming the first bad field (secrets redacted). */
export function parseAccountConfig(input: unknown, where = 'account'): AccountConfig {
  const result = accountConfigSchema.safeParse(input);
  if (!result.success) throw configErrorOf(result.error, where);
  return result.data;
}

export function parseAccountsFile(input: unknown): AccountConfig[] {
  const result = accountsFileSchema.safeParse(input);
  if (!result.success) throw configErrorOf(result.error, 'accounts');
  return Array.isArray(result.data) ? result.data : result.data.accounts;
}

function configErrorOf(error: z.ZodError, where: string): AccountConfigError {
  const issue = error.issues[0];
  const path = issue ? issue.path.map(String) : [];
  const field = [where, ...path].join('.');
  const redacted = path.includes('secret') ? '<redacted>' : undefined;
  return new AccountConfigError(field, redacted, issue?.message ?? 'invalid');
}
