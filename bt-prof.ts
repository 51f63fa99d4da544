import { runBacktest } from './src/backtest/index.js';
import fs from './strategies/fixed-spread.js';
for (let i = 0; i < 3; i++) {
const t = performance.now();
const r = runBacktest({ strategy: { module: fs, params: {bidSpread: 0.01, askSpread: 0.01} }, seed: 7, durationMs: 1800000, markets: { count: 4 } });
console.log((performance.now() - t).toFixed(0), 'ms', r.fills, r.requests.total, r.counters.quoteCycles);
}
