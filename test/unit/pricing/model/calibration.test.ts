import { describe, expect, it } from 'vitest';
import { brierScore, logLoss } from '../../../../src/pricing/model/index.js';

describe('calibration scores', () => {
  it('match hand-computed values', () => {
    const preds = [
      { p: 0.8, outcome: 1 as const },
      { p: 0.3, outcome: 0 as const },
    ];
    expect(logLoss(preds)).toBeCloseTo(-(Math.log(0.8) + Math.log(0.7)) / 2, 15);
    expect(brierScore(preds)).toBeCloseTo((0.04 + 0.09) / 2, 15);
    expect(logLoss([{ p: 0.5, outcome: 1 }])).toBeCloseTo(Math.LN2, 15);
  });

  it('keep a confident miss finite, and refuse nothing or nonsense', () => {
    expect(Number.isFinite(logLoss([{ p: 0, outcome: 1 }]))).toBe(true);
    expect(() => logLoss([])).toThrow(/no predictions/);
    expect(() => brierScore([{ p: 1.5, outcome: 1 }])).toThrow(/predictions\[0\]\.p/);
  });
});
