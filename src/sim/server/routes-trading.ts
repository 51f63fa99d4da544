/**
 * Authenticated REST routes: own orders per market, placement, cancellation (one, batch, all in a
 * market), batch order status, portfolio positions and redemption.
 *
 * Owns: the order of checks per endpoint (validation 400 → delegation 400/403/404 → trading mode 425 (POST /orders: 503
 * by default, settings.ts `placementModeRefusal`) →
 * signature 400 → engine business rules), and the answer shapes of exchange-api.md and exchange-facts
 * §3 and §6. Invariants: a rejected request changes nothing; the engine's failures are passed through with
 * their status and body; orders of another profile are never revealed (status batch answers not_found).
 */
import { z } from 'zod';
import type { OrderStatus, SimOrder, UserOrder } from '../engine/index.js';
import { parseProfileId, effectiveProfile } from './delegation.js';
import { HttpError, notFound, validationError, type ValidationIssue } from './http-errors.js';
import { headerValue, type ApiToken } from './hmac-verify.js';
import { parseJson } from './body.js';
import { assertKnownQuery, queryInt, unknownQueryIssues } from './query.js';
import { parsePlacement } from './order-request.js';
import { assertPlacementTiming, createdOrder, placementProfile, submitPlacement } from './placement.js';
import type { RouteDeps } from './route-deps.js';
import type { SimSettings } from './settings.js';
import type { Reply, RequestContext, RouteDef } from './router.js';
import { parseOrThrow } from './validation.js';
import { marketRewardsWire, portfolioRewardsWire } from './rewards-wire.js';
import { portfolioPositionWire } from './wire-format.js';

export const UUID_V4 = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$/;
export const ORDER_STATUSES: readonly OrderStatus[] = ['LIVE', 'MATCHED', 'CANCELED', 'UNMATCHED'];
export const MAX_CANCEL_BATCH = 500;
export const MAX_STATUS_BATCH = 50;
export const ON_BEHALF_OF_HEADER = 'x-on-behalf-of';

/** The profile a cancel acts for: the caller, or the sub-account of the `onBehalfOf` query (validated). Throws. */
export function cancelProfileOf(deps: RouteDeps, ctx: RequestContext, extraIssues: readonly ValidationIssue[] = []): number {
  const issues = [...extraIssues, ...unknownQueryIssues(ctx.query, ['onBehalfOf'])];
  const all = ctx.query.getAll('onBehalfOf');
  let target: number | undefined;
  if (all.length > 1) issues.push({ field: 'onBehalfOf', message: 'onBehalfOf must be given once' });
  else if (all[0] !== undefined) {
    try {
      target = parseProfileId(all[0], 'onBehalfOf');
    } catch {
      issues.push({ field: 'onBehalfOf', message: 'onBehalfOf must be an integer between 1 and 2147483647' });
    }
  }
  if (issues.length > 0) throw validationError(issues);
  return effectiveProfile(tokenOf(ctx), target, deps.partnerOf);
}

function tokenOf(ctx: RequestContext): ApiToken {
  if (ctx.token === null) throw new HttpError(401, { message: 'Unauthorized', error: 'Unauthorized', statusCode: 401 });
  return ctx.token;
}

function failure(status: number, body: object): Reply {
  return { status, body };
}

const isOrderStatus = (value: string): value is OrderStatus => (ORDER_STATUSES as readonly string[]).includes(value);

const cancelBatchSchema = z.strictObject({
  orderIds: z
    .array(z.string({ error: 'must be a string' }).regex(UUID_V4, { error: 'must be a UUID v4' }), { error: 'must be an array of order ids' })
    .min(1, { error: 'must contain at least one order id' })
    .max(MAX_CANCEL_BATCH, { error: `must contain at most ${MAX_CANCEL_BATCH} order ids` }),
});

const statusBatchSchema = z.strictObject({
  items: z
    .array(z.unknown(), { error: 'must be an array' })
    .min(1, { error: 'must contain between 1 and 50 items' })
    .max(MAX_STATUS_BATCH, { error: 'must contain between 1 and 50 items' }),
});

const statusItemSchema = z.union([
  z.strictObject({ orderId: z.string().regex(UUID_V4) }),
  z.strictObject({ clientOrderId: z.string().min(1).max(128) }),
]);

const redeemSchema = z.strictObject({
  conditionId: z.string({ error: 'must be a string' }).regex(/^0x[0-9a-fA-F]{64}$/, { error: 'must be a 0x-prefixed 32-byte hex string' }),
  onBehalfOf: z
    .number({ error: 'must be an integer >= 1' })
    .int({ error: 'must be an integer >= 1' })
    .min(1, { error: 'must be an integer >= 1' })
    .max(2_147_483_647, { error: 'must be an integer <= 2147483647' })
    .optional(),
});

/**
 * A status lookup's `data.order`: the placement answer's CreatedOrder (amounts numbers, side 0|1, tokenId, price a
 * number) plus the UserOrder fields that say where the order stands now (status, originalSize, remainingSize).
 */
function lookupOrder(user: UserOrder, order: SimOrder): Record<string, unknown> {
  return {
    ...createdOrder(order),
    status: user.status,
    originalSize: user.originalSize,
    remainingSize: user.remainingSize,
    ...(user.clientOrderId === undefined ? {} : { clientOrderId: user.clientOrderId }),
  };
}

export function tradingRoutes(deps: RouteDeps, settings: () => SimSettings): RouteDef[] {
  const { engine } = deps;

  /** Profile for reads: the caller, or the `x-on-behalf-of` sub-account. */
  const readProfile = (ctx: RequestContext): number => {
    const header = headerValue(ctx.headers, ON_BEHALF_OF_HEADER);
    const target = header === undefined ? undefined : parseProfileId(header, ON_BEHALF_OF_HEADER);
    return effectiveProfile(tokenOf(ctx), target, deps.partnerOf);
  };

  /** Profile for cancels: the caller, or the `onBehalfOf` query sub-account. Validates the query. */
  const cancelProfile = (ctx: RequestContext, extraIssues: ValidationIssue[] = []): number => cancelProfileOf(deps, ctx, extraIssues);

  const ownOrder = (profileId: number, order: SimOrder | undefined): SimOrder | undefined =>
    order !== undefined && order.profileId === profileId ? order : undefined;

  return [
    {
      method: 'GET',
      pattern: '/markets/:slug/user-orders',
      auth: 'hmac',
      handler: (ctx) => {
        const issues = unknownQueryIssues(ctx.query, ['statuses', 'limit']);
        const statuses: OrderStatus[] = [];
        for (const raw of ctx.query.getAll('statuses')) {
          const upper = raw.toUpperCase();
          if (isOrderStatus(upper)) {
            if (!statuses.includes(upper)) statuses.push(upper);
          } else issues.push({ field: 'statuses', message: `each value in statuses must be one of the following values: ${ORDER_STATUSES.join(', ')}` });
        }
        const limit = queryInt(ctx.query, 'limit', { min: 1, max: 200 }, issues);
        if (issues.length > 0) throw validationError(issues);
        const profileId = readProfile(ctx);
        const slug = ctx.params['slug'] ?? '';
        if (!engine.market(slug)) throw notFound('Market not found');
        const orders = engine.orders(profileId, slug, statuses.length > 0 ? statuses : ['LIVE'], limit);
        return { status: 200, body: orders.map((o) => engine.userOrder(o)) };
      },
    },
    {
      method: 'POST',
      pattern: '/orders',
      auth: 'hmac',
      scope: 'trading',
      handler: async (ctx) => {
        assertKnownQuery(ctx.query, []);
        const placement = parsePlacement(parseJson(ctx.rawBody));
        assertPlacementTiming(placement, ctx.nowMs);
        const profileId = placementProfile(deps, tokenOf(ctx), placement);
        const result = await submitPlacement(deps, placement, profileId, ctx.nowMs, settings().placementModeRefusal);
        if (!result.ok) return failure(result.status, result.body);
        return { status: 201, body: { ...result.answer } };
      },
    },
    {
      method: 'DELETE',
      pattern: '/orders/:orderId',
      auth: 'hmac',
      scope: 'trading',
      handler: (ctx) => {
        const orderId = ctx.params['orderId'] ?? '';
        const issues: ValidationIssue[] = UUID_V4.test(orderId) ? [] : [{ field: 'orderId', message: 'orderId must be a UUID v4' }];
        const profileId = cancelProfile(ctx, issues);
        deps.modes.assertAllowed({ kind: 'cancel' }, ctx.nowMs);
        const outcome = engine.cancel(profileId, orderId);
        if (!outcome.ok) return failure(outcome.status, outcome.body);
        return { status: 200, body: { message: outcome.message } };
      },
    },
    {
      method: 'POST',
      pattern: '/orders/cancel-batch',
      auth: 'hmac',
      scope: 'trading',
      handler: (ctx) => {
        const input = parseOrThrow(cancelBatchSchema, parseJson(ctx.rawBody));
        const profileId = cancelProfile(ctx);
        deps.modes.assertAllowed({ kind: 'cancel' }, ctx.nowMs);
        const outcome = engine.cancelBatch(profileId, input.orderIds);
        if (!outcome.ok) return failure(outcome.status, outcome.body);
        const partial = outcome.failed.length > 0;
        return {
          status: partial ? 207 : 200,
          body: {
            message: partial ? 'Some orders could not be canceled' : 'Orders canceled successfully',
            canceled: outcome.canceled,
            failed: outcome.failed,
          },
        };
      },
    },
    {
      method: 'DELETE',
      pattern: '/orders/all/:slug',
      auth: 'hmac',
      scope: 'trading',
      handler: (ctx) => {
        const profileId = cancelProfile(ctx);
        deps.modes.assertAllowed({ kind: 'cancel' }, ctx.nowMs);
        const outcome = engine.cancelAll(profileId, ctx.params['slug'] ?? '');
        if (!outcome.ok) return failure(outcome.status, outcome.body);
        const partial = outcome.failed.length > 0;
        return {
          status: 200,
          body: {
            message: partial ? 'Some orders could not be canceled' : 'All orders canceled successfully',
            canceled: outcome.canceled,
            failed: outcome.failed,
          },
        };
      },
    },
    {
      method: 'POST',
      pattern: '/orders/status/batch',
      auth: 'hmac',
      handler: (ctx) => {
        assertKnownQuery(ctx.query, []);
        const input = parseOrThrow(statusBatchSchema, parseJson(ctx.rawBody));
        const profileId = readProfile(ctx);
        const results = input.items.map((raw, index) => {
          const item = statusItemSchema.safeParse(raw);
          if (!item.success) return { index, status: 'invalid' as const };
          const order =
            'orderId' in item.data
              ? ownOrder(profileId, engine.orderById(item.data.orderId))
              : engine.orderByClientOrderId(profileId, item.data.clientOrderId);
          const ids = 'orderId' in item.data ? { orderId: item.data.orderId } : { clientOrderId: item.data.clientOrderId };
          if (!order) return { index, status: 'not_found' as const, ...ids };
          const placement = deps.placements.placementOf(order);
          return {
            index,
            status: 'found' as const,
            orderId: order.id,
            ...(order.clientOrderId === null ? {} : { clientOrderId: order.clientOrderId }),
            // The order as the placement answer (CreatedOrder) types it, with its current status and sizes.
            data: { order: lookupOrder(engine.userOrder(order), order), makerMatches: placement.makerMatches, execution: placement.execution },
          };
        });
        return { status: 200, body: { results } };
      },
    },
    {
      method: 'GET',
      pattern: '/portfolio/positions',
      auth: 'hmac',
      handler: (ctx) => {
        assertKnownQuery(ctx.query, []);
        const profileId = readProfile(ctx);
        const clob = [];
        const rewards = engine.rewards(profileId);
        for (const summary of engine.positions(profileId)) {
          const market = engine.market(summary.marketSlug);
          const holds = summary.yes.balanceRaw > 0 || summary.no.balanceRaw > 0 || summary.liveOrders > 0;
          if (market && holds) clob.push(portfolioPositionWire(summary, market, engine.book(market.slug), marketRewardsWire(rewards, market.slug)));
        }
        // PortfolioPositionsResponse: `amm` and `group` lists too (empty: the simulator has no AMM markets, and
        // NegRisk submarkets are listed in `clob`); `rewards` in total (rewards-wire.ts).
        return { status: 200, body: { amm: [], clob, group: [], rewards: portfolioRewardsWire(rewards) } };
      },
    },
    {
      method: 'POST',
      pattern: '/portfolio/redeem',
      auth: 'hmac',
      scope: 'trading',
      handler: (ctx) => {
        assertKnownQuery(ctx.query, []);
        const input = parseOrThrow(redeemSchema, parseJson(ctx.rawBody));
        const profileId = effectiveProfile(tokenOf(ctx), input.onBehalfOf, deps.partnerOf);
        const outcome = engine.redeem(profileId, input.conditionId);
        if (!outcome.ok) return failure(outcome.status, outcome.body);
        return {
          status: 200,
          body: {
            success: true,
            conditionId: outcome.conditionId,
            marketSlug: outcome.marketSlug,
            payout: String(outcome.payoutRaw),
            yesBurned: String(outcome.yesBurnedRaw),
            noBurned: String(outcome.noBurnedRaw),
          },
        };
      },
    },
  ];
}
