import { describe, expect, it } from 'vitest';
import { drainOver, type DrainFacts } from '../../../src/sim/drain.js';

const policy = { drainMs: 30_000, idleMs: 3_000 };
const at = (over: Partial<DrainFacts>): DrainFacts => ({ nowMs: 1_000, signalAtMs: 0, socketConnections: 0, lastRequestAtMs: 0, ...over });

describe('drainOver (standalone simulator after a stop signal)', () => {
  it('keeps serving while a bot is connected or still sending, even past the quiet time', () => {
    expect(drainOver(at({ nowMs: 10_000, socketConnections: 1, lastRequestAtMs: 0 }), policy)).toBe(false);
    expect(drainOver(at({ nowMs: 10_000, socketConnections: 0, lastRequestAtMs: 8_000 }), policy)).toBe(false);
  });

  it('ends once nobody is connected and no request came for the quiet time, counted from the signal at the earliest', () => {
    expect(drainOver(at({ nowMs: 2_999, lastRequestAtMs: -60_000 }), policy)).toBe(false);
    expect(drainOver(at({ nowMs: 3_000, lastRequestAtMs: -60_000 }), policy)).toBe(true);
    expect(drainOver(at({ nowMs: 11_000, lastRequestAtMs: 8_000 }), policy)).toBe(true);
  });

  it('never lasts longer than drainMs, and drainMs 0 closes at once', () => {
    expect(drainOver(at({ nowMs: 30_000, socketConnections: 3, lastRequestAtMs: 29_999 }), policy)).toBe(true);
    expect(drainOver(at({ nowMs: 0, socketConnections: 3, lastRequestAtMs: 0 }), { drainMs: 0, idleMs: 3_000 })).toBe(true);
  });
});
