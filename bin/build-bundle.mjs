// The CLI as a few ES modules (dist/bundle/), made from the compiled build (dist/src/) by esbuild: the last step of
// `npm run build`, and of `npm test`'s checks once they have written dist/. bin/outcome-maker.mjs runs it when it is at
// least as new as dist/src/cli.js. Why: Node resolves, reads and links every ES module of a process one by one, and a
// bot process loads about 900 of them (ours and its libraries'); bundled, a few dozen. A paper bot run of 4 s took
// 1.7–2.2 s of CPU instead of 2.8–3.2 s (docs/testing.md, session 39), at each start under pm2 and each of the suite's.
// Invariants: the code is the build's, unchanged (no minification, no define); what is imported lazily stays lazy
// (code splitting: the embedded simulator, the Hermes client, the backtest and replay commands are chunks of their
// own); the packages that find files of their own at run time (native addons, worker threads, transports) stay
// outside the bundle and are imported from node_modules as before (EXTERNAL); the digest-signing worker is an entry
// of its own beside the chunk that starts it (`new URL('./digest-signer-worker.js', import.meta.url)`).
// Usage: node bin/build-bundle.mjs [root, default the checkout]
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

/**
 * Packages imported from node_modules, not bundled: a native addon (better-sqlite3), packages that start worker
 * threads or resolve files of their own package at run time (pino and its transports, thread-stream), the simulator's
 * server side (socket.io, engine.io, ws and its optional native helpers), the libraries loaded only by a feature that
 * asks for them (Redis, Hermes), and the TypeScript loader of user strategies (tsx). And engine.io-client: its package
 * swaps Node and browser transports through its `browser` field and export conditions, and bundled its websocket
 * transport never opened (the market feed timed out on every connect): it is loaded as the package ships it.
 */
export const EXTERNAL = [
  'better-sqlite3',
  'pino',
  'pino-pretty',
  'thread-stream',
  'socket.io',
  'engine.io',
  'ws',
  'bufferutil',
  'utf-8-validate',
  'ioredis',
  'redis-semaphore',
  '@pythnetwork/*',
  'tsx',
  'tsx/*',
  'engine.io-client',
];

/**
 * CommonJS packages inside an ES module bundle call `require` for Node's built-ins: the banner gives the bundle a
 * `require` of its own, and `__filename`/`__dirname` (they name the chunk: a package that finds its own files through
 * them belongs in EXTERNAL).
 */
const BANNER = [
  "import { createRequire as __omCreateRequire } from 'node:module';",
  "import { fileURLToPath as __omFileURLToPath } from 'node:url';",
  'const require = __omCreateRequire(import.meta.url);',
  'const __filename = __omFileURLToPath(import.meta.url);',
  "const __dirname = __omFileURLToPath(new URL('.', import.meta.url));",
].join('\n');

/** Writes dist/bundle/ from dist/src/ under `root` (synchronously: `npm test`'s checks call it as dist/ is written); returns the files written. */
export function buildBundle(root) {
  const outdir = join(root, 'dist', 'bundle');
  rmSync(outdir, { recursive: true, force: true });
  const result = buildSync({
    absWorkingDir: root,
    entryPoints: {
      cli: join(root, 'dist', 'src', 'cli.js'),
      'digest-signer-worker': join(root, 'dist', 'src', 'exchange', 'digest-signer-worker.js'),
    },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    banner: { js: BANNER },
    chunkNames: 'chunk-[hash]',
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  });
  return Object.keys(result.metafile.outputs);
}

const invokedDirectly = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const written = buildBundle(root);
  console.log(`bundle: ${written.length} files in dist/bundle/`);
}
