/**
 * The outcome-maker version stamped into replay headers: package.json's `version`, found by walking up from this
 * module (it runs from src/ under tsx and from dist/src/ when built). Owns nothing else.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const packageJson = z.object({ name: z.literal('outcome-maker'), version: z.string().min(1) });

let cached: string | null = null;

export function outcomeMakerVersion(): string {
  if (cached !== null) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 5; depth += 1) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const parsed = packageJson.safeParse(JSON.parse(readFileSync(candidate, 'utf8')));
      if (parsed.success) return (cached = parsed.data.version);
    }
    dir = dirname(dir);
  }
  return (cached = 'unknown');
}
