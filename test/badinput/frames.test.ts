/**
 * Bad input, socket frames: malformed and hostile frames pushed by the venue's socket to the running bot (a child
 * process) through the simulator's frame injection. Each must be dropped and counted
 * (outcome_maker_feed_malformed_frames_total on the bot's /metrics), change nothing (no book update applied, no
 * order placed or canceled because of it, the resting quotes untouched), and the daemon keeps running and quoting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAOS_RISK, ChaosRig, metricValue } from '../support/chaos-rig.js';
import { isCancel, isPlacement } from '../support/chaos-invariants.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
let rig: ChaosRig;
let slug: string;

beforeAll(async () => {
  // A rejected book frame leaves the market stale until the REST book it asks for at once comes back (src/book/
  // book-store.ts). With the chaos grace of 1 s, on a loaded machine (a CI run, session 39) that round trip through the
  // rate limiter outlasted the grace and the risk gate canceled the quotes, as configured: a test of the REST round
  // trip's speed, not of the frame. The config's default grace (5 s) keeps this file on its subject: the frame itself
  // changes nothing, even when the venue answers the REST book 1.5 s late (the crossed book's case below; with a 1 s
  // grace it fails exactly as that CI run did).
  rig = await ChaosRig.start({ name: 'badinput-frames', seed: 4242, overrides: { risk: { ...CHAOS_RISK, staleGraceSec: 5, socketDownGraceSec: 2 } } });
  slug = rig.slugs[0]!;
  rig.flowOn();
  await rig.launch();
  // A still market: the bot's quotes rest, so anything it does next is a reaction to the injected frame.
  rig.flowOff();
  await quiet(1500);
}, 60_000);
afterAll(async () => {
  await rig?.close();
});

/** Waits until the bot has sent no placement or cancel for `ms`. */
async function quiet(ms: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const last = trading().at(-1);
    if (last === undefined || rig.sim.clock.now() - last.atMs >= ms) return;
    if (Date.now() > deadline) throw new Error('the bot never went quiet');
    await sleep(100);
  }
}

function trading(): { atMs: number; method: string; path: string }[] {
  // Placements and cancels only: status lookups (the periodic ledger check, a resync) are reads.
  return rig.requests().filter((r) => isPlacement(r) || isCancel(r));
}

const price = (p: unknown, size: unknown = 10): Record<string, unknown> => ({ price: p, size });
const book = (bids: unknown, asks: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  marketSlug: 'SLUG',
  orderbook: { bids, asks, tokenId: '1', adjustedMidpoint: 0.5, maxSpread: 0.03, minSize: '10000000', ...extra },
  timestamp: Date.now(),
});

interface HostileFrame {
  readonly name: string;
  /** The `event` label the bot counts it under. */
  readonly counted: string;
  readonly event?: string;
  readonly payload?: unknown;
  readonly kind?: 'malformed' | 'crossed';
}

const HUGE_LEVELS = Array.from({ length: 60_000 }, (_, i) => price(0.001 + (i % 997) / 1000, 1));

const FRAMES: readonly HostileFrame[] = [
  { name: 'the simulator’s malformed book (wrong types everywhere)', counted: 'orderbookUpdate', kind: 'malformed' },
  { name: 'a crossed book (best bid above best ask)', counted: 'orderbookUpdate', kind: 'crossed' },
  { name: 'bids not an array', counted: 'orderbookUpdate', event: 'orderbookUpdate', payload: book('nope', []) },
  { name: 'missing orderbook', counted: 'orderbookUpdate', event: 'orderbookUpdate', payload: { marketSlug: 'SLUG', timestamp: 1 } },
  { name: 'a NaN price', counted: 'orderbookUpdate', event: 'orderbookUpdate', payload: book([price('NaN')], [price(0.9)]) },
  { name: 'a NaN size', counted: 'orderbookUpdate', event: 'orderbookUpdate', payload: book([price(0.1, 'NaN')], [price(0.9)]) },
  { name: 'a negative size', counted: 'orderbookUpdate', event: 'orderbookUpdate', payload: book([price(0.1, -5)], [price(0.9)]) },
  { name: 'a price of 1.5', counted: 'orderbookUpdate', event: 'orderbookUpdate', payload: book([price(0.1)], [price(1.5)]) },
  { name: 'a price of 0', counted: 'orderbookUpdate', event: 'orderbookUpdate', payload: book([price(0)], [price(0.9)]) },
  { name: 'a negative price', counted: 'orderbookUpdate', event: 'orderbookUpdate', payload: book([price(-0.2)], [price(0.9)]) },
  { name: 'Infinity as a string', counted: 'orderbookUpdate', event: 'orderbookUpdate', payload: book([price('Infinity')], [price(0.9)]) },
  { name: 'a huge book (60,000 levels, with duplicates and crossing)', counted: 'orderbookUpdate', event: 'orderbookUpdate', payload: book(HUGE_LEVELS, HUGE_LEVELS) },
  { name: 'a 2 MB string where the asks belong', counted: 'orderbookUpdate', event: 'orderbookUpdate', payload: book([price(0.1)], 'x'.repeat(2_000_000)) },
  { name: 'a payload that is a number', counted: 'orderbookUpdate', event: 'orderbookUpdate', payload: 42 },
  { name: 'an order event with a made-up type and a bad size', counted: 'orderEvent', event: 'orderEvent', payload: { source: 'OME', type: 'TELEPORT', eventId: 'x', orderId: 'not-a-uuid', remainingSize: 'lots' } },
  {
    name: 'a settlement with a negative amount',
    counted: 'orderEvent',
    event: 'orderEvent',
    payload: { source: 'SETTLEMENT', type: 'MATCHED', eventId: 'settlement:x', makerMatches: [{ account: 'nobody', orderId: 'x', matchedSize: '-5', price: 'abc' }], tradeEventId: 'x' },
  },
  { name: 'a market resolution with a numeric slug', counted: 'marketResolved', event: 'marketResolved', payload: { slug: 123, winningOutcome: 'MAYBE' } },
  { name: 'positions with a NaN balance', counted: 'positions', event: 'positions', payload: { account: 1, marketSlug: 'SLUG', positions: [{ tokenId: 1, ctfBalance: 'NaN' }] } },
  // Unknown event names are counted under `other` (the label set is bounded).
  { name: 'an unknown event', counted: 'other', event: 'freeMoney', payload: { amount: 1e9 } },
];

describe('hostile socket frames: dropped, counted, nothing changes, the daemon quotes on', () => {
  for (const frame of FRAMES) {
    it(frame.name, async () => {
      const before = await rig.metricsText();
      const malformedBefore = metricValue(before, 'outcome_maker_feed_malformed_frames_total');
      const labelBefore = malformedCount(before, frame.counted);
      const liveBefore = rig.liveOrders().map((o) => o.orderId).sort();
      const sentBefore = trading().length;
      // The crossed book meets a slow venue: the REST book the rejection asks for comes 1.5 s late (the CI run's case).
      const slowVenueMs = frame.kind === 'crossed' ? 1500 : 0;
      rig.sim.control.setResponseDelay(slowVenueMs);
      const payload: unknown = JSON.parse(JSON.stringify(frame.payload ?? null, (_k, v: unknown) => (v === 'SLUG' ? slug : v)));
      const reached = frame.kind
        ? rig.sim.control.injectFrame({ kind: frame.kind, marketSlug: slug })
        : rig.sim.control.injectFrame({ kind: 'custom', marketSlug: slug, event: frame.event ?? 'orderbookUpdate', payload });
      expect(reached, 'the bot is subscribed to the market').toBeGreaterThan(0);

      let after = before;
      const deadline = Date.now() + 5_000;
      while (malformedCount(after, frame.counted) === labelBefore && Date.now() < deadline) {
        await sleep(50);
        after = await rig.metricsText();
      }
      expect(malformedCount(after, frame.counted), `counted under event="${frame.counted}…"`).toBe(labelBefore + 1);
      expect(metricValue(after, 'outcome_maker_feed_malformed_frames_total')).toBe(malformedBefore + 1);
      // Give a wrongly accepted frame time to show: quotes moved to the frame's prices (a requote), or cancels.
      await sleep(800 + slowVenueMs);
      rig.sim.control.setResponseDelay(0);
      expect(trading().length, 'placements or cancels sent because of the frame').toBe(sentBefore);
      expect(rig.liveOrders().map((o) => o.orderId).sort(), 'the resting quotes').toEqual(liveBefore);
      expect((await fetch(`${rig.metricsUrl}/healthz`)).status).toBe(200);
      expect(rig.bot?.child.exitCode ?? null, 'the bot process is alive').toBeNull();
    }, 20_000);
  }

  it('afterwards the daemon is ready and quotes a moving market as before', async () => {
    const ready = await fetch(`${rig.metricsUrl}/readyz`);
    expect(ready.status, await ready.text()).toBe(200);
    const since = rig.sim.clock.now();
    rig.sim.control.setFairValue(slug, 300);
    rig.flowOn();
    await rig.until(() => rig.ordersCreatedSince(slug, since).length > 0, 15_000, 'a new quote after the hostile frames');
    const report = await rig.verify('after hostile frames');
    expect(report.violations).toEqual([]);
  }, 40_000);
});

/** Malformed-frame count for the labels starting with `prefix`. */
function malformedCount(text: string, prefix: string): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const match = /^outcome_maker_feed_malformed_frames_total\{event="([^"]*)"\}\s+(\S+)$/.exec(line);
    if (match && match[1]!.startsWith(prefix)) total += Number(match[2]);
  }
  return total;
}
