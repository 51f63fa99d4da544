/**
 * The other bot configs beside a config file (the files pm2 would start with it: *.yaml / *.yml in the same
 * directory, `*.example.*` skipped), checked for one API token used without a shared rate limiter.
 *
 * Owns: which files count as siblings. Invariant: a sibling that does not load is skipped (its own check reports it).
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { loadConfigFile } from './load.js';
import { findUnsharedCredentials, type NamedConfig, type UnsharedCredentials } from './shared-credentials.js';
import type { AppConfig } from './types.js';

/** Config files in `dir` that an ecosystem would run (not `*.example.*`). */
export function botConfigFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((file) => /\.ya?ml$/.test(file) && !file.includes('.example.'))
    .sort()
    .map((file) => join(dir, file));
}

/** Accounts that `file` (already loaded as `config`) shares with a sibling without one shared limiter. */
export function unsharedSiblings(file: string, config: AppConfig, env: Readonly<Record<string, string | undefined>>): UnsharedCredentials[] {
  const self = resolve(file);
  const named: NamedConfig[] = [{ path: basename(file), config }];
  let siblings: string[];
  try {
    siblings = botConfigFiles(dirname(self));
  } catch {
    return [];
  }
  for (const path of siblings) {
    if (resolve(path) === self) continue;
    try {
      named.push({ path: basename(path), config: loadConfigFile(path) });
    } catch {
      // reported by its own check-config
    }
  }
  return findUnsharedCredentials(named, env).filter((found) => found.paths.includes(basename(file)));
}
