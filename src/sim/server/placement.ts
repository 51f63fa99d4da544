/**
 * One signed placement carried out for an authenticated caller: what `POST /orders` does after parsing its body,
 * shared with the replacement leg of `POST /orders/cancel-replace` so both check the same things in the same
 * order (receive window 425 → delegation 400/403/404 → trading mode 425 → maker is the profile's wallet 403 →
 * market 404 → EIP-712 signature 400 → trading mode again → engine business rules).
 *
 * Owns: the 201 answer shape (the official client's OrderResponse: `order` echo, `makerMatches`, `execution`).
 * Invariants: a failure changes nothing; HTTP-level failures are thrown as HttpError, engine failures returned
 * with their status and body; an accepted placement's answer is remembered for `/orders/status/batch`.
 */
import type { ApiToken } from './hmac-verify.js';
import { effectiveProfile } from './delegation.js';
import { forbidden, notFound } from './http-errors.js';
import { assertExpiration, assertReceiveWindow, placeInput, verifyOrderSignature, type ParsedPlacement } from './order-request.js';
import type { RouteDeps } from './route-deps.js';
import type { ModeRefusalForm } from './trading-mode.js';
import type { EngineFailure, Execution, MakerMatch, SimOrder } from '../engine/index.js';
import { SIDE_CODE } from '../../core/venue-rules/index.js';

/** `POST /orders` 201 body. */
export interface PlacementAnswer {
  readonly order: Record<string, unknown>;
  readonly makerMatches: readonly MakerMatch[];
  readonly execution: Execution;
}

export type PlacementResult = { readonly ok: true; readonly answer: PlacementAnswer } | EngineFailure;

/** The checks that need no state and no signature: receive window (425) and expiration (400). Throws. */
export function assertPlacementTiming(placement: ParsedPlacement, nowMs: number): void {
  assertReceiveWindow(placement.body, nowMs);
  assertExpiration(placement.body, nowMs);
}

/** The profile a placement acts for: the caller, or the sub-account named by `ownerId` (delegation). Throws. */
export function placementProfile(deps: RouteDeps, token: ApiToken, placement: ParsedPlacement): number {
  const ownerId = placement.body.ownerId;
  return effectiveProfile(token, ownerId === token.profileId ? undefined : ownerId, deps.partnerOf);
}

/**
 * Everything after the timing checks, for `profileId`. Throws HttpError; returns the engine's verdict. `refusal`: how a
 * mode that forbids the placement answers (POST /orders: the setting; a cancel-replace's replacement leg: 425).
 */
export async function submitPlacement(deps: RouteDeps, placement: ParsedPlacement, profileId: number, nowMs: number, refusal: ModeRefusalForm = '425'): Promise<PlacementResult> {
  const { engine } = deps;
  const body = placement.body;
  const action = { kind: 'place', orderType: body.orderType, postOnly: body.postOnly ?? false } as const;
  deps.modes.assertAllowed(action, nowMs, refusal);
  const account = engine.account(profileId);
  if (!account) throw notFound('Profile not found');
  if (account.address !== placement.maker) throw forbidden(`order.maker is not the wallet of profile ${profileId}`);
  const market = engine.market(body.marketSlug);
  if (!market) throw notFound('Market not found');
  await verifyOrderSignature(placement, { verifyingContract: market.venue.exchange, ...deps.signing });
  // The mode may have changed while the signature was checked: the one in force when the order reaches the book wins.
  deps.modes.assertAllowed(action, deps.clock.now(), refusal);
  const outcome = engine.place(placeInput(placement, profileId));
  if (!outcome.ok) return outcome;
  deps.placements.remember(outcome.order.id, outcome.makerMatches, outcome.execution);
  return { ok: true, answer: { order: createdOrder(outcome.order), makerMatches: outcome.makerMatches, execution: outcome.execution } };
}

/**
 * The placement answer's `order` (the official client's CreatedOrder): the signed order echoed, its amounts,
 * side (0|1), token and price as the signed order types them, plus the venue's fields.
 */
export function createdOrder(order: SimOrder): Record<string, unknown> {
  return {
    ...order.signedOrderEcho,
    tokenId: order.tokenId,
    makerAmount: order.makerAmount,
    takerAmount: order.takerAmount,
    side: SIDE_CODE[order.side],
    price: order.priceTicks === null ? null : order.priceTicks / 1000,
    id: order.id,
    ownerId: order.profileId,
    marketId: String(order.marketId),
    marketSlug: order.marketSlug,
    orderType: order.type,
    status: order.status,
    postOnly: order.postOnly,
    createdAt: new Date(order.createdAtMs).toISOString(),
    ...(order.clientOrderId === null ? {} : { clientOrderId: order.clientOrderId }),
  };
}
