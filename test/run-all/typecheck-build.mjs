// `npm run typecheck` and `npm run build` in one TypeScript program (docs/testing.md, "`npm test`: what runs beside
// what"): tsconfig.json's files are parsed, bound and checked once, and the files of tsconfig.build.json (src/,
// strategies/) are emitted to its outDir from that same program. Run one after the other, the two compilers checked
// src/ twice (about 45 s of CPU each on the 2-core machine the suite runs on).
// Invariants: the diagnostics are tsc --noEmit's on tsconfig.json (options, syntax, global and semantic, printed as
// tsc prints them); the files written are exactly those tsc -p tsconfig.build.json writes, with its options. If
// tsconfig.build.json changes an option other than the emit ones (EMIT_OPTIONS), one program cannot be both, and the
// script builds a second program with the build's options (the two runs of before, in one process). Exit code 0 only
// if there is no diagnostic and the emit wrote every file (tsc writes the JavaScript despite type errors too: a type
// error exits 1 and dist/ is still a build of the sources).
// Usage: node test/run-all/typecheck-build.mjs [root, default the checkout]
import { isDeepStrictEqual } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

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
 * Type-checks the project of `root`/tsconfig.json and emits the files of `root`/tsconfig.build.json. Resolves to
 * `{ code, output, emitted }`: `output` is what tsc would print (its diagnostics, formatted), `emitted` the number of
 * source files written.
 */
export function typecheckAndBuild(root) {
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => ts.sys.newLine };
  const format = (diagnostics) => (process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext(diagnostics, host) : ts.formatDiagnostics(diagnostics, host));
  const check = parseConfig(join(root, 'tsconfig.json'));
  const build = parseConfig(join(root, 'tsconfig.build.json'));
  const configProblems = [...check.problems, ...build.problems];
  if (check.parsed === undefined || build.parsed === undefined || configProblems.length > 0) return { code: 1, output: format(configProblems), emitted: 0 };

  // One program for both when the build differs only in what it writes (its files are among the checked ones): the
  // check and the emit then share one checker. Otherwise a second program, checked again with the build's options.
  const shared = isDeepStrictEqual(withoutEmitOptions(check.parsed.options), withoutEmitOptions(build.parsed.options));
  const checked = ts.createProgram({ rootNames: check.parsed.fileNames, options: shared ? { ...check.parsed.options, ...build.parsed.options } : check.parsed.options });
  const diagnostics = [...ts.getPreEmitDiagnostics(checked)];
  const emitting = shared ? checked : ts.createProgram({ rootNames: build.parsed.fileNames, options: build.parsed.options });
  if (!shared) diagnostics.push(...ts.getPreEmitDiagnostics(emitting));
  let emitted = 0;
  for (const fileName of build.parsed.fileNames) {
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
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  return { code: errors.length === 0 ? 0 : 1, output: format(ts.sortAndDeduplicateDiagnostics(diagnostics)), emitted };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..'));
  const { code, output, emitted } = typecheckAndBuild(root);
  process.stdout.write(output);
  process.stdout.write(`typecheck + build: ${code === 0 ? 'no errors' : 'errors'}; ${emitted} files built\n`);
  process.exitCode = code;
}
