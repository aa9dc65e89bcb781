// What a trail entry says about a row, one function per kind: the same function makes the entry when the
// row is written (or seeded from it at the upgrade) and makes the row's side when `recon verify` compares
// them, so an entry and its row are compared field by field and a difference is named by its field.
import type { Actor } from './trail.js';

type Row = Record<string, unknown>;

const text = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const iso = (v: unknown): string | null => (v instanceof Date ? v.toISOString() : text(v));
const num = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const day = (v: unknown): string | null => (v instanceof Date ? v.toISOString().slice(0, 10) : text(v));
const bool = (v: unknown): boolean | null => (v === null || v === undefined ? null : Boolean(v));

/** A runs row (run_id, command, started_at) and who started it. */
export function runContent(r: Row, actor?: Actor): Row {
  return { run_id: text(r.run_id), command: text(r.command), started_at: iso(r.started_at),
    ...(actor ? { os_user: actor.osUser, host: actor.host } : {}) };
}

/** A finding_acks row. */
export function ackContent(r: Row): Row {
  return {
    key: text(r.finding_key), seq: Number(r.seq), action: text(r.action), by: text(r.ack_by), at: iso(r.ack_at),
    note: text(r.note), expected: num(r.expected), actual: num(r.actual), difference: num(r.difference),
    currency: text(r.currency), os_user: text(r.os_user), host: text(r.host), four_eyes: bool(r.four_eyes),
    approves: r.approves === null || r.approves === undefined ? null : Number(r.approves),
  };
}

/** A finding_assignments row. */
export function assignContent(r: Row): Row {
  return {
    key: text(r.finding_key), seq: Number(r.seq), owner: text(r.owner), due: day(r.due_date), by: text(r.assigned_by),
    at: iso(r.assigned_at), note: text(r.note), os_user: text(r.os_user), host: text(r.host),
  };
}

/** A closes row: its totals, who closed it, and what was accepted by whom (the trail's own place is not content). */
export function closeContent(r: Row): Row {
  return {
    month: text(r.month), version: Number(r.version), closed_at: iso(r.closed_at), run_id: text(r.run_id),
    workbook: text(r.workbook), disbursements: Number(r.disbursements), disbursed_total: num(r.disbursed_total),
    closed_by: text(r.closed_by), closed_os_user: text(r.closed_os_user), closed_host: text(r.closed_host),
    accepted_by: text(r.accepted_by), accepted_note: text(r.accepted_note), accepted: text(r.accepted),
    accepted_os_user: text(r.accepted_os_user), accepted_host: text(r.accepted_host),
    acceptance_state: text(r.acceptance_state), approved_by: text(r.approved_by), approved_at: iso(r.approved_at),
    approved_os_user: text(r.approved_os_user), approved_host: text(r.approved_host),
  };
}

/** A findings row's state and what it is about (a night's state change, or the state at the upgrade). */
export function findingContent(r: Row): Row {
  return {
    key: text(r.finding_key), state: text(r.state), check_id: text(r.check_id),
    disbursement_id: text(r.disbursement_id), subject: text(r.subject), currency: text(r.currency),
    expected: num(r.expected), actual: num(r.actual), difference: num(r.difference),
  };
}

/** The close's subject in the trail: '2026-10 v2'. */
export const closeSubject = (month: string, version: number): string => `${month} v${version}`;
