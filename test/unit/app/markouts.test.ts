import { describe, expect, it } from 'vitest';
import { strategyLabel } from '../../../src/app/markouts.js';

describe('strategyLabel', () => {
  it('keeps a registered name and records a module path by its file name', () => {
    expect(strategyLabel('fixed-spread')).toBe('fixed-spread');
    expect(strategyLabel('/srv/bots/strategies/my-maker.ts')).toBe('my-maker');
    expect(strategyLabel('./strategies/edge.mjs')).toBe('edge');
  });
});
