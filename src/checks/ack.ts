// Acknowledging a finding: a person accepts it with a note, and it stays out of "new" for as long as its
// numbers (expected, actual, difference) stay what they were when it was acknowledged. Every
// acknowledgement and every withdrawal is appended to the finding's history (finding_acks, #27): a
// second note never replaces the first, and the history says who accepted what, when and why.
import type { DuckDBConnection } from '@duckdb/node-api';
import { AckError } from './errors.js';
import { sqlText } from '../store/sql.js';
import { inTransaction } from '../store/transaction.js';

export type AckAction = 'ack' | 'withdraw';

export interface AckOptions {
  key: string;
  note: string;
  by: string;
  /** 'withdraw': the finding's current acknowledgement is withdrawn (it is open again). Default 'ack'. */
  action?: AckAction;
  now?: Date;
}

export interface AckEntry {
  seq: number;
  action: AckAction;
  by: string;
  at: Date;
  note: string;
}

export interface AckResult {
  key: string;
  action: AckAction;
  checkId: string;
  disbursementId: string | null;
  subject: string | null;
  /** 'open', or 'acknowledged' when an acknowledgement is added to a current one (new note, current numbers). */
  previousState: 'open' | 'acknowledged';
  ackBy: string;
  ackAt: Date;
  note: string;
  expected: bigint | null;
  actual: bigint | null;
  difference: bigint | null;
  /** The finding's whole history after this entry, oldest first. */
  history: AckEntry[];
}

export async function ackFinding(connection: DuckDBConnection, opts: AckOptions): Promise<AckResult> {
  const key = opts.key.trim();
  const note = opts.note.trim();
  const by = opts.by.trim();
  const action = opts.action ?? 'ack';
  const verb = action === 'ack' ? 'acknowledging' : 'withdrawing the acknowledgement of';
  if (note === '') throw new AckError(key, `${verb} ${key} needs a note saying why (--note "...")`);
  if (by === '') throw new AckError(key, `${verb} ${key} needs the name of who does it (--by NAME or RECON_ACK_BY)`);
  const found = await connection.runAndReadAll(sqlText('lifecycle/ack_find'), [key]);
  const row = found.getRowObjectsJS()[0];
  if (!row) {
    throw new AckError(
      key,
      `no finding with key ${key}; see the Key column of the workbook or SELECT finding_key FROM open_exceptions`,
    );
  }
  if (row.state === 'resolved') {
    throw new AckError(key, `finding ${key} was resolved in run ${String(row.resolved_run_id)}; there is nothing to ${action === 'ack' ? 'acknowledge' : 'withdraw'}`);
  }
  if (action === 'withdraw' && row.state !== 'acknowledged') {
    throw new AckError(key, `finding ${key} is not acknowledged now (its numbers changed since, or it never was); there is nothing to withdraw — see SELECT * FROM acknowledgements WHERE finding_key = '${key}'`);
  }
  const ackAt = opts.now ?? new Date();
  await inTransaction(connection, async () => {
    await connection.run(sqlText('lifecycle/ack_append'), [key, action, by, ackAt.toISOString(), note]);
    await connection.run(sqlText(action === 'ack' ? 'lifecycle/ack_apply' : 'lifecycle/ack_withdraw'),
      action === 'ack' ? [key, by, ackAt.toISOString(), note] : [key]);
  });
  return {
    key,
    action,
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
    history: await ackHistory(connection, key),
  };
}

/** A finding's acknowledgements and withdrawals, oldest first. */
export async function ackHistory(connection: DuckDBConnection, key: string): Promise<AckEntry[]> {
  const rows = (await connection.runAndReadAll(sqlText('lifecycle/ack_history'), [key])).getRowObjectsJS();
  return rows.map((r) => ({ seq: Number(r.seq), action: r.action as AckAction, by: String(r.ack_by), at: r.ack_at as Date, note: String(r.note) }));
}
