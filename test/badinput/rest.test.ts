/**
 * Bad input, REST answers: a hostile proxy between the bot (a child process) and the simulator answers chosen
 * requests with bad JSON, wrong types, NaN or impossible values (test/support/chaos-hostile-proxy.ts). Each must be
 * refused with a clear error naming the endpoint, the field and the value (in the log), be counted once per answer in
 * `outcome_maker_invalid_answers_total{endpoint}` on the bot's /metrics, change nothing (no order placed from it,
 * the quotes as they were), and the daemon keeps running and quoting. A placement answer that cannot be read leaves
 * the outcome unknown: it is counted and resolved by clientOrderId without a duplicate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChaosRig, metricValue } from '../support/chaos-rig.js';
import { isCancel, isPlacement } from '../support/chaos-invariants.js';
import { startHostileProxy, type HostileProxy, type HostileRule } from '../support/chaos-hostile-proxy.js';
import { isRecord } from '../support/sim-http.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const INVALID_ANSWERS = 'outcome_maker_invalid_answers_total';
let rig: ChaosRig;
let proxy: HostileProxy;

beforeAll(async () => {
  // Placements go as POST /orders here (their hostile answers are tested), not as cancel-replace operations.
  rig = await ChaosRig.start({ name: 'badinput-rest', seed: 5151, overrides: { orders: { filledOrderDelaySec: 1, refreshTolerance: { priceTicks: 2 }, batchPlacements: 'off' } } });
  proxy = await startHostileProxy(rig.sim.baseUrl);
  rig.useRestBaseUrl(proxy.url, proxy);
  rig.flowOn();
  await rig.launch();
  await rig.until(() => rig.slugs.every((slug) => rig.liveOrders().some((o) => o.marketSlug === slug)), 20_000, 'quotes in every market');
  rig.flowOff();
  await quiet(1500);
}, 60_000);
afterAll(async () => {
  await rig?.close();
  await proxy?.close();
});

function trading(): { atMs: number }[] {
  // Placements and cancels only: status lookups (the periodic ledger check, a resync) are reads.
  return rig.requests().filter((r) => isPlacement(r) || isCancel(r));
}

/** Waits until the bot has sent no placement or cancel for `ms`. */
async function quiet(ms: number): Promise<void> {
  await rig.until(() => {
    const last = trading().at(-1);
    return last === undefined || rig.sim.clock.now() - last.atMs >= ms;
  }, 20_000, 'the bot to go quiet');
}

/** The resting quotes as the strategy priced them (ids may change on a harmless refresh; prices may not). */
function quotes(): string[] {
  return rig
    .liveOrders()
    .map((o) => `${o.marketSlug} ${o.clientOrderId?.split('-').slice(2, -1).join('-') ?? '?'} ${o.outcome} ${o.side} ${o.priceTicks} ${o.remainingRaw}`)
    .sort();
}

const asObject = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});

/** The bot's count of invalid answers of one endpoint (a route template). */
async function invalidAnswers(endpoint: string): Promise<number> {
  return metricValue(await rig.metricsText(), INVALID_ANSWERS, { endpoint });
}

/**
 * Waits (up to 5 s) until the bot's count of invalid `endpoint` answers has grown from `before` by the number of
 * answers the proxy poisoned (`poisoned`, read at the same moment); returns both, for one assertion.
 */
async function invalidAnswersCounted(endpoint: string, before: number, poisoned: () => number): Promise<{ counted: number; poisoned: number }> {
  let last = { counted: 0, poisoned: poisoned() };
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const counted = (await invalidAnswers(endpoint)) - before;
    last = { counted, poisoned: poisoned() };
    if (last.counted === last.poisoned) break;
    await sleep(100);
  }
  return last;
}

interface Case {
  readonly rule: HostileRule;
  /** Substrings of the bot's log line that must name the problem: the endpoint (its route template) first, then field and value. */
  readonly logged: readonly [endpoint: string, ...details: string[]];
  readonly trigger?: () => void;
}

const CASES: readonly Case[] = [
  {
    rule: { name: 'an order book with a NaN price', method: 'GET', path: /^\/markets\/[^/]+\/orderbook$/, answer: { mutate: (real) => ({ ...asObject(real), bids: [{ price: 'NaN', size: 5 }] }) } },
    logged: ['GET /markets/{slug}/orderbook', 'bids[0].price', 'NaN'],
  },
  {
    rule: { name: 'an order book with a negative size', method: 'GET', path: /^\/markets\/[^/]+\/orderbook$/, answer: { mutate: (real) => ({ ...asObject(real), asks: [{ price: 0.7, size: -3 }] }) } },
    logged: ['GET /markets/{slug}/orderbook', 'asks[0].size', '-3'],
  },
  {
    rule: { name: 'an order book that is not JSON', method: 'GET', path: /^\/markets\/[^/]+\/orderbook$/, answer: { rawBody: '{"bids": [{"price": 0.4' } },
    logged: ['GET /markets/{slug}/orderbook', 'not JSON'],
  },
  {
    rule: { name: 'maintenance status that is not JSON', method: 'GET', path: /^\/maintenance\/status$/, answer: { rawBody: '{"active": [{"mode": "post_only"' } },
    logged: ['GET /maintenance/status', 'not JSON'],
  },
  {
    rule: { name: 'maintenance status with wrong types', method: 'GET', path: /^\/maintenance\/status$/, answer: { mutate: () => ({ active: 'everything', scheduled: 7 }) } },
    logged: ['GET /maintenance/status', 'active'],
  },
  {
    rule: { name: 'user orders with wrong types', method: 'GET', path: /\/user-orders$/, times: 2, answer: { mutate: () => [{ id: 5, status: 'ALIVE', remainingSize: -1 }] } },
    logged: ['GET /markets/{slug}/user-orders', '[0].id', '5'],
    // A reconnect makes the bot re-read its orders.
    trigger: () => rig.sim.control.dropConnections('transport'),
  },
  {
    rule: { name: 'an order-status batch that is a string', method: 'POST', path: /^\/orders\/status\/batch$/, times: 2, answer: { mutate: () => ({ results: 'nope' }) } },
    logged: ['POST /orders/status/batch', 'results', 'nope'],
    // A reconnect makes the ledger catch up by order status.
    trigger: () => rig.sim.control.dropConnections('transport'),
  },
];

describe('hostile REST answers: refused with a clear error, nothing changes, the daemon quotes on', () => {
  for (const c of CASES) {
    it(c.rule.name, async () => {
      await quiet(800);
      const quotesBefore = quotes();
      const linesBefore = rig.bot!.lines.length;
      const endpoint = c.logged[0];
      const metricsBefore = await rig.metricsText();
      // Pre-set at 0 when the bot starts, so an `increase()` alert sees the first invalid answer.
      expect(metricsBefore, `${INVALID_ANSWERS}{endpoint="${endpoint}"} exposed before any invalid answer`).toContain(`${INVALID_ANSWERS}{endpoint="${endpoint}"}`);
      const countedBefore = metricValue(metricsBefore, INVALID_ANSWERS, { endpoint });
      const fired = proxy.poison(c.rule);
      c.trigger?.();
      await rig.until(() => fired() > 0, 15_000, `the bot to ask for what "${c.rule.name}" poisons`);
      const sentAt = rig.sim.clock.now();
      await rig.until(() => rig.bot!.lines.slice(linesBefore).some((line) => c.logged.every((part) => line.includes(part))), 5_000, `a log line naming ${c.logged.join(', ')}`);
      await sleep(1500);
      // Once per poisoned answer, under the route template (never the raw path).
      const counted = await invalidAnswersCounted(endpoint, countedBefore, fired);
      expect(counted.poisoned).toBeGreaterThan(0);
      expect(counted.counted, `${INVALID_ANSWERS}{endpoint="${endpoint}"} increase`).toBe(counted.poisoned);
      expect(trading().filter((r) => r.atMs >= sentAt), 'placements or cancels after the bad answer').toEqual([]);
      expect(quotes(), 'the resting quotes').toEqual(quotesBefore);
      expect((await fetch(`${rig.metricsUrl}/healthz`)).status).toBe(200);
      expect(rig.bot?.child.exitCode ?? null, 'the bot process is alive').toBeNull();
      // A rule allowed more answers than this case needed (a reconnect's catch-up reads statuses once or twice): used up
      // here, so it cannot poison the next case (it once failed the next bot's start-up catch-up).
      proxy.disarm();
    }, 30_000);
  }

  it('a placement answer that is not JSON: outcome unknown, counted, resolved by clientOrderId without a duplicate', async () => {
    const unknownBefore = metricValue(await rig.metricsText(), 'outcome_maker_orders_unknown_total');
    const invalidBefore = await invalidAnswers('POST /orders');
    const fired = proxy.poison({ name: 'placement answer not JSON', method: 'POST', path: /^\/orders$/, answer: { status: 201, rawBody: 'not json at all' } });
    rig.sim.control.setFairValue(rig.slugs[0]!, 250);
    rig.flowOn();
    await rig.until(() => fired() > 0, 15_000, 'a placement');
    await rig.until(() => rig.bot!.lines.some((line) => line.includes('unparseable-answer') && line.includes('not JSON')), 5_000, 'the unknown outcome in the log');
    let unknown = 0;
    const deadline = Date.now() + 5_000;
    while (unknown === 0 && Date.now() < deadline) {
      unknown = metricValue(await rig.metricsText(), 'outcome_maker_orders_unknown_total') - unknownBefore;
      await sleep(100);
    }
    expect(unknown, 'orders of unknown outcome counted').toBeGreaterThan(0);
    const counted = await invalidAnswersCounted('POST /orders', invalidBefore, fired);
    expect(counted.counted, 'unreadable placement answers counted').toBe(counted.poisoned);
    await rig.verify('placement answer not JSON');
  }, 40_000);

  it('a portfolio answer with wrong types at start-up: the catch-up fails loudly, the bot starts and quotes anyway', async () => {
    const { code } = await rig.terminate();
    expect(code).toBe(0);
    const fired = proxy.poison({ name: 'positions wrong types', method: 'GET', path: /^\/portfolio\/positions$/, answer: { mutate: () => ({ clob: 'none', rewards: [] }) } });
    rig.flowOn();
    await rig.launch();
    expect(fired()).toBe(1);
    expect(rig.bot!.lines.some((line) => line.includes('GET /portfolio/positions') && line.includes('clob') && line.includes('ledger catch-up failed'))).toBe(true);
    expect(await invalidAnswers('GET /portfolio/positions'), 'the bad start-up answer counted by the new process').toBe(1);
    const since = rig.sim.clock.now();
    await rig.until(() => rig.slugs.some((slug) => rig.ordersCreatedSince(slug, since - 5000).length > 0), 15_000, 'quotes after the bad start-up answer');
    await rig.verify('after a bad start-up answer');
  }, 60_000);
});
