import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // DuckDB files and sandboxes are per test. Three workers on the 2-core machines: many tests wait on a
    // sandbox's latency or a CLI child, and with two the cores sat idle for part of the run
    // (docs/performance.md, the test suite).
    pool: 'forks',
    maxWorkers: 3,
    // A worker process runs file after file with its modules loaded once (DuckDB's binding, exceljs, the
    // sandbox, vitest itself) instead of a fresh process, and its module loading, per file. No test file
    // relies on a process of its own: each closes what it opens, and what the CLI changes in the process
    // while it runs in-process (stdout, stderr, env) is put back.
    isolate: false,
    // ...and what a helper module counts is put back before each file, so no file's data depends on the order
    setupFiles: ['test/helpers/per-file.ts'],
    globalSetup: ['test/global-setup.ts'],
    // The bin tells DuckDB's allocator to hand freed pages back at once (src/ops/memory.ts): the 1M-payout
    // sync's peak RSS needs it, and it costs a small run about twice the CPU (a demo night: 37 s of CPU
    // against 17 s). The tests measure behaviour, not memory (that is make bench, which keeps the bin's
    // setting), so their processes, and the CLI children that inherit this environment, let freed pages
    // decay for a second; the bin keeps a value it finds set.
    env: { DUCKDB_JE_MALLOC_CONF: 'dirty_decay_ms:1000,muzzy_decay_ms:0' },
  },
});
