// Acknowledging a finding: a person accepts it with a note, and it stays out of "new" for as long as its
// numbers (expected, actual, difference) stay what they were when it was acknowledged. Every
// acknowledgement, withdrawal and approval is appended to the finding's history (finding_acks) and to
// the audit trail in the same transaction: a second note never replaces the first, and the history says who
// accepted what, when, why, and from which operating-system account and host.
//
// Four eyes: an acknowledgement of more money than its currency's threshold is recorded as pending; the
// finding stays open until a second, different person approves it (action 'approve').
import type { DuckDBConnection } from '@duckdb/node-api';
import { AckError } from './errors.js';
import { sqlText } from '../store/sql.js';
import { inTransaction } from '../store/transaction.js';
import { appendTrail } from '../store/trail.js';
import { ackContent } from '../store/trail-content.js';
import { aboveLimit, limitText, moneyText, samePerson, type FourEyes } from './four-eyes.js';
import { unresolvedFinding } from './lifecycle.js';

export type AckAction = 'ack' | 'withdraw' | 'approve';

export interface AckOptions {
  key: string;
  note: string;
  by: string;
  /** 'withdraw': the current acknowledgement (or one pending approval) is withdrawn; 'approve': a pending one is. */
  action?: AckAction;
  now?: Date;
  /** The operating-system user and host that ran the command (pipelines/settings.ts actorOf). */
  osUser?: string | null;
  host?: string | null;
  /** The thresholds above which an acknowledgement needs a second person (--four-eyes); none by default. */
  fourEyes?: FourEyes;
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
  /** An acknowledgement above the four-eyes threshold: what is at stake and the limit, in words. */
  pending: { stake: string; limit: string } | null;
  /** An approval: who asked for the acknowledgement it approves. */
  approvedFor: string | null;
}

type Row = Record<string, unknown>;

const VERB: Record<AckAction, string> = {
  ack: 'acknowledging', withdraw: 'withdrawing the acknowledgement of', approve: 'approving the acknowledgement of',
};

export async function ackFinding(connection: DuckDBConnection, opts: AckOptions): Promise<AckResult> {
  const key = opts.key.trim();
  const note = opts.note.trim();
  const by = opts.by.trim();
  const action = opts.action ?? 'ack';
  if (note === '' && action !== 'approve') {
    throw new AckError(key, `${VERB[action]} ${key} needs a note saying why (--note "...")`);
  }
  if (by === '') {
    throw new AckError(key, `${VERB[action]} ${key} needs the name of who does it (--by NAME or RECON_ACK_BY)`);
  }
  const row = await unresolvedFinding(connection, 'lifecycle/ack_find', key, action === 'ack' ? 'acknowledge' : action);
  const last = (await connection.runAndReadAll(sqlText('lifecycle/ack_latest'), [key])).getRowObjectsJS()[0] ?? null;
  const waiting = last && last.action === 'ack' && last.four_eyes === true ? last : null;
  const currency = (row.currency as string | null) ?? null;
  const stake = row.stake === null || row.stake === undefined ? null : BigInt(row.stake as bigint);
  const limit = action === 'ack' ? aboveLimit(opts.fourEyes ?? [], currency, stake) : null;
  if (action === 'withdraw' && row.state !== 'acknowledged' && !waiting) {
    throw new AckError(key, `finding ${key} is not acknowledged now (its numbers changed since, or it never was); `
      + `there is nothing to withdraw — see SELECT * FROM acknowledgements WHERE finding_key = '${key}'`);
  }
  if (action === 'approve') requireApprovable(key, row, waiting, by);
  const ackAt = opts.now ?? new Date();
  await recordEntry(connection, {
    key, seq: Number(last?.next_seq ?? 1), action, by, note, at: ackAt, osUser: opts.osUser ?? null,
    host: opts.host ?? null, pending: limit !== null, waiting, state: String(row.state),
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
    pending: limit && currency && stake !== null
      ? { stake: moneyText(stake, currency), limit: limitText(limit, currency) } : null,
    approvedFor: action === 'approve' ? String(waiting!.ack_by) : null,
  };
}

interface Entry {
  key: string;
  seq: number;
  action: AckAction;
  by: string;
  note: string;
  at: Date;
  osUser: string | null;
  host: string | null;
  /** An acknowledgement above the four-eyes threshold: recorded, not applied. */
  pending: boolean;
  /** The acknowledgement an approval puts in force. */
  waiting: Row | null;
  /** The finding's state before the entry. */
  state: string;
}

/**
 * The entry, what it does to the finding, and its trail entry, in one transaction. An approval puts the
 * acknowledgement it approves in force (its person, time and note), with the approver beside it.
 */
async function recordEntry(connection: DuckDBConnection, e: Entry): Promise<void> {
  const state = e.action === 'withdraw' ? 'open' : e.action === 'approve' || !e.pending ? 'acknowledged' : e.state;
  const at = e.at.toISOString();
  await inTransaction(connection, async () => {
    await connection.run(sqlText('lifecycle/ack_append'), [e.key, e.seq, e.action, e.by, at, e.note, e.osUser, e.host,
      e.action === 'ack' ? e.pending : null, e.action === 'approve' ? Number(e.waiting!.seq) : null]);
    if (e.action === 'withdraw') {
      await connection.run(sqlText('lifecycle/ack_withdraw'), [e.key]);
    } else if (e.action === 'approve') {
      const w = e.waiting!;
      await connection.run(sqlText('lifecycle/ack_apply'), [e.key, String(w.ack_by), (w.ack_at as Date).toISOString(),
        String(w.note), (w.os_user as string | null) ?? null, (w.host as string | null) ?? null, e.by, at]);
    } else if (!e.pending) {
      await connection.run(sqlText('lifecycle/ack_apply'), [e.key, e.by, at, e.note, e.osUser, e.host, null, null]);
    }
    const read = await connection.runAndReadAll(sqlText('lifecycle/ack_entry'), [e.key, e.seq]);
    const stored = read.getRowObjectsJS()[0]!;
    const content = { ...ackContent(stored), state };
    await appendTrail(connection, [{ at: e.at, kind: 'ack', subject: e.key, content }]);
  });
}

/**
 * An approval needs an acknowledgement waiting for one, by someone else, of the numbers the finding still
 * has: approving other numbers than those acknowledged would accept what nobody asked to accept.
 */
function requireApprovable(key: string, row: Row, waiting: Row | null, by: string): void {
  if (!waiting) {
    throw new AckError(key, `finding ${key} has no acknowledgement waiting for approval; `
      + `see SELECT * FROM acknowledgements WHERE finding_key = '${key}'`);
  }
  if (samePerson(String(waiting.ack_by), by)) {
    throw new AckError(key, `${String(waiting.ack_by)} acknowledged finding ${key}, so ${by} cannot approve it: `
      + 'above the four-eyes threshold a second, different person approves (recon ack KEY --approve --by NAME)');
  }
  const same = (['expected', 'actual', 'difference'] as const).every((k) => (row[k] ?? null) === (waiting[k] ?? null));
  if (!same) {
    throw new AckError(key, `finding ${key}'s numbers changed since ${String(waiting.ack_by)} acknowledged it; `
      + 'nothing is approved: acknowledge it again (recon ack KEY --note …) and approve that');
  }
}

/** A finding's acknowledgements, withdrawals and approvals, oldest first. */
export async function ackHistory(connection: DuckDBConnection, key: string): Promise<AckEntry[]> {
  const rows = (await connection.runAndReadAll(sqlText('lifecycle/ack_history'), [key])).getRowObjectsJS();
  return rows.map((r) => ({
    seq: Number(r.seq), action: r.action as AckAction, by: String(r.ack_by), at: r.ack_at as Date, note: String(r.note),
  }));
}
