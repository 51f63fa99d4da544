/**
 * The shutdown budget a stop needs (src/config/shutdown-budget.ts): known values of the cost and the bound, the
 * derived default when `shutdown.budgetMs` is unset (an explicit one kept as written), and pm2's kill_timeout derived
 * the same way by ecosystem.config.cjs for the same files.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseConfig } from '../../../src/config/index.js';
import { defaultShutdownBudgetMs, marketBound, stopCostMs } from '../../../src/config/shutdown-budget.js';

const dir = mkdtempSync(join(tmpdir(), 'om-budget-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = { venue: { kind: 'live', baseUrl: 'http://127.0.0.1:7070', socketUrl: 'http://127.0.0.1:7070' }, strategy: { name: 'fixed-spread' } };
const selectRules = (max: number) => ({ select: { tickers: ['BTC'], rewardableOnly: false, max } });

describe('the shutdown budget', () => {
  it('costs one request slot per market plus 3 s', () => {
    expect(stopCostMs(50, 320)).toBe(50 * 350 + 3000);
    expect(stopCostMs(0, 320)).toBe(3000);
    expect(marketBound({ slugs: ['a', 'b'], groups: [], select: null })).toBe(2);
    expect(marketBound({ slugs: [], groups: ['g'], select: null })).toBeNull();
    expect(defaultShutdownBudgetMs(null, 320)).toBe(10_000);
    expect(defaultShutdownBudgetMs(4, 320)).toBe(10_000);
    expect(defaultShutdownBudgetMs(50, 320)).toBe(20_500);
  });

  const cases: readonly (readonly [string, Record<string, unknown>, number])[] = [
    ['four named markets', { markets: { slugs: ['a', 'b', 'c', 'd'] } }, 10_000],
    ['a selection of at most 50', { markets: selectRules(50) }, 20_500],
    ['a selection of at most 50 at a wider spacing', { markets: selectRules(50), rateLimits: { minTimeMs: 400 } }, 50 * 430 + 3000],
    ['groups without a cap', { markets: { groups: ['g-1'] } }, 10_000],
    ['an explicit budget, kept as written', { markets: selectRules(50), shutdown: { budgetMs: 4000 } }, 4000],
  ];

  it.for(cases)('%s: the bot and pm2 derive the same budget', ([name, extra, expected]) => {
    const doc = { ...base, ...extra };
    const config = parseConfig(doc, { source: '<test>', baseDir: dir });
    expect(config.shutdown.budgetMs).toBe(expected);
    const file = join(dir, `${name.replaceAll(' ', '-')}.yaml`);
    writeFileSync(file, stringify(doc));
    const ecosystem = createRequire(import.meta.url)('../../../ecosystem.config.cjs') as { shutdownBudgetMs(file: string): number };
    expect(ecosystem.shutdownBudgetMs(file)).toBe(expected);
  });
});
