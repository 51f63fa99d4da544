import { writeFileSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { ChaosRig } from '../support/chaos-rig.js';
import { seededRandom } from '../support/fake-time.js';

let rig: ChaosRig | null = null;
afterAll(async () => { await rig?.close(); });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('explore kill', async () => {
  const seed = Number(process.env['SEED'] ?? 7);
  const rnd = seededRandom(seed);
  rig = await ChaosRig.start({ name: 'explore', seed });
  const { monitorEventLoopDelay, performance } = await import('node:perf_hooks');
  const h = monitorEventLoopDelay({ resolution: 5 }); h.enable();
  const origCheck = rig.check.bind(rig); const times: number[] = [];
  rig.check = () => { const t = performance.now(); const r = origCheck(); times.push(performance.now() - t); return r; };
  const origM = rig.marketExposure.bind(rig); const mt: number[] = [];
  rig.marketExposure = () => { const t = performance.now(); const r = origM(); mt.push(performance.now() - t); return r; };
  const origS = rig.sim.control.syntheticStep; const st: number[] = [];
  (rig.sim.control as { syntheticStep: () => void }).syntheticStep = () => { const t = performance.now(); origS(); st.push(performance.now() - t); };
  const report2 = () => {  console.log('lag max', h.max / 1e6, 'p99', h.percentile(99) / 1e6, 'check ms', times.map((x) => x.toFixed(1)).join(' '), 'sample max', Math.max(...mt), 'step max', Math.max(...st), 'step p50', st.sort((a,b)=>a-b)[st.length>>1], 'steps>20', st.filter((x)=>x>20).map((x)=>x.toFixed(0)).join(','), 'n', st.length); };
  rig.startSampling();
  rig.flowOn();
  await rig.launch();
  for (let k = 0; k < 3; k++) {
    await sleep(500 + rnd() * 3000);
    await rig.kill();
    console.log('killed', k, rig.liveOrders().length);
    await sleep(rnd() * 2000);
    await rig.launch();
  }
  await sleep(3000);
  const report = await rig.settle(15000);
  console.log('settled', report);
  const stop = await rig.terminate();
  console.log('stop', stop);
  const final = rig.check();
  console.log('final', final);
  writeFileSync('/tmp/explore.log', rig.tail(5000));
  const reqs = rig.requests(); const i = reqs.findIndex((r) => r.outcome === 'rate_limited');
  if (i >= 0) console.log(reqs.slice(Math.max(0, i - 6), i + 3).map((r, j, a) => `${r.atMs} +${j ? r.atMs - a[j-1]!.atMs : 0} ${r.durationMs.toFixed(1)} ${r.method} ${r.path} ${r.status}`).join('\n'));
  report2();
  if (final.violations.length) { const { openLedger } = await import('../../src/ledger/index.js'); const l = openLedger({ path: rig.paths.dbPath }); writeFileSync('/tmp/explore.dump', JSON.stringify({ trades: rig.sim.control.accountTrades(rig.profileId), fills: l.db.prepare('select * from fills').all(), orders: l.db.prepare('select * from orders').all(), simOrders: rig.sim.control.accountOrders(rig.profileId), requests: rig.requests() }, null, 1)); l.close(); }
  expect(report.violations).toEqual([]);
  expect(final.violations).toEqual([]);
}, 120_000);
