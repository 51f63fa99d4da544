/**
 * src/core/package-info.ts `runningCode`: which form of the code runs, told from a module's own location (the
 * TypeScript sources, the compiled dist/src/, or the bundle bin/build-bundle.mjs writes to dist/bundle/).
 */
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageVersion, runningCode } from '../../../src/core/package-info.js';

describe('runningCode', () => {
  it('tells the sources, the compiled build and the bundle apart', () => {
    expect(runningCode(pathToFileURL('/opt/om/src/core/package-info.ts').href)).toBe('source');
    expect(runningCode(pathToFileURL('/opt/om/dist/src/core/package-info.js').href)).toBe('compiled');
    expect(runningCode(pathToFileURL('/opt/om/dist/bundle/chunk-ABC123.js').href)).toBe('bundle');
    expect(runningCode(pathToFileURL('/opt/om/bundle/x.js').href), 'a folder named bundle outside dist/').toBe('compiled');
  });

  it('in this test, the sources run', () => {
    expect(runningCode()).toBe('source');
    expect(packageVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
