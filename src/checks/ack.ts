// Acknowledging a finding: a person accepts it with a note, and it stays out of "new" for as long as its
// numbers (expected, actual, difference) stay what they were when it was acknowledged.
import type { DuckDBConnection } from '@duckdb/node-api';
import { AckError } from './errors.js';
import { sqlText } from '../store/sql.js';

export interface AckOptions {
  key: string;
  note: string;
  by: string;
  now?: Date;
}

export interface AckResult {
  key: string;
  checkId: string;
  disbursementId: string | null;
  subject: string | null;
  /** 'open', or 'acknowledged' when an acknowledgement is replaced (new note, current numbers). */
  previousState: 'open' | 'acknowledged';
  ackBy: string;
  ackAt: Date;
  note: string;
  expected: bigint | null;
  actual: bigint | null;
  difference: bigint | null;
}

export async function ackFinding(connection: DuckDBConnection, opts: AckOptions): Promise<AckResult> {
  const key = opts.key.trim();
  const note = opts.note.trim();
  const by = opts.by.trim();
  if (note === '') throw new AckError(key, `acknowledging ${key} needs a note saying why it is accepted (--note "...")`);
  if (by === '') throw new AckError(key, `acknowledging ${key} needs the name of who accepts it (--by NAME)`);
  const found = await connection.runAndReadAll(sqlText('lifecycle/ack_find'), [key]);
  const row = found.getRowObjectsJS()[0];
  if (!row) {
    throw new AckError(
      key,
      `no finding with key ${key}; see the Key column of the workbook or SELECT finding_key FROM open_exceptions`,
    );
  }
  if (row.state === 'resolved') {
    throw new AckError(key, `finding ${key} was resolved in run ${String(row.resolved_run_id)}; there is nothing to acknowledge`);
  }
  const ackAt = opts.now ?? new Date();
  await connection.run(sqlText('lifecycle/ack_apply'), [key, by, ackAt.toISOString(), note]);
  return {
    key,
    checkId: String(row.check_id),
    disbursementId: (row.disbursement_id as string | null) ?? null,
    subject: (row.subject as string | null) ?? null,
    previousState: row.state as 'open' | 'acknowledged',
    ackBy: by,
    ackAt,
    note,
    expected: (row.expected as bigint | null) ?? null,
    actual: (row.actual as bigint | null) ?? null,
    difference: (row.difference as bigint | null) ?? null,
  };
}
