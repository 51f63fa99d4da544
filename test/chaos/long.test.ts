/**
 * Chaos, the long randomized run (OM_CHAOS_LONG=1; OM_CHAOS_MINUTES, default 5; OM_CHAOS_SEED to replay): one bot,
 * one simulator, synthetic flow, and a seeded schedule drawing one fault after another from the whole menu (socket
 * drops, frozen feeds, slow answers and timeouts, 429/500/503 bursts before and after the request took effect,
 * trading-mode windows, price shocks, SIGKILL and SIGTERM with a restart on the same database). After every fault
 * the account settles and every invariant is checked (test/support/chaos-invariants.ts). Skipped in CI.
 */
import { afterAll, expect, it } from 'vitest';
import { ChaosRig } from '../support/chaos-rig.js';
import { CHAOS_LONG, CHAOS_LONG_MINUTES, scenarioRandom } from '../support/chaos-seed.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
let rig: ChaosRig | null = null;

afterAll(async () => {
  await rig?.close();
});

type Fault = (r: ChaosRig, random: ReturnType<typeof scenarioRandom>) => Promise<string>;

const FAULTS: Readonly<Record<string, Fault>> = {
  drop: async (r, random) => {
    const kind = random.pick(['transport', 'server'] as const);
    r.sim.control.dropConnections(kind);
    return `socket drop (${kind})`;
  },
  freeze: async (r, random) => {
    const scope = random.pick(['books', 'all'] as const);
    const took = await r.freezeUntilReconnect(scope, 20_000);
    if (took === null) throw new Error('the bot never reconnected from a frozen feed');
    return `frozen feed (${scope}) for ${took} ms`;
  },
  slow: async (r, random) => {
    const ms = random.pick([random.int(300, 1200), random.int(2300, 3200)]);
    r.sim.control.setResponseDelay(ms);
    await sleep(random.int(2000, 4000));
    r.sim.control.setResponseDelay(0);
    return `answers delayed ${ms} ms`;
  },
  burst: async (r, random) => {
    const status = random.pick([429, 500, 503] as const);
    const phase = random.pick(['before', 'after'] as const);
    const count = random.int(1, 5);
    r.sim.control.failNextRequests({ status, count, phase, ...(random.next() < 0.5 ? { pathPrefix: '/orders' } : {}), ...(status === 429 ? { retryAfterSeconds: 1 } : {}) });
    await sleep(3000);
    return `${count} × ${status} (${phase})`;
  },
  mode: async (r, random) => {
    const mode = random.pick(['post_only', 'cancel_only', 'disabled'] as const);
    const window = r.setMode(mode, random.int(1500, 4000), random.next() < 0.3 ? random.int(500, 1500) : 0);
    await sleep(window.resumeAtMs - r.sim.clock.now() + 500);
    return `${mode} window`;
  },
  shock: async (r, random) => {
    const slug = random.pick(r.slugs);
    const ticks = random.int(150, 850);
    r.sim.control.setFairValue(slug, ticks);
    await sleep(random.int(1000, 3000));
    return `fair value of ${slug} → ${ticks}`;
  },
  kill: async (r, random) => {
    await sleep(random.int(100, 2500));
    await r.kill();
    await sleep(random.int(0, 1500));
    await r.launch();
    return 'SIGKILL and restart';
  },
  term: async (r) => {
    const { code } = await r.terminate();
    if (code !== 0) throw new Error(`SIGTERM exit code ${code}`);
    await r.launch();
    return 'SIGTERM and restart';
  },
};

it.skipIf(!CHAOS_LONG)(`long randomized run (${CHAOS_LONG_MINUTES} min)`, async () => {
  const random = scenarioRandom('long');
  rig = await ChaosRig.launched({ name: 'long', seed: random.seed });
  const deadline = Date.now() + CHAOS_LONG_MINUTES * 60_000;
  const names = Object.keys(FAULTS);
  const log: string[] = [];
  for (let epoch = 1; Date.now() < deadline; epoch += 1) {
    rig.flowOn();
    await sleep(random.int(1000, 3000));
    const name = random.pick(names);
    const fault = FAULTS[name]!;
    const what = await fault(rig, random);
    log.push(`${epoch}: ${what}`);
    const report = await rig.verify(`epoch ${epoch}: ${what}`, 15_000);
    expect(report.violations).toEqual([]);
  }
  console.log(`[chaos] long: ${log.length} faults\n  ${log.join('\n  ')}`);
  const { code } = await rig.terminate();
  expect(code).toBe(0);
  expect(rig.liveOrders()).toEqual([]);
  expect(rig.check().violations).toEqual([]);
}, (CHAOS_LONG_MINUTES + 3) * 60_000);
