import { describe, expect, it } from 'vitest';
import { isKnownTradingMode, RESTRICTION_MODES, strictestMode, toTradingMode, TRADING_MODES, tradingModeRank } from '../../../src/core/trading-mode.js';

describe('toTradingMode', () => {
  it('maps venue strings, reading an unknown or missing restriction as cancel_only', () => {
    expect(['normal', 'none', 'post_only', 'CANCEL_ONLY', 'disabled', 'trading_disabled', 'mystery', '', null].map((m) => toTradingMode(m))).toEqual([
      'normal',
      'normal',
      'post_only',
      'cancel_only',
      'disabled',
      'disabled',
      'cancel_only',
      'cancel_only',
      'cancel_only',
    ]);
  });
});

describe('isKnownTradingMode', () => {
  it('is true exactly for the strings toTradingMode recognises', () => {
    expect(['normal', 'none', 'POST_ONLY', 'cancel_only', 'disabled', 'trading_disabled', 'mystery', '', null, undefined].map((m) => isKnownTradingMode(m))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('the mode rank', () => {
  it('orders the modes by what they forbid', () => {
    expect(TRADING_MODES.map(tradingModeRank)).toEqual([0, 1, 2, 3]);
    expect(RESTRICTION_MODES).toEqual(TRADING_MODES.filter((m) => m !== 'normal'));
  });

  it('strictestMode picks the stricter, the first on a tie', () => {
    expect(strictestMode('post_only', 'disabled')).toBe('disabled');
    expect(strictestMode('cancel_only', 'normal')).toBe('cancel_only');
    expect(strictestMode('post_only', 'post_only')).toBe('post_only');
  });
});
