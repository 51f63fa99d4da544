/**
 * What `check-config` prints: the resolved config with credentials shown as variable names and whether
 * each is set. Never reads a secret's value beyond testing that it is non-empty.
 */
import { credentialStatus, type Environment } from './secrets.js';
import type { AppConfig } from './types.js';

export interface CredentialView {
  readonly env: string;
  readonly set: boolean;
}

/** A plain, printable copy of the config; `credentials` maps each field to `{env, set}`. */
export function resolvedConfigView(config: AppConfig, env: Environment): Record<string, unknown> {
  const credentials =
    config.credentials === null
      ? 'none: the simulator generates a wallet and API token for the session'
      : Object.fromEntries(
          credentialStatus(config.credentials, env).map((row): [string, CredentialView] => [row.field, { env: row.env, set: row.set }]),
        );
  const onBehalfOf = config.credentials?.onBehalfOf?.kind === 'id' ? { onBehalfOf: config.credentials.onBehalfOf.id } : {};
  return {
    ...config,
    credentials: typeof credentials === 'string' ? credentials : { ...credentials, ...onBehalfOf },
  };
}
