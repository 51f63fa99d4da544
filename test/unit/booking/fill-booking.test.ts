/**
 * A taker fill reported by the placement answer (execution.totalsRaw) and by the socket's settlement frame is booked
 * once, with its fee, whichever arrives first: a fee in USDC as fee; a fee in contracts as fee at its value with the
 * contracts removed from the position (the shares received are contractsNet).
 */
import { describe, expect, it } from 'vitest';
import { bookFill, takerFillDetail, type FillDetail } from '../../../src/booking/fill-booking.js';
import { EXECUTOR_FILL, memoryLedger } from '../../support/ledger-fixtures.js';

const FILL = EXECUTOR_FILL;

/** The REST detail of a 4-contract BUY at 0.45 (usdGross 1.80). */
const rest = (feeUsdRaw: number, feeContractsRaw: number): FillDetail =>
  takerFillDetail({ tradeEventId: 'trade-1', orderId: 'order-1', sizeRaw: 4_000_000, collateralRaw: 1_800_000, feeUsdRaw, feeContractsRaw });

describe('bookFill', () => {
  it('fee in USDC: booked as fee, the position is the contracts bought', () => {
    const ledger = memoryLedger();
    expect(bookFill(ledger, FILL, rest(54_000, 0))).toBe('inserted');
    const yes = ledger.tokenPosition('btc', 'YES');
    expect(yes).toMatchObject({ positionRaw: 4_000_000, costRaw: 1_800_000, feesRaw: 54_000, fillCount: 1 });
    expect(ledger.getFill({ tradeEventId: 'trade-1', orderId: 'order-1' })).toMatchObject({ role: 'taker', collateralRaw: 1_800_000, feeRaw: 54_000 });
    ledger.close();
  });

  it('fee in contracts: the position is contractsNet, the fee is counted once (at its value), nothing realized', () => {
    const ledger = memoryLedger();
    bookFill(ledger, FILL, rest(0, 120_000));
    const yes = ledger.tokenPosition('btc', 'YES');
    expect(yes.positionRaw).toBe(3_880_000);
    expect(yes.feesRaw).toBe(54_000);
    expect(yes.realizedRaw).toBe(0);
    // Paid 1.80 for 3.88 shares: cost + fee = what left the wallet.
    expect(yes.costRaw + yes.feesRaw).toBe(1_800_000);
    ledger.close();
  });

  it('exactly once, whichever source reports first (placement answer then socket, socket then placement answer)', () => {
    const socketDetail: FillDetail = { collateralRaw: 1_800_000, feeRaw: 54_000, role: 'taker', feeContractsRaw: 120_000 };
    const a = memoryLedger();
    expect(bookFill(a, FILL, rest(0, 120_000))).toBe('inserted');
    expect(bookFill(a, FILL, socketDetail)).toBe('duplicate');
    const b = memoryLedger();
    expect(bookFill(b, FILL, socketDetail)).toBe('inserted');
    expect(bookFill(b, FILL, rest(0, 120_000))).toBe('duplicate');
    for (const ledger of [a, b]) {
      expect(ledger.tokenPosition('btc', 'YES')).toMatchObject({ positionRaw: 3_880_000, feesRaw: 54_000, fillCount: 1 });
      // Settling it later neither re-books it nor removes the fee contracts again.
      expect(bookFill(ledger, { ...FILL, state: 'mined', update: true }, socketDetail)).toBe('updated');
      expect(ledger.tokenPosition('btc', 'YES')).toMatchObject({ positionRaw: 3_880_000, feesRaw: 54_000, fillCount: 1 });
      ledger.close();
    }
  });

  it('a failed fill gives its fee contracts back; a fill born failed removes none', () => {
    const ledger = memoryLedger();
    bookFill(ledger, FILL, rest(0, 120_000));
    expect(bookFill(ledger, { ...FILL, state: 'failed', update: true }, undefined)).toBe('failed');
    expect(bookFill(ledger, { ...FILL, state: 'failed', update: true }, undefined)).toBe('failed');
    expect(ledger.tokenPosition('btc', 'YES').positionRaw).toBe(0);
    const early = { ...FILL, tradeEventId: 'trade-2' };
    expect(bookFill(ledger, { ...early, state: 'failed' }, undefined)).toBe('failed');
    bookFill(ledger, early, rest(0, 120_000));
    expect(ledger.tokenPosition('btc', 'YES').positionRaw).toBe(0);
    ledger.close();
  });
});
