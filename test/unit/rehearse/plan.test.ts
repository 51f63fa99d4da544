/**
 * The rehearsal's plan (src/rehearse/plan.ts, pure): the simulator's world for a live config's selection (its tickers
 * and cadences, its header prefix) and when its first market can be joined, so a rehearsal that would quote nothing
 * says so before it starts (src/rehearse/command.ts `idleWarning`).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../../src/config/index.js';
import { rehearsalPlan, RehearseUsageError } from '../../../src/rehearse/plan.js';
import { idleWarning } from '../../../src/rehearse/command.js';

const ROOT = join(import.meta.dirname, '../../..');
const hourly = loadConfigFile(join(ROOT, 'config/hourly-crypto.example.yaml'));
const at = (hhmm: string): number => Date.parse(`2026-11-28T${hhmm}:00Z`);

describe('rehearsalPlan', () => {
  it('the hourly example: BTC and ETH hourly ladders, its own header prefix; joined 50 min before the hour', () => {
    const plan = rehearsalPlan(hourly, 'hourly.yaml', at('19:05'));
    expect(plan).toMatchObject({ headerPrefix: hourly.venue.kind === 'live' ? hourly.venue.headerPrefix : '', tickers: ['BTC', 'ETH'], cadences: ['hourly'] });
    expect(plan.firstJoin).toEqual({ atMs: at('19:10'), cadence: 'hourly', settlesAtMs: at('20:00') });
    expect(idleWarning(plan, at('19:05'), 90_000)).toBe(
      'rehearse: warning: no market can be joined before 19:10:00 UTC (markets.select.joinBeforeSettlementSec before the hourly settlement at 20:00:00 UTC): a rehearsal of 90 s will quote nothing; run it longer (--duration 360) or after that time',
    );
    expect(idleWarning(plan, at('19:05'), 600_000)).toBeNull();
    const later = rehearsalPlan(hourly, 'hourly.yaml', at('19:20'));
    expect(later.firstJoin).toEqual({ atMs: at('19:20'), cadence: 'hourly', settlesAtMs: at('20:00') });
    expect(idleWarning(later, at('19:20'), 90_000)).toBeNull();
    // Past the stop before settlement (60 s): the next ladder, joined 50 min before its hour.
    expect(rehearsalPlan(hourly, 'hourly.yaml', at('19:59')).firstJoin).toEqual({ atMs: at('20:10'), cadence: 'hourly', settlesAtMs: at('21:00') });
  });

  it('refuses a simulator config and a ticker the simulator does not simulate, naming them', () => {
    const paper = loadConfigFile(join(ROOT, 'config/paper.yaml'));
    expect(() => rehearsalPlan(paper, 'config/paper.yaml', at('19:20'))).toThrow(RehearseUsageError);
    expect(() => rehearsalPlan(paper, 'config/paper.yaml', at('19:20'))).toThrow('config/paper.yaml is a simulator config (venue.kind: sim): run it as it is');
    const select = hourly.markets.select;
    if (select === null) throw new Error('the hourly example has a select section');
    const doge = { ...hourly, markets: { ...hourly.markets, select: { ...select, tickers: ['BTC', 'DOGE'] } } };
    expect(() => rehearsalPlan(doge, 'doge.yaml', at('19:20'))).toThrow('markets.select.tickers: the simulator has no DOGE (it simulates BTC, ETH, SOL, XRP)');
  });
});
