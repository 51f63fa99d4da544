/**
 * liquidity-rewards on a priced market: the side that adds to the inventory keeps further from the model's fair value
 * as the inventory grows (the underlying's risk), the other side does not move.
 */
import { describe, expect, it } from 'vitest';
import type { ModelView, QuoteIntent } from '../../../src/strategy/contract.js';
import { toYesTerms } from '../../../src/strategy/yes-terms.js';
import liquidityRewards, { liquidityRewardsParamsSchema } from '../../../strategies/liquidity-rewards.js';
import { view } from '../../support/views.js';

const MODEL: ModelView = { fair: 0.64, delta: 0.0004, uncertainty: 0.002, secondsToSettlement: 3600, underlying: { ticker: 'BTC', price: 90_000, ageMs: 100, volatility: 0.5 } };

function sides(intents: readonly QuoteIntent[]): { bid: number | null; ask: number | null } {
  let bid: number | null = null;
  let ask: number | null = null;
  for (const i of intents) {
    const y = toYesTerms(i.token, i.side, i.priceTicks);
    if (y.side === 'bid') bid = Math.max(bid ?? 0, y.priceTicks);
    else ask = Math.min(ask ?? 1000, y.priceTicks);
  }
  return { bid, ask };
}

describe('liquidity-rewards inventory skew on a priced market', () => {
  it('keeps the adding side further away as net YES grows', () => {
    const lr = liquidityRewards.create(liquidityRewardsParamsSchema.parse({ inventorySkewTicks: 20, inventorySkewShares: 200, allowSingleSided: true }));
    const at = (yesShares: number) =>
      sides(
        lr.quote(
          view({
            book: { bids: [[600, 500]], asks: [[680, 500]], adjustedMidpoint: 0.64 },
            model: MODEL,
            market: { rewardable: true, dailyRewardRaw: 1000e6, maxSpreadTicks: 35, minSizeRaw: 10e6 },
            position: { yesRaw: yesShares * 1e6, noRaw: 0 },
          }),
        ),
      );
    const flat = at(0);
    const loaded = at(200);
    expect(flat.bid).not.toBeNull();
    expect(flat.bid!).toBeLessThanOrEqual(638);
    // Full skew: the bid (adding YES) is at least 20 ticks under the model's limit.
    if (loaded.bid !== null) expect(loaded.bid).toBeLessThanOrEqual(618);
    expect(loaded.ask).not.toBeNull();
  });
});
