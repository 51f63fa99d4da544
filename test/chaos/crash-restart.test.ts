/**
 * Chaos, crashes: SIGKILL of the bot at random moments (start-up included: before the ledger exists, while it
 * adopts orders, mid-quote) and a restart on the same database each time. The simulator, with its synthetic flow,
 * runs on meanwhile, so orders fill while no bot is there and placements die with their answer in flight. After
 * the last restart the account settles and every invariant must hold: one order per slot, no orphan, every fill
 * in the ledger once (fills missed while down recorded through the catch-up's stand-ins), positions equal
 * (test/support/chaos-invariants.ts).
 */
import { afterAll, expect, it } from 'vitest';
import { ChaosRig } from '../support/chaos-rig.js';
import { scenarioRandom } from '../support/chaos-seed.js';

const random = scenarioRandom('crash-restart');
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
let rig: ChaosRig | null = null;

afterAll(async () => {
  await rig?.close();
});

it('SIGKILL at random moments, restart on the same database: no orphan, no duplicate, no lost fill', async () => {
  rig = await ChaosRig.start({ name: 'crash-restart', seed: random.seed });
  rig.startSampling();
  rig.flowOn();
  rig.spawn();
  const kills = 3;
  for (let i = 0; i < kills; i += 1) {
    // Half the kills land somewhere in start-up (module loading, ledger catch-up, adoption), half mid-quote.
    const duringStartup = i > 0 && random.next() < 0.5;
    if (!duringStartup) await rig.bot!.waitForLine((line) => line.includes('"msg":"quoting"'), 30_000);
    const after = duringStartup ? random.int(300, 4000) : random.int(100, 2500);
    await sleep(after);
    const quoting = rig.bot?.lines.some((line) => line.includes('"msg":"quoting"')) ?? false;
    await rig.kill();
    console.log(`[chaos] crash-restart: SIGKILL ${i + 1}/${kills} ${after} ms ${duringStartup ? 'after spawn' : 'after quoting began'} (${quoting ? 'quoting' : 'in start-up'}), ${rig.liveOrders().length} orders left resting`);
    await sleep(random.int(0, 1500));
    rig.spawn();
  }
  await rig.bot!.waitForLine((line) => line.includes('"msg":"quoting"'), 30_000);
  await sleep(random.int(1000, 2000));
  const report = await rig.verify('after the last restart');
  const { code } = await rig.terminate();
  expect(code).toBe(0);
  expect(rig.liveOrders()).toEqual([]);
  const final = rig.check();
  expect(final.violations).toEqual([]);
  console.log(`[chaos] crash-restart: ${report.venueFills} fills, ${report.standIns} recorded through reconciliation after a crash`);
}, 120_000);
