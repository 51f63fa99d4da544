#!/usr/bin/env node
// Entry point of `outcome-maker`: runs the compiled CLI (dist/src/cli.js, made by `npm run build`) when it
// exists, otherwise registers tsx and runs the TypeScript source (src/cli.ts). Exit codes: see src/cli.ts.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = `${root}dist/src/cli.js`;

let cli;
if (existsSync(built) && process.env.OUTCOME_MAKER_FROM_SOURCE !== '1') {
  cli = await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(pathToFileURL(`${root}src/cli.ts`).href);
}

const code = await cli.main(process.argv.slice(2));
process.exitCode = code;
// Every command closes what it opened; if something still holds the event loop, do not hang forever.
setTimeout(() => process.exit(code), 5000).unref();
