/**
 * "Did you mean": the valid keys at a path of the config schema, and the nearest of them to an unknown key, so a
 * typo (`maxPositionPerTokn`) is answered with the key meant (`risk.maxPositionPerToken`), as the CLI's options are.
 *
 * Owns: the schema walk (through defaults, optionals, pipes and preprocessing, records, arrays and unions) and the distance rule.
 * Invariants: pure; a suggestion is only made when it is close (a restricted edit distance at most a third of the
 * key's length, at least 1, or one key contains the other), never an arbitrary key.
 */
import type { z } from 'zod';

type Schema = z.core.$ZodType;

/** The schema under its wrappers (default, prefault, optional, nullable, readonly, catch, the input side of a pipe). */
function unwrap(schema: Schema): Schema {
  let current = schema;
  for (let depth = 0; depth < 32; depth += 1) {
    const def = current._zod.def as unknown as { type: string; innerType?: Schema; in?: Schema; out?: Schema };
    if (def.innerType !== undefined && ['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch', 'nonoptional'].includes(def.type)) current = def.innerType;
    // A pipe: its input side, unless that is a transform (z.preprocess): then the schema it feeds.
    else if (def.type === 'pipe' && def.in !== undefined) current = def.in._zod.def.type === 'transform' && def.out !== undefined ? def.out : def.in;
    else return current;
  }
  return current;
}

/** The keys an object of the schema accepts at `path` (every union member's), or [] when none is found. */
export function validKeysAt(schema: Schema, path: readonly PropertyKey[]): string[] {
  const node = unwrap(schema);
  const def = node._zod.def as unknown as { type: string; shape?: Record<string, Schema>; valueType?: Schema; element?: Schema; options?: readonly Schema[] };
  if (def.type === 'union' && def.options !== undefined) return [...new Set(def.options.flatMap((option) => validKeysAt(option, path)))];
  const [head, ...rest] = path;
  if (def.type === 'object' && def.shape !== undefined) {
    if (head === undefined) return Object.keys(def.shape);
    const child = typeof head === 'string' ? def.shape[head] : undefined;
    return child === undefined ? [] : validKeysAt(child, rest);
  }
  if (head === undefined) return [];
  if (def.type === 'record' && def.valueType !== undefined) return validKeysAt(def.valueType, rest);
  if (def.type === 'array' && def.element !== undefined) return validKeysAt(def.element, rest);
  return [];
}

/** Optimal string alignment distance (insertions, deletions, substitutions, adjacent transpositions), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= s.length; i += 1) {
    for (let j = 1; j <= t.length; j += 1) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      let best = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = best;
    }
  }
  return (d[s.length] as number[])[t.length] as number;
}

/** The valid key nearest to `key`, or null when none is close enough. Pure. */
export function nearestKey(key: string, candidates: readonly string[]): string | null {
  let best: { key: string; distance: number } | null = null;
  for (const candidate of candidates) {
    const distance = editDistance(key, candidate);
    const close = distance <= Math.max(1, Math.floor(key.length / 3)) || (key.length >= 4 && candidate.toLowerCase().includes(key.toLowerCase()));
    if (close && (best === null || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key ?? null;
}
