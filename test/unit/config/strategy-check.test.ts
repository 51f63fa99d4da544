import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfigText, StrategyRegistryUnavailableError, validateStrategy, type StrategyRegistry } from '../../../src/config/index.js';
import type { StrategyModule } from '../../../src/strategy/contract.js';

function config(strategy: string) {
  return parseConfigText(`strategy: ${strategy}\n`, { source: 't', baseDir: '/tmp' });
}

describe('validateStrategy with the real registry', () => {
  it('accepts a built-in strategy and returns its params with defaults', async () => {
    const result = await validateStrategy(config('{name: fixed-spread, params: {levels: 2}}'));
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.module.name).toBe('fixed-spread');
    expect(result.params).toMatchObject({ levels: 2, bidSpread: 0.02 });
  });

  it('names every bad parameter with its path under strategy.params and its value', async () => {
    const result = await validateStrategy(config('{name: fixed-spread, params: {levels: "two", bidSpred: 0.1}}'));
    if (result.ok) throw new Error('expected issues');
    expect(result.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'strategy', path: 'strategy.params.levels', value: '"two"' }),
        expect.objectContaining({ kind: 'strategy', path: 'strategy.params.bidSpred', value: '0.1' }),
      ]),
    );
  });

  it('reports an unknown strategy on strategy.name', async () => {
    const result = await validateStrategy(config('{name: no-such-strategy}'));
    if (result.ok) throw new Error('expected issues');
    expect(result.issues).toEqual([expect.objectContaining({ kind: 'strategy', path: 'strategy.name', value: '"no-such-strategy"' })]);
  });
});

describe('validateStrategy with an injected registry', () => {
  const module: StrategyModule = {
    name: 'fake',
    description: 'fake',
    paramsSchema: z.object({}),
    create: () => ({ quote: () => [] }),
  };

  it('maps relative issue paths under strategy.params', async () => {
    const registry: StrategyRegistry = {
      loadStrategyModule: async () => module,
      parseStrategyParams: () => ({ ok: false, issues: [{ path: 'size', message: 'too big', value: 1e9 }] }),
    };
    const result = await validateStrategy(config('{name: fake}'), { registry });
    expect(result).toEqual({ ok: false, issues: [{ kind: 'strategy', path: 'strategy.params.size', message: 'too big', value: '1000000000' }] });
  });

  it('passes the base directory to the loader', async () => {
    const seen: string[] = [];
    const registry: StrategyRegistry = {
      loadStrategyModule: async (name, baseDir) => {
        seen.push(`${name}@${baseDir}`);
        return module;
      },
      parseStrategyParams: () => ({ ok: true, value: { a: 1 } }),
    };
    const result = await validateStrategy(config('{name: fake}'), { registry, baseDir: '/opt/bot' });
    expect(result).toMatchObject({ ok: true, params: { a: 1 } });
    expect(seen).toEqual(['fake@/opt/bot']);
  });

  it('has a typed error for a registry that cannot be loaded', () => {
    const error = new StrategyRegistryUnavailableError('boom');
    expect(error.message).toBe('the strategy registry cannot be loaded: boom');
    expect(error.reason).toBe('boom');
  });
});
