/**
 * This package's root directory and version, found from this module's own location (the source tree or the
 * compiled dist/ alike), whatever the working directory: `--version`, and the defaults that point where
 * `npm start` writes (it runs `run --config config/paper.yaml` in the root).
 *
 * Owns: reading package.json once. Invariant: the root is the nearest directory above this file whose package.json
 * is named outcome-maker; a missing one is an error naming where it looked.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'outcome-maker';

let found: { readonly root: string; readonly version: string } | null = null;

function locate(): { readonly root: string; readonly version: string } {
  if (found !== null) return found;
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const json: unknown = JSON.parse(readFileSync(file, 'utf8'));
      const name: unknown = typeof json === 'object' && json !== null ? Reflect.get(json, 'name') : undefined;
      const version: unknown = typeof json === 'object' && json !== null ? Reflect.get(json, 'version') : undefined;
      if (name === PACKAGE_NAME && typeof version === 'string') return (found = { root: dir, version });
    }
    if (dirname(dir) === dir) throw new Error(`no package.json named ${PACKAGE_NAME} above ${start}`);
  }
}

/** The directory of this package's package.json (where `npm start` runs). */
export function packageRoot(): string {
  return locate().root;
}

/** package.json's version. */
export function packageVersion(): string {
  return locate().version;
}

/** The config `npm start` runs, relative to the package root. */
export const NPM_START_CONFIG = 'config/paper.yaml';

/** Which form of this package's code runs (bin/outcome-maker.mjs chooses). */
export type RunningCode = 'source' | 'compiled' | 'bundle';

/**
 * Which form of the code runs, from this module's own location: the TypeScript sources (through tsx), the compiled
 * build (dist/src/) or its bundle (dist/bundle/, bin/build-bundle.mjs). Reported in `outcome_maker_build_info{code}`.
 */
export function runningCode(moduleUrl: string = import.meta.url): RunningCode {
  const file = fileURLToPath(moduleUrl);
  if (/\.[cm]?ts$/.test(file)) return 'source';
  return basename(dirname(file)) === 'bundle' && basename(dirname(dirname(file))) === 'dist' ? 'bundle' : 'compiled';
}
