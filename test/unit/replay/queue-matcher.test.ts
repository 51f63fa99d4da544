/**
 * The queue model of replays (src/replay/queue-matcher.ts): queue position at the back of the recorded level;
 * trades consume the queue ahead, then the order; conservative vs probabilistic on cancellations; taker fills at
 * recorded levels only; post-only refusal; and, over seeded random books and trades, the fill invariants: never
 * more than traded, never at a price the market did not trade at or through, never a negative remainder.
 */
import { describe, expect, it } from 'vitest';
import { checkTradeFills, QueueMatcher, ReplayInvariantError, type MatcherFill, type QueueModel, type RecordedBook } from '../../../src/replay/queue-matcher.js';
import { seededRandom } from '../../support/fake-time.js';

const book = (bids: [number, number][], asks: [number, number][]): RecordedBook => ({ bids, asks });
const BOOK = book([[480, 100], [470, 200]], [[520, 50], [530, 300]]);
const bid = (id: string, priceTicks: number, sizeRaw: number, postOnly = true) => ({ id, side: 'BUY' as const, priceTicks, sizeRaw, postOnly, rests: true });

function matcher(model: QueueModel = 'conservative', initial = BOOK): QueueMatcher {
  const m = new QueueMatcher(model);
  m.onBook(initial);
  return m;
}

describe('QueueMatcher', () => {
  it('queueStats: the same figures whichever model runs; the models part only where a trade reaches an order with cancellations ahead', () => {
    const run = (model: QueueModel): { fills: MatcherFill[]; stats: ReturnType<QueueMatcher['queueStats']> } => {
      const m = matcher(model);
      m.place(bid('inside', 490, 10), 0); // nothing recorded ahead
      m.place(bid('behind', 480, 30), 0); // 100 ahead
      m.onBook(book([[480, 200], [470, 200]], [[520, 50]])); // 100 joined behind
      m.onBook(book([[480, 150], [470, 200]], [[520, 50]])); // 50 canceled, no trade: 25 of them ahead (100 × 50 / 200)
      const fills = m.onTrade({ priceTicks: 480, sizeRaw: 80, takerSide: 'SELL' }, 1);
      return { fills, stats: m.queueStats() };
    };
    const conservative = run('conservative');
    const probabilistic = run('probabilistic');
    const stats = { restingOrders: 2, ordersBehindQueue: 1, aheadOnArrivalRaw: 100, canceledAheadRaw: 25, tradesReachingMovedOrders: 1 };
    expect(conservative.stats).toEqual(stats);
    expect(probabilistic.stats).toEqual(stats);
    // The print fills the order inside the spread first (best price), then 70 go to the queue ahead of 'behind'.
    expect(conservative.fills.map((f) => [f.orderId, f.sizeRaw])).toEqual([['inside', 10]]);
    expect(probabilistic.fills.map((f) => [f.orderId, f.sizeRaw])).toEqual([['inside', 10]]);
    // A level that shrinks below the queue ahead clamps both models alike: no difference counted.
    const clamped = matcher('conservative');
    clamped.place(bid('a', 480, 10), 0);
    clamped.onBook(book([[480, 20]], [[520, 50]]));
    expect(clamped.queueStats().canceledAheadRaw).toBe(0);
  });

  it('refuses everything before the first book', () => {
    expect(new QueueMatcher('conservative').place(bid('a', 480, 10), 0)).toEqual({ status: 'rejected', reason: 'no-book' });
  });

  it('a resting order joins the back of the queue; a trade fills the queue ahead first, then the order', () => {
    const m = matcher();
    expect(m.place(bid('a', 480, 30), 1)).toEqual({ status: 'accepted', fills: [], restingRaw: 30 });
    expect(m.resting()).toEqual([{ id: 'a', side: 'BUY', priceTicks: 480, remainingRaw: 30, aheadRaw: 100, placedAtMs: 1 }]);
    expect(m.onTrade({ priceTicks: 480, sizeRaw: 90, takerSide: 'SELL' }, 2)).toEqual([]);
    expect(m.resting()[0]?.aheadRaw).toBe(10);
    expect(m.onTrade({ priceTicks: 480, sizeRaw: 25, takerSide: 'SELL' }, 3)).toEqual([{ orderId: 'a', priceTicks: 480, sizeRaw: 15, liquidity: 'maker', atMs: 3 }]);
    expect(m.onTrade({ priceTicks: 470, sizeRaw: 100, takerSide: 'SELL' }, 4)).toEqual([{ orderId: 'a', priceTicks: 480, sizeRaw: 15, liquidity: 'maker', atMs: 4 }]);
    expect(m.resting()).toEqual([]);
  });

  it('a trade that does not reach the price, or on the other side, fills nothing', () => {
    const m = matcher();
    m.place(bid('a', 490, 10), 0); // improves the bid: nobody ahead
    expect(m.onTrade({ priceTicks: 500, sizeRaw: 100, takerSide: 'SELL' }, 1)).toEqual([]);
    expect(m.onTrade({ priceTicks: 480, sizeRaw: 100, takerSide: 'BUY' }, 1)).toEqual([]);
    expect(m.onTrade({ priceTicks: 490, sizeRaw: 4, takerSide: 'SELL' }, 2)).toEqual([{ orderId: 'a', priceTicks: 490, sizeRaw: 4, liquidity: 'maker', atMs: 2 }]);
  });

  it('conservative: cancellations at the level do not move the order up, but the queue never exceeds the level', () => {
    const m = matcher('conservative');
    m.place(bid('a', 470, 10), 0);
    m.onBook(book([[480, 100], [470, 120]], [[520, 50]])); // 80 canceled at 470
    expect(m.resting()[0]?.aheadRaw).toBe(120);
    m.onBook(book([[480, 100], [470, 40]], [[520, 50]]));
    expect(m.resting()[0]?.aheadRaw).toBe(40);
    m.onBook(book([[480, 100]], [[520, 50]])); // the level emptied: nobody ahead
    expect(m.resting()[0]?.aheadRaw).toBe(0);
  });

  it('probabilistic: a decrease not explained by trades comes from ahead in proportion to the position', () => {
    const m = matcher('probabilistic');
    m.place(bid('a', 470, 10), 0); // ahead 200 of 200
    m.onBook(book([[480, 100], [470, 300]], [[520, 50]])); // 100 joined behind
    expect(m.resting()[0]?.aheadRaw).toBe(200);
    m.onTrade({ priceTicks: 470, sizeRaw: 50, takerSide: 'SELL' }, 1); // ahead 150
    m.onBook(book([[480, 100], [470, 190]], [[520, 50]])); // 300 → 190: 50 traded, 60 canceled; 150/300 of them ahead
    expect(m.resting()[0]?.aheadRaw).toBe(150 - 30);
  });

  it('an order through the recorded opposite side takes the recorded levels at their prices, never more than they hold', () => {
    const m = matcher();
    expect(m.place(bid('x', 530, 30, true), 0)).toEqual({ status: 'rejected', reason: 'post-only-would-cross' });
    expect(m.place(bid('t', 530, 60, false), 5)).toEqual({
      status: 'accepted',
      fills: [
        { orderId: 't', priceTicks: 520, sizeRaw: 50, liquidity: 'taker', atMs: 5 },
        { orderId: 't', priceTicks: 530, sizeRaw: 10, liquidity: 'taker', atMs: 5 },
      ],
      restingRaw: 0,
    });
    // what this replay took stays taken until the next recorded book
    const second = m.place({ id: 'u', side: 'BUY', priceTicks: 520, sizeRaw: 5, postOnly: false, rests: false }, 6);
    expect(second).toEqual({ status: 'accepted', fills: [], restingRaw: 0 });
    m.onBook(BOOK);
    expect(m.place({ id: 'v', side: 'BUY', priceTicks: 520, sizeRaw: 5, postOnly: false, rests: false }, 7)).toMatchObject({ fills: [{ priceTicks: 520, sizeRaw: 5 }] });
  });

  it('a book that crosses a resting order without a trade does not fill it; cancel removes it once', () => {
    const m = matcher();
    m.place({ id: 's', side: 'SELL', priceTicks: 520, sizeRaw: 10, postOnly: true, rests: true }, 0);
    m.onBook(book([[530, 100]], [[540, 10]]));
    expect(m.resting()).toHaveLength(1);
    expect(m.cancel('s')).toBe(true);
    expect(m.cancel('s')).toBe(false);
  });

  it.each(['conservative', 'probabilistic'] as const)('%s: fill invariants over seeded random books, orders and trades', (model) => {
    const random = seededRandom(20261124);
    const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
    const m = new QueueMatcher(model);
    const randomBook = (): RecordedBook => {
      const mid = int(300, 700);
      const levels = (sign: number): [number, number][] => Array.from({ length: int(0, 5) }, (_, i) => [mid + sign * (i + 1) * 5, int(1, 500) * 1000]);
      return { bids: levels(-1), asks: levels(1) };
    };
    let current = randomBook();
    m.onBook(current);
    const placedSide = new Map<string, 'BUY' | 'SELL'>();
    for (let step = 0; step < 3000; step += 1) {
      const roll = random();
      if (roll < 0.2) {
        current = randomBook();
        m.onBook(current);
      } else if (roll < 0.55) {
        const side = random() < 0.5 ? 'BUY' : 'SELL';
        const id = `o${step}`;
        placedSide.set(id, side);
        const outcome = m.place({ id, side, priceTicks: int(280, 720), sizeRaw: int(1, 300) * 1000, postOnly: random() < 0.5, rests: random() < 0.8 }, step);
        if (outcome.status === 'accepted') {
          for (const fill of outcome.fills) {
            const levels = side === 'BUY' ? current.asks : current.bids;
            expect(levels.some(([price]) => price === fill.priceTicks)).toBe(true);
            expect(fill.liquidity).toBe('taker');
          }
        }
      } else if (roll < 0.65) {
        const order = m.resting()[0];
        if (order !== undefined) m.cancel(order.id);
      } else {
        const trade = { priceTicks: int(280, 720), sizeRaw: int(1, 400) * 1000, takerSide: random() < 0.5 ? ('BUY' as const) : ('SELL' as const) };
        const before = new Map(m.resting().map((o) => [o.id, o]));
        const fills: MatcherFill[] = m.onTrade(trade, step);
        expect(fills.reduce((sum, f) => sum + f.sizeRaw, 0)).toBeLessThanOrEqual(trade.sizeRaw);
        for (const fill of fills) {
          const order = before.get(fill.orderId);
          expect(order).toBeDefined();
          expect(fill.sizeRaw).toBeLessThanOrEqual(order?.remainingRaw ?? 0);
          // a maker fill at the order's price, which the trade printed at or through
          if (placedSide.get(fill.orderId) === 'BUY') expect(fill.priceTicks).toBeGreaterThanOrEqual(trade.priceTicks);
          else expect(fill.priceTicks).toBeLessThanOrEqual(trade.priceTicks);
          expect(trade.takerSide).toBe(placedSide.get(fill.orderId) === 'BUY' ? 'SELL' : 'BUY');
        }
      }
      for (const order of m.resting()) {
        expect(order.remainingRaw).toBeGreaterThan(0);
        expect(order.aheadRaw).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('the per-trade invariant check refuses fills a trade could not have made', () => {
    const trade = { priceTicks: 480, sizeRaw: 10, takerSide: 'SELL' as const };
    const sides = new Map([['a', 'BUY' as const], ['s', 'SELL' as const]]);
    const fill = (orderId: string, priceTicks: number, sizeRaw: number, liquidity: 'maker' | 'taker' = 'maker'): MatcherFill => ({ orderId, priceTicks, sizeRaw, liquidity, atMs: 0 });
    expect(() => checkTradeFills(trade, [fill('a', 480, 6), fill('a', 490, 4)], sides)).not.toThrow();
    expect(() => checkTradeFills(trade, [fill('a', 480, 11)], sides)).toThrow(ReplayInvariantError); // more than traded
    expect(() => checkTradeFills(trade, [fill('a', 470, 1)], sides)).toThrow(ReplayInvariantError); // a bid below the print
    expect(() => checkTradeFills(trade, [fill('s', 480, 1)], sides)).toThrow(ReplayInvariantError); // the taker's own side
    expect(() => checkTradeFills(trade, [fill('a', 480, 1, 'taker')], sides)).toThrow(ReplayInvariantError);
  });
});
