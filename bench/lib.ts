// What every benchmark stage shares: a temp folder, a sync run in-process (as `recon sync` would run it),
// peak RSS of this process, and the one line of JSON a stage prints for the runner.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { parseCommandArgs } from '../pipelines/config.js';
import { COMMAND_OPTIONS } from '../pipelines/config.js';
import { silentLogger } from '../src/log.js';
import { runSettings, syncSettings } from '../pipelines/settings.js';
import { withRun, type RunContext } from '../pipelines/run.js';
import { syncStage, type SyncTuning } from '../src/sync/stage.js';
import type { SyncResult } from '../src/sync/run.js';
import { openStore } from '../src/store/db.js';

export function tempDir(prefix = 'recon-bench-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** High-water mark of this process's resident set, in MB (maxRSS is in KB on Linux). */
export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

export const seconds = (startMs: number): number => (performance.now() - startMs) / 1000;

/** The stage's result: the last line on stdout is what the runner reads. */
export function emit(result: Record<string, unknown>): void {
  process.stdout.write(`\n${JSON.stringify(result, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}\n`);
}

/** Stage entry point: run, emit, exit non-zero with the message on failure. */
export function stage(fn: (args: string[]) => Promise<Record<string, unknown>>): void {
  fn(process.argv.slice(2)).then(
    (r) => {
      emit(r);
      process.exit(0);
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}


/**
 * A store built into `db` by `build` (then a CHECKPOINT, so the file is whole on disk) for a stage to measure: the
 * store-building stages run it as children, so that no measured command's peak RSS holds the building. Returns the
 * figures `build` gives and the building's seconds.
 */
export async function buildStore<T extends Record<string, unknown>>(
  db: string,
  build: (connection: DuckDBConnection) => Promise<T>,
): Promise<T & { buildS: number }> {
  const started = performance.now();
  const store = await openStore(db);
  let figures: T;
  try {
    figures = await build(store.connection);
    await store.connection.run('CHECKPOINT');
  } finally {
    store.close();
  }
  return { ...figures, buildS: seconds(started) };
}

export interface Service {
  url: string;
  apiKey: string;
}

/**
 * `recon sync` in-process: flags as a user would pass them, tuning to compress the budget window.
 * `then` runs next in the same job, on the same store, as the nightly run's later steps do.
 */
export async function runSync(service: Service, db: string, args: string[], tuning: SyncTuning = {},
  then?: (ctx: RunContext) => Promise<void>): Promise<{ runId: string; result: SyncResult; counters: Record<string, unknown>; concurrency: number }> {
  const { config } = parseCommandArgs(['--api-url', service.url, '--api-key', service.apiKey, '--db', db, ...args], COMMAND_OPTIONS.sync, {}, {});
  let runId = '';
  let result: SyncResult | null = null;
  let counters: Record<string, unknown> = {};
  const code = await withRun('sync', runSettings(config), silentLogger, async (ctx) => {
    runId = ctx.runId;
    result = await syncStage(ctx, syncSettings(config), silentLogger, tuning);
    counters = { ...ctx.counters };
    await then?.(ctx);
    return 0;
  }, { serviceUrl: service.url, handleSignals: false });
  if (code !== 0 || result === null) throw new Error(`sync failed with exit code ${code}`);
  return { runId, result, counters, concurrency: config.concurrency };
}

/**
 * `pairs` interleaved pairs of recon's side and its baseline: the baseline first in the first pair, recon
 * first in the next, and so on (neither side always gets the warmer caches). `i` is the pair's index.
 */
export async function interleavedPairs<R, B>(pairs: number, recon: (i: number) => Promise<R>, baseline: (i: number) => Promise<B>): Promise<Array<{ recon: R; baseline: B }>> {
  const out: Array<{ recon: R; baseline: B }> = [];
  for (let i = 0; i < pairs; i += 1) {
    if (i % 2 === 0) {
      const b = await baseline(i);
      out.push({ baseline: b, recon: await recon(i) });
    } else {
      const r = await recon(i);
      out.push({ recon: r, baseline: await baseline(i) });
    }
  }
  return out;
}

/** Seconds `work` takes. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return seconds(started);
}

/**
 * A fingerprint of one check run's findings: every column an accountant reads, the rows in a fixed
 * order, so a change that claims to preserve behaviour can be held to the same hash before and after.
 */
export async function findingsHash(c: DuckDBConnection, runId: string): Promise<string> {
  const reader = await c.runAndReadAll(`
    SELECT CAST(count(*) AS INTEGER), COALESCE(left(md5(string_agg(concat_ws('|', check_id, severity, disbursement_id, recipient_id, subject, currency,
      expected, actual, difference, detail), chr(10) ORDER BY check_id, disbursement_id, subject, detail)), 16), '-')
    FROM exceptions WHERE run_id = $1`, [runId]);
  const [[count, hash]] = reader.getRows() as [[number, string]];
  return `${count} findings ${hash}`;
}
