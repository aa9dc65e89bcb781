// deep_reads: when each disbursement was last read in depth (sql/schema/046_deep_reads.sql).
import type { DuckDBConnection } from '@duckdb/node-api';
import { appendRows } from './append.js';

/** A disbursement's last deep read: when (ms since epoch) and by which run. */
export interface DeepRead {
  atMs: number;
  runId: string;
}

/** Disbursement id → its last deep read. */
export async function loadDeepReads(c: DuckDBConnection): Promise<Map<string, DeepRead>> {
  const rows = (await c.runAndReadAll('SELECT disbursement_id, epoch_ms(read_at), run_id FROM deep_reads')).getRows();
  return new Map(rows.map((r) => [String(r[0]), { atMs: Number(r[1]), runId: String(r[2]) }]));
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
