/**
 * Finding strategies and checking their parameters.
 *
 * `loadStrategyModule(nameOrPath, baseDir)`: a built-in by name (the modules in strategies/), or the
 * user's own module by path (relative to `baseDir`, normally the config file's directory): `.ts`/`.mts`
 * through tsx, `.js`/`.mjs`/`.cjs` natively. The module must `export default` a StrategyModule; it is
 * checked structurally and every problem is named in one StrategyLoadError.
 *
 * `parseStrategyParams(module, params)`: the module's zod schema (a `.strict()` object with defaults)
 * applied to the config's `strategy.params`; every issue names its parameter as `strategy.params.x`.
 * Never throws.
 */
import { stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { StrategyModule } from './contract.js';
import { errorText } from '../core/errors.js';

export const BUILTIN_STRATEGY_NAMES = ['fixed-spread', 'avellaneda-stoikov', 'liquidity-rewards'] as const;
export type BuiltinStrategyName = (typeof BUILTIN_STRATEGY_NAMES)[number];

const TS_EXTENSIONS = new Set(['.ts', '.mts', '.cts']);
const JS_EXTENSIONS = new Set(['.js', '.mjs', '.cjs']);

export class StrategyLoadError extends Error {
  override readonly name = 'StrategyLoadError';
  constructor(
    readonly nameOrPath: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`strategy "${nameOrPath}": ${reason}`, options);
  }
}

export interface ParamIssue {
  /** e.g. `strategy.params.bidSpread` */
  readonly path: string;
  readonly message: string;
  /** The value given at that path (undefined when missing). */
  readonly value: unknown;
}

export type ParamsResult<P> = { readonly ok: true; readonly value: P } | { readonly ok: false; readonly issues: ParamIssue[] };

export function isBuiltinStrategyName(name: string): name is BuiltinStrategyName {
  return BUILTIN_STRATEGY_NAMES.some((n) => n === name);
}

async function loadBuiltin(name: BuiltinStrategyName): Promise<unknown> {
  switch (name) {
    case 'fixed-spread':
      return (await import('../../strategies/fixed-spread.js')).default;
    case 'avellaneda-stoikov':
      return (await import('../../strategies/avellaneda-stoikov.js')).default;
    case 'liquidity-rewards':
      return (await import('../../strategies/liquidity-rewards.js')).default;
  }
}

/** A name is a path when it looks like one: a separator, a leading dot, or a script extension. */
export function looksLikePath(nameOrPath: string): boolean {
  const ext = extname(nameOrPath);
  return /[\\/]/.test(nameOrPath) || nameOrPath.startsWith('.') || TS_EXTENSIONS.has(ext) || JS_EXTENSIONS.has(ext);
}

export async function loadStrategyModule(nameOrPath: string, baseDir: string): Promise<StrategyModule> {
  const trimmed = nameOrPath.trim();
  if (trimmed === '') throw new StrategyLoadError(nameOrPath, 'empty strategy name');
  let candidate: unknown;
  if (!looksLikePath(trimmed)) {
    if (!isBuiltinStrategyName(trimmed)) {
      throw new StrategyLoadError(
        nameOrPath,
        `unknown strategy; built-in strategies are ${BUILTIN_STRATEGY_NAMES.join(', ')} (to load your own module give a path such as ./my-strategy.ts)`,
      );
    }
    candidate = await loadBuiltin(trimmed);
  } else {
    candidate = await importUserModule(nameOrPath, resolve(baseDir, trimmed));
  }
  if (!isStrategyModule(candidate)) {
    throw new StrategyLoadError(nameOrPath, `default export is not a StrategyModule: ${strategyModuleProblems(candidate).join('; ')}`);
  }
  return candidate;
}

async function importUserModule(nameOrPath: string, file: string): Promise<unknown> {
  const ext = extname(file);
  if (!TS_EXTENSIONS.has(ext) && !JS_EXTENSIONS.has(ext)) {
    throw new StrategyLoadError(nameOrPath, `unsupported file type "${ext}"; use .ts, .mts, .cts, .js, .mjs or .cjs`);
  }
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new StrategyLoadError(nameOrPath, `${file} is not a file`);
  } catch (error) {
    if (error instanceof StrategyLoadError) throw error;
    throw new StrategyLoadError(nameOrPath, `no such file: ${file}`, { cause: error });
  }
  const url = pathToFileURL(file).href;
  let namespace: unknown;
  try {
    if (TS_EXTENSIONS.has(ext)) {
      // tsx is loaded only when a TypeScript strategy is asked for.
      const { tsImport } = await import('tsx/esm/api');
      namespace = await tsImport(url, import.meta.url);
    } else {
      namespace = await import(url);
    }
  } catch (error) {
    const message = errorText(error);
    throw new StrategyLoadError(nameOrPath, `cannot import ${file}: ${message}`, { cause: error });
  }
  if (typeof namespace !== 'object' || namespace === null || !('default' in namespace)) {
    throw new StrategyLoadError(nameOrPath, `${file} has no default export (write \`export default { name, description, paramsSchema, create }\`)`);
  }
  return namespace.default;
}

/** Every way `value` falls short of a StrategyModule, in words; empty when it is one. */
export function strategyModuleProblems(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [`expected an object, got ${value === null ? 'null' : typeof value}`];
  const problems: string[] = [];
  if (!('name' in value) || typeof value.name !== 'string' || value.name.trim() === '') problems.push('`name` must be a non-empty string');
  if (!('description' in value) || typeof value.description !== 'string') problems.push('`description` must be a string');
  if (!('create' in value) || typeof value.create !== 'function') problems.push('`create(params)` must be a function');
  if (!('paramsSchema' in value) || !isZodLike(value.paramsSchema)) {
    problems.push('`paramsSchema` must be a zod schema (an object with safeParse)');
  }
  return problems;
}

export function isStrategyModule(value: unknown): value is StrategyModule {
  return strategyModuleProblems(value).length === 0;
}

function isZodLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'safeParse' in value && typeof value.safeParse === 'function';
}

/** Validates `params` (the config's strategy.params; missing means {}) against the module's schema. */
export function parseStrategyParams<P>(module: StrategyModule<P>, params: unknown): ParamsResult<P> {
  const input = params === undefined || params === null ? {} : params;
  let result: ReturnType<StrategyModule<P>['paramsSchema']['safeParse']>;
  try {
    result = module.paramsSchema.safeParse(input);
  } catch (error) {
    const message = errorText(error);
    return { ok: false, issues: [{ path: 'strategy.params', message: `the schema threw: ${message}`, value: input }] };
  }
  if (result.success) return { ok: true, value: result.data };
  const issues: ParamIssue[] = [];
  for (const issue of result.error.issues) {
    const base = issue.path.filter((k): k is string | number => typeof k !== 'symbol');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        issues.push({ path: formatPath([...base, key]), message: `unknown parameter "${key}"`, value: valueAt(input, [...base, key]) });
      }
      continue;
    }
    issues.push({ path: formatPath(base), message: issue.message, value: valueAt(input, base) });
  }
  return { ok: false, issues };
}

function formatPath(keys: readonly (string | number)[]): string {
  let out = 'strategy.params';
  for (const key of keys) out += typeof key === 'number' ? `[${key}]` : `.${key}`;
  return out;
}

function valueAt(root: unknown, keys: readonly (string | number)[]): unknown {
  let cur: unknown = root;
  for (const key of keys) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    try {
      const next: unknown = Reflect.get(cur, key);
      cur = next;
    } catch {
      return undefined;
    }
  }
  return cur;
}
