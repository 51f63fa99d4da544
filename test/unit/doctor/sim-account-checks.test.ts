/**
 * The simulator's account-check routes and controls (src/sim/server/routes-account-checks.ts) on their own:
 * the allowance and token listing answer the caller's own data and validate their query; the clock skew moves
 * both the Date header and what HMAC verification accepts; every control refuses a bad field with a 400 naming it
 * and changes nothing; the JSON-RPC answers balanceOf, allowance and isApprovedForAll.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, erc20Abi, http, parseAbi } from 'viem';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { CTF_ADDRESS } from '../../../src/sim/server/routes-account-checks.js';
import { COLLATERAL_TOKEN } from '../../../src/sim/server/wire-format.js';
import { arr, call, obj } from '../../support/sim-http.js';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 4, markets: 6, rateLimit: false });
});
afterAll(async () => {
  await sim.close();
});

const creds = () => ({ tokenId: sim.demoAccount.tokenId, secret: sim.demoAccount.secret });
const admin = (method: string, path: string, body?: unknown) => call(sim.baseUrl, method, `/_sim${path}`, body === undefined ? {} : { body });

describe('GET /portfolio/trading/allowance', () => {
  it('answers the trading allowance object of the caller; unlimited by default, as set by the control after', async () => {
    const market = sim.engine.markets()[0];
    if (!market) throw new Error('no market');
    const spender = market.venue.exchange;
    const before = await call(sim.baseUrl, 'GET', `/portfolio/trading/allowance?type=clob&spender=${spender}`, { creds: creds() });
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ allowance: (2n ** 256n - 1n).toString(), hasMinimumAllowance: true, type: 'clob', spender, checkedAddress: sim.demoAccount.address });
    expect((await admin('PUT', '/approvals', { profileId: sim.demoAccount.profileId, spender, usdcAllowanceRaw: '999999' })).status).toBe(200);
    const after = await call(sim.baseUrl, 'GET', `/portfolio/trading/allowance?type=clob&spender=${spender}`, { creds: creds() });
    expect(obj(after.body)).toMatchObject({ allowance: '999999', hasMinimumAllowance: false });
    await admin('DELETE', '/account-checks');
  });

  it('needs a signature and validates its query', async () => {
    expect((await call(sim.baseUrl, 'GET', '/portfolio/trading/allowance')).status).toBe(401);
    const bad = await call(sim.baseUrl, 'GET', '/portfolio/trading/allowance?type=amm&spender=0x12&extra=1', { creds: creds() });
    expect(bad.status).toBe(400);
    expect(arr(obj(bad.body)['message']).map((m) => obj(m)['field'])).toEqual(['extra', 'type', 'spender']);
  });
});

describe('GET /auth/api-tokens', () => {
  it('lists the caller\'s tokens with their scopes, and only those', async () => {
    const other = { profileId: 5, address: `0x${'5'.repeat(40)}`, apiTokens: [{ tokenId: 'other-token', secret: Buffer.from('another-secret-of-16+').toString('base64'), scopes: ['delegated_signing'] }] };
    expect((await admin('POST', '/accounts', other)).status).toBe(201);
    const mine = await call(sim.baseUrl, 'GET', '/auth/api-tokens', { creds: creds() });
    expect(mine.status).toBe(200);
    expect(arr(mine.body).map((t) => [obj(t)['tokenId'], obj(t)['scopes']])).toEqual([[sim.demoAccount.tokenId, ['trading', 'delegated_signing']]]);
  });
});

describe('clock skew', () => {
  it('shifts the Date header and the HMAC window together', async () => {
    expect((await admin('PUT', '/clock-skew', { seconds: 120 })).status).toBe(200);
    const answer = await call(sim.baseUrl, 'GET', '/auth/api-tokens', { creds: creds() });
    expect(answer.status).toBe(401);
    const serverMs = Date.parse(answer.headers.get('date') ?? '');
    expect(serverMs - Date.now()).toBeGreaterThan(115_000);
    expect((await call(sim.baseUrl, 'GET', '/auth/api-tokens', { creds: creds(), nowMs: Date.now() + 120_000 })).status).toBe(200);
    await admin('DELETE', '/account-checks');
    expect((await call(sim.baseUrl, 'GET', '/auth/api-tokens', { creds: creds() })).status).toBe(200);
  });
});

describe('controls refuse bad input and change nothing', () => {
  it('400 naming the field; 404 for an unknown market or profile', async () => {
    const skew = await admin('PUT', '/clock-skew', { seconds: 1.5 });
    expect(skew.status).toBe(400);
    expect(skew.text).toContain('seconds');
    expect((await admin('PUT', '/approvals', { profileId: 1, usdcAllowanceRaw: 0 })).status).toBe(400); // neither market nor spender
    expect((await admin('PUT', '/approvals', { profileId: 1, spender: `0x${'1'.repeat(40)}` })).status).toBe(400); // nothing to set
    expect((await admin('PUT', '/approvals', { profileId: 1, marketSlug: 'nope', ctfApproved: false })).status).toBe(404);
    expect((await admin('PUT', '/approvals', { profileId: 4242, spender: `0x${'1'.repeat(40)}`, ctfApproved: false })).status).toBe(404);
    expect((await admin('PUT', '/markets/nope/trade-type', { tradeType: 'amm' })).status).toBe(404);
    const slug = sim.engine.markets()[0]?.slug ?? '';
    expect((await admin('PUT', `/markets/${slug}/trade-type`, { tradeType: '' })).status).toBe(400);
    const market = await call(sim.baseUrl, 'GET', `/markets/${slug}`);
    expect(obj(market.body)['tradeType']).toBe('clob');
    const skewNow = Date.parse((await call(sim.baseUrl, 'GET', '/maintenance/status')).headers.get('date') ?? '');
    expect(Math.abs(skewNow - Date.now())).toBeLessThan(5_000);
  });

  it('the trade-type override shows in GET /markets/{slug} until reset', async () => {
    const slug = sim.engine.markets()[1]?.slug ?? '';
    await admin('PUT', `/markets/${slug}/trade-type`, { tradeType: 'amm' });
    expect(obj((await call(sim.baseUrl, 'GET', `/markets/${slug}`)).body)['tradeType']).toBe('amm');
    await admin('DELETE', '/account-checks');
    expect(obj((await call(sim.baseUrl, 'GET', `/markets/${slug}`)).body)['tradeType']).toBe('clob');
  });
});

describe('POST /_sim/rpc', () => {
  it('answers balanceOf, allowance and isApprovedForAll from the engine and the approvals', async () => {
    const chain = createPublicClient({ transport: http(`${sim.baseUrl}/_sim/rpc`, { retryCount: 0 }) });
    const owner = sim.demoAccount.address as `0x${string}`;
    const group = sim.engine.markets().find((m) => m.groupSlug !== undefined);
    if (!group) throw new Error('no NegRisk market');
    expect(await chain.readContract({ address: COLLATERAL_TOKEN.address, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })).toBe(10_000_000_000n);
    expect(await chain.readContract({ address: COLLATERAL_TOKEN.address, abi: erc20Abi, functionName: 'balanceOf', args: [`0x${'9'.repeat(40)}`] })).toBe(0n);
    const ctf = parseAbi(['function isApprovedForAll(address owner, address operator) view returns (bool)']);
    const adapter = group.venue.adapter as `0x${string}`;
    expect(await chain.readContract({ address: CTF_ADDRESS, abi: ctf, functionName: 'isApprovedForAll', args: [owner, adapter] })).toBe(true);
    await admin('PUT', '/approvals', { profileId: sim.demoAccount.profileId, marketSlug: group.slug, contract: 'adapter', ctfApproved: false, usdcAllowanceRaw: 7 });
    expect(await chain.readContract({ address: CTF_ADDRESS, abi: ctf, functionName: 'isApprovedForAll', args: [owner, adapter] })).toBe(false);
    expect(await chain.readContract({ address: COLLATERAL_TOKEN.address, abi: erc20Abi, functionName: 'allowance', args: [owner, adapter] })).toBe(7n);
    expect(await chain.getChainId()).toBe(8453);
    const unknown = await call(sim.baseUrl, 'POST', '/_sim/rpc', { body: { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: ['0x00'] } });
    expect(obj(obj(unknown.body)['error'])['code']).toBe(-32601);
    await admin('DELETE', '/account-checks');
  });
});
