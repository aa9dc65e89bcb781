// How a failed accountant's query is told: one line, exit 2, nothing written.
import { UsageError, oneLine } from '../errors.js';

/** DuckDB's error for a query (parser, binder, conversion …) as the one line `recon sql` prints. */
export function queryFailed(err: unknown): UsageError {
  const message = err instanceof Error ? err.message : String(err);
  return new UsageError(`query failed: ${oneLine(message)}`);
}
