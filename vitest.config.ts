import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    setupFiles: ['test/setup/fast-check-seed.ts'],
    reporters: process.env['VITEST_JSON'] ? ['default', ['json', { outputFile: process.env['VITEST_JSON'] }]] : ['default'],
  },
});
