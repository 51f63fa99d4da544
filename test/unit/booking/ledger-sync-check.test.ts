/**
 * LedgerSync's periodic check repairs a mismatch only once the SAME mismatch was seen on the previous check too —
 * per mismatch: a second mismatch first seen while another persists waits for the next check (it may be a fill
 * still in flight on the socket). The venue is a stub answering GET /portfolio/positions.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { LedgerSync } from '../../../src/booking/ledger-sync.js';
import type { ExchangeApi } from '../../../src/exchange/api.js';
import type { ClobPosition } from '../../../src/exchange/wire.js';
import { fillInput, memoryLedger, T0 } from '../../support/ledger-fixtures.js';

describe('LedgerSync.check', () => {
  it('repairs each mismatch on its second sighting, not on the first while another persists', async () => {
    const ledger = memoryLedger();
    ledger.recordFill(fillInput({ tradeEventId: 'a1', orderId: 'oa', marketSlug: 'alpha', tokenId: '111', sizeRaw: 4e6 }));
    ledger.recordFill(fillInput({ tradeEventId: 'b1', orderId: 'ob', marketSlug: 'beta', token: 'NO', tokenId: '222', sizeRaw: 1e6 }));
    const venue = { alpha: 4e6, beta: 1e6 };
    const position = (marketSlug: string, yes: number, no: number): ClobPosition => ({
      marketSlug,
      yesBalanceRaw: yes,
      noBalanceRaw: no,
      yes: null,
      no: null,
      collateralLockedRaw: null,
    });
    const api = {
      getPositions: async (): Promise<ClobPosition[]> => [position('alpha', venue.alpha, 0), position('beta', 0, venue.beta)],
      getOrderStatuses: async () => [],
    } as unknown as ExchangeApi;
    // The bot owns its markets alone (markets.exclusive): the account's balances of them are its ledger's to repair.
    const markets = new Map([
      ['alpha', { yes: '111', no: '112' }],
      ['beta', { yes: '221', no: '222' }],
    ]);
    const sync = new LedgerSync({ ledger, api, markets, now: () => T0 + 60_000, log: pino({ level: 'silent' }), exclusive: true });

    venue.alpha = 5e6;
    expect(await sync.check()).toEqual({ mismatches: 1, repaired: 0 });
    venue.beta = 3e6;
    expect(await sync.check()).toEqual({ mismatches: 2, repaired: 1 });
    expect(ledger.tokenPosition('alpha', 'YES').positionRaw, 'alpha persisted: repaired').toBe(5e6);
    expect(ledger.tokenPosition('beta', 'NO').positionRaw, 'beta seen once: not yet').toBe(1e6);
    expect(await sync.check()).toEqual({ mismatches: 1, repaired: 1 });
    expect(ledger.tokenPosition('beta', 'NO').positionRaw).toBe(3e6);
    expect(await sync.check()).toEqual({ mismatches: 0, repaired: 0 });
    ledger.close();
  });
});

describe('LedgerSync.check on a shared account (markets.exclusive: false, the default)', () => {
  it('reports the account balances and never adjusts the ledger from them', async () => {
    const ledger = memoryLedger();
    ledger.recordFill(fillInput({ tradeEventId: 'a1', orderId: 'oa', marketSlug: 'alpha', tokenId: '111', sizeRaw: 4e6 }));
    const api = {
      // Another bot of the account holds 6 more YES in alpha, and trades a market this bot does not.
      getPositions: async (): Promise<ClobPosition[]> => [
        { marketSlug: 'alpha', yesBalanceRaw: 10e6, noBalanceRaw: 0, yes: null, no: null, collateralLockedRaw: null },
        { marketSlug: 'elsewhere', yesBalanceRaw: 0, noBalanceRaw: 26_640_000, yes: null, no: null, collateralLockedRaw: null },
      ],
      getOrderStatuses: async () => [],
    } as unknown as ExchangeApi;
    const reported: number[] = [];
    const sync = new LedgerSync({
      ledger,
      api,
      markets: new Map([['alpha', { yes: '111', no: '112' }]]),
      now: () => T0 + 60_000,
      log: pino({ level: 'silent' }),
      onAccount: (positions) => reported.push(positions.length),
    });
    for (let i = 0; i < 3; i += 1) expect(await sync.check()).toEqual({ mismatches: 0, repaired: 0 });
    expect(await sync.catchUp()).toBe(0);
    expect(reported).toEqual([2, 2, 2, 2]);
    expect(ledger.tokenPosition('alpha', 'YES').positionRaw).toBe(4e6);
    expect(ledger.tokenPosition('elsewhere', 'NO').positionRaw).toBe(0);
    ledger.close();
  });
});
