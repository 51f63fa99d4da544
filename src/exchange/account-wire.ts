/**
 * Wire schemas of the account-check reads used by `outcome-maker doctor`: the trading allowance
 * (`GET /portfolio/trading/allowance`, exchange-api.md "Trading allowance") and the caller's API tokens
 * (`GET /auth/api-tokens`, the official client's `ApiToken[]`: tokenId, label, scopes, createdAt, lastUsedAt).
 *
 * Owns: those two shapes and their conversion to domain values. Invariants: amounts are exact (a raw 1e6 integer
 * as a bigint, never a float: an allowance is often 2^256 − 1); a bad answer is a ResponseValidationError naming
 * the field and the value (parseAnswer).
 */
import { z } from 'zod';
import type { EndpointRef } from './errors.js';
import { parseAnswer } from './wire.js';

/** Trading types of the allowance endpoint. */
export const ALLOWANCE_TYPES = ['clob', 'negrisk'] as const;
export type AllowanceType = (typeof ALLOWANCE_TYPES)[number];

const rawInteger = z.union([z.string().regex(/^\d+$/, 'expected a non-negative integer string'), z.number().int().min(0)]).transform((v) => BigInt(v));

const AllowanceWire = z.object({
  allowance: rawInteger,
  hasMinimumAllowance: z.boolean(),
  type: z.string(),
  spender: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected an address'),
  checkedAddress: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected an address'),
});

export interface TradingAllowance {
  /** Collateral (USDC) allowance in raw 1e6 units. */
  readonly allowanceRaw: bigint;
  readonly hasMinimumAllowance: boolean;
  readonly type: string;
  readonly spender: string;
  readonly checkedAddress: string;
}

export function parseTradingAllowance(data: unknown, endpoint: EndpointRef, status: number): TradingAllowance {
  const wire = parseAnswer(AllowanceWire, data, endpoint, status);
  return { allowanceRaw: wire.allowance, hasMinimumAllowance: wire.hasMinimumAllowance, type: wire.type, spender: wire.spender, checkedAddress: wire.checkedAddress };
}

const ApiTokenWire = z.object({
  tokenId: z.string().min(1),
  label: z.string().nullish(),
  scopes: z.array(z.string()),
  createdAt: z.string().nullish(),
  lastUsedAt: z.string().nullish(),
});

export interface ApiTokenInfo {
  readonly tokenId: string;
  readonly label: string | null;
  readonly scopes: readonly string[];
}

export function parseApiTokens(data: unknown, endpoint: EndpointRef, status: number): ApiTokenInfo[] {
  const wire = parseAnswer(z.array(ApiTokenWire), data, endpoint, status);
  return wire.map((t) => ({ tokenId: t.tokenId, label: t.label ?? null, scopes: t.scopes }));
}
