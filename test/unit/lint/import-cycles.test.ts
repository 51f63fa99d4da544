// No import cycles in src/ or strategies/: every static import and re-export between the project's own modules
// (type-only ones included, since a circle of types is a circle of modules to read) is read with the TypeScript
// compiler's own pre-processor, resolved to a file, and the graph's strongly connected components must all be single
// modules. Dynamic `import()` is left out: it is how a module defers a dependency on purpose. The detector is held to
// a small graph with a known circle first, so a detector that finds nothing cannot pass.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const ROOTS = ['src', 'strategies'];

type Graph = ReadonlyMap<string, readonly string[]>;

/** Every .ts file under `dir` (recursively). */
function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...tsFiles(path));
    else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The project file a relative specifier names (`./x.js` → `./x.ts`, a folder → its index.ts), or null. */
function resolveSpecifier(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => c.endsWith('.ts') && existsSync(c)) ?? null;
}

/** The static imports and re-exports of `file` (not dynamic `import()`), as project files. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const dynamic = new Set([...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]));
  const { importedFiles } = ts.preProcessFile(text, true, false);
  const out = new Set<string>();
  for (const { fileName } of importedFiles) {
    if (dynamic.has(fileName)) continue;
    const target = resolveSpecifier(file, fileName);
    if (target !== null) out.add(target);
  }
  return [...out];
}

/** The strongly connected components of more than one node, or of one node importing itself (Tarjan). */
export function importCycles(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}

describe('import cycles', () => {
  it('the detector finds a circle and only the circle', () => {
    const graph: Graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(importCycles(graph)).toEqual([['a', 'b', 'c'], ['e']]);
    expect(importCycles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });

  it('src/ and strategies/ import nothing in a circle', () => {
    const files = ROOTS.flatMap((r) => tsFiles(join(root, r)));
    expect(files.length).toBeGreaterThan(100);
    const graph: Graph = new Map(files.map((f) => [f, staticImports(f)]));
    // The graph is real: the engine's type barrel is read, with its re-exports.
    expect(graph.get(join(root, 'src/sim/engine/types.ts'))?.length ?? 0).toBeGreaterThan(2);
    const cycles = importCycles(graph).map((c) => c.map((f) => relative(root, f)).join(' ⇄ '));
    expect(cycles).toEqual([]);
  });
});
