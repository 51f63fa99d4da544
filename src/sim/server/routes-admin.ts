/**
 * The loopback-only admin API under `/_sim/...`: the HTTP face of SimControl (see control.ts and
 * docs/simulator.md for every route). Unauthenticated; the server refuses it from non-loopback peers and
 * never applies rate limits or injected faults to it.
 *
 * Invariants: bodies are validated (400 validation body naming fields); a ControlError becomes the
 * framework body with its status; answers are JSON.
 */
import { z } from 'zod';
import type { OrderStatus } from '../engine/index.js';
import { ControlError, type SimControl } from './control.js';
import { INJECTABLE_STATUSES } from './faults.js';
import { FORCED_CANCEL_OUTCOMES, FORCED_REPLACEMENT_OUTCOMES } from './cancel-replace-faults.js';
import { marketWire, SOCKET_BOOK_SIZE_UNITS } from './wire-format.js';
import { BATCH_CANCEL_MARKET_RULES, BATCH_MARKET_RULES, HISTORY_AMOUNT_FORMS, LIFECYCLE_AUTH_MODES, PLACEMENT_MODE_REFUSALS, RESOLVED_AUDIENCES, UNKNOWN_TARGET_RULES } from './settings.js';
import { accountConfigSchema } from './accounts-config.js';
import { frameworkError, invalidField, validationError, type ValidationIssue } from './http-errors.js';
import { parseJson } from './body.js';
import { queryInt, unknownQueryIssues } from './query.js';
import { ORDER_STATUSES } from './routes-trading.js';
import type { Reply, RequestContext, RouteDef } from './router.js';
import { RESTRICTION_MODES } from '../../core/trading-mode.js';
import { parseOrThrow } from './validation.js';

const timeInput = z.union([z.number().int().min(0), z.iso.datetime({ offset: true })], { error: 'must be ms since epoch or an ISO-8601 date-time' });
const toMs = (value: number | string): number => (typeof value === 'number' ? value : Date.parse(value));

const tradingModeSchema = z.strictObject({
  mode: z.enum(RESTRICTION_MODES, { error: `must be one of ${RESTRICTION_MODES.join(', ')}` }),
  resumeAt: timeInput,
  startsAt: timeInput.optional(),
});

const fairValueSchema = z.union(
  [z.strictObject({ priceTicks: z.number().int().min(1).max(999) }), z.strictObject({ price: z.number().gt(0).lt(1) })],
  { error: 'body must be {priceTicks: 1..999} or {price: number in (0, 1) on the 0.001 tick}' },
);

const resolveSchema = z.union(
  [
    z.strictObject({ winningOutcomeIndex: z.union([z.literal(0), z.literal(1)]) }),
    z.strictObject({ payoutNumerators: z.tuple([z.number().int().min(0), z.number().int().min(0)]) }),
  ],
  { error: 'body must be {winningOutcomeIndex: 0|1} or {payoutNumerators: [yes, no]}' },
);

const listMarketSchema = z.strictObject({
  ticker: z.string().min(1).max(16),
  settlesAt: z.number().int({ error: 'must be an integer (ms since epoch)' }),
  strike: z.union([z.string(), z.number()], { error: 'must be a decimal string or a number (USD)' }).optional(),
});

const settingsSchema = z.strictObject({
  lifecycleAuth: z.enum(LIFECYCLE_AUTH_MODES, { error: `must be one of ${LIFECYCLE_AUTH_MODES.join(', ')}` }).optional(),
  marketResolvedAudience: z.enum(RESOLVED_AUDIENCES, { error: `must be one of ${RESOLVED_AUDIENCES.join(', ')}` }).optional(),
  cancelReplaceBatchMarkets: z.enum(BATCH_MARKET_RULES, { error: `must be one of ${BATCH_MARKET_RULES.join(', ')}` }).optional(),
  cancelReplaceUnknownTarget: z.enum(UNKNOWN_TARGET_RULES, { error: `must be one of ${UNKNOWN_TARGET_RULES.join(', ')}` }).optional(),
  placementModeRefusal: z.enum(PLACEMENT_MODE_REFUSALS, { error: `must be one of ${PLACEMENT_MODE_REFUSALS.join(', ')}` }).optional(),
  batchCancelMarkets: z.enum(BATCH_CANCEL_MARKET_RULES, { error: `must be one of ${BATCH_CANCEL_MARKET_RULES.join(', ')}` }).optional(),
  historyAmounts: z.enum(HISTORY_AMOUNT_FORMS, { error: `must be one of ${HISTORY_AMOUNT_FORMS.join(', ')}` }).optional(),
});

const dropSchema = z.strictObject({ kind: z.enum(['transport', 'server']).optional() }).optional();

const freezeSchema = z.strictObject({ scope: z.enum(['books', 'orders', 'oracle', 'all']).optional() }).optional();

const injectSchema = z.union(
  [
    z.strictObject({ kind: z.enum(['malformed', 'crossed']), marketSlug: z.string().min(1) }),
    z.strictObject({ kind: z.literal('custom'), marketSlug: z.string().min(1), event: z.string().min(1).optional(), payload: z.unknown() }),
  ],
  { error: "body must be {kind: 'malformed'|'crossed', marketSlug} or {kind: 'custom', marketSlug, event?, payload}" },
);

const delaySchema = z.strictObject({ ms: z.number().int().min(0).max(600_000) });

const bookSizeUnitSchema = z.strictObject({ unit: z.enum(SOCKET_BOOK_SIZE_UNITS, { error: "must be 'raw' or 'shares'" }) });

const cancelReplaceFaultSchema = z.strictObject({
  count: z.number().int().min(1).optional(),
  clientOrderId: z.string().min(1).max(128).optional(),
  cancel: z.enum(FORCED_CANCEL_OUTCOMES, { error: `must be one of ${FORCED_CANCEL_OUTCOMES.join(', ')}` }).optional(),
  cancelApplied: z.boolean().optional(),
  replacement: z.enum(FORCED_REPLACEMENT_OUTCOMES, { error: `must be one of ${FORCED_REPLACEMENT_OUTCOMES.join(', ')}` }).optional(),
  replacementApplied: z.boolean().optional(),
});

const failNextSchema = z.strictObject({
  status: z.union(INJECTABLE_STATUSES.map((s) => z.literal(s)), { error: `must be one of ${INJECTABLE_STATUSES.join(', ')}` }),
  count: z.number().int().min(1),
  pathPrefix: z.string().startsWith('/').optional(),
  phase: z.enum(['before', 'after']).optional(),
  retryAfterSeconds: z.number().int().min(0).optional(),
});

const rateLimitSchema = z.strictObject({
  enabled: z.boolean().optional(),
  maxConcurrent: z.number().int().min(1).optional(),
  minIntervalMs: z.number().int().min(0).optional(),
});

const depositSchema = z.strictObject({
  usdcRaw: z.number().int().min(0).optional(),
  tokens: z.record(z.string().regex(/^\d+$/), z.number().int().min(0)).optional(),
});


function profileParam(ctx: RequestContext): number {
  const raw = ctx.params['profileId'] ?? '';
  if (!/^[1-9]\d{0,9}$/.test(raw)) throw invalidField('profileId', 'profileId must be a positive integer');
  return Number(raw);
}

function ok(body: object, status = 200): Reply {
  return { status, body };
}

export function adminRoutes(control: SimControl): RouteDef[] {
  const guard =
    (handler: (ctx: RequestContext) => Reply) =>
    (ctx: RequestContext): Reply => {
      try {
        return handler(ctx);
      } catch (error) {
        if (error instanceof ControlError) throw frameworkError(error.status, error.message);
        throw error;
      }
    };
  const route = (method: RouteDef['method'], pattern: string, handler: (ctx: RequestContext) => Reply): RouteDef => ({
    method,
    pattern: `/_sim${pattern}`,
    auth: 'admin',
    handler: guard(handler),
  });
  const body = (ctx: RequestContext): unknown => parseJson(ctx.rawBody);

  return [
    route('GET', '/state', () => ok(control.state())),
    route('GET', '/accounts', () => ok(control.accounts())),
    route('POST', '/accounts', (ctx) => {
      const added = control.addAccount(parseOrThrow(accountConfigSchema, body(ctx)));
      return ok({ account: added.account, tokens: added.tokens.map((t) => ({ tokenId: t.tokenId, profileId: t.profileId, scopes: [...t.scopes] })) }, 201);
    }),
    route('POST', '/accounts/:profileId/deposit', (ctx) => {
      const input = parseOrThrow(depositSchema, body(ctx));
      return ok(control.deposit(profileParam(ctx), { ...(input.usdcRaw === undefined ? {} : { usdcRaw: input.usdcRaw }), ...(input.tokens === undefined ? {} : { tokens: input.tokens }) }));
    }),
    route('GET', '/accounts/:profileId/orders', (ctx) => {
      const issues: ValidationIssue[] = unknownQueryIssues(ctx.query, ['marketSlug', 'statuses']);
      const statuses: OrderStatus[] = [];
      for (const raw of ctx.query.getAll('statuses')) {
        const match = ORDER_STATUSES.find((s) => s === raw.toUpperCase());
        if (match) statuses.push(match);
        else issues.push({ field: 'statuses', message: `statuses must be one of ${ORDER_STATUSES.join(', ')}` });
      }
      if (issues.length > 0) throw validationError(issues);
      const marketSlug = ctx.query.get('marketSlug');
      return ok(control.accountOrders(profileParam(ctx), { ...(marketSlug === null ? {} : { marketSlug }), ...(statuses.length > 0 ? { statuses } : {}) }));
    }),
    route('GET', '/accounts/:profileId/trades', (ctx) => ok(control.accountTrades(profileParam(ctx)))),
    route('GET', '/accounts/:profileId/balances', (ctx) => ok(control.balances(profileParam(ctx)))),
    route('GET', '/accounts/:profileId/positions', (ctx) => ok(control.positions(profileParam(ctx)))),

    route('POST', '/markets', (ctx) => {
      const input = parseOrThrow(listMarketSchema, body(ctx));
      try {
        const market = control.listMarket({ ticker: input.ticker, settlesAt: input.settlesAt, ...(input.strike === undefined ? {} : { strike: input.strike }) });
        return ok(marketWire(market, control.engine.book(market.slug)), 201);
      } catch (error) {
        // A refused field is the venue's validation body naming it (the value in the message).
        if (error instanceof ControlError && error.status === 400) throw invalidField(error.field, error.message);
        throw error;
      }
    }),
    route('POST', '/markets/:slug/fair-value', (ctx) => {
      const input = parseOrThrow(fairValueSchema, body(ctx));
      let ticks: number;
      if ('priceTicks' in input) ticks = input.priceTicks;
      else {
        ticks = Math.round(input.price * 1000);
        if (Math.abs(ticks - input.price * 1000) > 1e-9) throw invalidField('price', 'price must be on the 0.001 tick');
      }
      return ok({ marketSlug: ctx.params['slug'], fairValueTicks: control.setFairValue(ctx.params['slug'] ?? '', ticks) });
    }),
    route('POST', '/markets/:slug/resolve', (ctx) => {
      const input = parseOrThrow(resolveSchema, body(ctx));
      const market = control.resolveMarket(ctx.params['slug'] ?? '', input);
      return ok({ slug: market.slug, status: market.status, winningOutcomeIndex: market.winningOutcomeIndex, payoutNumerators: market.payoutNumerators, payoutPosted: market.payoutPosted });
    }),
    route('POST', '/synthetic/step', () => {
      control.syntheticStep();
      return ok({ stepped: true });
    }),
    route('GET', '/invariants', () => ok({ violations: control.invariants() })),

    route('PUT', '/trading-mode', (ctx) => {
      const input = parseOrThrow(tradingModeSchema, body(ctx));
      const window = control.setTradingMode({
        mode: input.mode,
        resumeAtMs: toMs(input.resumeAt),
        ...(input.startsAt === undefined ? {} : { startsAtMs: toMs(input.startsAt) }),
      });
      return ok({ id: window.id, mode: window.mode, startsAt: new Date(window.startsAtMs).toISOString(), resumeAt: new Date(window.resumeAtMs).toISOString() });
    }),
    route('DELETE', '/trading-mode', (ctx) => {
      const issues = unknownQueryIssues(ctx.query, ['id']);
      const id = queryInt(ctx.query, 'id', { min: 1 }, issues);
      if (issues.length > 0) throw validationError(issues);
      return ok({ cleared: control.clearTradingMode(id) });
    }),

    route('POST', '/socket/drop', (ctx) => {
      const input = parseOrThrow(dropSchema, body(ctx));
      return ok({ dropped: control.dropConnections(input?.kind ?? 'transport') });
    }),
    route('POST', '/socket/freeze', (ctx) => {
      const input = parseOrThrow(freezeSchema, body(ctx));
      control.freezeFeed(input?.scope ?? 'books');
      return ok({ frozen: input?.scope ?? 'books' });
    }),
    route('POST', '/socket/unfreeze', () => {
      control.unfreezeFeed();
      return ok({ frozen: null });
    }),
    route('POST', '/socket/inject', (ctx) => {
      const input = parseOrThrow(injectSchema, body(ctx));
      const frame =
        input.kind === 'custom'
          ? { kind: 'custom' as const, marketSlug: input.marketSlug, payload: input.payload, ...(input.event === undefined ? {} : { event: input.event }) }
          : { kind: input.kind, marketSlug: input.marketSlug };
      return ok({ delivered: control.injectFrame(frame) });
    }),

    route('PUT', '/socket/book-size-unit', (ctx) => {
      const input = parseOrThrow(bookSizeUnitSchema, body(ctx));
      return ok({ unit: control.setSocketBookSizeUnit(input.unit) });
    }),

    route('POST', '/faults/cancel-replace', (ctx) => {
      const input = parseOrThrow(cancelReplaceFaultSchema, body(ctx));
      const rule = control.failCancelReplace({
        ...(input.count === undefined ? {} : { count: input.count }),
        ...(input.clientOrderId === undefined ? {} : { clientOrderId: input.clientOrderId }),
        ...(input.cancel === undefined ? {} : { cancel: input.cancel }),
        ...(input.cancelApplied === undefined ? {} : { cancelApplied: input.cancelApplied }),
        ...(input.replacement === undefined ? {} : { replacement: input.replacement }),
        ...(input.replacementApplied === undefined ? {} : { replacementApplied: input.replacementApplied }),
      });
      return ok(rule, 201);
    }),
    route('GET', '/faults/cancel-replace', () => ok({ rules: control.pendingCancelReplaceFaults() })),

    route('PUT', '/faults/delay', (ctx) => {
      const input = parseOrThrow(delaySchema, body(ctx));
      control.setResponseDelay(input.ms);
      return ok({ delayMs: input.ms });
    }),
    route('POST', '/faults/fail-next', (ctx) => {
      const input = parseOrThrow(failNextSchema, body(ctx));
      const rule = control.failNextRequests({
        status: input.status,
        count: input.count,
        ...(input.pathPrefix === undefined ? {} : { pathPrefix: input.pathPrefix }),
        ...(input.phase === undefined ? {} : { phase: input.phase }),
        ...(input.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: input.retryAfterSeconds }),
      });
      return ok(rule, 201);
    }),
    route('GET', '/faults', () => ok({ delayMs: control.state().responseDelayMs, rules: control.pendingFaults(), cancelReplaceRules: control.pendingCancelReplaceFaults() })),
    route('DELETE', '/faults', () => {
      control.clearFaults();
      return ok({ cleared: true });
    }),

    route('GET', '/settings', () => ok(control.settings())),
    route('PUT', '/settings', (ctx) => {
      const input = parseOrThrow(settingsSchema, body(ctx));
      return ok(
        control.updateSettings({
          ...(input.lifecycleAuth === undefined ? {} : { lifecycleAuth: input.lifecycleAuth }),
          ...(input.marketResolvedAudience === undefined ? {} : { marketResolvedAudience: input.marketResolvedAudience }),
          ...(input.cancelReplaceBatchMarkets === undefined ? {} : { cancelReplaceBatchMarkets: input.cancelReplaceBatchMarkets }),
          ...(input.cancelReplaceUnknownTarget === undefined ? {} : { cancelReplaceUnknownTarget: input.cancelReplaceUnknownTarget }),
          ...(input.placementModeRefusal === undefined ? {} : { placementModeRefusal: input.placementModeRefusal }),
          ...(input.batchCancelMarkets === undefined ? {} : { batchCancelMarkets: input.batchCancelMarkets }),
          ...(input.historyAmounts === undefined ? {} : { historyAmounts: input.historyAmounts }),
        }),
      );
    }),

    route('PUT', '/rate-limits', (ctx) => {
      const input = parseOrThrow(rateLimitSchema, body(ctx));
      return ok(
        control.setRateLimits({
          ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
          ...(input.maxConcurrent === undefined ? {} : { maxConcurrent: input.maxConcurrent }),
          ...(input.minIntervalMs === undefined ? {} : { minIntervalMs: input.minIntervalMs }),
        }),
      );
    }),

    route('GET', '/requests', (ctx) => {
      const issues = unknownQueryIssues(ctx.query, ['limit', 'sinceSeq']);
      const limit = queryInt(ctx.query, 'limit', { min: 1 }, issues);
      const sinceSeq = queryInt(ctx.query, 'sinceSeq', { min: 0 }, issues);
      if (issues.length > 0) throw validationError(issues);
      return ok({
        entries: control.requestLog({ ...(limit === undefined ? {} : { limit }), ...(sinceSeq === undefined ? {} : { sinceSeq }) }),
        tokens: control.requestStats(),
      });
    }),
    route('DELETE', '/requests', () => {
      control.clearRequestLog();
      return ok({ cleared: true });
    }),
  ];
}
