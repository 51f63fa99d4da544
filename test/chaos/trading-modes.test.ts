/**
 * Chaos, trading modes: post_only, cancel_only and disabled windows, each ending by itself at resumeAt (one of them
 * scheduled ahead, so the bot may learn it by polling), while the strategy asks for orders that are NOT post-only.
 * Checked: no forbidden request once the bot knew the mode (only requests already queued or in flight when it
 * learnt), no placement that is not post-only during post_only, nothing placed during cancel_only/disabled,
 * quoting resumes after each resumeAt, and every invariant (test/support/chaos-invariants.ts).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ChaosRig } from '../support/chaos-rig.js';
import { scenarioRandom } from '../support/chaos-seed.js';
import type { ModeWindow } from '../support/chaos-invariants.js';

const random = scenarioRandom('trading-modes');
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
let rig: ChaosRig;

beforeAll(async () => {
  rig = await ChaosRig.start({
    name: 'trading-modes',
    seed: random.seed,
    overrides: {
      strategy: { name: 'fixed-spread', params: { bidSpread: 0.01, askSpread: 0.01, levels: 1, orderSize: 5, inventoryRange: 20, postOnly: false } },
      orders: { filledOrderDelaySec: 1, refreshTolerance: { priceTicks: 2 }, postOnly: false },
    },
  });
  rig.startSampling();
  rig.flowOn();
  await rig.launch();
}, 60_000);
afterAll(async () => {
  await rig?.close();
});

it('post_only, cancel_only and disabled windows with resumeAt: nothing forbidden is sent once known, quoting resumes', async () => {
  const modes = (['post_only', 'cancel_only', 'disabled'] as const).slice().sort(() => random.next() - 0.5);
  const scheduled = random.int(0, modes.length - 1);
  const windows: ModeWindow[] = [];
  for (const [index, mode] of modes.entries()) {
    await sleep(random.int(2500, 3500));
    const startsInMs = index === scheduled ? random.int(1200, 2000) : 0;
    const window = rig.setMode(mode, random.int(2000, 4000), startsInMs);
    windows.push(window);
    console.log(`[chaos] trading-modes: ${mode} from +${startsInMs} ms for ${window.resumeAtMs - window.startsAtMs} ms`);
    await sleep(window.resumeAtMs - rig.sim.clock.now() + 200);
    // Quoting resumes by itself after resumeAt (the bot sees the mode end, no restart, no operator).
    const resumedAt = window.resumeAtMs;
    await rig.until(() => rig.slugs.some((slug) => rig.ordersCreatedSince(slug, resumedAt).length > 0), 15_000, `a placement after the ${mode} window`);
  }
  for (const window of windows) {
    const created = rig.slugs.flatMap((slug) => rig.ordersCreatedSince(slug, window.startsAtMs)).filter((o) => o.createdAtMs < window.resumeAtMs);
    if (window.mode === 'post_only') expect(created.filter((o) => !o.postOnly), 'orders placed during post_only that are not post-only').toEqual([]);
    else expect(created, `orders placed during ${window.mode}`).toEqual([]);
  }
  // The mode-window check (requests sent after the bot knew) is part of the invariants.
  await rig.verify('trading modes');
}, 90_000);
