import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // DuckDB files and sandboxes are per test; two workers match the 2-core machines.
    pool: 'forks',
    maxWorkers: 2,
    globalSetup: ['test/global-setup.ts'],
  },
});
