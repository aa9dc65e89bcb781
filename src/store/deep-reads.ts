// deep_reads: when each disbursement was last read in depth (sql/schema/046_deep_reads.sql).
import type { DuckDBConnection } from '@duckdb/node-api';
import { appendRows } from './append.js';

/** Disbursement id → time of its last deep read (ms since epoch). */
export async function loadDeepReads(c: DuckDBConnection): Promise<Map<string, number>> {
  const rows = (await c.runAndReadAll('SELECT disbursement_id, epoch_ms(read_at) FROM deep_reads')).getRows();
  return new Map(rows.map((r) => [String(r[0]), Number(r[1])]));
}

/** Record that these disbursements were read in depth at `atMs` by `runId` (one statement for the lot). */
export async function saveDeepReads(c: DuckDBConnection, ids: string[], atMs: number, runId: string): Promise<void> {
  if (ids.length === 0) return;
  await c.run('CREATE OR REPLACE TEMP TABLE _deep_reads (disbursement_id VARCHAR)');
  await appendRows(c, '_deep_reads', ['varchar'], ids.map((id) => [id]));
  await c.run(
    `INSERT OR REPLACE INTO deep_reads SELECT DISTINCT disbursement_id, make_timestamptz($1::BIGINT * 1000), $2 FROM _deep_reads`,
    [BigInt(Math.round(atMs)), runId],
  );
  await c.run('DROP TABLE _deep_reads');
}
