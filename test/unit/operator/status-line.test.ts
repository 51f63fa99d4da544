/**
 * The status line (src/operator/status-line.ts): its content from known counts (pure), and the reporter's tally between
 * two lines on a manual clock (requests of the interval, markets with an open order, a ledger that cannot be read).
 */
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { rateLimitUsedPct, statusLine, StatusReporter, type StatusSnapshot } from '../../../src/operator/status-line.js';

const base: StatusSnapshot = {
  markets: 8,
  marketsQuoted: 6,
  openOrders: 23,
  fills: 27,
  pnl: { realizedRaw: -1_234_567, unrealizedRaw: 4_139_999 },
  requests: 173,
  requestsInInterval: 47,
  intervalMs: 60_000,
  minTimeMs: 320,
  underlyingAgesMs: { ETH: 640, BTC: 1_260 },
  unquoted: {},
};

describe('statusLine', () => {
  it('says markets quoted, open orders, fills, PnL in USDC, requests and the rate-limit share, and each underlying age', () => {
    const line = statusLine(base);
    expect(line.message).toBe(
      'status: 6/8 markets quoted, 23 open orders, 27 fills, PnL +2.91 USDC (realized -1.23, unrealized +4.14), ' +
        '173 requests (47 in the last 60 s: 25.1 % of the rate limit), underlying age BTC 1.3 s, ETH 0.6 s',
    );
    expect(line.fields).toEqual({
      markets: 8,
      marketsQuoted: 6,
      openOrders: 23,
      fills: 27,
      pnlUsdc: 2.91,
      realizedPnlUsdc: -1.23,
      unrealizedPnlUsdc: 4.14,
      requests: 173,
      requestsInInterval: 47,
      intervalSec: 60,
      rateLimitUsedPct: 25.1,
      underlyingAgeSec: { BTC: 1.3, ETH: 0.6 },
    });
  });

  it('leaves out the underlying where nothing is priced, says a priced one has no price yet, and a PnL it could not read', () => {
    const unpriced = statusLine({ ...base, underlyingAgesMs: {} });
    expect(unpriced.message).not.toContain('underlying');
    expect(unpriced.fields.underlyingAgeSec).toBeUndefined();
    const waiting = statusLine({ ...base, underlyingAgesMs: { SOL: null }, pnl: null });
    expect(waiting.message).toContain('underlying age SOL no price yet');
    expect(waiting.message).toContain('PnL unavailable');
    expect(waiting.fields.pnlUsdc).toBeUndefined();
    expect(waiting.fields.underlyingAgeSec).toEqual({ SOL: null });
  });

  it('adds the estimated rewards and rebates to the PnL, and says they are estimates', () => {
    const line = statusLine({ ...base, underlyingAgesMs: {}, pnl: { realizedRaw: -1_234_567, unrealizedRaw: 4_139_999, rewardRaw: 2_500_000, rebateRaw: 30_000 } });
    expect(line.message).toContain('PnL +5.44 USDC (realized -1.23, unrealized +4.14, rewards est. +2.50, rebates est. +0.03)');
    expect(line.fields).toMatchObject({ pnlUsdc: 5.44, rewardsUsdc: 2.5, rebatesUsdc: 0.03 });
  });

  it('names the markets with no order and why, at most five in the message and all of them in the fields', () => {
    const unquoted = Object.fromEntries(['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7'].map((slug, i) => [slug, i === 0 ? 'no book yet' : 'pricing halted: near-settlement']));
    const line = statusLine({ ...base, underlyingAgesMs: {}, unquoted });
    expect(line.message).toMatch(/, not quoted: m1 \(no book yet\), m2 \(pricing halted: near-settlement\), m3 \(.*\), m4 \(.*\), m5 \(.*\) and 2 more$/);
    expect(line.fields.unquoted).toEqual(unquoted);
    expect(statusLine(base).fields.unquoted).toBeUndefined();
  });

  it('the rate-limit share is the requests over what the spacing allows in the interval', () => {
    expect(rateLimitUsedPct(100, 30_000, 300)).toBe(100);
    expect(rateLimitUsedPct(0, 60_000, 320)).toBe(0);
    expect(rateLimitUsedPct(3, 60_000, 320)).toBe(1.6);
    expect(rateLimitUsedPct(5, 0, 320)).toBe(0);
  });
});

describe('StatusReporter', () => {
  it('logs one info line per report, counting the requests of each interval on the injected clock', () => {
    let now = 1_000_000;
    let requests = 10;
    let orders = [{ marketSlug: 'a' }, { marketSlug: 'a' }, { marketSlug: 'b' }];
    let ledgerOpen = true;
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info', base: null }, { write: (text: string) => void lines.push(JSON.parse(text) as Record<string, unknown>) });
    const reporter = new StatusReporter(
      {
        now: () => now,
        marketSlugs: () => ['a', 'b', 'c'],
        openOrders: () => orders,
        fills: () => 4,
        pnl: () => {
          if (!ledgerOpen) throw new Error('ledger closed');
          return { realizedRaw: 500_000, unrealizedRaw: 0 };
        },
        requests: () => requests,
        minTimeMs: 300,
        underlyingAgesMs: () => ({}),
        unquotedReason: (slug) => `reason of ${slug}`,
      },
      log,
    );
    now += 30_000;
    requests += 50;
    reporter.report();
    now += 30_000;
    requests += 10;
    orders = [];
    ledgerOpen = false;
    reporter.report();
    expect(lines.map((l) => [l['level'], l['marketsQuoted'], l['openOrders'], l['requests'], l['requestsInInterval'], l['rateLimitUsedPct'], l['pnlUsdc']])).toEqual([
      [30, 2, 3, 60, 50, 50, 0.5],
      [30, 0, 0, 70, 10, 10, undefined],
    ]);
    expect(String(lines[0]?.['msg'])).toMatch(/^status: 2\/3 markets quoted, 3 open orders, 4 fills, PnL \+0\.50 USDC/);
    expect(lines.map((l) => l['unquoted'])).toEqual([{ c: 'reason of c' }, { a: 'reason of a', b: 'reason of b', c: 'reason of c' }]);
  });
});
