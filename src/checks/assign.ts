// Giving a finding an owner and a due date (`recon assign`). Every assignment is appended to the finding's
// assignment history and to the audit trail in one transaction; the finding carries the current one. A
// finding nobody was assigned takes the owner of the configured rules (src/store/owner-rules.ts).
import type { DuckDBConnection } from '@duckdb/node-api';
import { AckError } from './errors.js';
import { unresolvedFinding } from './lifecycle.js';
import { isCalendarDate } from '../month.js';
import { sqlText } from '../store/sql.js';
import { inTransaction } from '../store/transaction.js';
import { appendTrail } from '../store/trail.js';
import { assignContent } from '../store/trail-content.js';

export interface AssignOptions {
  key: string;
  /** Who owns the finding from now on. */
  to: string;
  /** YYYY-MM-DD, or null: no due date. */
  due: string | null;
  by: string;
  note?: string | null;
  now?: Date;
  osUser?: string | null;
  host?: string | null;
}

export interface AssignResult {
  key: string;
  checkId: string;
  disbursementId: string | null;
  owner: string;
  due: string | null;
  /** The owner before (assigned, or null when the rules gave it). */
  previousOwner: string | null;
  seq: number;
}

export async function assignFinding(c: DuckDBConnection, o: AssignOptions): Promise<AssignResult> {
  const key = o.key.trim();
  const to = o.to.trim();
  const by = o.by.trim();
  if (to === '') throw new AckError(key, `assigning ${key} needs the owner's name (--to NAME)`);
  if (by === '') throw new AckError(key, `assigning ${key} needs the name of who does it (--by NAME or RECON_ACK_BY)`);
  if (o.due !== null && !isCalendarDate(o.due)) {
    throw new AckError(key, `--due must be a date YYYY-MM-DD that exists, got '${o.due}'`);
  }
  const row = await unresolvedFinding(c, 'lifecycle/assign_find', key, 'assign');
  const at = o.now ?? new Date();
  const seq = Number((await c.runAndReadAll(sqlText('lifecycle/assign_next'), [key])).getRowsJS()[0]![0]);
  await inTransaction(c, async () => {
    await c.run(sqlText('lifecycle/assign_append'),
      [key, seq, to, o.due, by, at.toISOString(), o.note?.trim() || null, o.osUser ?? null, o.host ?? null]);
    await c.run(sqlText('lifecycle/assign_apply'), [key, to, o.due]);
    const stored = (await c.runAndReadAll(sqlText('lifecycle/assign_entry'), [key, seq])).getRowObjectsJS()[0]!;
    await appendTrail(c, [{ at, kind: 'assign', subject: key, content: assignContent(stored) }]);
  });
  return {
    key, seq, owner: to, due: o.due, checkId: String(row.check_id),
    disbursementId: (row.disbursement_id as string | null) ?? null, previousOwner: (row.owner as string | null) ?? null,
  };
}
