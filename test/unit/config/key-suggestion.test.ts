import { describe, expect, it } from 'vitest';
import { editDistance, nearestKey } from '../../../src/config/key-suggestion.js';

describe('nearestKey', () => {
  it('counts a transposition as one edit, case-insensitively', () => {
    expect(editDistance('maxOpenOrdres', 'maxOpenOrders')).toBe(1);
    expect(editDistance('BIDSPREAD', 'bidSpread')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
  });
  it('suggests the closest key within a third of its length, or a key that contains it; never an arbitrary one', () => {
    expect(nearestKey('maxPositionPerTokn', ['maxNotional', 'maxPositionPerToken', 'maxOpenOrders'])).toBe('maxPositionPerToken');
    expect(nearestKey('budget', ['budgetMs', 'leaveOrdersResting'])).toBe('budgetMs');
    expect(nearestKey('zzz', ['risk', 'venue'])).toBeNull();
    expect(nearestKey('lvl', ['levels'])).toBeNull();
  });
});
