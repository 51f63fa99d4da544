/**
 * `npm test`'s checks in one TypeScript program (test/run-all/checks.mjs), on small projects in a temporary folder:
 * it reports what `tsc --noEmit` reports on tsconfig.json (a type error in a file the build does not include fails
 * it), writes what `tsc -p tsconfig.build.json` writes (byte for byte, and nothing of the files outside the build),
 * still writes the build when a type error fails the check, checks again with the build's options when those differ
 * in more than what is written where, and lints with that program what eslint lints with its own (the same
 * type-aware findings as ESLint run the ordinary way on the project's eslint.config.js).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the test runner, without types
import { lintWithProgram as untypedLint, typecheckAndBuild as untyped } from '../run-all/checks.mjs';

const typecheckAndBuild = untyped as (root: string, options?: { build?: boolean; onBuilt?: () => void }) => { code: number; output: string; emitted: number; program: unknown };
const lintWithProgram = untypedLint as (root: string, program: unknown) => Promise<{ code: number; output: string }>;
const ROOT = resolve(import.meta.dirname, '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const dir = mkdtempSync(join(tmpdir(), 'om-typecheck-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CHECK = { compilerOptions: { target: 'ES2022', lib: ['ES2023'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: [], noEmit: true }, include: ['src', 'test'] };
const BUILD = { extends: './tsconfig.json', compilerOptions: { noEmit: false, outDir: 'dist', rootDir: '.', sourceMap: true }, include: ['src'] };

/** A project folder with these files (path → text), tsconfig.json and tsconfig.build.json included. */
function project(name: string, files: Record<string, string>, build: object = BUILD): string {
  const root = join(dir, name);
  for (const [path, text] of Object.entries({ 'package.json': '{ "type": "module" }', 'tsconfig.json': JSON.stringify(CHECK), 'tsconfig.build.json': JSON.stringify(build), ...files })) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** Every file under `folder`, relative path → content. */
function tree(folder: string): Record<string, string> {
  if (!existsSync(folder)) return {};
  return Object.fromEntries(
    readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => [relative(folder, join(e.parentPath, e.name)), readFileSync(join(e.parentPath, e.name), 'utf8')]),
  );
}

const SOURCES = {
  'src/price.ts': 'export function ticks(price: number): number {\n  return Math.round(price * 1000);\n}\n',
  'src/cli.ts': "import { ticks } from './price.js';\nexport const half: number = ticks(0.5);\n",
};

describe('typecheck + build in one program', () => {
  it('a clean project: exit 0, the same files as tsc -p tsconfig.build.json, nothing of test/', () => {
    const root = project('clean', { ...SOURCES, 'test/price.test.ts': "import { ticks } from '../src/price.js';\nexport const one: number = ticks(1);\n" });
    const result = typecheckAndBuild(root);
    expect(result).toMatchObject({ code: 0, emitted: 2 });
    const ours = tree(join(root, 'dist'));
    expect(Object.keys(ours).sort()).toEqual(['src/cli.js', 'src/cli.js.map', 'src/price.js', 'src/price.js.map']);
    rmSync(join(root, 'dist'), { recursive: true });
    const tsc = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.build.json'], { cwd: root, encoding: 'utf8' });
    expect(tsc.status, tsc.stdout).toBe(0);
    expect(tree(join(root, 'dist'))).toEqual(ours);
  });

  it('a type error in a file only tsc --noEmit checks: exit 1 with tsc\'s message, and the build still written', () => {
    const root = project('test-error', { ...SOURCES, 'test/price.test.ts': "import { ticks } from '../src/price.js';\nexport const one: string = ticks(1);\n" });
    const result = typecheckAndBuild(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain('test/price.test.ts(2,14): error TS2322');
    const tsc = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: root, encoding: 'utf8' });
    expect(tsc.status).not.toBe(0);
    expect(result.output.trim()).toBe(tsc.stdout.trim());
    expect(result.emitted).toBe(2);
    expect(existsSync(join(root, 'dist', 'src', 'cli.js'))).toBe(true);
    expect(existsSync(join(root, 'dist', 'test'))).toBe(false);
  });

  it('a build that checks with other options: both checks reported, the build written with its own options', () => {
    const root = project('other-options', { ...SOURCES, 'src/loose.ts': 'export function twice(x) {\n  return x * 2;\n}\n' }, { ...BUILD, compilerOptions: { ...BUILD.compilerOptions, noImplicitAny: false } });
    const result = typecheckAndBuild(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain("src/loose.ts(1,23): error TS7006: Parameter 'x' implicitly has an 'any' type.");
    expect(result.output.match(/TS7006/g)).toHaveLength(1);
    expect(result.emitted).toBe(3);
    expect(readFileSync(join(root, 'dist', 'src', 'loose.js'), 'utf8')).toContain('return x * 2;');
  });

  it('the lint reads its types from the checked program: the same findings as eslint on its own, exit 1 on an error', async () => {
    const tseslint = pathToFileURL(createRequire(import.meta.url).resolve('typescript-eslint')).href;
    const config = `import tseslint from ${JSON.stringify(tseslint)};
export default tseslint.config({ ignores: ['eslint.config.js', 'dist/**'] }, ...tseslint.configs.recommendedTypeChecked, {
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  rules: { '@typescript-eslint/no-floating-promises': 'error' },
});
`;
    const root = project('lint', {
      ...SOURCES,
      'eslint.config.js': config,
      'src/fire.ts': 'async function send(): Promise<number> {\n  return 1;\n}\nexport function fire(): void {\n  send();\n}\n',
      'test/fire.test.ts': "import { fire } from '../src/fire.js';\nexport const value: unknown = JSON.parse('1');\nexport const n: number = value as number;\nfire();\n",
    });
    const checked = typecheckAndBuild(root, { build: false });
    expect(checked).toMatchObject({ code: 0, emitted: 0 });
    const shared = await lintWithProgram(root, checked.program);
    expect(shared.code).toBe(1);
    expect(shared.output).toContain('no-floating-promises');
    // ESLint the ordinary way (its own program through the project service): the same findings, file by file.
    const results = await new ESLint({ cwd: root }).lintFiles(['.']);
    const findings = results.flatMap((r) => r.messages.map((m) => `${relative(root, r.filePath)}:${m.line}:${m.column} ${m.ruleId ?? ''}`)).sort();
    expect(findings).toContain('src/fire.ts:5:3 @typescript-eslint/no-floating-promises');
    const ours = [...shared.output.matchAll(/^\s+(\d+):(\d+)\s+error\s.*?\s(\S+)$/gm)].map((m) => `${m[3] ?? ''}@${m[1] ?? ''}:${m[2] ?? ''}`);
    expect(ours.length).toBe(findings.length);
    expect(ours).toContain('@typescript-eslint/no-floating-promises@5:3');
  });
});
