/**
 * The order of cross-market cancel-replace requests (src/orders/batch-urgency.ts): urgency of an operation and a batch
 * (known values), and which waiting batches a request carries.
 */
import { describe, expect, it } from 'vitest';
import { batchUrgency, EMPTY_SLOT_TICKS, operationUrgency, selectBatches, type WaitingBatch } from '../../../src/orders/batch-urgency.js';

const SHARES_10 = 10_000_000;

describe('operationUrgency', () => {
  it('is ticks off × shares × 4p(1−p): 3 ticks, 10 shares at 0.50 → 30', () => {
    expect(operationUrgency({ fromPriceTicks: 497, toPriceTicks: 500, sizeRaw: SHARES_10 })).toBeCloseTo(30, 10);
  });

  it('weighs a strike near the money above one far from it: the same move at 0.10 counts 0.36 of it at 0.50', () => {
    const atTheMoney = operationUrgency({ fromPriceTicks: 495, toPriceTicks: 500, sizeRaw: SHARES_10 });
    const farOut = operationUrgency({ fromPriceTicks: 95, toPriceTicks: 100, sizeRaw: SHARES_10 });
    expect(farOut / atTheMoney).toBeCloseTo(0.36, 10);
  });

  it('scales with size and distance; a same-price replacement counts one tick; an empty slot EMPTY_SLOT_TICKS', () => {
    expect(operationUrgency({ fromPriceTicks: 200, toPriceTicks: 200, sizeRaw: 5_000_000 })).toBeCloseTo(5 * 4 * 0.2 * 0.8, 10);
    expect(operationUrgency({ fromPriceTicks: null, toPriceTicks: 500, sizeRaw: 1_000_000 })).toBeCloseTo(EMPTY_SLOT_TICKS, 10);
    expect(operationUrgency({ fromPriceTicks: 510, toPriceTicks: 500, sizeRaw: 2_000_000 })).toBeCloseTo(20, 10);
  });

  it('a batch is the sum of its operations', () => {
    const ops = [
      { fromPriceTicks: 497, toPriceTicks: 500, sizeRaw: SHARES_10 },
      { fromPriceTicks: null, toPriceTicks: 500, sizeRaw: 1_000_000 },
    ];
    expect(batchUrgency(ops)).toBeCloseTo(30 + EMPTY_SLOT_TICKS, 10);
    expect(batchUrgency([])).toBe(0);
  });
});

const waiting = (key: number, marketSlug: string, operations: number, urgency: number, extra: Partial<WaitingBatch> = {}): WaitingBatch => ({
  key,
  marketSlug,
  operations,
  urgency,
  passedOver: false,
  alone: false,
  ...extra,
});

describe('selectBatches', () => {
  it('takes the most urgent first, then what still fits; the rest is left in line', () => {
    const selection = selectBatches([waiting(1, 'a', 20, 5), waiting(2, 'b', 20, 50), waiting(3, 'c', 20, 9), waiting(4, 'd', 8, 1)], { maxOperations: 50, oneMarket: false });
    expect(selection.chosen).toEqual([2, 3, 4]);
    expect(selection.left).toEqual([1]);
  });

  it('a batch passed over by an earlier request goes first, oldest first, whatever its urgency', () => {
    const selection = selectBatches([waiting(1, 'a', 30, 1, { passedOver: true }), waiting(2, 'b', 30, 99), waiting(3, 'c', 10, 0, { passedOver: true })], { maxOperations: 50, oneMarket: false });
    expect(selection.chosen).toEqual([1, 3]);
    expect(selection.left).toEqual([2]);
  });

  it('ties of urgency go oldest first', () => {
    expect(selectBatches([waiting(7, 'a', 1, 3), waiting(5, 'b', 1, 3), waiting(6, 'c', 1, 3)], { maxOperations: 2, oneMarket: false }).chosen).toEqual([5, 6]);
  });

  it('one market per request once mixing was refused: the first chosen batch decides the market', () => {
    const selection = selectBatches([waiting(1, 'a', 5, 1), waiting(2, 'b', 5, 9), waiting(3, 'b', 5, 2)], { maxOperations: 50, oneMarket: true });
    expect(selection.chosen).toEqual([2, 3]);
    expect(selection.left).toEqual([1]);
  });

  it('a batch marked alone travels alone, and nothing joins it', () => {
    expect(selectBatches([waiting(1, 'a', 5, 1, { alone: true, passedOver: true }), waiting(2, 'b', 5, 9)], { maxOperations: 50, oneMarket: false }).chosen).toEqual([1]);
    expect(selectBatches([waiting(1, 'a', 5, 9), waiting(2, 'b', 5, 1, { alone: true })], { maxOperations: 50, oneMarket: false })).toEqual({ chosen: [1], left: [2] });
  });

  it('the first batch goes even when it alone is larger than a request (it must not wait forever)', () => {
    expect(selectBatches([waiting(1, 'a', 60, 1), waiting(2, 'b', 1, 0)], { maxOperations: 50, oneMarket: false }).chosen).toEqual([1]);
  });

  it('every batch is taken within a bounded number of requests when new urgent batches keep coming', () => {
    let queue: WaitingBatch[] = [waiting(1, 'slow', 30, 0)];
    let key = 2;
    let requests = 0;
    while (queue.some((b) => b.key === 1)) {
      queue = [...queue, waiting(key++, `m${key}`, 30, 100), waiting(key++, `m${key}`, 30, 100)];
      const selection = selectBatches(queue, { maxOperations: 50, oneMarket: false });
      const left = new Set(selection.left);
      queue = queue.filter((b) => left.has(b.key)).map((b) => ({ ...b, passedOver: true }));
      requests += 1;
      expect(requests).toBeLessThan(5);
    }
  });
});
