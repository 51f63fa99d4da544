/**
 * The bot's real REST client (src/exchange) against the embedded simulator (src/sim): a partner's API token acting
 * for its managed sub-account (exchange-api.md § Authentication 3). Every delegated endpoint carries the
 * sub-account the way the client's table says (reads: header, cancels: query, redeem: body, placement: ownerId);
 * the simulator only lets the request act for the sub-account when that carrier arrives, so each success below
 * proves its carrier. The orders are signed by the sub-account's own wallet.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FrameworkError } from '../../src/exchange/errors.js';
import { deriveAccountCredentials, type DemoAccount } from '../../src/sim/index.js';
import { placeLimit, rateLimitedCount, rejectionOf, startClientSim, type ClientSim } from '../support/client-sim.js';

const SEED = 11;
const PARTNER = deriveAccountCredentials(SEED, 'partner', 10);
const SUB = deriveAccountCredentials(SEED, 'sub', 11);

let h: ClientSim | null = null;
afterEach(async () => {
  if (h === null) return;
  expect(rateLimitedCount(h.sim, PARTNER.tokenId)).toBe(0);
  expect(h.sim.control.invariants()).toEqual([]);
  await h.close();
  h = null;
});

async function harness(): Promise<ClientSim> {
  return startClientSim({
    seed: SEED,
    accounts: [
      { profileId: 10, address: PARTNER.address, usdc: '100', apiTokens: [{ tokenId: PARTNER.tokenId, secret: PARTNER.secret, scopes: ['trading', 'delegated_signing'] }] },
      { profileId: 11, address: SUB.address, usdc: '1000', partnerProfileId: 10, serverManagedWallet: true },
    ],
  });
}

/** The sub-account's wallet signs; the partner's token authenticates. */
function subSigner(): DemoAccount {
  return { ...SUB, tokenId: PARTNER.tokenId, secret: PARTNER.secret };
}

describe('client ↔ simulator: delegation to a managed sub-account', () => {
  it('places, reads, cancels and redeems for the sub-account, each with its carrier', async () => {
    h = await harness();
    const { sim, clock, counterparty, simMarket, signing } = h;
    const { client } = await h.connect(subSigner(), { onBehalfOf: 11 });
    expect(client.profile?.id).toBe(11);
    expect(client.api.onBehalfOf).toBe(11);

    // Placement: ownerId is the sub-account.
    const a = await placeLimit(client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000, postOnly: true, clientOrderId: 'sub-a' });
    const b = await placeLimit(client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 301, sizeRaw: 1_000_000, postOnly: true, clientOrderId: 'sub-b' });
    const c = await placeLimit(client, signing, { outcome: 'NO', side: 'BUY', priceTicks: 302, sizeRaw: 1_000_000, postOnly: true, clientOrderId: 'sub-c' });
    expect(sim.engine.orderById(a.orderId)?.profileId).toBe(11);
    expect(sim.control.accountOrders(10)).toEqual([]);

    // Reads: header x-on-behalf-of.
    const mine = await client.api.getUserOrders(simMarket.slug);
    expect(mine.map((o) => [o.id, o.ownerId])).toEqual([
      [c.orderId, 11],
      [b.orderId, 11],
      [a.orderId, 11],
    ]);
    const [found] = await client.api.getOrderStatuses([{ clientOrderId: 'sub-a' }]);
    expect(found).toMatchObject({ status: 'found', orderId: a.orderId });
    const [position] = await client.api.getPositions();
    expect(position).toMatchObject({ marketSlug: simMarket.slug, collateralLockedRaw: 300_000 + 301_000 + 302_000 });

    // Cancels: query onBehalfOf, inside the signed path.
    expect(await client.api.cancelOrder(a.orderId)).toMatchObject({ delayed: false });
    expect(await client.api.cancelOrders([b.orderId])).toMatchObject({ status: 200, canceled: [b.orderId] });
    expect(await client.api.cancelAll(simMarket.slug)).toMatchObject({ status: 200, canceled: [c.orderId] });
    expect(sim.control.accountOrders(11, { statuses: ['LIVE'] })).toEqual([]);

    // Redeem: body onBehalfOf.
    await placeLimit(counterparty.client, signing, { outcome: 'NO', side: 'BUY', priceTicks: 400, sizeRaw: 2_000_000, postOnly: true });
    const fill = await placeLimit(client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 600, sizeRaw: 2_000_000 });
    expect(fill.execution?.matched).toBe(true);
    sim.control.resolveMarket(simMarket.slug, { winningOutcomeIndex: 0 });
    clock.jump(60_000);
    const before = sim.control.balances(11).usdc.totalRaw;
    expect(await client.api.redeem(simMarket.conditionId)).toMatchObject({ success: true, payout: '2000000', yesBurned: '2000000' });
    expect(sim.control.balances(11).usdc.totalRaw).toBe(before + 2_000_000);
    expect(sim.control.balances(10).usdc.totalRaw).toBe(100_000_000);
  });

  it('without delegation the partner sees only its own profile; delegating to a foreign profile is 403', async () => {
    h = await harness();
    const { sim, signing, simMarket } = h;
    const delegated = await h.connect(subSigner(), { onBehalfOf: 11 });
    const order = await placeLimit(delegated.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000, postOnly: true });

    const partner = await h.connect(PARTNER);
    expect(partner.client.profile?.id).toBe(10);
    expect(await partner.client.api.getUserOrders(simMarket.slug)).toEqual([]);
    const notOwner = await rejectionOf(partner.client.api.cancelOrder(order.orderId), FrameworkError);
    expect(notOwner.status).toBe(401);
    expect(sim.engine.orderById(order.orderId)?.status).toBe('LIVE');

    // Profile 2 (the counterparty) is not a sub-account of the partner.
    const cp = deriveAccountCredentials(SEED, 'counterparty', 2);
    const foreign = await h.connect({ ...cp, tokenId: PARTNER.tokenId, secret: PARTNER.secret }, { onBehalfOf: 2 });
    const refused = await rejectionOf(foreign.client.api.getUserOrders(simMarket.slug), FrameworkError);
    expect(refused.status).toBe(403);
    const refusedPlacement = await rejectionOf(placeLimit(foreign.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000, postOnly: true }), FrameworkError);
    expect(refusedPlacement.status).toBe(403);
    expect(sim.control.accountOrders(2)).toEqual([]);
  });
});
