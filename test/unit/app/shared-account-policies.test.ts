/**
 * The small policies behind "many bots, one account": balance shortfalls (a refusal for want of balance takes that
 * side out of funding until balances are read again), the second-signal grace, and the start-up read retry.
 */
import { describe, expect, it } from 'vitest';
import { signalAction, SECOND_SIGNAL_GRACE_MS } from '../../../src/app.js';
import { isRetryableStartupError, retryStartupRead, startupBackoffMs } from '../../../src/venue/startup-retry.js';
import { ExchangeRateLimitedError, RequestInputError } from '../../../src/exchange/errors.js';
import { BalanceShortfalls } from '../../../src/risk/balance-shortfall.js';

describe('BalanceShortfalls', () => {
  it('a SELL refusal blocks that token, a BUY refusal the collateral, until balances are read again', () => {
    let now = 0;
    const shortfalls = new BalanceShortfalls(() => now, 120_000);
    expect(shortfalls.note({ marketSlug: 'm', tokenId: 'yes-1', side: 'SELL' })).toBe(true);
    expect(shortfalls.note({ marketSlug: 'm', tokenId: 'yes-1', side: 'SELL' })).toBe(false);
    expect(shortfalls.tokenShort('yes-1')).toBe(true);
    expect(shortfalls.tokenShort('no-1')).toBe(false);
    expect(shortfalls.collateralShort()).toBe(false);
    shortfalls.note({ marketSlug: 'm', tokenId: 'no-1', side: 'BUY' });
    expect(shortfalls.collateralShort()).toBe(true);
    shortfalls.balancesRead();
    expect(shortfalls.list()).toEqual([]);
    shortfalls.note({ marketSlug: 'm', tokenId: 'yes-1', side: 'SELL' });
    now = 120_000;
    expect(shortfalls.tokenShort('yes-1')).toBe(false); // never blocked for good when a read is missed
  });
});

describe('signalAction', () => {
  it('a repeat within the grace is the same request; later it means exit now', () => {
    expect(signalAction(null, 5_000)).toBe('stop');
    expect(signalAction(5_000, 5_001)).toBe('repeat');
    expect(signalAction(5_000, 5_000 + SECOND_SIGNAL_GRACE_MS)).toBe('repeat');
    expect(signalAction(5_000, 5_001 + SECOND_SIGNAL_GRACE_MS)).toBe('exit-now');
  });
});

describe('start-up read retry', () => {
  const endpoint = { method: 'GET', pathTemplate: '/markets/{slug}' } as const;

  it('retries 429s with doubling backoff, never shorter than Retry-After, within the budget', async () => {
    const waits: number[] = [];
    let calls = 0;
    const value = await retryStartupRead(
      'markets',
      async () => {
        calls += 1;
        if (calls < 4) throw new ExchangeRateLimitedError(endpoint, 4, calls === 1 ? 5_000 : null);
        return 'ok';
      },
      { initialBackoffMs: 1_000, maxBackoffMs: 3_000, budgetMs: 60_000, sleep: async (ms) => void waits.push(ms) },
    );
    expect(value).toBe('ok');
    expect(waits).toEqual([5_000, 2_000, 3_000]);
  });

  it('gives up when the budget is spent, and never retries a request the venue refused as invalid', async () => {
    const refused = new ExchangeRateLimitedError(endpoint, 4, null);
    await expect(retryStartupRead('m', () => Promise.reject(refused), { initialBackoffMs: 1_000, maxBackoffMs: 1_000, budgetMs: 2_500, sleep: async () => undefined })).rejects.toBe(refused);
    const invalid = new RequestInputError('slug', 'BAD', 'not a slug');
    expect(isRetryableStartupError(invalid)).toBe(false);
    let calls = 0;
    await expect(
      retryStartupRead(
        'm',
        () => {
          calls += 1;
          return Promise.reject(invalid);
        },
        { initialBackoffMs: 1, maxBackoffMs: 1, budgetMs: 1_000, sleep: async () => undefined },
      ),
    ).rejects.toBe(invalid);
    expect(calls).toBe(1);
    expect(startupBackoffMs(40, null, { initialBackoffMs: 1_000, maxBackoffMs: 30_000 })).toBe(30_000);
  });
});
