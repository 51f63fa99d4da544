/**
 * The second validation step: the strategy named in the config exists and accepts its parameters.
 *
 * Owns: asking the strategy registry (src/strategy/registry.ts, imported lazily so loading a config does
 * not load strategy code) and turning its answer into ConfigIssues under `strategy.*`. A registry that
 * cannot be imported is a runtime failure (`StrategyRegistryUnavailableError`), not a config problem.
 */
import type { StrategyModule } from '../strategy/contract.js';
import type { ParamsResult } from '../strategy/registry.js';
import { describeConfigValue, type ConfigIssue } from './issues.js';
import type { AppConfig } from './types.js';
import { errorText } from '../core/errors.js';

export class StrategyRegistryUnavailableError extends Error {
  override readonly name = 'StrategyRegistryUnavailableError';
  constructor(readonly reason: string) {
    super(`the strategy registry cannot be loaded: ${reason}`);
  }
}

export type StrategyCheckResult =
  | { readonly ok: true; readonly module: StrategyModule; readonly params: unknown }
  | { readonly ok: false; readonly issues: readonly ConfigIssue[] };

/** The part of the strategy registry this check uses; the real module satisfies it, tests may fake it. */
export interface StrategyRegistry {
  loadStrategyModule(nameOrPath: string, baseDir: string): Promise<StrategyModule>;
  parseStrategyParams(module: StrategyModule, params: unknown): ParamsResult<unknown>;
}

async function importRegistry(): Promise<StrategyRegistry> {
  try {
    return await import('../strategy/registry.js');
  } catch (error) {
    throw new StrategyRegistryUnavailableError(errorText(error));
  }
}

/**
 * Load the configured strategy and validate `strategy.params` with its own schema. Problems come back as
 * ConfigIssues (kind `strategy`) with paths `strategy.name` or `strategy.params.…`. `baseDir` resolves a
 * relative module path (the config loader already made configured paths absolute).
 */
export async function validateStrategy(
  config: Pick<AppConfig, 'strategy'>,
  options: { readonly baseDir?: string; readonly registry?: StrategyRegistry } = {},
): Promise<StrategyCheckResult> {
  const registry = options.registry ?? (await importRegistry());
  let module: StrategyModule;
  try {
    module = await registry.loadStrategyModule(config.strategy.name, options.baseDir ?? process.cwd());
  } catch (error) {
    const reason = errorText(error);
    return {
      ok: false,
      issues: [{ kind: 'strategy', path: 'strategy.name', message: `cannot load the strategy: ${reason}`, value: describeConfigValue(config.strategy.name) }],
    };
  }
  const answer = registry.parseStrategyParams(module, config.strategy.params);
  if (answer.ok) return { ok: true, module, params: answer.value };
  return {
    ok: false,
    issues: answer.issues.map((issue) => ({
      kind: 'strategy' as const,
      path: issue.path.startsWith('strategy.params') ? issue.path : `strategy.params.${issue.path}`,
      message: issue.message,
      value: describeConfigValue(issue.value),
    })),
  };
}
