/**
 * Calibration on the simulator: the bot's model (src/pricing, one realized volatility per underlying, fed the
 * published price every second) against the synthetic makers' mid (the simulator's `worldFair(…, 'maker')`: the true
 * surface at the makers' lagged spot), as forecasts of hourly BTC strike markets (a ladder of 3 strikes each hour,
 * ±0.5 σ), at 50, 30, 10, 5 and 1 minutes before settlement, over 24 hours and 3 seeds, in the older flat world and in
 * the surface-law world (intraday profile and fat-tailed jumps, docs/simulator.md). Mean log-loss and Brier score of
 * each (lower is better), n predictions each. Pure simulation: no engine, no backtest; a few seconds.
 * Run: npx tsx bench/calibration.ts [--hours 24] [--seeds 3]
 */
import { pathToFileURL } from 'node:url';
import { DEFAULT_PRICER_SETTINGS, MarketPricer } from '../src/pricing/market-pricer.js';
import { brierScore, logLoss, type Prediction } from '../src/pricing/model/calibration.js';
import type { MarketTerms } from '../src/pricing/types.js';
import { DEFAULT_INTRADAY_PROFILE, DEFAULT_JUMP_TAIL, DEFAULT_UNDERLYINGS, UnderlyingWorld, worldFair, type WorldOptions } from '../src/sim/engine/index.js';
import { Prng } from '../src/sim/engine/prng.js';

const argValue = (flag: string, fallback: number): number => {
  const i = process.argv.indexOf(flag);
  const v = i >= 0 ? Number(process.argv[i + 1]) : Number.NaN;
  return Number.isFinite(v) ? v : fallback;
};

const HOUR = 3_600_000;
const START = Date.UTC(2026, 0, 1, 0, 0);
const OFFSETS_MS = [50, 30, 10, 5, 1].map((m) => m * 60_000);
const BTC = DEFAULT_UNDERLYINGS.filter((u) => u.ticker === 'BTC');

export interface CalibrationFigures {
  readonly world: 'flat' | 'surface';
  readonly seed: number;
  readonly n: number;
  readonly modelLogLoss: number;
  readonly midLogLoss: number;
  readonly modelBrier: number;
  readonly midBrier: number;
}

function terms(slug: string, strike: number, settlesAtMs: number): MarketTerms {
  return { slug, ticker: 'BTC', feedId: null, family: 'strike', strike: strike.toFixed(2), strikeValue: strike, comparison: 'above', settlesAtMs, windowStartMs: null, rule: 'pyth-candle-open-1m', source: 'pyth', cadence: 'hourly' };
}

export function runOne(world: 'flat' | 'surface', seed: number, hours: number): CalibrationFigures {
  const options: WorldOptions = { underlyings: BTC, leadMs: 0, makerLagMs: 20_000, historyMs: 2 * HOUR, ...(world === 'surface' ? { intradayProfile: DEFAULT_INTRADAY_PROFILE, jumpTail: DEFAULT_JUMP_TAIL } : {}) };
  const sim = new UnderlyingWorld(options, new Prng(seed), START);
  const pricer = new MarketPricer(DEFAULT_PRICER_SETTINGS);
  const model: Prediction[] = [];
  const mid: Prediction[] = [];
  // A warm-up hour for the estimator, then one ladder per hour, listed at the hour's start.
  let ladder: MarketTerms[] = [];
  const pending: { readonly at: number; readonly terms: MarketTerms; readonly model: number; readonly mid: number }[] = [];
  for (let t = START + 1000; t <= START + (hours + 1) * HOUR; t += 1000) {
    sim.advanceTo(t);
    const published = sim.publishedAt('BTC', t);
    if (published !== null) pricer.observe({ ticker: 'BTC', price: published, conf: null, receiveTimeMs: t });
    if ((t - START) % HOUR === 0 && t < START + (hours + 1) * HOUR) {
      const settles = t + HOUR;
      const sigma = Math.sqrt((sim.variancePerSecond('BTC') ?? 0) * 3600);
      ladder = [-0.5, 0, 0.5].map((k) => terms(`btc-${settles}-${k}`, (published ?? 1) * Math.exp(k * sigma), settles));
      for (const m of ladder) pricer.register(m.slug, { ok: true, terms: m });
    }
    for (const m of ladder) {
      if (!OFFSETS_MS.includes(m.settlesAtMs - t)) continue;
      const fair = pricer.fairOf(m, t);
      const maker = worldFair(sim, { ticker: 'BTC', strike: m.strike ?? '0' }, m.settlesAtMs, t, 'maker');
      if (fair !== null && maker !== null) pending.push({ at: m.settlesAtMs, terms: m, model: fair, mid: maker });
    }
    for (let i = pending.length - 1; i >= 0; i -= 1) {
      const p = pending[i];
      if (p === undefined || p.at > t) continue;
      const outcome = (sim.priceAt('BTC', p.at) ?? 0) > (p.terms.strikeValue ?? 0) ? 1 : 0;
      model.push({ p: p.model, outcome });
      mid.push({ p: Math.min(1, Math.max(0, p.mid)), outcome });
      pending.splice(i, 1);
    }
  }
  return { world, seed, n: model.length, modelLogLoss: logLoss(model), midLogLoss: logLoss(mid), modelBrier: brierScore(model), midBrier: brierScore(mid) };
}

export function run(hours = argValue('--hours', 24), seeds = argValue('--seeds', 3)): CalibrationFigures[] {
  const figures: CalibrationFigures[] = [];
  for (const world of ['flat', 'surface'] as const) for (let seed = 1; seed <= seeds; seed += 1) figures.push(runOne(world, seed, hours));
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = run();
  const f = (x: number): string => x.toFixed(4);
  console.log('world    seed     n  model log-loss  mid log-loss  model Brier  mid Brier');
  for (const r of rows) console.log(`${r.world.padEnd(7)}  ${String(r.seed).padStart(4)}  ${String(r.n).padStart(4)}  ${f(r.modelLogLoss).padStart(14)}  ${f(r.midLogLoss).padStart(12)}  ${f(r.modelBrier).padStart(11)}  ${f(r.midBrier).padStart(9)}`);
}
