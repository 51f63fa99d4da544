import { describe, expect, it } from 'vitest';
import { gateIntents, type GateInput, type GateOrder } from '../../../src/risk/gate.js';
import type { MarketInfo, QuoteIntent } from '../../../src/strategy/contract.js';

const S = 1_000_000;
/** An open order as the executor tracks it, in the fields the gate reads and a few it does not. */
type OpenOrder = GateOrder & { readonly clientOrderId: string; readonly orderId: string | null; readonly createdAtMs: number };
const market = (slug: string): MarketInfo => ({
  slug,
  tokens: { yes: `${slug}-yes`, no: `${slug}-no` },
  minSizeRaw: 0,
  maxSpreadTicks: 30,
  rewardC: 3,
  dailyRewardRaw: 0,
  rewardable: false,
  expiresAtMs: null,
  band: { minTicks: 20, maxTicks: 980 },
});

function input(overrides: Partial<GateInput>): GateInput {
  return {
    market: market('a'),
    resolved: false,
    intents: [],
    openOrders: [],
    holdings: new Map([
      ['a', { yesRaw: 0, noRaw: 0, costRaw: 0 }],
      ['b', { yesRaw: 0, noRaw: 0, costRaw: 0 }],
    ]),
    balances: { collateralRaw: 1000 * S, tokensRaw: new Map() },
    limits: { maxPositionPerTokenRaw: 100 * S, maxNetPositionRaw: 50 * S, maxOpenOrders: 6, stopBeforeExpiryMs: 0, maxNotionalRaw: 1000 * S },
    nowMs: 0,
    killSwitchTripped: false,
    stale: false,
    ...overrides,
  };
}

const ask: QuoteIntent = { slot: 'ask-0', token: 'YES', side: 'SELL', priceTicks: 600, sizeRaw: 10 * S };
const bid: QuoteIntent = { slot: 'bid-0', token: 'YES', side: 'BUY', priceTicks: 400, sizeRaw: 80 * S };

describe('gateIntents (funding, then the risk limits, as the bot composes them)', () => {
  it('turns a SELL YES without the tokens into BUY NO at the complement, and trims a bid to the net limit', () => {
    const out = gateIntents(input({ intents: [ask, bid] }));
    expect(out.halt).toBeNull();
    expect(out.intents).toEqual([
      { slot: 'ask-0', token: 'NO', side: 'BUY', priceTicks: 400, sizeRaw: 10 * S },
      // Worst case: the BUY NO may never fill, so it makes no room; the bid gets the 50 the net limit allows.
      { slot: 'bid-0', token: 'YES', side: 'BUY', priceTicks: 400, sizeRaw: 50 * S },
    ]);
    expect(out.funding.map((a) => a.action)).toEqual(['converted']);
    expect(out.risk.trimmed.map((t) => t.reason)).toEqual(['max-net-position']);
  });

  it('counts the other markets’ open BUYs and holdings against the total notional', () => {
    const other: OpenOrder = {
      marketSlug: 'b',
      clientOrderId: 'bt-x-bid-0-1',
      orderId: null,
      slot: 'bid-0',
      token: 'YES',
      tokenId: 'b-yes',
      side: 'BUY',
      priceTicks: 500,
      sizeRaw: 1000 * S,
      remainingRaw: 1000 * S,
      state: 'pending-new',
      createdAtMs: 0,
    };
    const holdings = new Map([
      ['a', { yesRaw: 0, noRaw: 0, costRaw: 0 }],
      ['b', { yesRaw: 0, noRaw: 0, costRaw: 400 * S }],
    ]);
    // Notional used elsewhere: 400 held + 500 locked (pending at full size) = 900 of 1000: 100 USDC left = 250 shares at 0.4.
    const out = gateIntents(input({ intents: [{ ...bid, sizeRaw: 300 * S }], openOrders: [other], holdings, limits: { ...input({}).limits, maxNetPositionRaw: 1000 * S, maxPositionPerTokenRaw: 1000 * S } }));
    expect(out.intents).toEqual([{ ...bid, sizeRaw: 250 * S }]);
    expect(out.risk.trimmed.map((t) => t.reason)).toEqual(['max-notional']);
  });

  it('halts the market (no intents) when resolved or past the stop before expiry', () => {
    expect(gateIntents(input({ intents: [bid], resolved: true })).halt).toBe('market-resolved');
    const expiring = { ...market('a'), expiresAtMs: 10_000 };
    const out = gateIntents(input({ intents: [bid], market: expiring, nowMs: 9_000, limits: { ...input({}).limits, stopBeforeExpiryMs: 1_000 } }));
    expect(out.halt).toBe('near-expiry');
    expect(out.intents).toEqual([]);
  });
});
