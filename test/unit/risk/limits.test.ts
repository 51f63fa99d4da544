import { describe, expect, it } from 'vitest';
import { marketNotionalRaw, riskGate, type RiskLimits, type RiskOrder, type RiskState } from '../../../src/risk/limits.js';
import type { QuoteIntent } from '../../../src/strategy/contract.js';

const limits: RiskLimits = {
  maxPositionPerTokenRaw: 100_000_000,
  maxNetPositionRaw: 60_000_000,
  maxOpenOrders: 4,
  priceBand: { minTicks: 10, maxTicks: 990 },
  stopBeforeExpiryMs: 3_600_000,
  maxNotionalRaw: 1_000_000_000,
};
const state = (extra: Partial<RiskState> = {}): RiskState => ({
  nowMs: 1_000_000,
  market: { expiresAtMs: null, resolved: false },
  position: { yesRaw: 0, noRaw: 0 },
  positionCostRaw: 0,
  openOrders: [],
  otherMarketsNotionalRaw: 0,
  killSwitchTripped: false,
  stale: false,
  ...extra,
});
const intent = (slot: string, token: 'YES' | 'NO', side: 'BUY' | 'SELL', priceTicks: number, sizeRaw: number): QuoteIntent => ({ slot, token, side, priceTicks, sizeRaw });
const order = (extra: Partial<RiskOrder>): RiskOrder => ({ slot: 'x', token: 'YES', side: 'BUY', priceTicks: 500, sizeRaw: 10_000_000, remainingRaw: 10_000_000, state: 'live', ...extra });

describe('riskGate', () => {
  it('lets intents within every limit through unchanged', () => {
    const intents = [intent('bid-0', 'YES', 'BUY', 500, 10_000_000), intent('ask-0', 'NO', 'BUY', 480, 10_000_000)];
    expect(riskGate(intents, state(), limits)).toEqual({ allowed: intents, trimmed: [], dropped: [], halt: null });
  });

  it('halts and drops everything on resolution, kill switch, stale data and near expiry', () => {
    const intents = [intent('bid-0', 'YES', 'BUY', 500, 1_000_000)];
    expect(riskGate(intents, state({ market: { expiresAtMs: null, resolved: true } }), limits).halt).toBe('market-resolved');
    expect(riskGate(intents, state({ killSwitchTripped: true }), limits).halt).toBe('kill-switch');
    expect(riskGate(intents, state({ stale: true }), limits).halt).toBe('stale-data');
    const nearExpiry = riskGate(intents, state({ market: { expiresAtMs: 1_000_000 + 3_600_000, resolved: false } }), limits);
    expect(nearExpiry).toEqual({ allowed: [], trimmed: [], dropped: [{ intent: intents[0], reason: 'near-expiry' }], halt: 'near-expiry' });
    expect(riskGate(intents, state({ market: { expiresAtMs: 1_000_000 + 3_600_001, resolved: false } }), limits).halt).toBeNull();
  });

  it('drops prices outside the band', () => {
    const result = riskGate([intent('a', 'YES', 'BUY', 9, 1_000_000), intent('b', 'YES', 'SELL', 991, 1_000_000), intent('c', 'YES', 'BUY', 10, 1_000_000)], state(), limits);
    expect(result.dropped.map((d) => [d.intent.slot, d.reason])).toEqual([
      ['a', 'price-band'],
      ['b', 'price-band'],
    ]);
    expect(result.allowed.map((i) => i.slot)).toEqual(['c']);
  });

  it('caps open orders, counting orders in slots without an intent and unknown ones', () => {
    const open = [order({ slot: 'old-1' }), order({ slot: 'old-2', state: 'unknown' }), order({ slot: 'bid-0' })];
    const intents = [intent('bid-0', 'YES', 'BUY', 500, 1_000_000), intent('bid-1', 'YES', 'BUY', 490, 1_000_000), intent('bid-2', 'YES', 'BUY', 480, 1_000_000)];
    const result = riskGate(intents, state({ openOrders: open }), limits);
    // old-1 and old-2 count (2); bid-0's resting order is stood in for by its intent.
    expect(result.allowed.map((i) => i.slot)).toEqual(['bid-0', 'bid-1']);
    expect(result.dropped).toEqual([{ intent: intents[2], reason: 'max-open-orders' }]);
  });

  it('trims a BUY to the room under the per-token limit, counting open BUYs and unknown orders at full size', () => {
    const open = [order({ slot: 'o1', state: 'unknown', sizeRaw: 30_000_000, remainingRaw: 1_000_000 })];
    const result = riskGate([intent('bid-0', 'YES', 'BUY', 500, 50_000_000)], state({ position: { yesRaw: 40_000_000, noRaw: 0 }, openOrders: open }), { ...limits, maxNetPositionRaw: 1_000_000_000 });
    // 100 − 40 held − 30 unknown = 30 left.
    expect(result.allowed).toEqual([intent('bid-0', 'YES', 'BUY', 500, 30_000_000)]);
    expect(result.trimmed).toEqual([{ original: intent('bid-0', 'YES', 'BUY', 500, 50_000_000), sizeRaw: 30_000_000, reason: 'max-position' }]);
  });

  it('counts a frozen order in an intent slot (it may still trade) but not a resting one', () => {
    const generous = { ...limits, maxNetPositionRaw: 1_000_000_000 };
    const frozen = riskGate([intent('bid-0', 'YES', 'BUY', 500, 80_000_000)], state({ openOrders: [order({ slot: 'bid-0', state: 'unknown', sizeRaw: 50_000_000 })] }), generous);
    expect(frozen.allowed[0]?.sizeRaw).toBe(50_000_000);
    const resting = riskGate([intent('bid-0', 'YES', 'BUY', 500, 80_000_000)], state({ openOrders: [order({ slot: 'bid-0', sizeRaw: 50_000_000, remainingRaw: 50_000_000 })] }), generous);
    expect(resting.allowed[0]?.sizeRaw).toBe(80_000_000);
  });

  it('limits the worst-case net position in both directions, only for intents that worsen it', () => {
    // Net +50 YES already; max 60. BUY YES may add 10; SELL YES (reduces net) is checked against −60 only.
    const s = state({ position: { yesRaw: 50_000_000, noRaw: 0 } });
    const result = riskGate([intent('bid-0', 'YES', 'BUY', 500, 20_000_000), intent('ask-0', 'YES', 'SELL', 520, 50_000_000), intent('ask-1', 'NO', 'BUY', 470, 100_000_000)], s, limits);
    expect(result.allowed).toEqual([intent('bid-0', 'YES', 'BUY', 500, 10_000_000), intent('ask-0', 'YES', 'SELL', 520, 50_000_000), intent('ask-1', 'NO', 'BUY', 470, 60_000_000)]);
    expect(result.trimmed.map((t) => t.reason)).toEqual(['max-net-position', 'max-net-position']);
    // Already beyond the limit: nothing that adds to it fits.
    const over = riskGate([intent('bid-0', 'YES', 'BUY', 500, 1_000_000)], state({ position: { yesRaw: 70_000_000, noRaw: 0 } }), limits);
    expect(over.dropped).toEqual([{ intent: intent('bid-0', 'YES', 'BUY', 500, 1_000_000), reason: 'max-net-position' }]);
  });

  it('caps total notional across markets (position cost + open BUY collateral, unknown at full size)', () => {
    const open = [order({ slot: 'o1', state: 'unknown', sizeRaw: 20_000_000, remainingRaw: 0, priceTicks: 500 })];
    expect(marketNotionalRaw(5_000_000, open)).toBe(15_000_000);
    const s = state({ otherMarketsNotionalRaw: 70_000_000, positionCostRaw: 5_000_000, openOrders: open });
    const result = riskGate([intent('bid-0', 'YES', 'BUY', 500, 100_000_000)], s, { ...limits, maxNotionalRaw: 100_000_000 });
    // 100 − 70 − 5 − 10 = 15 USDC left → 30 shares at 0.50.
    expect(result.allowed).toEqual([intent('bid-0', 'YES', 'BUY', 500, 30_000_000)]);
    expect(result.trimmed[0]?.reason).toBe('max-notional');
    const none = riskGate([intent('bid-0', 'YES', 'BUY', 500, 1_000_000)], state({ otherMarketsNotionalRaw: 100_000_000 }), { ...limits, maxNotionalRaw: 100_000_000 });
    expect(none.dropped[0]?.reason).toBe('max-notional');
  });

  it('drops an intent whose room is below the minimum size', () => {
    const result = riskGate([intent('bid-0', 'YES', 'BUY', 500, 10_000_000)], state({ position: { yesRaw: 97_000_000, noRaw: 0 } }), { ...limits, maxNetPositionRaw: 1_000_000_000, minSizeRaw: 5_000_000 });
    expect(result.dropped).toEqual([{ intent: intent('bid-0', 'YES', 'BUY', 500, 10_000_000), reason: 'max-position' }]);
  });
});
