import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FrameworkError, MessageError, NetworkError, RequestInputError, ValidationError } from '../../../src/exchange/errors.js';
import { beforeRedeem, classifyRedeemFailure, payoutFromAnswer, payoutOfHolding, resolutionOfMarket, retryDelayMs } from '../../../src/capital/settlement-rules.js';

const endpoint = { method: 'POST', pathTemplate: '/portfolio/redeem' } as const;
const YES_WINS = { payoutYes: 1, payoutNo: 0 };
const NO_WINS = { payoutYes: 0, payoutNo: 1 };

describe('payoutOfHolding', () => {
  it('pays the winning token 1 USDC a share and the losing one nothing', () => {
    expect(payoutOfHolding({ yesRaw: 7_500_000, noRaw: 2_000_000 }, YES_WINS)).toBe(7_500_000);
    expect(payoutOfHolding({ yesRaw: 7_500_000, noRaw: 2_000_000 }, NO_WINS)).toBe(2_000_000);
  });

  it('splits by the payout numerators, rounding each token down to a raw unit', () => {
    // 3 raw YES at 1/3 = 1 (floor), 5 raw NO at 2/3 = 3 (floor of 3.33).
    expect(payoutOfHolding({ yesRaw: 3, noRaw: 5 }, { payoutYes: 1, payoutNo: 2 })).toBe(4);
  });

  it('never pays more than the holding and never a negative amount', () => {
    fc.assert(
      fc.property(fc.nat(1e12), fc.nat(1e12), fc.nat(100), fc.nat(100), (yesRaw, noRaw, payoutYes, payoutNo) => {
        const paid = payoutOfHolding({ yesRaw, noRaw }, { payoutYes, payoutNo });
        expect(paid).toBeGreaterThanOrEqual(0);
        expect(paid).toBeLessThanOrEqual(yesRaw + noRaw);
        expect(Number.isSafeInteger(paid)).toBe(true);
      }),
    );
  });
});

describe('resolutionOfMarket', () => {
  it('reads a winner, a split, or nothing while the market is open', () => {
    expect(resolutionOfMarket({ winningOutcomeIndex: 1, payoutNumerators: null })).toEqual({ winningOutcomeIndex: 1 });
    expect(resolutionOfMarket({ winningOutcomeIndex: null, payoutNumerators: [1, 3] })).toEqual({ payoutNumerators: [1, 3] });
    expect(resolutionOfMarket({ winningOutcomeIndex: null, payoutNumerators: null })).toBeNull();
  });

  it('rejects numerators that are not a valid split', () => {
    for (const numerators of [[0, 0], [1], [1, 2, 3], [-1, 2], [0.5, 1]]) {
      expect(resolutionOfMarket({ winningOutcomeIndex: null, payoutNumerators: numerators }), JSON.stringify(numerators)).toBeNull();
    }
    expect(resolutionOfMarket({ winningOutcomeIndex: 2, payoutNumerators: null })).toBeNull();
  });
});

describe('beforeRedeem', () => {
  const base = { rule: YES_WINS, ledgerReceivableRaw: 0, lastSeenRedeemableRaw: null };

  it('redeems when the venue holds winning tokens, expecting what they pay', () => {
    expect(beforeRedeem({ ...base, venueYesRaw: 4_000_000, venueNoRaw: 1_000_000 })).toEqual({ kind: 'redeem', expectedRaw: 4_000_000 });
  });

  it('has nothing to redeem with only losing tokens, whatever the ledger expects', () => {
    expect(beforeRedeem({ ...base, venueYesRaw: 0, venueNoRaw: 1_000_000, ledgerReceivableRaw: 5_000_000 })).toEqual({ kind: 'nothing' });
  });

  it('takes tokens gone from the venue for a redemption already made: the amount seen earlier, else the ledger receivable', () => {
    expect(beforeRedeem({ ...base, venueYesRaw: 0, venueNoRaw: 0, ledgerReceivableRaw: 5_000_000 })).toEqual({ kind: 'already-redeemed', amountRaw: 5_000_000 });
    expect(beforeRedeem({ ...base, venueYesRaw: 0, venueNoRaw: 0, ledgerReceivableRaw: 5_000_000, lastSeenRedeemableRaw: 6_000_000 })).toEqual({
      kind: 'already-redeemed',
      amountRaw: 6_000_000,
    });
  });

  it('has nothing to redeem when neither the venue nor the ledger holds anything', () => {
    expect(beforeRedeem({ ...base, venueYesRaw: 0, venueNoRaw: 0 })).toEqual({ kind: 'nothing' });
  });
});

describe('payoutFromAnswer', () => {
  it('reads `payout` as raw digits or a non-negative integer', () => {
    expect(payoutFromAnswer({ success: true, payout: '12500000' })).toBe(12_500_000);
    expect(payoutFromAnswer({ payout: 0 })).toBe(0);
    expect(payoutFromAnswer({ payout: 42 })).toBe(42);
  });

  it('returns null for an answer that does not say (or says nonsense)', () => {
    for (const answer of [null, {}, { payout: '12.5' }, { payout: -1 }, { payout: 1.5 }, { payout: '1e9' }, { payout: '9'.repeat(20) }, { payout: true }]) {
      expect(payoutFromAnswer(answer), JSON.stringify(answer)).toBeNull();
    }
  });
});

describe('classifyRedeemFailure', () => {
  it('stops for the account on 403 (not a server-managed wallet or no trading scope)', () => {
    const error = new FrameworkError(403, endpoint, { message: 'only server-managed wallets', error: 'Forbidden', statusCode: 403 });
    expect(classifyRedeemFailure(error).action).toBe('refused');
  });

  it('gives the market up when the request is wrong or the market unknown', () => {
    expect(classifyRedeemFailure(new ValidationError(400, endpoint, { message: [{ field: 'conditionId', message: 'bad' }], error: 'Bad Request', statusCode: 400 })).action).toBe('give-up');
    expect(classifyRedeemFailure(new FrameworkError(404, endpoint, { message: 'Market not found', error: 'Not Found', statusCode: 404 })).action).toBe('give-up');
    expect(classifyRedeemFailure(new RequestInputError('conditionId', 'x', 'must be 0x followed by 64 hex digits')).action).toBe('give-up');
  });

  it('retries a payout not yet posted, a server error and a network failure', () => {
    expect(classifyRedeemFailure(new FrameworkError(400, endpoint, { message: 'Payout has not been posted on-chain yet', error: 'Bad Request', statusCode: 400 })).action).toBe('retry');
    expect(classifyRedeemFailure(new MessageError(503, endpoint, { message: 'unavailable' })).action).toBe('retry');
    expect(classifyRedeemFailure(new NetworkError(endpoint, 'connection', 'ECONNRESET')).action).toBe('retry');
  });
});

describe('retryDelayMs', () => {
  it('doubles from the initial delay and stops at the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((attempt) => retryDelayMs(attempt, 1000, 10_000))).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
    expect(retryDelayMs(10_000, 1000, 10_000)).toBe(10_000);
  });
});
