/**
 * What `outcome-maker doctor` reads from the simulator besides the standard routes, and the faults that make each
 * of its checks fail:
 * - `GET /portfolio/trading/allowance?type=clob|negrisk&spender=0x…` (HMAC, no scope): the collateral allowance
 *   of the caller's wallet (exchange-api.md "Trading allowance"; the query names are not shown in the spec, these
 *   are the simulator's);
 * - `GET /auth/api-tokens` (HMAC): the caller's active tokens with their scopes (the official client's ApiToken);
 * - `POST /_sim/rpc`: a minimal Ethereum JSON-RPC (`eth_chainId`, `eth_call` of USDC `balanceOf`/`allowance` and
 *   the conditional tokens' `isApprovedForAll`, `eth_getBalance`: every known account holds SIM_GAS_WEI of native
 *   token for gas, any other address none) answering from the engine's balances and the approvals below;
 * - admin controls: `PUT /_sim/clock-skew {seconds}` (the server clock seen by HMAC verification and sent in the
 *   `Date` header), `PUT /_sim/approvals {profileId, marketSlug|spender, contract?, usdcAllowanceRaw?,
 *   ctfApproved?}`, `PUT /_sim/markets/:slug/trade-type {tradeType}` (what `GET /markets/{slug}` reports), and
 *   `DELETE /_sim/account-checks` (back to healthy).
 *
 * Owns: the approvals, the clock skew and the trade-type overrides. Invariants: by default every account has an
 * unlimited USDC allowance and every conditional-token approval (a healthy venue); a control call with a bad field
 * is a 400 naming it and changes nothing; nothing here places or cancels an order.
 */
import { decodeFunctionData, encodeFunctionResult, erc20Abi, getAddress, isAddress, maxUint256, parseAbi, type Hex } from 'viem';
import { z } from 'zod';
import type { SimEngine, SimMarket } from '../engine/index.js';
import { parseJson } from './body.js';
import type { ApiTokenRegistry } from './hmac-verify.js';
import { HttpError, invalidField, notFound, validationError, type ValidationIssue } from './http-errors.js';
import { unknownQueryIssues } from './query.js';
import type { Reply, RequestContext, RouteDef } from './router.js';
import { parseOrThrow } from './validation.js';
import { COLLATERAL_TOKEN } from './wire-format.js';

/** The native token (ETH, for gas) every simulator account holds: 0.05 ETH, thousands of settlement transactions on Base. */
export const SIM_GAS_WEI = 5n * 10n ** 16n;

/** The conditional-tokens contract on chain 8453 (the official client's CONTRACT_ADDRESSES). */
export const CTF_ADDRESS = '0xC9c98965297Bc527861c898329Ee280632B76e18';
/** What `hasMinimumAllowance` requires in the simulator: 1 USDC. */
export const MIN_ALLOWANCE_RAW = 1_000_000n;
/** The largest skew the control accepts (a day). */
export const MAX_CLOCK_SKEW_SECONDS = 86_400;

const CTF_ABI = parseAbi(['function isApprovedForAll(address owner, address operator) view returns (bool)']);

const key = (profileId: number, address: string): string => `${profileId}|${address.toLowerCase()}`;

/** The simulator's approvals, clock skew and market trade-type overrides. */
export class AccountChecks {
  private skewMs = 0;
  private readonly allowances = new Map<string, bigint>();
  private readonly ctfApprovals = new Map<string, boolean>();
  private readonly tradeTypes = new Map<string, string>();

  /** Added to the server clock for HMAC verification and the `Date` header. */
  get clockSkewMs(): number {
    return this.skewMs;
  }

  setClockSkewSeconds(seconds: number): void {
    if (!Number.isSafeInteger(seconds) || Math.abs(seconds) > MAX_CLOCK_SKEW_SECONDS) {
      throw invalidField('seconds', `seconds must be an integer between -${MAX_CLOCK_SKEW_SECONDS} and ${MAX_CLOCK_SKEW_SECONDS}`);
    }
    this.skewMs = seconds * 1000;
  }

  usdcAllowance(profileId: number, spender: string): bigint {
    return this.allowances.get(key(profileId, spender)) ?? maxUint256;
  }

  setUsdcAllowance(profileId: number, spender: string, raw: bigint): void {
    this.allowances.set(key(profileId, spender), raw);
  }

  ctfApproved(profileId: number, operator: string): boolean {
    return this.ctfApprovals.get(key(profileId, operator)) ?? true;
  }

  setCtfApproved(profileId: number, operator: string, approved: boolean): void {
    this.ctfApprovals.set(key(profileId, operator), approved);
  }

  tradeTypeOf(slug: string): string | undefined {
    return this.tradeTypes.get(slug);
  }

  setTradeType(slug: string, tradeType: string): void {
    this.tradeTypes.set(slug, tradeType);
  }

  reset(): void {
    this.skewMs = 0;
    this.allowances.clear();
    this.ctfApprovals.clear();
    this.tradeTypes.clear();
  }
}

export interface AccountCheckDeps {
  readonly engine: SimEngine;
  readonly tokens: ApiTokenRegistry;
  readonly checks: AccountChecks;
  readonly chainId: number;
  /** When the server started (the `createdAt` of the listed tokens). */
  readonly startedAtMs: number;
}

const isNegRisk = (market: SimMarket): boolean => market.groupSlug !== undefined;

/** The default spender of a trading type: the exchange of the first market (by id) of that type. */
function defaultSpender(engine: SimEngine, type: 'clob' | 'negrisk'): string | undefined {
  const markets = [...engine.markets()].filter((m) => isNegRisk(m) === (type === 'negrisk')).sort((a, b) => a.id - b.id);
  return markets[0]?.venue.exchange;
}

function addressParam(value: string, field: string, issues: ValidationIssue[]): string | undefined {
  if (!isAddress(value, { strict: false })) {
    issues.push({ field, message: `${field} must be a 0x-prefixed 20-byte hex address` });
    return undefined;
  }
  return getAddress(value);
}

/** Authenticated routes: the allowance and the token listing. */
export function accountCheckRoutes(deps: AccountCheckDeps): RouteDef[] {
  const { engine, tokens, checks } = deps;
  const caller = (ctx: RequestContext): number => {
    if (ctx.token === null) throw new HttpError(401, { message: 'Unauthorized', error: 'Unauthorized', statusCode: 401 });
    return ctx.token.profileId;
  };
  return [
    {
      method: 'GET',
      pattern: '/portfolio/trading/allowance',
      auth: 'hmac',
      handler: (ctx): Reply => {
        const profileId = caller(ctx);
        const issues = unknownQueryIssues(ctx.query, ['type', 'spender']);
        const typeText = ctx.query.get('type') ?? 'clob';
        if (typeText !== 'clob' && typeText !== 'negrisk') issues.push({ field: 'type', message: 'type must be one of clob, negrisk' });
        const spenderText = ctx.query.get('spender');
        const spender = spenderText === null ? undefined : addressParam(spenderText, 'spender', issues);
        if (issues.length > 0) throw validationError(issues);
        const type = typeText === 'negrisk' ? 'negrisk' : 'clob';
        const target = spender ?? defaultSpender(engine, type);
        if (target === undefined) throw notFound(`No ${type} exchange is configured`);
        const account = engine.account(profileId);
        if (!account) throw notFound('Profile not found');
        const allowance = checks.usdcAllowance(profileId, target);
        return {
          status: 200,
          body: { allowance: allowance.toString(), hasMinimumAllowance: allowance >= MIN_ALLOWANCE_RAW, type, spender: target, checkedAddress: account.address },
        };
      },
    },
    {
      method: 'GET',
      pattern: '/auth/api-tokens',
      auth: 'hmac',
      handler: (ctx): Reply => {
        const profileId = caller(ctx);
        const issues = unknownQueryIssues(ctx.query, []);
        if (issues.length > 0) throw validationError(issues);
        const createdAt = new Date(deps.startedAtMs).toISOString();
        const own = tokens.all().filter((t) => t.profileId === profileId);
        return { status: 200, body: own.map((t) => ({ tokenId: t.tokenId, label: null, scopes: [...t.scopes], createdAt, lastUsedAt: null })) };
      },
    },
  ];
}

/** `GET /markets/{slug}` reports the overridden `tradeType` (the doctor's non-CLOB failure). */
export function withTradeTypeOverrides(routes: readonly RouteDef[], checks: AccountChecks): RouteDef[] {
  return routes.map((route) => {
    if (route.method !== 'GET' || route.pattern !== '/markets/:slug') return route;
    const handler = route.handler;
    return {
      ...route,
      handler: async (ctx: RequestContext): Promise<Reply> => {
        const reply = await handler(ctx);
        const override = checks.tradeTypeOf(ctx.params['slug'] ?? '');
        if (override === undefined || reply.status !== 200 || reply.body === null || Array.isArray(reply.body)) return reply;
        return { ...reply, body: { ...reply.body, tradeType: override } };
      },
    };
  });
}

// ───────────────────────────── admin controls ─────────────────────────────

const skewSchema = z.strictObject({ seconds: z.number().int().min(-MAX_CLOCK_SKEW_SECONDS).max(MAX_CLOCK_SKEW_SECONDS) });

const approvalSchema = z
  .strictObject({
    profileId: z.number().int().min(1),
    marketSlug: z.string().min(1).optional(),
    spender: z.string().regex(/^0x[0-9a-fA-F]{40}$/, { error: 'must be an address' }).optional(),
    contract: z.enum(['exchange', 'adapter', 'both']).optional(),
    usdcAllowanceRaw: z.union([z.string().regex(/^\d+$/), z.number().int().min(0)]).optional(),
    ctfApproved: z.boolean().optional(),
  })
  .refine((a) => (a.marketSlug === undefined) !== (a.spender === undefined), { error: 'give marketSlug or spender (one of them)' })
  .refine((a) => a.usdcAllowanceRaw !== undefined || a.ctfApproved !== undefined, { error: 'give usdcAllowanceRaw and/or ctfApproved' });

const tradeTypeSchema = z.strictObject({ tradeType: z.string().min(1).max(40) });

/** Admin routes (mounted under `/_sim` by the server's admin router; loopback only). */
export function accountCheckAdminRoutes(deps: AccountCheckDeps): RouteDef[] {
  const { engine, checks } = deps;
  const admin = (method: RouteDef['method'], pattern: string, handler: (ctx: RequestContext) => Reply): RouteDef => ({ method, pattern: `/_sim${pattern}`, auth: 'admin', handler });
  return [
    admin('PUT', '/clock-skew', (ctx) => {
      const input = parseOrThrow(skewSchema, parseJson(ctx.rawBody));
      checks.setClockSkewSeconds(input.seconds);
      return { status: 200, body: { clockSkewSeconds: input.seconds } };
    }),
    admin('PUT', '/approvals', (ctx) => {
      const input = parseOrThrow(approvalSchema, parseJson(ctx.rawBody));
      if (!engine.account(input.profileId)) throw notFound(`profileId: no such profile (got ${input.profileId})`);
      let spenders: string[];
      if (input.spender !== undefined) spenders = [getAddress(input.spender)];
      else {
        const market = engine.market(input.marketSlug ?? '');
        if (!market) throw notFound(`marketSlug: no such market (got ${JSON.stringify(input.marketSlug)})`);
        const contract = input.contract ?? 'both';
        spenders = [...(contract === 'adapter' ? [] : [market.venue.exchange]), ...(contract === 'exchange' ? [] : [market.venue.adapter])];
      }
      for (const spender of spenders) {
        if (input.usdcAllowanceRaw !== undefined) checks.setUsdcAllowance(input.profileId, spender, BigInt(input.usdcAllowanceRaw));
        if (input.ctfApproved !== undefined) checks.setCtfApproved(input.profileId, spender, input.ctfApproved);
      }
      return { status: 200, body: { profileId: input.profileId, spenders } };
    }),
    admin('PUT', '/markets/:slug/trade-type', (ctx) => {
      const slug = ctx.params['slug'] ?? '';
      if (!engine.market(slug)) throw notFound(`marketSlug: no such market (got ${JSON.stringify(slug)})`);
      const input = parseOrThrow(tradeTypeSchema, parseJson(ctx.rawBody));
      checks.setTradeType(slug, input.tradeType);
      return { status: 200, body: { marketSlug: slug, tradeType: input.tradeType } };
    }),
    admin('DELETE', '/account-checks', () => {
      checks.reset();
      return { status: 200, body: { reset: true } };
    }),
    admin('POST', '/rpc', (ctx) => ({ status: 200, body: jsonRpc(deps, ctx.rawBody) })),
  ];
}

// ───────────────────────────── JSON-RPC ─────────────────────────────

const rpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.number(), z.string(), z.null()]),
  method: z.string(),
  params: z.array(z.unknown()).optional(),
});

const callSchema = z.object({ to: z.string().regex(/^0x[0-9a-fA-F]{40}$/), data: z.string().regex(/^0x[0-9a-fA-F]*$/).optional(), input: z.string().regex(/^0x[0-9a-fA-F]*$/).optional() });

type RpcAnswer = { jsonrpc: '2.0'; id: number | string | null; result: string } | { jsonrpc: '2.0'; id: number | string | null; error: { code: number; message: string } };

function jsonRpc(deps: AccountCheckDeps, rawBody: string): RpcAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    return { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
  }
  const request = rpcRequestSchema.safeParse(parsed);
  if (!request.success) return { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } };
  const { id, method, params = [] } = request.data;
  const fail = (code: number, message: string): RpcAnswer => ({ jsonrpc: '2.0', id, error: { code, message } });
  if (method === 'eth_chainId') return { jsonrpc: '2.0', id, result: `0x${deps.chainId.toString(16)}` };
  if (method === 'eth_getBalance') {
    const address = params[0];
    if (typeof address !== 'string' || !isAddress(address, { strict: false })) return fail(-32602, 'Invalid params: expected [address, block]');
    const known = deps.engine.accountByAddress(getAddress(address)) !== undefined;
    return { jsonrpc: '2.0', id, result: `0x${(known ? SIM_GAS_WEI : 0n).toString(16)}` };
  }
  if (method !== 'eth_call') return fail(-32601, `Method not found: ${method}`);
  const call = callSchema.safeParse(params[0]);
  if (!call.success) return fail(-32602, 'Invalid params: expected {to, data}');
  const data = (call.data.data ?? call.data.input ?? '0x') as Hex;
  const to = call.data.to.toLowerCase();
  const profileOf = (address: string): number | undefined => deps.engine.accountByAddress(getAddress(address))?.profileId;
  try {
    if (to === COLLATERAL_TOKEN.address.toLowerCase()) {
      const decoded = decodeFunctionData({ abi: erc20Abi, data });
      if (decoded.functionName === 'balanceOf') {
        const profileId = profileOf(decoded.args[0]);
        const raw = profileId === undefined ? 0 : (deps.engine.balances(profileId)?.usdc.totalRaw ?? 0);
        return { jsonrpc: '2.0', id, result: encodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', result: BigInt(raw) }) };
      }
      if (decoded.functionName === 'allowance') {
        const profileId = profileOf(decoded.args[0]);
        const raw = profileId === undefined ? 0n : deps.checks.usdcAllowance(profileId, decoded.args[1]);
        return { jsonrpc: '2.0', id, result: encodeFunctionResult({ abi: erc20Abi, functionName: 'allowance', result: raw }) };
      }
      return fail(-32000, `execution reverted: ${decoded.functionName} is not simulated`);
    }
    if (to === CTF_ADDRESS.toLowerCase()) {
      const decoded = decodeFunctionData({ abi: CTF_ABI, data });
      const profileId = profileOf(decoded.args[0]);
      const approved = profileId !== undefined && deps.checks.ctfApproved(profileId, decoded.args[1]);
      return { jsonrpc: '2.0', id, result: encodeFunctionResult({ abi: CTF_ABI, functionName: 'isApprovedForAll', result: approved }) };
    }
  } catch {
    return fail(-32000, 'execution reverted');
  }
  return { jsonrpc: '2.0', id, result: '0x' };
}
