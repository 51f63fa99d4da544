/**
 * Chaos, venue state: trading modes and a market resolving mid-run.
 *
 * post_only, cancel_only and disabled windows, each ending by itself at resumeAt (one of them scheduled ahead, so the
 * bot may learn it by polling), while the strategy asks for orders that are NOT post-only. Checked: no forbidden
 * request once the bot knew the mode (only requests already queued or in flight when it learnt), no placement that
 * is not post-only during post_only, nothing placed during cancel_only/disabled, quoting resumes after each
 * resumeAt. Then one market resolves: its quotes stop, nothing is placed there after, the ledger records the
 * payout, the other market quotes on. Every invariant after each (test/support/chaos-invariants.ts).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { ChaosRig, metricValue } from '../support/chaos-rig.js';
import { scenarioRandom } from '../support/chaos-seed.js';
import type { ModeWindow } from '../support/chaos-invariants.js';

const random = scenarioRandom('trading-modes');
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
let rig: ChaosRig;

beforeAll(async () => {
  rig = await ChaosRig.launched({
    name: 'trading-modes',
    seed: random.seed,
    overrides: {
      strategy: { name: 'fixed-spread', params: { bidSpread: 0.01, askSpread: 0.01, levels: 1, orderSize: 5, inventoryRange: 20, postOnly: false } },
      orders: { filledOrderDelaySec: 1, refreshTolerance: { priceTicks: 2 }, postOnly: false },
    },
  });
}, 60_000);
afterAll(async () => {
  await rig?.close();
});

it('post_only, cancel_only and disabled windows with resumeAt: nothing forbidden is sent once known, quoting resumes', async () => {
  const modes = (['post_only', 'cancel_only', 'disabled'] as const).slice().sort(() => random.next() - 0.5);
  const scheduled = random.int(0, modes.length - 1);
  const windows: ModeWindow[] = [];
  for (const [index, mode] of modes.entries()) {
    await sleep(random.int(2000, 2800));
    const startsInMs = index === scheduled ? random.int(1200, 2000) : 0;
    // post_only lasts long enough for the bot to quote through it (converted to post-only).
    const window = rig.setMode(mode, mode === 'post_only' ? random.int(3500, 4500) : random.int(1500, 3000), startsInMs);
    windows.push(window);
    console.log(`[chaos] trading-modes: ${mode} from +${startsInMs} ms for ${window.resumeAtMs - window.startsAtMs} ms`);
    await sleep(window.resumeAtMs - rig.sim.clock.now() + 200);
    // Quoting resumes by itself after resumeAt (the bot sees the mode end, no restart, no operator).
    const resumedAt = window.resumeAtMs;
    await rig.until(() => rig.slugs.some((slug) => rig.ordersCreatedSince(slug, resumedAt).length > 0), 15_000, `a placement after the ${mode} window`);
  }
  for (const window of windows) {
    const created = rig.slugs.flatMap((slug) => rig.ordersCreatedSince(slug, window.startsAtMs)).filter((o) => o.createdAtMs < window.resumeAtMs);
    if (window.mode === 'post_only') {
      expect(created.filter((o) => !o.postOnly), 'orders placed during post_only that are not post-only').toEqual([]);
      expect(created.length, 'the bot kept quoting (converted to post-only) through post_only').toBeGreaterThan(0);
    } else {
      expect(created, `orders placed during ${window.mode}`).toEqual([]);
    }
  }
  // Outside the windows the bot does place orders that are not post-only (so the conversion above was real).
  const first = windows[0]!;
  const outside = rig.slugs.flatMap((slug) => rig.ordersCreatedSince(slug, 0)).filter((o) => o.createdAtMs < first.startsAtMs);
  expect(outside.some((o) => !o.postOnly), 'a non-post-only placement before the first window').toBe(true);
  // The mode-window check (requests sent after the bot knew) is part of the invariants.
  await rig.verify('trading modes');
}, 90_000);

it('a market resolves mid-run: its quotes stop, the ledger records the payout, the other market quotes on', async () => {
  rig.flowOn();
  await sleep(random.int(1500, 3000));
  const [resolved, other] = [...rig.slugs].sort(() => random.next() - 0.5);
  const winningOutcomeIndex = random.pick([0, 1] as const);
  rig.sim.control.resolveMarket(resolved!, { winningOutcomeIndex });
  const resolvedAt = rig.sim.clock.now();
  const rejectedBefore = metricValue(await rig.metricsText(), 'outcome_maker_orders_rejected_total', { market: resolved! });
  console.log(`[chaos] trading-modes: ${resolved} resolved, winner index ${winningOutcomeIndex}`);
  await sleep(random.int(2000, 3000));
  await rig.until(() => rig.ordersCreatedSince(other!, resolvedAt + 500).length > 0, 15_000, `a placement in ${other} after the resolution`);

  expect(rig.liveOrders().filter((o) => o.marketSlug === resolved), 'live orders in the resolved market').toEqual([]);
  expect(rig.ordersCreatedSince(resolved!, resolvedAt), 'orders placed in the resolved market after it resolved').toEqual([]);
  // At most the placements already queued or in flight when the resolution frame arrived were refused.
  const rejected = metricValue(await rig.metricsText(), 'outcome_maker_orders_rejected_total', { market: resolved! }) - rejectedBefore;
  expect(rejected).toBeLessThanOrEqual(2);
  await rig.verify('resolution');

  const ledger = openLedger({ path: rig.paths.dbPath, mustExist: true });
  try {
    expect(ledger.getResolution(resolved!), 'the resolution is in the ledger').toMatchObject({ marketSlug: resolved, winningOutcomeIndex });
    expect(ledger.getResolution(other!)).toBeNull();
  } finally {
    ledger.close();
  }
}, 60_000);
