/** The evidence that a market joined while running holds no order of the bot (src/markets/join-evidence.ts). */
import { describe, expect, it } from 'vitest';
import { noOwnOrdersEvidence } from '../../../src/markets/join-evidence.js';

const STARTED = Date.UTC(2026, 0, 5, 10, 0, 0);
const CLOCK_MARGIN_MS = 30_000;
const base = { clockMarginMs: CLOCK_MARGIN_MS, slug: 'btc-above-1', startedAtMs: STARTED, openOrderMarkets: new Set<string>() };

describe('noOwnOrdersEvidence', () => {
  it('a market listed after this run started (past the clock margin), with no open order in the ledger: evidence', () => {
    const evidence = noOwnOrdersEvidence({ ...base, createdAtMs: STARTED + CLOCK_MARGIN_MS });
    expect(evidence).toContain('after this run started');
    expect(evidence).toContain('2026-01-05T10:00:30.000Z');
  });

  it('any doubt lists: listed before the start or within the margin, createdAt unknown, or an open order in the ledger', () => {
    expect(noOwnOrdersEvidence({ ...base, createdAtMs: STARTED - 1 })).toBeNull();
    expect(noOwnOrdersEvidence({ ...base, createdAtMs: STARTED + CLOCK_MARGIN_MS - 1 })).toBeNull();
    expect(noOwnOrdersEvidence({ ...base, createdAtMs: null })).toBeNull();
    expect(noOwnOrdersEvidence({ ...base, createdAtMs: Number.NaN })).toBeNull();
    expect(noOwnOrdersEvidence({ ...base, createdAtMs: STARTED + 3_600_000, openOrderMarkets: new Set(['btc-above-1']) })).toBeNull();
    expect(noOwnOrdersEvidence({ ...base, createdAtMs: STARTED + 3_600_000, openOrderMarkets: new Set(['other']) })).not.toBeNull();
  });
});
