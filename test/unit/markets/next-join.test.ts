import { describe, expect, it } from 'vitest';
import { describeExpectedJoin, nextExpectedJoin } from '../../../src/markets/next-join.js';
import { statusLine, type StatusSnapshot } from '../../../src/operator/status-line.js';
import { formatStatus } from '../../../src/operator/status-command.js';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 28, 18, 49, 0);
const market = (slug: string, expirationMs: number | null, over: { resolved?: boolean; expired?: boolean } = {}) => ({ slug, expirationMs, resolved: false, expired: false, ...over });

describe('the next expected join', () => {
  const input = {
    joined: new Set<string>(),
    nowMs: NOW,
    joinBeforeSettlementMs: 3_000_000, // 50 min
    leaveAtMs: () => null,
  };
  it('between two ladders: the listed market whose join window opens first, and when', () => {
    const next = nextExpectedJoin({ ...input, candidates: [market('eth-20h', Date.UTC(2026, 10, 28, 20)), market('btc-19h', Date.UTC(2026, 10, 28, 19, 0)), market('daily', Date.UTC(2026, 10, 29, 12))] });
    // 19:00 settlement − 50 min = 18:10, already open: not a future join; the 20:00 one opens at 19:10.
    expect(next).toEqual({ slug: 'eth-20h', atMs: Date.UTC(2026, 10, 28, 19, 10) });
    expect(describeExpectedJoin(next ?? { slug: '', atMs: 0 }, NOW)).toBe('eth-20h in 21 min 0 s (19:10:00 UTC)');
  });
  it('skips joined, ended and unsettled markets, and one that would leave before its window opens; no window: null', () => {
    const candidates = [market('joined', NOW + HOUR), market('ended', NOW + HOUR, { resolved: true }), market('no-time', null), market('short-lived', NOW + HOUR)];
    expect(nextExpectedJoin({ ...input, candidates, joined: new Set(['joined']), leaveAtMs: (slug) => (slug === 'short-lived' ? NOW + 60_000 : null) })).toBeNull();
    expect(nextExpectedJoin({ ...input, candidates: [market('a', NOW + HOUR)], joinBeforeSettlementMs: null })).toBeNull();
  });
});

describe('the status between two ladders', () => {
  const snapshot: StatusSnapshot = {
    markets: 0, marketsQuoted: 0, openOrders: 0, fills: 3, pnl: null, requests: 10, requestsInInterval: 2, intervalMs: 60_000, minTimeMs: 300,
    underlyingAgesMs: {}, unquoted: {}, nextJoin: { slug: 'btc-above-20h', atMs: NOW + 200_000 }, nowMs: NOW,
  };
  it('the line says nothing is traded and names the next join; `status` never says every market has an order', () => {
    const line = statusLine(snapshot);
    expect(line.message).toMatch(/^status: no market traded now, 0\/0 markets quoted/);
    expect(line.message).toContain('next join: btc-above-20h in 3 min 20 s (18:52:20 UTC)');
    expect(line.fields.nextJoin).toEqual({ market: 'btc-above-20h', inSec: 200, at: '2026-11-28T18:52:20.000Z' });
    const printed = formatStatus({ message: line.message, fields: { ...line.fields } });
    expect(printed).not.toContain('every traded market has an order');
    expect(printed).toContain('no market traded now');
    expect(printed).toContain('next join: btc-above-20h in 200 s (2026-11-28T18:52:20.000Z)');
  });
  it('no candidate in sight: says it waits for new listings', () => {
    expect(statusLine({ ...snapshot, nextJoin: null }).message).toContain('next join: none expected among the listed markets (waiting for new listings)');
  });
});
