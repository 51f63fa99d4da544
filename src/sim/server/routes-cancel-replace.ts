/**
 * `POST /orders/cancel-replace` and `POST /orders/cancel-replace/batch` (HMAC, scope `trading`), shaped exactly
 * as the official client types them (CancelReplaceRequest / CancelReplaceBatchRequest → CancelReplaceResponse /
 * CancelReplaceBatchResponse):
 * - request `{cancel: {orderId} | {clientOrderId}, replacement: {order, orderType, marketSlug, ownerId, postOnly?,
 *   clientOrderId?, timestamp?, recvWindow?, stpPolicy?}, mode: ALLOW_FAILURE | STOP_ON_FAILURE, onBehalfOf?}`;
 *   the batch is `{operations: [...]}` (1 to MAX_CANCEL_REPLACE_BATCH);
 * - per operation `{cancel: {status: SUCCESS, orderId, clientOrderId?} | {status: FAILURE|UNKNOWN, error: {code,
 *   message}}, replacement: {status: SUCCESS, data: {order, makerMatches, execution}} | {status: FAILURE|UNKNOWN,
 *   error} | {status: NOT_ATTEMPTED}}`; the batch answers `{results: [{index, cancel, replacement}]}`.
 *
 * Semantics: the cancel runs first. STOP_ON_FAILURE: a cancel that did not succeed (FAILURE or UNKNOWN) leaves
 * the replacement NOT_ATTEMPTED. ALLOW_FAILURE: the replacement is attempted anyway. The replacement is checked
 * exactly as `POST /orders` (placement.ts); a refusal there (trading mode, signature, balance, post-only cross,
 * duplicate clientOrderId, …) is a replacement FAILURE whose `error.code` is the engine's code or the HTTP
 * status's name and whose message is the `POST /orders` message.
 *
 * Whole-request answers: schema problems (every operation is parsed before anything happens) 400 naming the field;
 * HMAC 401; scope 403; a trading mode that forbids cancels (`disabled`) 425 with the trading-mode body; a receive
 * window that passed or an expiration in the past 425/400. The single form answers 200 when both legs succeeded and
 * 409 (same body) otherwise — the official client accepts 409 there as an answer; the batch always answers 200.
 *
 * Faults (cancel-replace-faults.ts): a matching rule forces the operation's cancel and/or replacement outcome.
 *
 * Settings (settings.ts), for behaviours the live venue has not confirmed: `cancelReplaceBatchMarkets: single` refuses
 * a batch whose operations name different `replacement.marketSlug`s (400 naming `operations.{i}.replacement.marketSlug`,
 * the first that differs from operation 0's); `cancelReplaceUnknownTarget: refuse` refuses a request in which a
 * cancel target `{clientOrderId}` names no order of the account (400 naming `[operations.{i}.]cancel.clientOrderId`),
 * judged against the orders as they stand before the request. By default both are accepted: mixed markets are
 * carried out operation by operation, and an unknown clientOrderId is a cancel FAILURE `ORDER_NOT_FOUND` after which
 * ALLOW_FAILURE still attempts the replacement and STOP_ON_FAILURE leaves it NOT_ATTEMPTED.
 * The request log keeps the markets a batch named and its number of operations (`logDetail`).
 *
 * Invariants: a rejected request changes nothing; every operation of a batch is carried out in order, one at a
 * time; a forced UNKNOWN reports nothing about whether the action happened (the rule decides).
 */
import { z } from 'zod';
import type { EngineErrorCode, ErrorBody, SimOrder } from '../engine/index.js';
import type { CancelReplaceFaultRule, CancelReplaceFaults } from './cancel-replace-faults.js';
import { effectiveProfile, MAX_PROFILE_ID } from './delegation.js';
import { HttpError, statusText, validationError, type ValidationIssue } from './http-errors.js';
import { parseJson } from './body.js';
import { assertKnownQuery } from './query.js';
import { parsePlacement, type ParsedPlacement } from './order-request.js';
import { assertPlacementTiming, submitPlacement, type PlacementAnswer } from './placement.js';
import type { RouteDeps } from './route-deps.js';
import type { Reply, RequestContext, RouteDef } from './router.js';
import type { SimSettings } from './settings.js';
import { UUID_V4 } from './routes-trading.js';
import { zodIssues } from './validation.js';

export const MAX_CANCEL_REPLACE_BATCH = 50;
export const CANCEL_REPLACE_MODES = ['ALLOW_FAILURE', 'STOP_ON_FAILURE'] as const;
export type CancelReplaceMode = (typeof CANCEL_REPLACE_MODES)[number];

const profileIdSchema = z
  .number({ error: `must be an integer between 1 and ${MAX_PROFILE_ID}` })
  .int({ error: `must be an integer between 1 and ${MAX_PROFILE_ID}` })
  .min(1, { error: `must be an integer between 1 and ${MAX_PROFILE_ID}` })
  .max(MAX_PROFILE_ID, { error: `must be an integer between 1 and ${MAX_PROFILE_ID}` });

const targetSchema = z.union(
  [
    z.strictObject({ orderId: z.string().regex(UUID_V4, { error: 'must be a UUID v4' }) }),
    z.strictObject({ clientOrderId: z.string().min(1, { error: 'must not be empty' }).max(128, { error: 'must be at most 128 characters' }) }),
  ],
  { error: 'must be {orderId: UUID v4} or {clientOrderId: string of 1 to 128 characters}' },
);

/** The operation's envelope; `replacement` is the POST /orders body and is parsed by parsePlacement. */
const operationSchema = z.strictObject({
  cancel: targetSchema,
  replacement: z.record(z.string(), z.unknown(), { error: 'must be an object (the POST /orders body)' }),
  mode: z.enum(CANCEL_REPLACE_MODES, { error: `must be one of ${CANCEL_REPLACE_MODES.join(', ')}` }),
  onBehalfOf: profileIdSchema.optional(),
});

const batchSchema = z.strictObject({
  operations: z
    .array(z.unknown(), { error: 'must be an array of cancel-replace operations' })
    .min(1, { error: `must contain between 1 and ${MAX_CANCEL_REPLACE_BATCH} operations` })
    .max(MAX_CANCEL_REPLACE_BATCH, { error: `must contain between 1 and ${MAX_CANCEL_REPLACE_BATCH} operations` }),
});

interface Operation {
  readonly cancel: { readonly orderId: string } | { readonly clientOrderId: string };
  readonly placement: ParsedPlacement;
  readonly mode: CancelReplaceMode;
  readonly onBehalfOf: number | undefined;
}

interface ResultError {
  readonly code: string;
  readonly message: string;
}

export type CancelResult =
  | { readonly status: 'SUCCESS'; readonly orderId: string; readonly clientOrderId?: string }
  | { readonly status: 'FAILURE' | 'UNKNOWN'; readonly error: ResultError };

export type ReplacementResult =
  | { readonly status: 'SUCCESS'; readonly data: PlacementAnswer }
  | { readonly status: 'FAILURE' | 'UNKNOWN'; readonly error: ResultError }
  | { readonly status: 'NOT_ATTEMPTED' };

export interface CancelReplaceResult {
  readonly cancel: CancelResult;
  readonly replacement: ReplacementResult;
}

const FORCED_FAILURE: ResultError = { code: 'INTERNAL_ERROR', message: 'Simulated failure (simulator fault rule)' };
const FORCED_UNKNOWN: ResultError = { code: 'UNKNOWN', message: 'Outcome unknown (simulator fault rule): look the order up' };

function prefixed(error: unknown, prefix: string): unknown {
  if (!(error instanceof HttpError) || error.status !== 400) return error;
  const message: unknown = Reflect.get(error.body, 'message');
  if (!Array.isArray(message)) return error;
  const issues: ValidationIssue[] = message.map((raw: unknown) => {
    const field: unknown = typeof raw === 'object' && raw !== null ? Reflect.get(raw, 'field') : undefined;
    const text: unknown = typeof raw === 'object' && raw !== null ? Reflect.get(raw, 'message') : undefined;
    return { field: `${prefix}.${String(field)}`, message: String(text) };
  });
  return validationError(issues);
}

/** Parses one operation (schema, then the replacement as a POST /orders body). Throws the 400 naming `path`. */
function parseOperation(raw: unknown, path: string): Operation {
  const envelope = operationSchema.safeParse(raw);
  if (!envelope.success) {
    const issues = zodIssues(envelope.error, path === '' ? 'body' : path);
    throw validationError(path === '' ? issues : issues.map((i) => (i.field === path ? i : { field: `${path}.${i.field}`, message: `${path}.${i.message}` })));
  }
  const replacementPath = path === '' ? 'replacement' : `${path}.replacement`;
  let placement: ParsedPlacement;
  try {
    placement = parsePlacement(envelope.data.replacement);
  } catch (error) {
    throw prefixed(error, replacementPath);
  }
  const { onBehalfOf } = envelope.data;
  if (onBehalfOf !== undefined && placement.body.ownerId !== onBehalfOf) {
    throw validationError([{ field: `${replacementPath}.ownerId`, message: `${replacementPath}.ownerId must equal onBehalfOf (${onBehalfOf})` }]);
  }
  return { cancel: envelope.data.cancel, placement, mode: envelope.data.mode, onBehalfOf };
}

function errorOf(code: string, body: ErrorBody | object): ResultError {
  const message: unknown = Reflect.get(body, 'message');
  const text = Array.isArray(message)
    ? message.map((m: unknown) => (typeof m === 'object' && m !== null ? String(Reflect.get(m, 'message')) : String(m))).join('; ')
    : String(message);
  return { code, message: text };
}

function httpCode(status: number): string {
  if (status === 425) return 'TRADING_MODE_RESTRICTED';
  return statusText(status).toUpperCase().replace(/ /g, '_');
}

/** `settings: single`: the first operation whose replacement names another market than operation 0's, as a 400. */
function assertOneMarket(ops: readonly Operation[]): void {
  const first = ops[0]?.placement.body.marketSlug;
  const index = ops.findIndex((op) => op.placement.body.marketSlug !== first);
  const other = ops[index];
  if (first === undefined || other === undefined) return;
  const field = `operations.${index}.replacement.marketSlug`;
  throw validationError([
    { field, message: `${field} must be ${first}, the market of operations.0: a batch takes one market (got ${other.placement.body.marketSlug})` },
  ]);
}

export function cancelReplaceRoutes(deps: RouteDeps, faults: CancelReplaceFaults, settings: () => SimSettings): RouteDef[] {
  const { engine } = deps;

  const profileOf = (ctx: RequestContext, op: Operation): number => {
    if (ctx.token === null) throw new HttpError(401, { message: 'Unauthorized', error: 'Unauthorized', statusCode: 401 });
    const ownerId = op.placement.body.ownerId;
    const target = op.onBehalfOf ?? (ownerId === ctx.token.profileId ? undefined : ownerId);
    return effectiveProfile(ctx.token, target, deps.partnerOf);
  };

  const targetOrder = (profileId: number, op: Operation): SimOrder | undefined => {
    if ('orderId' in op.cancel) {
      const order = engine.orderById(op.cancel.orderId);
      return order !== undefined && order.profileId === profileId ? order : undefined;
    }
    return engine.orderByClientOrderId(profileId, op.cancel.clientOrderId);
  };

  const doCancel = (profileId: number, order: SimOrder | undefined): CancelResult => {
    if (order === undefined) return { status: 'FAILURE', error: { code: 'ORDER_NOT_FOUND' satisfies EngineErrorCode, message: 'Order not found' } };
    const outcome = engine.cancel(profileId, order.id);
    if (!outcome.ok) return { status: 'FAILURE', error: errorOf(outcome.code, outcome.body) };
    return { status: 'SUCCESS', orderId: order.id, ...(order.clientOrderId === null ? {} : { clientOrderId: order.clientOrderId }) };
  };

  const doReplace = async (profileId: number, op: Operation): Promise<ReplacementResult> => {
    try {
      const result = await submitPlacement(deps, op.placement, profileId, deps.clock.now());
      if (!result.ok) return { status: 'FAILURE', error: errorOf(result.code, result.body) };
      return { status: 'SUCCESS', data: result.answer };
    } catch (error) {
      if (error instanceof HttpError) return { status: 'FAILURE', error: errorOf(httpCode(error.status), error.body) };
      throw error;
    }
  };

  const runOperation = async (ctx: RequestContext, op: Operation): Promise<CancelReplaceResult> => {
    const profileId = profileOf(ctx, op);
    const order = targetOrder(profileId, op);
    const rule: CancelReplaceFaultRule | null = faults.take({
      cancelClientOrderId: 'clientOrderId' in op.cancel ? op.cancel.clientOrderId : (order?.clientOrderId ?? null),
      replacementClientOrderId: op.placement.body.clientOrderId ?? null,
    });

    let cancel: CancelResult;
    if (rule?.cancel === 'FAILURE') cancel = { status: 'FAILURE', error: FORCED_FAILURE };
    else if (rule?.cancel === 'UNKNOWN') {
      if (rule.cancelApplied) doCancel(profileId, order);
      cancel = { status: 'UNKNOWN', error: FORCED_UNKNOWN };
    } else cancel = doCancel(profileId, order);

    if (op.mode === 'STOP_ON_FAILURE' && cancel.status !== 'SUCCESS') return { cancel, replacement: { status: 'NOT_ATTEMPTED' } };
    let replacement: ReplacementResult;
    if (rule?.replacement === 'NOT_ATTEMPTED') replacement = { status: 'NOT_ATTEMPTED' };
    else if (rule?.replacement === 'FAILURE') replacement = { status: 'FAILURE', error: FORCED_FAILURE };
    else if (rule?.replacement === 'UNKNOWN') {
      if (rule.replacementApplied) await doReplace(profileId, op);
      replacement = { status: 'UNKNOWN', error: FORCED_UNKNOWN };
    } else replacement = await doReplace(profileId, op);
    return { cancel, replacement };
  };

  /**
   * Whole-request checks: every operation's timing and account, a cancel target `{clientOrderId}` that names no order
   * (refused only with the setting `cancelReplaceUnknownTarget: refuse`), and a trading mode that forbids cancels (425).
   * `path(i)`: the field prefix of operation i (`operations.{i}.` in a batch, none for the single form).
   */
  const preflight = (ctx: RequestContext, ops: readonly Operation[], path: (index: number) => string): void => {
    const refuseUnknown = settings().cancelReplaceUnknownTarget === 'refuse';
    for (const [index, op] of ops.entries()) {
      assertPlacementTiming(op.placement, ctx.nowMs);
      const profileId = profileOf(ctx, op);
      if (refuseUnknown && 'clientOrderId' in op.cancel && targetOrder(profileId, op) === undefined) {
        const field = `${path(index)}cancel.clientOrderId`;
        throw validationError([{ field, message: `${field} names no order of this account (got ${JSON.stringify(op.cancel.clientOrderId)})` }]);
      }
    }
    deps.modes.assertAllowed({ kind: 'cancel' }, ctx.nowMs);
  };

  return [
    {
      method: 'POST',
      pattern: '/orders/cancel-replace',
      auth: 'hmac',
      scope: 'trading',
      handler: async (ctx): Promise<Reply> => {
        assertKnownQuery(ctx.query, []);
        const op = parseOperation(parseJson(ctx.rawBody), '');
        preflight(ctx, [op], () => '');
        const result = await runOperation(ctx, op);
        const complete = result.cancel.status === 'SUCCESS' && result.replacement.status === 'SUCCESS';
        return { status: complete ? 200 : 409, body: { ...result } };
      },
    },
    {
      method: 'POST',
      pattern: '/orders/cancel-replace/batch',
      auth: 'hmac',
      scope: 'trading',
      handler: async (ctx): Promise<Reply> => {
        assertKnownQuery(ctx.query, []);
        const input = batchSchema.safeParse(parseJson(ctx.rawBody));
        if (!input.success) throw validationError(zodIssues(input.error));
        const ops = input.data.operations.map((raw, index) => parseOperation(raw, `operations.${index}`));
        if (settings().cancelReplaceBatchMarkets === 'single') assertOneMarket(ops);
        preflight(ctx, ops, (index) => `operations.${index}.`);
        const results = [];
        for (const [index, op] of ops.entries()) results.push({ index, ...(await runOperation(ctx, op)) });
        const markets = [...new Set(ops.map((op) => op.placement.body.marketSlug))];
        return { status: 200, body: { results }, logDetail: { markets, operations: ops.length } };
      },
    },
  ];
}
