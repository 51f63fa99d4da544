import { describe, expect, it } from 'vitest';
import { BACKGROUND_STRETCH, hangBound } from '../../support/hang-bound.js';

describe('hangBound', () => {
  it('is the bound as given, and five times it when npm test runs the file in the background', () => {
    expect(hangBound(60_000, {})).toBe(60_000);
    expect(hangBound(60_000, { OM_TEST_BACKGROUND: '0' })).toBe(60_000);
    expect(BACKGROUND_STRETCH).toBe(5);
    expect(hangBound(60_000, { OM_TEST_BACKGROUND: '1' })).toBe(300_000);
  });
});
