import { describe, expect, it } from 'vitest';
import { affordableSizeRaw, fundIntents, lockedFunds, type Balances, type FundingOrder } from '../../../src/orders/funding.js';
import type { QuoteIntent } from '../../../src/strategy/contract.js';
import { collateralRaw } from '../../../src/core/venue-rules/index.js';

const market = { slug: 'm', tokens: { yes: 'Y', no: 'N' } };
const balances = (collateralRaw: number, yes = 0, no = 0): Balances => ({ collateralRaw, tokensRaw: new Map([['Y', yes], ['N', no]]) });
const intent = (slot: string, token: 'YES' | 'NO', side: 'BUY' | 'SELL', priceTicks: number, sizeRaw: number): QuoteIntent => ({ slot, token, side, priceTicks, sizeRaw, postOnly: true });
const order = (extra: Partial<FundingOrder>): FundingOrder => ({ marketSlug: 'm', slot: 'other', tokenId: 'Y', side: 'BUY', priceTicks: 500, sizeRaw: 10_000_000, remainingRaw: 10_000_000, state: 'live', ...extra });

describe('funding', () => {
  it('keeps intents the balances cover', () => {
    const result = fundIntents(market, [intent('bid-0', 'YES', 'BUY', 500, 10_000_000), intent('ask-0', 'YES', 'SELL', 520, 10_000_000)], balances(5_000_000, 10_000_000), []);
    expect(result.adjustments).toEqual([]);
    expect(result.intents).toHaveLength(2);
  });

  it('expresses an ask without YES inventory as BUY NO at 1 − p', () => {
    const result = fundIntents(market, [intent('ask-0', 'YES', 'SELL', 520, 10_000_000)], balances(100_000_000), []);
    expect(result.intents).toEqual([intent('ask-0', 'NO', 'BUY', 480, 10_000_000)]);
    expect(result.adjustments).toMatchObject([{ slot: 'ask-0', action: 'converted', reason: 'no-inventory' }]);
  });

  it('expresses a bid without collateral as SELL NO at 1 − p when NO is held', () => {
    const result = fundIntents(market, [intent('bid-0', 'YES', 'BUY', 450, 10_000_000)], balances(0, 0, 20_000_000), []);
    expect(result.intents).toEqual([intent('bid-0', 'NO', 'SELL', 550, 10_000_000)]);
    expect(result.adjustments[0]).toMatchObject({ action: 'converted', reason: 'no-collateral' });
  });

  it('never places a BUY beyond free collateral, counting unknown orders at full size', () => {
    // 10 USDC balance; an unknown BUY of 10 @ 0.5 (remaining says 2, but unknown counts full: 5 USDC) and a live 4 @ 0.5 (2 USDC).
    const open = [order({ state: 'unknown', remainingRaw: 2_000_000 }), order({ sizeRaw: 4_000_000, remainingRaw: 4_000_000, slot: 'o2' })];
    expect(lockedFunds(open).collateralRaw).toBe(7_000_000);
    const result = fundIntents(market, [intent('bid-0', 'YES', 'BUY', 500, 10_000_000)], balances(10_000_000), open, { complement: false });
    expect(result.intents).toEqual([intent('bid-0', 'YES', 'BUY', 500, 6_000_000)]);
    expect(collateralRaw(6_000_000, 500, 'BUY')).toBeLessThanOrEqual(3_000_000);
    expect(result.adjustments[0]).toMatchObject({ action: 'trimmed', reason: 'no-collateral' });
    // Same with the order only live at its remainder: more room.
    const asLive = fundIntents(market, [intent('bid-0', 'YES', 'BUY', 500, 10_000_000)], balances(10_000_000), [order({ state: 'live', remainingRaw: 2_000_000 })], { complement: false });
    expect(asLive.intents[0]?.sizeRaw).toBe(10_000_000);
  });

  it('never places a SELL beyond free tokens (locked by open SELLs)', () => {
    const open = [order({ side: 'SELL', tokenId: 'Y', remainingRaw: 6_000_000, sizeRaw: 6_000_000 })];
    const result = fundIntents(market, [intent('ask-0', 'YES', 'SELL', 520, 10_000_000)], balances(0, 10_000_000), open);
    expect(result.intents).toEqual([intent('ask-0', 'YES', 'SELL', 520, 4_000_000)]);
    expect(result.adjustments[0]).toMatchObject({ action: 'trimmed', reason: 'no-inventory' });
  });

  it('credits back the resting order already in the slot (it is kept or replaced), but not a frozen one', () => {
    const mine = order({ slot: 'bid-0', sizeRaw: 10_000_000, remainingRaw: 10_000_000 });
    const result = fundIntents(market, [intent('bid-0', 'YES', 'BUY', 500, 10_000_000)], balances(5_000_000), [mine], { complement: false });
    expect(result.intents[0]?.sizeRaw).toBe(10_000_000);
    const frozen = fundIntents(market, [intent('bid-0', 'YES', 'BUY', 500, 10_000_000)], balances(5_000_000), [{ ...mine, state: 'unknown' }], { complement: false });
    expect(frozen.intents).toEqual([]);
    expect(frozen.adjustments[0]).toMatchObject({ action: 'dropped', reason: 'no-collateral' });
  });

  it('uses the budget in order, and takes the larger trimmed form when neither covers the full size', () => {
    // 3 USDC, 4 YES held. SELL YES 10 @ 0.6: direct 4; complement BUY NO @ 0.4 affordable 7.5 → 7.5 wins.
    const result = fundIntents(market, [intent('ask-0', 'YES', 'SELL', 600, 10_000_000), intent('bid-0', 'YES', 'BUY', 500, 2_000_000)], balances(3_000_000, 4_000_000), []);
    expect(result.intents[0]).toEqual(intent('ask-0', 'NO', 'BUY', 400, 7_500_000));
    expect(result.adjustments[0]).toMatchObject({ action: 'converted-and-trimmed' });
    // Nothing left for the bid but the YES it could sell as NO? No NO held: dropped.
    expect(result.intents).toHaveLength(1);
    expect(result.adjustments[1]).toMatchObject({ slot: 'bid-0', action: 'dropped', reason: 'no-collateral' });
  });

  it('drops what would fall below the minimum size, with the reason', () => {
    const result = fundIntents(market, [intent('bid-0', 'YES', 'BUY', 500, 10_000_000)], balances(1_000_000), [], { minSizeRaw: 5_000_000, complement: false });
    expect(result.intents).toEqual([]);
    expect(result.adjustments[0]).toMatchObject({ action: 'dropped', reason: 'below-min-size' });
  });

  it('respects a per-market collateral budget', () => {
    const result = fundIntents(market, [intent('bid-0', 'YES', 'BUY', 500, 10_000_000)], balances(100_000_000), [], { collateralBudgetRaw: 2_000_000, complement: false });
    expect(result.intents[0]?.sizeRaw).toBe(4_000_000);
  });

  it('computes the largest affordable size exactly (BUY collateral rounds up)', () => {
    expect(affordableSizeRaw(3_953_265, 555)).toBe(7_123_000);
    expect(affordableSizeRaw(3_953_264, 555)).toBe(7_122_000);
    expect(affordableSizeRaw(0, 500)).toBe(0);
    expect(affordableSizeRaw(-5, 500)).toBe(0);
    for (const [budget, price] of [[1_234_567, 333], [999, 1], [50_000_000, 999]] as const) {
      const size = affordableSizeRaw(budget, price);
      expect(collateralRaw(size, price, 'BUY')).toBeLessThanOrEqual(budget);
      expect(collateralRaw(size + 1000, price, 'BUY')).toBeGreaterThan(budget);
    }
  });
});
