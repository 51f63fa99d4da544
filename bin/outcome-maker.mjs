#!/usr/bin/env node
// Entry point of `outcome-maker`: runs the bundled CLI (dist/bundle/cli.js, the last step of `npm run build`) when it
// is at least as new as the compiled one it was made from (dist/src/cli.js), else the compiled CLI when it exists,
// otherwise registers tsx and runs the TypeScript source (src/cli.ts); OUTCOME_MAKER_FROM_SOURCE=1 runs the source.
// The three are the same code: the bundle only loads it faster (bin/build-bundle.mjs). Exit codes: see src/cli.ts.
import { statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = `${root}dist/src/cli.js`;
const bundled = `${root}dist/bundle/cli.js`;
const mtime = (file) => statSync(file, { throwIfNoEntry: false })?.mtimeMs;

let cli;
if (process.env.OUTCOME_MAKER_FROM_SOURCE !== '1' && mtime(built) !== undefined) {
  const bundleCurrent = (mtime(bundled) ?? -Infinity) >= mtime(built);
  cli = await import(pathToFileURL(bundleCurrent ? bundled : built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(pathToFileURL(`${root}src/cli.ts`).href);
}

const code = await cli.main(process.argv.slice(2));
process.exitCode = code;
// Every command closes what it opened; if something still holds the event loop, do not hang forever.
setTimeout(() => process.exit(code), 5000).unref();
