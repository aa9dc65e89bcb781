// Accountants' ad-hoc SQL on the published read-only snapshot, written as a table, CSV, JSON or xlsx.
//
// A query's rows are first computed whole into a temporary table (src/store/result-table.ts: a streamed
// result that fails after its first chunk would just end), then read back and counted against the table;
// only then does the caller rename its output into place.
// A guard interrupts the query past its time limit or when DuckDB's spill files pass their cap (DuckDB
// does not hold a temporary table's spilled blocks to max_temp_directory_size itself).
// Text from the service is never a live formula: CSV fields are neutralised, xlsx cells are strings.
import type { DuckDBConnection, DuckDBResult } from '@duckdb/node-api';
import { UsageError } from '../errors.js';
import { queryFailed } from './errors.js';
import type { SessionLimits, Snapshot } from './snapshot.js';
import { checkStatement } from './statement.js';
import { materialiseResult, resultCount, streamResult, tempFileBytes } from '../store/result-table.js';

const GUARD_POLL_MS = 200;

export interface QueryRows {
  columns: string[];
  /** Every row, in order; throws if the rows read back are fewer than were computed. */
  rows: AsyncIterable<unknown[]>;
  /** Rows computed (known before the first is read). */
  count: number;
}

/**
 * Checks and runs one accountant's statement under the session's limits and hands its complete result to
 * `write`. Any failure of the query — at any row — is a UsageError before `write` is called.
 */
export async function runGuardedQuery<T>(
  db: Snapshot,
  sql: string,
  limits: SessionLimits,
  write: (result: QueryRows) => Promise<T>,
): Promise<T> {
  const c = db.connection;
  const kind = await checkStatement(c, sql);
  const guard = startGuard(db, limits);
  try {
    const materialised = kind === 'select' && (await materialiseResult(c, sql, (step) => guard.watch(step)));
    if (!materialised) {
      // EXPLAIN, PIVOT, SUMMARIZE, SHOW …: small answers that cannot be a table's source; computed whole
      const result = await guard.watch(c.run(sql));
      return await write({
        columns: result.deduplicatedColumnNames(),
        rows: rowsOf(result, result.rowCount, guard),
        count: result.rowCount,
      });
    }
    const count = await guard.watch(resultCount(c));
    const result = await guard.watch(streamResult(c));
    return await write({ columns: result.deduplicatedColumnNames(), rows: rowsOf(result, count, guard), count });
  } finally {
    await guard.stop();
  }
}

async function* rowsOf(result: DuckDBResult, expected: number, guard: Guard): AsyncGenerator<unknown[]> {
  let n = 0;
  const chunks = result.yieldRowsJs()[Symbol.asyncIterator]();
  for (;;) {
    const next = await guard.watch(chunks.next());
    if (next.done) break;
    for (const row of next.value as unknown[][]) {
      n += 1;
      yield row;
    }
  }
  if (n !== expected)
    throw new UsageError(
      `query failed: the result could not be read whole (${n} of ${expected} rows); nothing was written`,
    );
}

interface Guard {
  /** Awaits a step of the query; a failure becomes the guard's reason (time, temp space) or the query's error. */
  watch<T>(step: Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

/** Interrupts the session's query past its time limit or its temp-space cap. */
function startGuard(db: Snapshot, limits: SessionLimits): Guard {
  let reason: string | null = null;
  const stopWith = (why: string) => {
    reason ??= why;
    db.connection.interrupt();
  };
  const timer = setTimeout(() => stopWith(`the query ran longer than ${limits.timeoutS} s and was stopped; `
    + 'narrow it (a WHERE, a LIMIT) or raise --query-timeout-s / RECON_QUERY_TIMEOUT_S'), limits.timeoutS * 1000);
  let watcher: DuckDBConnection | null = null;
  // the poll in flight: the session is closed only once it is done (closing under a running query crashes)
  let inflight: Promise<void> | null = null;
  const poll = setInterval(() => {
    if (inflight) return;
    inflight = (async () => {
      watcher ??= await db.instance.connect();
      const used = await tempFileBytes(watcher);
      if (used > limits.maxTempMb * 1024 * 1024) {
        stopWith(`the query needed more than ${limits.maxTempMb} MB of temporary disk space and was stopped; `
          + 'narrow it or raise --max-temp-mb / RECON_MAX_TEMP_MB');
      }
    })().catch(() => undefined).finally(() => (inflight = null));
  }, GUARD_POLL_MS);
  return {
    async watch<T>(step: Promise<T>): Promise<T> {
      try {
        return await step;
      } catch (err) {
        if (reason) throw new UsageError(reason);
        if (err instanceof UsageError) throw err;
        throw queryFailed(err);
      }
    },
    async stop() {
      clearTimeout(timer);
      clearInterval(poll);
      await inflight;
      watcher?.closeSync();
    },
  };
}
