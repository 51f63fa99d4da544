/**
 * The venue's current cancel endpoints (its API reference): `POST /orders/batch-cancel` — up to 50 `orderIds` OR
 * `clientOrderIds` — and `POST /orders/cancel` — one `orderId` or `clientOrderId`. (The older `POST /orders/cancel-batch`,
 * ids of one market only, stays in routes-trading.ts.)
 *
 * Owns: their strict bodies (exactly one of the two id lists, 1–50 entries, no other field: 400 naming the field),
 * their answers, and what a batch naming orders of several markets gets: the API reference sets no rule, so it is a
 * setting (settings.ts `batchCancelMarkets`): `mixed` cancels them all (the default), `single` refuses the request as
 * a whole with a 400 naming the id list, as the older endpoint does. Answers: the batch 200 when every order was
 * canceled, else 207, `{message, canceled: [the ids as sent], failed: [{orderId | clientOrderId, reason, message}]}`
 * (the older endpoint's shape, by the id kind sent); the single cancel 200 `{message}` or the engine's failure (404
 * not found, 401 another profile's, 400 resolved or not cancellable). A trading mode that forbids cancels
 * (`disabled`) answers the specification's 425. Invariant: a refused request cancels nothing.
 */
import { z } from 'zod';
import { HttpError, invalidField } from './http-errors.js';
import { parseJson } from './body.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteDef } from './router.js';
import { cancelProfileOf, UUID_V4 } from './routes-trading.js';
import type { SimSettings } from './settings.js';
import { parseOrThrow } from './validation.js';

/** The most ids one batch-cancel takes (API reference). */
export const MAX_BATCH_CANCEL = 50;

const orderId = z.string({ error: 'must be a string' }).regex(UUID_V4, { error: 'must be a UUID v4' });
const clientOrderId = z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(128, { error: 'must be at most 128 characters' });
const idList = <T extends z.ZodType<string>>(item: T, what: string) =>
  z.array(item, { error: `must be an array of ${what}` }).min(1, { error: `must contain between 1 and ${MAX_BATCH_CANCEL} ${what}` }).max(MAX_BATCH_CANCEL, { error: `must contain between 1 and ${MAX_BATCH_CANCEL} ${what}` });

const batchCancelSchema = z.union([z.strictObject({ orderIds: idList(orderId, 'order ids') }), z.strictObject({ clientOrderIds: idList(clientOrderId, 'clientOrderIds') })]);
const singleCancelSchema = z.union([z.strictObject({ orderId }), z.strictObject({ clientOrderId })]);

type IdKind = 'orderId' | 'clientOrderId';

/** Exactly one of the two keys: a body naming both or neither is refused naming both. */
function assertOneKind(body: unknown, keys: readonly [string, string]): void {
  const given = typeof body === 'object' && body !== null && !Array.isArray(body) ? keys.filter((k) => Object.hasOwn(body, k)) : [];
  if (given.length !== 1) throw invalidField(keys.join(' | '), `exactly one of ${keys.join(' or ')} is required`);
}

export function cancelRoutes(deps: RouteDeps, settings: () => SimSettings): RouteDef[] {
  const { engine } = deps;

  /** The order id an identifier names for `profileId` (undefined: no such order of that profile). */
  const resolve = (profileId: number, kind: IdKind, id: string): string | undefined => (kind === 'orderId' ? id : engine.orderByClientOrderId(profileId, id)?.id);

  return [
    {
      method: 'POST',
      pattern: '/orders/batch-cancel',
      auth: 'hmac',
      scope: 'trading',
      handler: (ctx) => {
        const raw = parseJson(ctx.rawBody);
        assertOneKind(raw, ['orderIds', 'clientOrderIds']);
        const input = parseOrThrow(batchCancelSchema, raw);
        const profileId = cancelProfileOf(deps, ctx);
        deps.modes.assertAllowed({ kind: 'cancel' }, ctx.nowMs);
        const [kind, ids] = 'orderIds' in input ? (['orderId', input.orderIds] as const) : (['clientOrderId', input.clientOrderIds] as const);
        const unique = [...new Set(ids)];
        const targets = unique.map((id) => ({ id, orderId: resolve(profileId, kind, id) }));
        const markets = new Set(targets.flatMap((t) => (t.orderId === undefined ? [] : [engine.orderById(t.orderId)?.marketSlug ?? ''])));
        if (markets.size > 1 && settings().batchCancelMarkets === 'single') {
          throw invalidField(kind === 'orderId' ? 'orderIds' : 'clientOrderIds', 'All orders must belong to the same market');
        }
        const canceled: string[] = [];
        const failed: Record<string, string>[] = [];
        for (const target of targets) {
          const outcome = target.orderId === undefined ? null : engine.cancel(profileId, target.orderId);
          if (outcome?.ok === true) canceled.push(target.id);
          else failed.push({ [kind]: target.id, reason: outcome?.code ?? 'ORDER_NOT_FOUND', message: typeof outcome?.body.message === 'string' ? outcome.body.message : 'Order not found' });
        }
        const partial = failed.length > 0;
        return { status: partial ? 207 : 200, body: { message: partial ? 'Some orders could not be canceled' : 'Orders canceled successfully', canceled, failed } };
      },
    },
    {
      method: 'POST',
      pattern: '/orders/cancel',
      auth: 'hmac',
      scope: 'trading',
      handler: (ctx) => {
        const raw = parseJson(ctx.rawBody);
        assertOneKind(raw, ['orderId', 'clientOrderId']);
        const input = parseOrThrow(singleCancelSchema, raw);
        const profileId = cancelProfileOf(deps, ctx);
        deps.modes.assertAllowed({ kind: 'cancel' }, ctx.nowMs);
        const id = 'orderId' in input ? input.orderId : resolve(profileId, 'clientOrderId', input.clientOrderId);
        if (id === undefined) throw new HttpError(404, { message: 'Order not found', error: 'Not Found', statusCode: 404 });
        const outcome = engine.cancel(profileId, id);
        if (!outcome.ok) return { status: outcome.status, body: outcome.body };
        return { status: 200, body: { message: outcome.message } };
      },
    },
  ];
}
