// Bulk rows into DuckDB through an appender fed with data chunks (column-wise), which is several times
// faster than row-by-row appends from JS and keeps memory to one chunk at a time.
import { BIGINT, INTEGER, VARCHAR, DuckDBDataChunk, type DuckDBConnection, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';

export type ColumnKind = 'varchar' | 'integer' | 'bigint';
const TYPES: Record<ColumnKind, DuckDBType> = { varchar: VARCHAR, integer: INTEGER, bigint: BIGINT };
const CHUNK = 2048;

/** Append rows (arrays in table column order) to `table`. Runs inside the caller's transaction. */
export async function appendRows(
  connection: DuckDBConnection,
  table: string,
  kinds: readonly ColumnKind[],
  rows: ReadonlyArray<readonly DuckDBValue[]>,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = kinds.map((_, c) => rows.map((row) => row[c] ?? null));
  await appendColumns(connection, table, kinds, columns);
}

/**
 * Append columns (one array of values per table column, in column order, all the same length) to
 * `table`. Builders that can fill columns directly skip a row array per row (the garbage of 1M rows
 * is most of what a large batch costs in JS). Runs inside the caller's transaction.
 */
export async function appendColumns(
  connection: DuckDBConnection,
  table: string,
  kinds: readonly ColumnKind[],
  columns: ReadonlyArray<readonly DuckDBValue[]>,
): Promise<void> {
  const total = columns[0]?.length ?? 0;
  if (total === 0) return;
  const types = kinds.map((k) => TYPES[k]);
  const appender = await connection.createAppender(table);
  // One chunk, reset between slices: a chunk's vectors and string heap are native memory that is only
  // released when V8 collects the small JS wrapper, so a chunk per slice left ~100 MB waiting on GC.
  const chunk = DuckDBDataChunk.create(types);
  try {
    for (let start = 0; start < total; start += CHUNK) {
      const n = Math.min(CHUNK, total - start);
      chunk.reset();
      chunk.rowCount = n; // also drops the vectors cached for the previous slice
      for (let c = 0; c < types.length; c += 1) {
        const values = columns[c]!;
        const vector = chunk.getColumnVector(c);
        for (let r = 0; r < n; r += 1) vector.setItem(r, values[start + r] ?? null);
        vector.flush();
      }
      appender.appendDataChunk(chunk);
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
    chunk.reset();
  }
}
