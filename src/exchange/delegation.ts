/**
 * Delegation: acting for a managed sub-account (on-behalf-of profile id), applied the way the spec says per
 * endpoint (Authentication §3): reads carry header `x-on-behalf-of`, cancels carry query `onBehalfOf` (inside the
 * signed path), redeem carries body `onBehalfOf`, and a placement carries the sub-account as `ownerId`.
 *
 * Owns: the table of which carrier each endpoint uses, and the profile id's range (1 to 2147483647).
 * The spec names the carrier for user-orders (header), DELETE /orders/{orderId} (query) and redeem (body); the
 * other rows follow its rule "reads: header, cancel: query" and are marked as such in docs/exchange-client.md.
 */
import { RequestInputError } from './errors.js';

export const ON_BEHALF_OF_HEADER = 'x-on-behalf-of';
export const ON_BEHALF_OF_QUERY = 'onBehalfOf';
export const MAX_PROFILE_ID = 2_147_483_647;

export type DelegationCarrier = 'header' | 'query' | 'body' | 'owner';

/** Carrier per endpoint label (`METHOD /path/{template}`); endpoints not listed are never delegated. */
export const DELEGATION_CARRIERS: Readonly<Record<string, DelegationCarrier>> = {
  'GET /markets/{slug}/user-orders': 'header',
  'GET /portfolio/positions': 'header',
  'POST /orders/status/batch': 'header',
  'DELETE /orders/{orderId}': 'query',
  'POST /orders/cancel-batch': 'query',
  'POST /orders/batch-cancel': 'query',
  'POST /orders/cancel': 'query',
  'DELETE /orders/all/{slug}': 'query',
  'POST /portfolio/redeem': 'body',
  'POST /orders': 'owner',
};

/** A profile id as the venue accepts it: an integer in [1, 2147483647]. */
export function checkProfileId(field: string, value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > MAX_PROFILE_ID) {
    throw new RequestInputError(field, value, `must be an integer in [1, ${MAX_PROFILE_ID}]`);
  }
  return value;
}

export interface DelegationParts {
  readonly headers: Readonly<Record<string, string>>;
  readonly query: readonly (readonly [string, string])[];
  readonly body: { readonly onBehalfOf?: number };
}

const NONE: DelegationParts = { headers: {}, query: [], body: {} };

/** The header, query and body parts that carry `onBehalfOf` for one endpoint (empty when not delegating). */
export function delegationParts(endpointLabel: string, onBehalfOf: number | null): DelegationParts {
  if (onBehalfOf === null) return NONE;
  switch (DELEGATION_CARRIERS[endpointLabel]) {
    case 'header':
      return { headers: { [ON_BEHALF_OF_HEADER]: String(onBehalfOf) }, query: [], body: {} };
    case 'query':
      return { headers: {}, query: [[ON_BEHALF_OF_QUERY, String(onBehalfOf)]], body: {} };
    case 'body':
      return { headers: {}, query: [], body: { onBehalfOf } };
    default:
      return NONE;
  }
}

/** The `ownerId` of a placement: the sub-account when delegating, else the caller's own profile. */
export function placementOwnerId(profileId: number | null, onBehalfOf: number | null): number {
  if (onBehalfOf !== null) return onBehalfOf;
  if (profileId === null) {
    throw new RequestInputError('profileId', null, 'is needed to place orders (GET /profiles/{address} gives it)');
  }
  return profileId;
}
