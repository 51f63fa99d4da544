/**
 * The operator's capital view (src/operator/capital-view.ts) and its status-line part (src/operator/capital-line.ts):
 * a market is trimmed for want of capital while its last gate decision trimmed or dropped a BUY for want of USDC (or
 * the venue refused a placement for want of balance), with the USDC the BUYs lacked; the line says "quoting trimmed:
 * N markets lack capital (X USDC short)" only then; the metrics' snapshot carries every state.
 */
import { describe, expect, it } from 'vitest';
import { capitalByState } from '../../../src/capital/capital-state.js';
import { capitalMetricsSnapshot, capitalShortRaw, CapitalTrims } from '../../../src/operator/capital-view.js';
import { statusLine } from '../../../src/operator/status-line.js';
import type { FundingAdjustment } from '../../../src/orders/funding.js';

const USDC = 1_000_000;
const buy = (sizeRaw: number, priceTicks = 500) => ({ slot: 'bid-0', token: 'YES' as const, side: 'BUY' as const, priceTicks, sizeRaw });

describe('quoting trimmed for want of capital', () => {
  it('a BUY trimmed or dropped for want of USDC counts, with what it lacked; a SELL short of tokens does not', () => {
    const trimmed: FundingAdjustment = { slot: 'bid-0', action: 'trimmed', reason: 'no-collateral', original: buy(10 * USDC), result: buy(4 * USDC) };
    const dropped: FundingAdjustment = { slot: 'bid-1', action: 'dropped', reason: 'below-min-size', original: buy(2 * USDC, 400), result: null };
    const tokens: FundingAdjustment = { slot: 'ask-0', action: 'converted', reason: 'no-inventory', original: { ...buy(5 * USDC), side: 'SELL' }, result: buy(5 * USDC) };
    expect(capitalShortRaw({ funding: [trimmed, dropped, tokens] })).toBe(3 * USDC + 800_000);
    expect(capitalShortRaw({ funding: [tokens] })).toBeNull();

    const trims = new CapitalTrims();
    trims.noteGate('a', { funding: [trimmed] });
    trims.noteGate('b', { funding: [dropped] });
    trims.noteBlocked('c', 'insufficient-balance');
    trims.noteBlocked('d', 'max-notional');
    expect(trims.status(['a', 'b', 'c', 'd'])).toEqual({ markets: 3, shortRaw: 3_800_000 });
    // A decision without a capital trim clears the market; a market no longer traded is not counted.
    trims.noteGate('a', { funding: [tokens] });
    expect(trims.status(['b', 'd'])).toEqual({ markets: 1, shortRaw: 800_000 });
  });

  it('the status line says the capital by state, and the trim only when a market is trimmed', () => {
    const state = capitalByState({ nowMs: 0, openOrders: [{ side: 'BUY', remainingRaw: 10 * USDC, priceTicks: 480 }], markets: [{ costRaw: 6_300_000, resolved: false, receivableRaw: 0 }], booked: [], chainUsdc: { usdcRaw: 100 * USDC, atMs: 0 } });
    const base = { markets: 2, marketsQuoted: 2, openOrders: 2, fills: 0, pnl: null, requests: 0, requestsInInterval: 0, intervalMs: 60_000, minTimeMs: 300, underlyingAgesMs: {}, unquoted: {} };
    const calm = statusLine({ ...base, capital: { state, trimmed: { markets: 0, shortRaw: 0 } } });
    expect(calm.message).toContain('capital USDC: free 95.20, in orders 4.80, in positions 6.30, unredeemed 0.00 (0 markets), today redeemed 0.00 merged 0.00 gas 0.0000');
    expect(calm.message).not.toContain('quoting trimmed');
    expect(calm.fields.quotingTrimmed).toBeUndefined();
    const short = statusLine({ ...base, capital: { state: null, trimmed: { markets: 3, shortRaw: 42_504_999 } } });
    expect(short.message).toContain('quoting trimmed: 3 markets lack capital (42.50 USDC short)');
    expect(short.fields).toMatchObject({ quotingTrimmed: { markets: 3, shortUsdc: 42.5 } });
    expect(short.fields.capital).toBeUndefined();
    expect(statusLine(base).message).not.toContain('capital');
    expect(capitalMetricsSnapshot({ state, trimmed: { markets: 1, shortRaw: 5 } })).toMatchObject({ usdcRaw: { free: 95_200_000, open_orders: 4_800_000, open_positions: 6_300_000, unredeemed: 0 }, trimmed: { markets: 1, shortRaw: 5 } });
    expect(capitalMetricsSnapshot({ state: null, trimmed: { markets: 0, shortRaw: 0 } })).toBeNull();
  });
});
