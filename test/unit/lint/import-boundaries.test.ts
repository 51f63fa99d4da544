// The import boundaries of eslint.config.js fire: a throwaway file placed (by path) under src/sim/, src/backtest/ or
// src/core/venue-rules/ that crosses a boundary is reported by no-restricted-imports, and one that keeps to its layer
// is not. ESLint's own API with the project's configuration; only the parser runs without type information (the
// boundary rule needs none), so each check takes milliseconds.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({
  cwd: root,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
});

/** The messages no-restricted-imports reports for `code` placed at `path` (relative to the repository). */
async function boundaryMessages(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  if (!result) throw new Error(`no lint result for ${path}`);
  const fatal = result.messages.filter((m) => m.fatal === true);
  if (fatal.length > 0) throw new Error(`${path} did not parse: ${fatal.map((m) => m.message).join('; ')}`);
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries (eslint.config.js)', () => {
  it('the simulator may not import the strategy contract', async () => {
    const engine = await boundaryMessages('src/sim/engine/boundary-probe.ts', "import type { Level } from '../../strategy/contract.js';\nexport type L = Level;\n");
    // Reported as the strategy contract, and again as a part of the bot (src/strategy/).
    expect(engine).toContainEqual(expect.stringMatching(/strategy contract/));
    const server = await boundaryMessages('src/sim/server/boundary-probe.ts', "import type { BookView } from '../../strategy/contract';\nexport type B = BookView;\n");
    expect(server).toContainEqual(expect.stringMatching(/strategy contract/));
  });

  it('the simulator may not import the wire parsers or anything of the bot', async () => {
    const cases: readonly [string, string][] = [
      ['src/sim/server/boundary-probe.ts', '../../exchange/socket-wire.js'],
      ['src/sim/server/boundary-probe.ts', '../../exchange/wire.js'],
      // The parts of the wire parsers are the wire parsers too.
      ['src/sim/server/boundary-probe.ts', '../../exchange/wire-markets.js'],
      ['src/sim/boundary-probe.ts', '../exchange/wire-fields.js'],
      ['src/sim/server/boundary-probe.ts', '../../exchange/lifecycle-wire.js'],
      ['src/sim/boundary-probe.ts', '../orders/executor.js'],
      ['src/sim/server/boundary-probe.ts', '../../app/compose.js'],
      ['src/sim/engine/boundary-probe.ts', '../../risk/limits.js'],
      ['src/sim/engine/boundary-probe.ts', '../../ledger/pnl.js'],
      ['src/sim/server/boundary-probe.ts', '../../pricing/terms.js'],
      ['src/sim/engine/boundary-probe.ts', '../../exchange/eip712.js'],
    ];
    for (const [path, target] of cases) {
      const messages = await boundaryMessages(path, `import * as crossing from '${target}';\nexport const c = crossing;\n`);
      expect(messages, `${path} importing ${target}`).toHaveLength(1);
    }
  });

  it('the backtest takes venue facts from venue-rules, not from the strategy contract or the wire parsers', async () => {
    const level = await boundaryMessages('src/backtest/boundary-probe.ts', "import type { Level, Strategy } from '../strategy/contract.js';\nexport type X = [Level, Strategy];\n");
    expect(level).toHaveLength(1);
    expect(level[0]).toMatch(/venue-rules/);
    const parser = await boundaryMessages('src/backtest/boundary-probe.ts', "import { frameParsers } from '../exchange/socket-wire.js';\nexport const p = frameParsers;\n");
    expect(parser).toHaveLength(1);
    // Nothing of src/exchange/ at all, not only the parsers: the backtest speaks no wire.
    for (const target of ['../exchange/http.js', '../exchange/eip712.js', './../exchange/api.js']) {
      const exchange = await boundaryMessages('src/backtest/boundary-probe.ts', `import * as wire from '${target}';\nexport const w = wire;\n`);
      expect(exchange, target).toHaveLength(1);
      expect(exchange[0]).toMatch(/speaks no wire/);
    }
    const hosted = await boundaryMessages('src/backtest/boundary-probe.ts', "import type { MarketInfo, PositionView, Strategy, StrategyModule } from '../strategy/contract.js';\nexport type X = [MarketInfo, PositionView, Strategy, StrategyModule];\n");
    expect(hosted).toEqual([]);
  });

  it('venue-rules imports nothing of the project outside itself', async () => {
    const above = await boundaryMessages('src/core/venue-rules/boundary-probe.ts', "import { systemScheduler } from '../clock.js';\nexport const s = systemScheduler;\n");
    expect(above).toHaveLength(1);
    const inside = await boundaryMessages('src/core/venue-rules/boundary-probe.ts', "import { TICKS_PER_UNIT } from './units.js';\nexport const t = TICKS_PER_UNIT;\n");
    expect(inside).toEqual([]);
  });

  it('imports that keep to their layer are not reported', async () => {
    expect(await boundaryMessages('src/sim/engine/boundary-probe.ts', "import { limitOrderAmounts, type Level } from '../../core/venue-rules/index.js';\nimport type { SimOrder } from './types.js';\nexport type X = [Level, SimOrder, typeof limitOrderAmounts];\n")).toEqual([]);
    expect(await boundaryMessages('src/sim/server/boundary-probe.ts', "import { orderDomain } from '../../exchange/eip712.js';\nimport { adjustedMidpoint } from '../../core/venue-rules/index.js';\nexport const x = [orderDomain, adjustedMidpoint];\n")).toEqual([]);
    expect(await boundaryMessages('src/backtest/boundary-probe.ts', "import { pickFee, type OrderEvent } from '../core/venue-rules/index.js';\nexport const x: [typeof pickFee, OrderEvent | null] = [pickFee, null];\n")).toEqual([]);
    expect(await boundaryMessages('src/backtest/boundary-probe.ts', "import { OrderExecutor } from '../orders/executor.js';\nimport { createEngine } from '../sim/engine/index.js';\nexport const x = [OrderExecutor, createEngine];\n")).toEqual([]);
  });

  it('no room imports the composition root (src/app/); the process shell and the composition itself may', async () => {
    for (const path of ['src/markets/boundary-probe.ts', 'src/capital/boundary-probe.ts', 'src/rewards/boundary-probe.ts', 'src/venue/boundary-probe.ts', 'src/operator/boundary-probe.ts', 'src/backtest/boundary-probe.ts']) {
      const messages = await boundaryMessages(path, "import { composeBot } from '../app/compose.js';\nexport const c = composeBot;\n");
      expect(messages, path).toContainEqual(expect.stringMatching(/composes and runs the process/));
    }
    expect(await boundaryMessages('src/app/boundary-probe.ts', "import { selectMarkets } from '../markets/market-selection.js';\nexport const s = selectMarkets;\n")).toEqual([]);
    expect(await boundaryMessages('src/cli-probe.ts', "import { composeBot } from './app/compose.js';\nexport const c = composeBot;\n")).toHaveLength(1);
  });
});
