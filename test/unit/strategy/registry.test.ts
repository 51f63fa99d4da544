import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { StrategyModule } from '../../../src/strategy/contract.js';
import {
  BUILTIN_STRATEGY_NAMES,
  isStrategyModule,
  loadStrategyModule,
  looksLikePath,
  parseStrategyParams,
  StrategyLoadError,
} from '../../../src/strategy/registry.js';
import { validateIntents } from '../../../src/strategy/validate.js';
import { view } from '../../support/views.js';

const here = dirname(fileURLToPath(import.meta.url));

async function loadError(nameOrPath: string): Promise<StrategyLoadError> {
  const error: unknown = await loadStrategyModule(nameOrPath, here).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StrategyLoadError);
  if (!(error instanceof StrategyLoadError)) throw new Error('unreachable');
  return error;
}

describe('loadStrategyModule', () => {
  it.each(BUILTIN_STRATEGY_NAMES)('loads the built-in %s by name, and it quotes valid intents with default params', async (name) => {
    const module = await loadStrategyModule(name, here);
    expect(module.name).toBe(name);
    const params = parseStrategyParams(module, undefined);
    expect(params.ok).toBe(true);
    if (!params.ok) return;
    const v = view();
    const intents = module.create(params.value).quote(v);
    expect(intents.length).toBeGreaterThan(0);
    expect(validateIntents(intents, v.market).rejected).toEqual([]);
  });

  it('rejects an unknown name, listing the built-ins', async () => {
    const error = await loadError('fixed_spread');
    expect(error.message).toMatch(/unknown strategy; built-in strategies are fixed-spread, avellaneda-stoikov, liquidity-rewards/);
    expect(error.nameOrPath).toBe('fixed_spread');
  });

  it('loads a user TypeScript module by path relative to the base directory', async () => {
    const module = await loadStrategyModule('./fixtures/user-strategy.ts', here);
    expect(module.name).toBe('user-ladder');
    const params = parseStrategyParams(module, { halfSpread: 0.02 });
    expect(params.ok).toBe(true);
    if (!params.ok) return;
    const intents = module.create(params.value).quote(view());
    expect(intents.map((i) => [i.slot, i.token, i.side, i.priceTicks])).toEqual([
      ['bid-0', 'YES', 'BUY', 480],
      ['ask-0', 'NO', 'BUY', 480],
    ]);
  });

  it('loads a user JavaScript module by path', async () => {
    const module = await loadStrategyModule('fixtures/js-strategy.mjs', here);
    expect(module.name).toBe('js-nothing');
  });

  it('names every structural problem of a bad default export', async () => {
    const error = await loadError('./fixtures/not-a-strategy.ts');
    expect(error.reason).toMatch(/`name` must be a non-empty string/);
    expect(error.reason).toMatch(/`description` must be a string/);
    expect(error.reason).toMatch(/`create\(params\)` must be a function/);
    expect(error.reason).toMatch(/`paramsSchema` must be a zod schema/);
  });

  it('explains a missing default export, a missing file, a wrong extension and an import failure', async () => {
    expect((await loadError('./fixtures/no-default.mjs')).reason).toMatch(/has no default export/);
    expect((await loadError('./fixtures/missing.ts')).reason).toMatch(/no such file: .*fixtures\/missing\.ts/);
    expect((await loadError('./fixtures/strategy.py')).reason).toMatch(/unsupported file type "\.py"/);
    expect((await loadError('./fixtures')).reason).toMatch(/unsupported file type/);
    expect((await loadError('./fixtures/throws-on-import.mjs')).reason).toMatch(/cannot import .*broken at import/);
    expect((await loadError('  ')).reason).toBe('empty strategy name');
  });

  it('tells names from paths', () => {
    expect(looksLikePath('fixed-spread')).toBe(false);
    expect(looksLikePath('./x')).toBe(true);
    expect(looksLikePath('dir/x')).toBe(true);
    expect(looksLikePath('x.ts')).toBe(true);
    expect(looksLikePath('/abs/x.js')).toBe(true);
  });
});

describe('parseStrategyParams', () => {
  const schema = z
    .object({
      spread: z.number().gt(0).default(0.02),
      sources: z.array(z.enum(['mid', 'microprice'])).default(['mid']),
      mode: z.enum(['a', 'b']).default('a'),
    })
    .strict();
  const module: StrategyModule<z.infer<typeof schema>> = { name: 't', description: 't', paramsSchema: schema, create: () => ({ quote: () => [] }) };

  it('fills defaults for missing params', () => {
    expect(parseStrategyParams(module, undefined)).toEqual({ ok: true, value: { spread: 0.02, sources: ['mid'], mode: 'a' } });
    expect(parseStrategyParams(module, null)).toEqual({ ok: true, value: { spread: 0.02, sources: ['mid'], mode: 'a' } });
  });

  it('names each bad parameter with its path and value', () => {
    const result = parseStrategyParams(module, { spread: -1, sources: ['mid', 'last'], bidSpred: 0.01, mode: 'c' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const byPath = new Map(result.issues.map((i) => [i.path, i]));
    expect([...byPath.keys()].sort()).toEqual(['strategy.params.bidSpred', 'strategy.params.mode', 'strategy.params.sources[1]', 'strategy.params.spread']);
    expect(byPath.get('strategy.params.spread')?.value).toBe(-1);
    expect(byPath.get('strategy.params.spread')?.message).toMatch(/>0|greater than 0/i);
    expect(byPath.get('strategy.params.sources[1]')?.value).toBe('last');
    expect(byPath.get('strategy.params.bidSpred')).toEqual({ path: 'strategy.params.bidSpred', message: 'unknown parameter "bidSpred"', value: 0.01 });
  });

  it('names the whole params object when it is not an object', () => {
    const result = parseStrategyParams(module, 'fast');
    expect(result).toMatchObject({ ok: false, issues: [{ path: 'strategy.params', value: 'fast' }] });
  });

  it('checks modules structurally', () => {
    expect(isStrategyModule(module)).toBe(true);
    expect(isStrategyModule({ ...module, create: 1 })).toBe(false);
    expect(isStrategyModule(null)).toBe(false);
  });
});
