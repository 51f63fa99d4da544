/**
 * Effective-profile resolution (exchange-api.md § Authentication 3): a caller acts for its own profile,
 * or for a managed sub-account when it names one (`x-on-behalf-of` header on reads, `onBehalfOf` query on
 * cancel, body field on redeem, `ownerId` on placement).
 *
 * Owns: the delegation rule. Invariants: acting for another profile needs the `delegated_signing` scope
 * (403) and a target whose partner is the caller's profile (403); an unknown profile is 404; a malformed
 * id is a 400 validation error naming the field. Pure apart from the profile lookup it is given.
 */
import { forbidden, invalidField, notFound } from './http-errors.js';
import type { ApiToken } from './hmac-verify.js';

export const MAX_PROFILE_ID = 2_147_483_647;

/** Looks up a profile's partner: undefined = no such profile, null = not a sub-account. */
export type PartnerLookup = (profileId: number) => number | null | undefined;

const PROFILE_ID = /^[1-9]\d*$/;

/** Parses a profile id given as text (header or query). */
export function parseProfileId(raw: string, field: string): number {
  const value = PROFILE_ID.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_PROFILE_ID) {
    throw invalidField(field, `${field} must be an integer between 1 and ${MAX_PROFILE_ID}`);
  }
  return value;
}

/** The profile a request acts for. `target` undefined = the caller's own profile. */
export function effectiveProfile(token: ApiToken, target: number | undefined, partnerOf: PartnerLookup): number {
  if (target === undefined) {
    if (partnerOf(token.profileId) === undefined) throw notFound('Profile not found');
    return token.profileId;
  }
  if (!token.scopes.has('delegated_signing')) throw forbidden('Delegation requires the delegated_signing scope');
  const partner = partnerOf(target);
  if (partner === undefined) throw notFound('Profile not found');
  if (partner !== token.profileId) throw forbidden(`Profile ${target} is not a sub-account of the authenticated partner`);
  return target;
}

export function requireTradingScope(token: ApiToken): void {
  if (!token.scopes.has('trading')) throw forbidden('Insufficient permission: the token lacks the trading scope');
}
