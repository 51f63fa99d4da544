/**
 * The position publisher off the quoting path (src/operator/position-publisher.ts): a fill or the book update after
 * it never touches SQLite in its own handling; it asks for one publish within AFTER_FILL_PUBLISH_MS that every ask
 * until then joins; the publish writes every market's mark in one transaction, reads positions from the position book,
 * sets the gauges and judges the daily loss; after `stop` nothing runs.
 */
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { createMetrics } from '../../../src/metrics/index.js';
import { AFTER_FILL_PUBLISH_MS, PositionPublisher } from '../../../src/operator/position-publisher.js';
import { fillInput, memoryLedger, T0 } from '../../support/ledger-fixtures.js';

function harness() {
  const clock = new ManualClock(T0);
  const ledger = memoryLedger();
  let checks = 0;
  const judged: (number | undefined)[] = [];
  const registry = new Registry();
  const metrics = createMetrics({ registry, collectDefault: false, now: () => clock.now() });
  const mids = new Map([['btc', 0.52], ['eth', 0.31]]);
  const traded = ['btc', 'eth'];
  const publisher = new PositionPublisher({
    ledger,
    scheduler: clock,
    markets: () => traded,
    mid: (slug) => mids.get(slug) ?? null,
    riskOrders: () => [],
    positionCostRaw: (slug) => ledger.positionBook.positionCostRaw(slug),
    metrics,
    now: () => clock.now(),
    checkLoss: (dailyPnlRaw) => {
      checks += 1;
      judged.push(dailyPnlRaw);
    },
    log: pino({ level: 'silent' }),
  });
  return { clock, ledger, publisher, registry, traded, mids, checks: () => checks, judged };
}

describe('PositionPublisher', () => {
  it('a fill and the book updates after it publish once, later, never in their own handling', async () => {
    const h = harness();
    h.ledger.recordFill(fillInput({ tradeEventId: 't1', marketSlug: 'btc' }));
    const calls = h.ledger.sqliteCalls();
    h.publisher.filled('btc');
    h.publisher.bookChanged('btc');
    h.publisher.filled('eth');
    expect(h.ledger.sqliteCalls()).toBe(calls);
    expect(h.publisher.publishPending).toBe(true);
    expect(h.checks()).toBe(0);
    h.clock.advance(AFTER_FILL_PUBLISH_MS);
    expect(h.publisher.publishPending).toBe(false);
    expect(h.checks()).toBe(1);
    expect(h.ledger.getMark('btc')).toMatchObject({ midMicros: 520_000, atMs: T0 + AFTER_FILL_PUBLISH_MS });
    expect(h.ledger.getMark('eth')).toMatchObject({ midMicros: 310_000 });
    const text = await h.registry.metrics();
    expect(text).toMatch(/outcome_maker_position_shares\{market="btc",token="YES"\} 10/);
    // The market's next book update after the fill (eth's: btc's came before the publish) asks for one more.
    h.publisher.bookChanged('btc');
    expect(h.publisher.publishPending).toBe(false);
    h.publisher.bookChanged('eth');
    expect(h.publisher.publishPending).toBe(true);
    h.clock.advance(AFTER_FILL_PUBLISH_MS);
    expect(h.checks()).toBe(2);
    h.ledger.close();
  });

  it('writes every market\'s mark in one transaction', () => {
    const h = harness();
    h.publisher.publish();
    expect(h.ledger.getMark('btc')?.midMicros).toBe(520_000);
    expect(h.ledger.getMark('eth')?.midMicros).toBe(310_000);
    const callsOfPublish = (): number => {
      const before = h.ledger.sqliteCalls();
      h.clock.advance(1_000);
      h.publisher.publish();
      return h.ledger.sqliteCalls() - before;
    };
    const two = callsOfPublish();
    // Four more markets with a mid (and no fill): the same SQLite calls (the marks share one transaction).
    for (const [slug, mid] of [['sol', 0.4], ['xrp', 0.6], ['doge', 0.2], ['ada', 0.7]] as const) {
      h.traded.push(slug);
      h.mids.set(slug, mid);
    }
    expect(callsOfPublish()).toBe(two);
    expect(h.ledger.getMark('ada')?.midMicros).toBe(700_000);
    h.ledger.close();
  });

  it('reads the PnL of the traded markets alone (not every market the ledger ever knew), and the kill switch judges the daily PnL it published', async () => {
    const h = harness();
    // Markets the bot traded and left: in the ledger, not traded now.
    for (let i = 0; i < 5; i += 1) h.ledger.recordFill(fillInput({ tradeEventId: `old-${i}`, marketSlug: `left-${i}` }));
    h.ledger.recordFill(fillInput({ tradeEventId: 't1', marketSlug: 'btc' }));
    const queries: unknown[] = [];
    const pnl = h.ledger.pnl.bind(h.ledger);
    h.ledger.pnl = (query) => {
      queries.push(query);
      return pnl(query);
    };
    h.publisher.publish();
    expect(queries).toEqual([{ marketSlugs: ['btc', 'eth'] }]);
    const text = await h.registry.metrics();
    expect(text).toMatch(/outcome_maker_pnl_usdc\{market="btc",kind="realized"\}/);
    expect(text).not.toMatch(/market="left-0"/);
    const daily = /^outcome_maker_daily_pnl_usdc (\S+)$/m.exec(text)?.[1];
    expect(daily).toBeDefined();
    expect(h.judged).toEqual([Number(daily) * 1e6]);
    h.ledger.close();
  });

  it('after stop the pending publish never runs', () => {
    const h = harness();
    h.publisher.filled('btc');
    h.publisher.stop();
    h.clock.advance(10 * AFTER_FILL_PUBLISH_MS);
    expect(h.checks()).toBe(0);
    h.publisher.filled('btc');
    expect(h.publisher.publishPending).toBe(false);
    h.ledger.close();
  });
});
