// `npm test`'s checks in one TypeScript program (docs/testing.md, "`npm test`: what runs beside what"): the typecheck
// (`npm run typecheck`), the build (`npm run build`) and the lint (`npm run lint`). tsconfig.json's files are parsed,
// bound and checked once; the files of tsconfig.build.json (src/, strategies/) are emitted to its outDir from that
// program; eslint's type-aware rules then read their types from it (typescript-eslint's `programs`) instead of building
// and checking the same program again. Run as three tools, the checks took about 2.5 times the CPU.
// Invariants: the diagnostics are tsc --noEmit's on tsconfig.json (options, syntax, global and semantic, printed as
// tsc prints them); the files written are exactly those tsc -p tsconfig.build.json writes, with its options (if
// tsconfig.build.json changes an option other than the emit ones, EMIT_OPTIONS, one program cannot be both, and a
// second program is checked with the build's options); the lint is eslint.config.js's on the same files as `eslint .`
// (every linted file is in tsconfig.json), printed by eslint's default formatter. The line READY_LINE is printed once
// dist/ is written (at once with --no-build), so that `npm test` can start what needs the build while the rest goes on.
// Exit code 0 only if there is no type error, no lint error and the emit wrote every file (tsc writes the JavaScript
// despite type errors too: a type error exits 1 and dist/ is still a build of the sources).
// With the build, dist/bundle/ is written from dist/ right after it (bin/build-bundle.mjs), before the ready line; a
// bundle that fails is an error of the checks (bin/outcome-maker.mjs then runs dist/src/).
// Usage: node test/run-all/checks.mjs [--no-build] [--no-lint] [root, default the checkout]
import { isDeepStrictEqual } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { buildBundle } from '../../bin/build-bundle.mjs';
import { READY_LINE } from './run-all.mjs';

/** The compiler options that only say what is written where: the build may set them, and the check is the same. */
const EMIT_OPTIONS = ['noEmit', 'outDir', 'rootDir', 'sourceMap', 'declaration', 'declarationMap', 'inlineSourceMap', 'inlineSources', 'declarationDir', 'emitDeclarationOnly', 'configFilePath'];

/** A tsconfig file's files and options, or the diagnostics that stop it from being read. */
function parseConfig(path) {
  const problems = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(path, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => problems.push(d) });
  if (parsed === undefined) return { problems };
  return { parsed, problems: [...problems, ...parsed.errors] };
}

const withoutEmitOptions = (options) => Object.fromEntries(Object.entries(options).filter(([key]) => !EMIT_OPTIONS.includes(key)));

/**
 * Type-checks the project of `root`/tsconfig.json and (unless `build` is false) emits the files of
 * `root`/tsconfig.build.json, calling `onBuilt` once they are written (or at once without the build). Returns
 * `{ code, output, emitted, program }`: `output` is what tsc would print (its diagnostics, formatted), `emitted` the
 * number of source files written, `program` the checked program (undefined if the configs could not be read).
 */
export function typecheckAndBuild(root, { build: withBuild = true, onBuilt = () => {} } = {}) {
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => ts.sys.newLine };
  const format = (diagnostics) => (process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext(diagnostics, host) : ts.formatDiagnostics(diagnostics, host));
  const check = parseConfig(join(root, 'tsconfig.json'));
  const build = parseConfig(join(root, 'tsconfig.build.json'));
  const configProblems = [...check.problems, ...build.problems];
  if (check.parsed === undefined || build.parsed === undefined || configProblems.length > 0) return { code: 1, output: format(configProblems), emitted: 0, program: undefined };

  // One program for both when the build differs only in what it writes (its files are among the checked ones): the
  // check and the emit then share one checker. Otherwise a second program, checked again with the build's options.
  const shared = isDeepStrictEqual(withoutEmitOptions(check.parsed.options), withoutEmitOptions(build.parsed.options));
  const checked = ts.createProgram({ rootNames: check.parsed.fileNames, options: shared ? { ...check.parsed.options, ...build.parsed.options } : check.parsed.options });
  const emitting = shared ? checked : ts.createProgram({ rootNames: build.parsed.fileNames, options: build.parsed.options });
  // The emit first (it checks the files it writes), so that what waits for dist/ starts before the rest is checked.
  const diagnostics = [];
  let emitted = 0;
  for (const fileName of withBuild ? build.parsed.fileNames : []) {
    const source = emitting.getSourceFile(fileName);
    if (source === undefined) {
      diagnostics.push({ category: ts.DiagnosticCategory.Error, code: 0, file: undefined, start: undefined, length: undefined, messageText: `${fileName} is in tsconfig.build.json but not in the program` });
      continue;
    }
    const result = emitting.emit(source);
    diagnostics.push(...result.diagnostics);
    if (result.emitSkipped) diagnostics.push({ category: ts.DiagnosticCategory.Error, code: 0, file: undefined, start: undefined, length: undefined, messageText: `${fileName} was not emitted` });
    else emitted += 1;
  }
  onBuilt();
  diagnostics.push(...ts.getPreEmitDiagnostics(checked));
  if (!shared && withBuild) diagnostics.push(...ts.getPreEmitDiagnostics(emitting));
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  return { code: errors.length === 0 ? 0 : 1, output: format(ts.sortAndDeduplicateDiagnostics(diagnostics)), emitted, program: checked };
}

/**
 * Lints `root` as `eslint .` does (its eslint.config.js), with the type information of `program` (which must hold
 * every linted file). Returns `{ code, output }`: code 1 if any error, output eslint's default formatter's.
 */
export async function lintWithProgram(root, program) {
  const eslint = new ESLint({ cwd: root, overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null, programs: [program] } } } });
  const results = await eslint.lintFiles(['.']);
  const formatter = await eslint.loadFormatter('stylish');
  const errors = results.reduce((n, r) => n + r.errorCount, 0);
  return { code: errors === 0 ? 0 : 1, output: await formatter.format(results) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const root = resolve(args.find((a) => !a.startsWith('--')) ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..'));
  const withBuild = !args.includes('--no-build');
  // The build ends with the bundle (`npm run build`'s last step), written before the ready line: bot processes start from it.
  let bundled = 'not built (--no-build)';
  let bundleCode = 0;
  const onBuilt = () => {
    if (withBuild) {
      try {
        bundled = `${buildBundle(root).length} files in dist/bundle/`;
      } catch (error) {
        bundled = `failed: ${error instanceof Error ? error.message : String(error)}`;
        bundleCode = 1;
      }
    }
    process.stdout.write(`${READY_LINE}\n`);
  };
  const checked = typecheckAndBuild(root, { build: withBuild, onBuilt });
  process.stdout.write(checked.output);
  process.stdout.write(`typecheck${withBuild ? ' + build' : ''}: ${checked.code === 0 ? 'no errors' : 'errors'}${withBuild ? `; ${checked.emitted} files built; bundle: ${bundled}` : ''}\n`);
  let code = Math.max(checked.code, bundleCode);
  if (!args.includes('--no-lint') && checked.program !== undefined) {
    const lint = await lintWithProgram(root, checked.program);
    process.stdout.write(lint.output);
    process.stdout.write(`lint: ${lint.code === 0 ? 'no errors' : 'errors'}\n`);
    code = Math.max(code, lint.code);
  }
  process.exitCode = code;
}
