/**
 * A provisional fill left by a killed process (MATCHED recorded, the MINED/FAILED frame never received) is settled by
 * the restarted bot's catch-up from the simulator's GET /portfolio/positions balances once it is stale: confirmed
 * when the venue counts it, failed when it does not. Runs LedgerSync against the embedded simulator (real REST
 * client) with the simulator's jump clock, so nothing waits five minutes.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerSync } from '../../src/booking/ledger-sync.js';
import { DEFAULT_STALE_PROVISIONAL_MS } from '../../src/ledger/index.js';
import { placeLimit, placeRestingBid, startClientSim, type ClientSim } from '../support/client-sim.js';
import { fillInput, memoryLedger, orderInput } from '../support/ledger-fixtures.js';

describe('start-up catch-up settles stale provisional fills from the venue balances', () => {
  let cs: ClientSim;
  beforeAll(async () => {
    cs = await startClientSim({ seed: 29 });
  }, 30_000);
  afterAll(async () => {
    await cs?.close();
  });

  it('confirms the fill the venue counts and fails the one it does not', async () => {
    const { slug, tokens, clientOrderId, answer } = await placeRestingBid(cs, 'stale');
    // The counterparty takes 4 of it (BUY NO at 0.60 matches BUY YES at 0.40).
    await placeLimit(cs.counterparty.client, cs.signing, { outcome: 'NO', side: 'BUY', priceTicks: 600, sizeRaw: 4e6 });
    const [trade] = cs.sim.engine.accountTrades(cs.demo.account.profileId);
    expect(trade).toBeDefined();

    // What the killed process had written: the order, its fill as MATCHED only, and a MATCHED fill of a trade that
    // the venue then failed (here: one it never made), both recorded at the time of the match.
    const ledger = memoryLedger({ now: () => cs.clock.now() });
    const atMs = cs.clock.now();
    ledger.recordOrder(orderInput({ clientOrderId, venueOrderId: answer.orderId, marketSlug: slug, tokenId: tokens.yes, priceTicks: 400, sizeRaw: 10e6, status: 'live', atMs }));
    ledger.recordFill(
      fillInput({
        tradeEventId: trade!.tradeEventId,
        orderId: answer.orderId,
        marketSlug: slug,
        tokenId: tokens.yes,
        priceTicks: trade!.priceTicks,
        sizeRaw: trade!.sizeRaw,
        collateralRaw: trade!.collateralRaw,
        state: 'provisional',
        atMs: trade!.matchedAtMs,
      }),
    );
    ledger.recordFill(
      fillInput({ tradeEventId: 'failed-trade', orderId: 'other-order', marketSlug: slug, token: 'NO', tokenId: tokens.no, priceTicks: 300, sizeRaw: 3e6, state: 'provisional', atMs }),
    );
    const sync = new LedgerSync({ ledger, api: cs.demo.client.api, markets: new Map([[slug, tokens]]), now: () => cs.clock.now(), log: pino({ level: 'silent' }), exclusive: true });

    // Restarted within the threshold: nothing is decided (a settlement report may still be on its way).
    expect(await sync.catchUp()).toBe(0);
    expect(ledger.pendingCatchUp().provisionalFills).toHaveLength(2);

    cs.clock.jump(DEFAULT_STALE_PROVISIONAL_MS);
    expect(await sync.catchUp()).toBe(2);
    expect(ledger.getFill({ tradeEventId: trade!.tradeEventId, orderId: answer.orderId })).toMatchObject({ state: 'mined', sizeRaw: 4e6 });
    expect(ledger.getFill({ tradeEventId: 'failed-trade', orderId: 'other-order' })?.state).toBe('failed');
    expect(ledger.tokenPosition(slug, 'YES').positionRaw).toBe(4e6);
    expect(ledger.tokenPosition(slug, 'NO').positionRaw).toBe(0);
    expect(ledger.pendingCatchUp().provisionalFills).toEqual([]);
    expect(ledger.verify()).toEqual([]);
    // Nothing more to do.
    expect(await sync.catchUp()).toBe(0);
  }, 60_000);
});
