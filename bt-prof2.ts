import { runBacktest } from './src/backtest/index.js';
import fs from './strategies/fixed-spread.js';
const t = performance.now();
const r = runBacktest({ strategy: { module: fs, params: {bidSpread: 0.01, askSpread: 0.01} }, seed: 7, durationMs: 2*3600000, markets: { count: 4 } });
console.log((performance.now() - t).toFixed(0), 'ms', r.fills, r.requests.total, r.counters.quoteCycles);
