/**
 * LedgerSync's schedule for stale provisional fills: the start-up catch-up settles them at once; the periodic check
 * confirms at once but fails only a verdict seen on two consecutive checks. The venue is a stub answering
 * GET /portfolio/positions (the ledger holds no order, so no status batch is sent).
 */
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { LedgerSync } from '../../../src/booking/ledger-sync.js';
import type { ExchangeApi } from '../../../src/exchange/api.js';
import type { ClobPosition } from '../../../src/exchange/wire.js';
import { DEFAULT_STALE_PROVISIONAL_MS } from '../../../src/ledger/reconcile.js';
import { fillInput, memoryLedger, T0 } from '../../support/ledger-fixtures.js';

const SLUG = 'btc-100k';
const STALE = DEFAULT_STALE_PROVISIONAL_MS;

function rig() {
  const clock = { now: T0 };
  const venue = { yesRaw: 0 };
  const ledger = memoryLedger({ now: () => clock.now });
  ledger.recordFill(fillInput({ tradeEventId: 't1', orderId: 'o1', sizeRaw: 4e6 }));
  ledger.recordFill(fillInput({ tradeEventId: 'p1', orderId: 'o2', sizeRaw: 2e6, state: 'provisional' }));
  const api = {
    getPositions: async (): Promise<ClobPosition[]> => [
      { marketSlug: SLUG, yesBalanceRaw: venue.yesRaw, noBalanceRaw: 0, yes: null, no: null, collateralLockedRaw: null },
    ],
    getOrderStatuses: async () => {
      throw new Error('no order to look up');
    },
  } as unknown as ExchangeApi;
  const sync = new LedgerSync({
    ledger,
    api,
    markets: new Map([[SLUG, { yes: '111', no: '222' }]]),
    now: () => clock.now,
    log: pino({ level: 'silent' }),
    // The bot owns its market on the account: its balances are this ledger's to settle from (markets.exclusive).
    exclusive: true,
  });
  const state = () => ledger.getFill({ tradeEventId: 'p1', orderId: 'o2' })?.state;
  return { clock, venue, ledger, sync, state };
}

describe('LedgerSync and stale provisional fills', () => {
  it('start-up catch-up: confirmed or failed at once', async () => {
    const counted = rig();
    counted.venue.yesRaw = 6e6;
    counted.clock.now = T0 + STALE;
    expect(await counted.sync.catchUp()).toBe(1);
    expect(counted.state()).toBe('mined');

    const excluded = rig();
    excluded.venue.yesRaw = 4e6;
    excluded.clock.now = T0 + STALE;
    expect(await excluded.sync.catchUp()).toBe(1);
    expect(excluded.state()).toBe('failed');
    expect(excluded.ledger.tokenPosition(SLUG, 'YES').positionRaw).toBe(4e6);
  });

  it('periodic check: a fill the venue counts is confirmed on the first check', async () => {
    const { clock, venue, sync, state } = rig();
    venue.yesRaw = 6e6;
    clock.now = T0 + STALE - 1;
    expect(await sync.check()).toEqual({ mismatches: 0, repaired: 0 });
    expect(state()).toBe('provisional');
    clock.now = T0 + STALE;
    expect(await sync.check()).toEqual({ mismatches: 0, repaired: 1 });
    expect(state()).toBe('mined');
    expect(await sync.check()).toEqual({ mismatches: 0, repaired: 0 });
  });

  it('periodic check: a fill the venue excludes is failed on the second identical sighting', async () => {
    const { clock, venue, ledger, sync, state } = rig();
    venue.yesRaw = 4e6;
    clock.now = T0 + STALE;
    expect(await sync.check()).toEqual({ mismatches: 0, repaired: 0 });
    expect(state()).toBe('provisional');
    // The balance changes in between: the sighting starts over.
    venue.yesRaw = 5e6;
    clock.now += 60_000;
    expect(await sync.check()).toMatchObject({ mismatches: 1, repaired: 0 });
    venue.yesRaw = 4e6;
    clock.now += 60_000;
    expect(await sync.check()).toEqual({ mismatches: 0, repaired: 0 });
    expect(state()).toBe('provisional');
    clock.now += 60_000;
    expect(await sync.check()).toEqual({ mismatches: 0, repaired: 1 });
    expect(state()).toBe('failed');
    expect(ledger.tokenPosition(SLUG, 'YES').positionRaw).toBe(4e6);
    expect(await sync.check()).toEqual({ mismatches: 0, repaired: 0 });
  });

  it('periodic check: an ambiguous key stays provisional and unrepaired', async () => {
    const { clock, venue, sync, state } = rig();
    venue.yesRaw = 5e6;
    clock.now = T0 + STALE;
    expect(await sync.check()).toEqual({ mismatches: 1, repaired: 0 });
    clock.now += 60_000;
    // Persistent: the repair runs and reports the key unrepaired.
    expect(await sync.check()).toEqual({ mismatches: 1, repaired: 1 });
    expect(state()).toBe('provisional');
  });
});
