// What recon does to keep its resident memory close to what it uses (figures: docs/performance.md).
//
// - DuckDB's own memory is capped per job (`--memory-mb`, `--sync-memory-mb` during the sync), applied
//   where the store is opened for a job (pipelines/run.ts, src/sync/stage.ts) with setMemoryLimit (src/store/db.ts).
// - DuckDB allocates through its bundled jemalloc (Linux builds), which keeps freed pages for a while and
//   then frees them lazily (MADV_FREE): the kernel takes them back only under memory pressure, so they
//   stay in RSS. The bin asks it to return freed pages at once, before DuckDB is loaded; the environment
//   variable is read once, when the library starts, so one process (`recon run`: sync, checks, workbook)
//   has one setting. Weighed stage by stage (docs/performance.md, "The allocator, stage by stage"): the
//   sync and the checks with their workbook each keep tens of MB less resident with it, for system time
//   in the allocator that stays a small part of their CPU; their RSS targets are the tighter limit, so
//   every command keeps it. A value the user set is kept.
// - V8 lets its old generation grow to up to 4× what survived the last full collection before it
//   collects again. Nearly everything a sync allocates lives for less than a second (a page, then its
//   lines until their commit) but long enough to be promoted, so a 1M-payout sync had 250–290 MB of heap
//   for about 70 MB live. During a sync, during a check run (the audit trail's pages of changed findings),
//   while a run's workbook is written (pages of rows, each garbage once its cells are written) and in the
//   sandbox server (whose every request builds and drops a disbursement's model) the growth is held to
//   50 %: more, shorter collections. The flag is read each time V8 sets its next limit, so it takes effect
//   when set at run time; it is process-wide and stays set for the rest of the process.
// - V8's young generation (new space) grows up to two semi-spaces of 16 MB each in Node 20 and stays at
//   that size; a sync's pages and their lines fill it on every scavenge. The bin starts node with a
//   4 MB semi-space (its shebang line, NODE_FLAGS): a 100k-payout sync's JS heap peak 117 → 85 MB and
//   RSS 357 → 308 MB, a 1M-payout sync's RSS 402 → 357 MB (with 2 MB), no more CPU within the noise
//   (docs/performance.md). It cannot be changed once node runs (V8 sizes the heap at start).
import v8 from 'node:v8';

/**
 * The node flags the bin starts with: its shebang line carries them (test/unit/ops/memory.test.ts), the bench's stages
 * too.
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];

/** jemalloc's options variable in DuckDB's build (its symbols carry the duckdb_je_ prefix). */
export const DUCKDB_ALLOCATOR_ENV = 'DUCKDB_JE_MALLOC_CONF';
export const DUCKDB_ALLOCATOR_CONF = 'dirty_decay_ms:0,muzzy_decay_ms:0';

/** Call before anything imports @duckdb/node-api. */
export function returnFreedMemoryPromptly(env: NodeJS.ProcessEnv): void {
  env[DUCKDB_ALLOCATOR_ENV] ??= DUCKDB_ALLOCATOR_CONF;
}

const SYNC_HEAP_GROWING_PERCENT = 50;
let compactHeap = false;

export function preferCompactHeap(): void {
  if (compactHeap) return;
  v8.setFlagsFromString(`--heap-growing-percent=${SYNC_HEAP_GROWING_PERCENT}`);
  compactHeap = true;
}
