/**
 * Values that live for one test, or for one test file: created by a before-hook and disposed of by the matching
 * after-hook, both registered in the calling test file. The returned getter reaches the current value; it throws
 * outside the value's lifetime (e.g. when called while the file is being collected).
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

type Scope = 'test' | 'file';

function holder<T>(scope: Scope, create: () => T | Promise<T>, dispose: (value: T) => unknown): () => T {
  let current: { readonly value: T } | null = null;
  (scope === 'test' ? beforeEach : beforeAll)(async () => {
    current = { value: await create() };
  });
  (scope === 'test' ? afterEach : afterAll)(async () => {
    const ending = current;
    current = null;
    if (ending !== null) await dispose(ending.value);
  });
  return () => {
    if (current === null) throw new Error(`this value exists only while its ${scope === 'test' ? 'test' : "file's tests"} run`);
    return current.value;
  };
}

/** A value created before each test of the calling file and disposed of after it. */
export function perTest<T>(create: () => T | Promise<T>, dispose: (value: T) => unknown): () => T {
  return holder('test', create, dispose);
}

/** A value created before the calling file's first test and disposed of after its last. */
export function perFile<T>(create: () => T | Promise<T>, dispose: (value: T) => unknown): () => T {
  return holder('file', create, dispose);
}
