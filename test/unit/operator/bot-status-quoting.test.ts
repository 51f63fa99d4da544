/**
 * The bot's quoting clock through `buildBotStatus` (src/operator/bot-status.ts): sampled on its timer, it splits the
 * run into quoting, waiting and idle, and publishes the waiting stretch the "nothing quoted" alert reads; a traded
 * market past its stop before settlement is not expected (no order is the plan then).
 */
import { resolve } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../../src/config/index.js';
import { buildBotStatus, expectedMarkets, QUOTING_SAMPLE_MS, type BotStatusSources } from '../../../src/operator/bot-status.js';
import type { Market } from '../../../src/exchange/wire.js';
import { statusLine } from '../../../src/operator/status-line.js';
import { recorded, variant } from '../../support/selection-fixtures.js';

const config = loadConfigFile(resolve(import.meta.dirname, '../../../config/hourly-crypto.example.yaml'));
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1, 0, 10);

function rig() {
  const state = { nowMs: T0, slugs: [] as string[], orders: [] as { marketSlug: string }[], gauge: [] as number[] };
  const base = recorded('BTC', 'Hourly');
  // Settles at 01:00; its stop (pricing.stopBeforeSettlementSec: 60 s) at 00:59.
  const markets = new Map<string, Market>([['btc-0100', variant(base, 'btc-0100', { expirationMs: Date.UTC(2026, 0, 1, 1) })]]);
  const sources: BotStatusSources = {
    config,
    now: () => state.nowMs,
    marketSlugs: () => state.slugs,
    openOrders: () => state.orders,
    fills: () => 0,
    pnl: () => ({ realizedRaw: 0, unrealizedRaw: 0 }),
    requests: () => 0,
    underlyingAgesMs: () => ({}),
    killSwitchTripped: () => false,
    rostered: () => new Set(state.slugs),
    bookStatus: () => ({ hasBook: true, stale: false }),
    halted: () => false,
    pricingHalt: () => null,
    blockedReason: () => undefined,
    candidates: () => [...markets.values()],
    leaveAtMs: (market) => (market.expirationMs === null ? null : market.expirationMs - 60_000),
    tradedMarket: (slug) => markets.get(slug),
    nothingQuotedFor: (ms) => state.gauge.push(ms),
  };
  const ticks: (() => void)[] = [];
  const status = buildBotStatus(sources, pino({ level: 'silent' }));
  const advance = (ms: number): void => {
    for (let t = 0; t < ms; t += QUOTING_SAMPLE_MS) {
      state.nowMs += QUOTING_SAMPLE_MS;
      for (const tick of ticks) tick();
    }
  };
  return { state, sources, status, start: () => status.startQuotingClock((_ms, fn) => void ticks.push(fn)), advance };
}

describe('buildBotStatus: the quoting clock', () => {
  it('says nothing before it started', () => {
    expect(rig().status.quotingTotals()).toBeNull();
  });

  it('splits joining, quoting, the stop before settlement and the gap to the next ladder; the gauge follows the waiting stretch', () => {
    const r = rig();
    r.state.slugs = ['btc-0100'];
    r.start(); // 00:10, joined, no order yet
    r.advance(5_000);
    expect(r.state.gauge.at(-1)).toBe(5_000);
    r.state.orders = [{ marketSlug: 'btc-0100' }];
    r.advance(Date.UTC(2026, 0, 1, 0, 59) - r.state.nowMs); // quoting to the stop at 00:59
    expect(r.state.gauge.at(-1)).toBe(0);
    r.state.orders = []; // the stop canceled; the market stays traded until it settles: not expected any more
    r.advance(HOUR / 60 + 10 * 60_000); // to 01:10, the next ladder not joined yet
    expect(r.state.gauge.at(-1)).toBe(0);
    const totals = r.status.quotingTotals();
    // A change is seen at the next sample (1 s later): the orders from 00:10:06, the stop's cancel at 00:59:01.
    expect(totals).toEqual({ quotingMs: Date.UTC(2026, 0, 1, 0, 59, 1) - (T0 + 6_000), waitingMs: 6_000, idleMs: 11 * 60_000 - 1_000, waitingForMs: 0, fromMs: T0, toMs: r.state.nowMs });
    expect(r.state.nowMs - T0).toBe((totals?.quotingMs ?? 0) + (totals?.waitingMs ?? 0) + (totals?.idleMs ?? 0));
  });

  it('reads 10 minutes on the gauge when a traded market before its stop has had no order for 10 minutes', () => {
    const r = rig();
    r.state.slugs = ['btc-0100'];
    r.start();
    r.advance(10 * 60_000);
    expect(r.state.gauge.at(-1)).toBe(600_000);
    expect(r.status.quotingTotals()?.waitingMs).toBe(600_000);
  });

  it('between two ladders, the status names the next join (the listed market whose window opens first) and the clock is idle', () => {
    const r = rig();
    r.state.nowMs = Date.UTC(2026, 0, 1, 0, 5); // nothing traded; the 01:00 ladder's window opens at 00:10
    r.start();
    r.advance(60_000);
    const line = statusLine(r.status.snapshot());
    expect(line.message).toMatch(/^status: no market traded now, 0\/0 markets quoted/);
    expect(line.message).toContain('next join: btc-0100 in 4 min 0 s (00:10:00 UTC)');
    expect(r.status.quotingTotals()).toEqual({ quotingMs: 0, waitingMs: 0, idleMs: 60_000, waitingForMs: 0, fromMs: Date.UTC(2026, 0, 1, 0, 5), toMs: Date.UTC(2026, 0, 1, 0, 6) });
    expect(r.state.gauge.at(-1)).toBe(0);
  });

  it('counts a traded market as expected only before its stop, and one without details as expected', () => {
    const r = rig();
    r.state.slugs = ['btc-0100', 'unknown-slug'];
    expect(expectedMarkets(r.sources)).toBe(2);
    r.state.nowMs = Date.UTC(2026, 0, 1, 0, 59);
    expect(expectedMarkets(r.sources)).toBe(1);
    r.state.slugs = ['btc-0100'];
    expect(expectedMarkets(r.sources)).toBe(0);
  });
});
