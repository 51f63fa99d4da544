/**
 * A config file checked whole before a command uses it: the file's schema (./load.ts), the strategy's own check of
 * its parameters (./strategy-check.ts) and, for commands that trade, the credentials' environment variables.
 *
 * Owns: gathering every problem of those steps into one ConfigError. Invariants: a file that fails its schema still
 * has its strategy parameters checked when its strategy section is well formed (`ConfigError.uncheckedStrategy`), so
 * `risk.maxOpenOrder` and `strategy.params.bidSpred` in one file are reported together; a strategy registry that
 * cannot be loaded is not a config problem (StrategyRegistryUnavailableError is thrown as is).
 */
import { ConfigError, type ConfigIssue } from './issues.js';
import { loadConfigFile } from './load.js';
import { credentialIssues, type Environment } from './secrets.js';
import { validateStrategy, type StrategyRegistry } from './strategy-check.js';
import type { AppConfig } from './types.js';

export interface CheckedConfig {
  readonly config: AppConfig;
  /** The strategy's params as its schema read them (defaults filled in). */
  readonly strategyParams: unknown;
}

export interface CheckOptions {
  /** Also require the credentials' environment variables (commands that trade: `run`, `doctor`, `record`). */
  readonly requireCredentials: boolean;
  readonly env: Environment;
  readonly registry?: StrategyRegistry;
}

/** Loads `file` and checks it whole; throws one ConfigError listing every problem. */
export async function loadCheckedConfigFile(file: string, options: CheckOptions): Promise<CheckedConfig> {
  const registry = options.registry === undefined ? {} : { registry: options.registry };
  let config: AppConfig;
  try {
    config = loadConfigFile(file);
  } catch (error) {
    if (!(error instanceof ConfigError) || error.uncheckedStrategy === null) throw error;
    const strategy = await validateStrategy({ strategy: error.uncheckedStrategy }, registry);
    if (strategy.ok) throw error;
    throw new ConfigError(error.source, [...error.issues, ...strategy.issues]);
  }
  const problems: ConfigIssue[] = [];
  let strategyParams: unknown = config.strategy.params;
  const strategy = await validateStrategy(config, registry);
  if (strategy.ok) strategyParams = strategy.params;
  else problems.push(...strategy.issues);
  if (options.requireCredentials) problems.push(...credentialIssues(config.credentials, options.env));
  if (problems.length > 0) throw new ConfigError(file, problems);
  return { config, strategyParams };
}
