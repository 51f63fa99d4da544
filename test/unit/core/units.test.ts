import { describe, expect, it } from 'vitest';
import {
  collateralRaw,
  complementTicks,
  priceToTicks,
  rawToDecimal,
  roundPriceToTicks,
  roundSizeToStep,
  sharesToRaw,
  ticksToPrice,
  UnitError,
} from '../../../src/core/venue-rules/index.js';

describe('units', () => {
  it('parses prices exactly from strings and numbers', () => {
    expect(priceToTicks('p', '0.555')).toBe(555);
    expect(priceToTicks('p', 0.555)).toBe(555);
    expect(priceToTicks('p', '0.5')).toBe(500);
    expect(priceToTicks('p', '0.50000')).toBe(500);
  });
  it('rejects off-tick, out-of-range and non-numeric prices, naming the field and value', () => {
    expect(() => priceToTicks('bids[0].price', '0.5555')).toThrow(/bids\[0\]\.price: more than 3 decimal places \(got "0.5555"\)/);
    expect(() => priceToTicks('p', '1')).toThrow(UnitError);
    expect(() => priceToTicks('p', '0')).toThrow(/outside \(0, 1\)/);
    expect(() => priceToTicks('p', Number.NaN)).toThrow(/not a finite number/);
    expect(() => priceToTicks('p', '-0.5')).toThrow(/not a non-negative decimal/);
    expect(() => priceToTicks('p', 'abc')).toThrow(UnitError);
  });
  it('round-trips ticks and raw sizes', () => {
    expect(ticksToPrice(555)).toBe('0.555');
    expect(ticksToPrice(500)).toBe('0.5');
    expect(sharesToRaw('s', '7.123')).toBe(7_123_000);
    expect(sharesToRaw('s', 10)).toBe(10_000_000);
    expect(rawToDecimal(7_123_000)).toBe('7.123');
    expect(rawToDecimal(-1_500_000)).toBe('-1.5');
    expect(rawToDecimal(0)).toBe('0');
  });
  it('rounds bids down and asks up, once, snapping float noise', () => {
    expect(roundPriceToTicks(0.5555, 'BUY')).toBe(555);
    expect(roundPriceToTicks(0.5551, 'SELL')).toBe(556);
    expect(roundPriceToTicks(0.555, 'SELL')).toBe(555);
    expect(roundPriceToTicks(0.1 + 0.2, 'BUY')).toBe(300);
    expect(() => roundPriceToTicks(Number.NaN, 'BUY')).toThrow(UnitError);
  });
  it('rounds sizes down to the 0.001 step', () => {
    expect(roundSizeToStep(7.1239)).toBe(7_123_000);
    expect(roundSizeToStep(0.0009)).toBe(0);
    expect(() => roundSizeToStep(-1)).toThrow(UnitError);
  });
  it('computes collateral exactly with directional rounding', () => {
    expect(collateralRaw(7_123_000, 555, 'BUY')).toBe(3_953_265);
    expect(collateralRaw(1_001, 333, 'BUY')).toBe(334);
    expect(collateralRaw(1_001, 333, 'SELL')).toBe(333);
    expect(complementTicks(555)).toBe(445);
  });
});
