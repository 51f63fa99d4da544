import { runBacktest } from './src/backtest/index.js';
import fs from './strategies/fixed-spread.js';
import as from './strategies/avellaneda-stoikov.js';
import lr from './strategies/liquidity-rewards.js';
import { generateMarkets } from './src/sim/engine/index.js';
const mods: any = { fs, as, lr };
const which = process.argv[2]!;
const params = JSON.parse(process.argv[3] ?? '{}');
const extra = JSON.parse(process.argv[4] ?? '{}');
const T0 = Date.UTC(2026, 0, 1);
const markets = generateMarkets(2, 11, T0).map((m) => ({ ...m, isRewardable: true, settings: { minSizeRaw: 20e6, maxSpreadTicks: 30, dailyRewardRaw: 100e6, c: 3 } }));
for (const seed of [1, 2, 3]) {
const t = performance.now();
const r = runBacktest({ strategy: { module: mods[which], params }, seed, startMs: T0, durationMs: 600000, markets, risk: { maxPositionPerTokenRaw: 60e6, maxNetPositionRaw: 30e6 }, ...extra });
console.log(seed, (performance.now() - t).toFixed(0), 'ms', 'fills', r.fills, 'pnl', r.pnlRaw/1e6, '2s', r.twoSidedFraction.toFixed(2), 'q', r.quotingFraction.toFixed(2), 'inv', r.maxAbsInventoryRaw/1e6, r.maxTokenRaw/1e6, 'req', r.requests.total, JSON.stringify(r.counters.riskTrims), JSON.stringify(r.counters.riskDrops), 'rew', r.expectedRewardPerDay.toFixed(1), r.scoredRewardUsdc.toFixed(2), JSON.stringify(r.requests.rejectedByCode));
}
