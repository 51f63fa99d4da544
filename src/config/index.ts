/**
 * The config package: schema, loader, secrets, derived values and the strategy check, in one import.
 * See docs/configuration.md for the file format.
 */
export type * from './types.js';
export { ConfigError, formatIssue, formatIssues, looksLikePrivateKey, type ConfigIssue, type ConfigIssueKind } from './issues.js';
export { DEFAULT_CREDENTIAL_ENV, LEDGER_CHECK_EVERY_MS, REQUOTE_INTERVAL_MS, VENUE_MAX_CONCURRENT, VENUE_MIN_TIME_MS, isStrategyPath } from './schema.js';
export { loadConfigFile, parseConfig, parseConfigText, deepFreeze, type ParseOptions } from './load.js';
export {
  SecretValue,
  credentialIssues,
  credentialStatus,
  resolvePrivateKey,
  resolveSecrets,
  secretValues,
  type CredentialStatus,
  type Environment,
  type ResolvedCredentials,
} from './secrets.js';
export { effectivePriceBand, expiryStopFor, orderManagerSettings, riskLimitsFor, transportRetryPolicy, type ExpiryStop } from './derived.js';
export { resolvedConfigView } from './view.js';
export { StrategyRegistryUnavailableError, validateStrategy, type StrategyCheckResult, type StrategyRegistry } from './strategy-check.js';
export { loadCheckedConfigFile, type CheckedConfig, type CheckOptions } from './checked-load.js';
