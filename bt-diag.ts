import { runBacktest } from './src/backtest/index.js';
import as from './strategies/avellaneda-stoikov.js';
import type { StrategyModule } from './src/strategy/contract.js';
const params = JSON.parse(process.argv[2] ?? '{}');
let n = 0;
const wrapped: StrategyModule<any> = { ...as, create: (p: any) => { const s = as.create(p); return { quote: (v) => { const q = s.quote(v); if (n++ % 200 === 0) console.log(v.yes.mid, JSON.stringify(s.diagnostics!(v)), JSON.stringify(q)); return q; }, diagnostics: (v) => s.diagnostics!(v) }; } };
const r = runBacktest({ strategy: { module: wrapped, params }, seed: 7, durationMs: 600000, markets: { count: 3 } });
console.log(r.fills, r.pnlRaw, r.twoSidedFraction, r.maxAbsInventoryRaw);
