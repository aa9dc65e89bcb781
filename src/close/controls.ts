// Who closes a month and who accepts its unaccounted money, provably: the person named and the
// operating-system user and host, the four-eyes rule for an acceptance of more than a currency's threshold,
// and the close's own audit-trail entry — chained before the workbook is written, so the workbook prints the
// hash the trail then holds for it (recon verify, and an auditor with the printed close, compare the two).
import type { DuckDBConnection } from '@duckdb/node-api';
import { UsageError } from '../errors.js';
import type { BankSplitRow } from '../store/read/summaries.js';
import type { CloseControls, SuspenseLine } from '../report/types.js';
import { aboveLimit, limitText, moneyText, samePerson, type FourEyes } from '../checks/four-eyes.js';
import { chainAfter, trailHead, type Actor, type TrailEntry } from '../store/trail.js';
import { closeContent, closeSubject } from '../store/trail-content.js';
import { closeTotals, latestClose } from '../store/closes.js';

/** An acceptance of unaccounted money, as the close records it. */
export interface AcceptanceRequest {
  by: string;
  note: string;
  osUser?: string | null;
  host?: string | null;
  /** An approval of an acceptance a close waited on (recon close --approve): the second person. */
  approval?: { by: string; at: Date; osUser: string | null; host: string | null; accepted: string } | null;
}

/**
 * Per currency, the money unaccounted for: not arrived, short or over, on another account, credited on an
 * unbalanced statement, the month's credits that settled nothing, and lines in currency suspense (each in
 * its own currency). Four eyes compares each currency's with its threshold; never added across currencies.
 */
export function unaccountedAmounts(
  split: Map<string, BankSplitRow> | undefined, suspense: readonly SuspenseLine[],
): Map<string, bigint> {
  const out = new Map<string, bigint>();
  const add = (ccy: string, v: bigint) => out.set(ccy, (out.get(ccy) ?? 0n) + (v < 0n ? -v : v));
  for (const [ccy, s] of split ?? new Map<string, BankSplitRow>()) {
    for (const v of [s.notArrived, s.shortBy, s.otherAccount, s.unproven ?? 0n]) add(ccy, v);
    const m = s.movement ?? null;
    if (m) for (const v of [m.duplicate, m.unexpected, m.otherCredits]) add(ccy, v);
  }
  for (const line of suspense) add(line.currency, line.amount);
  return out;
}

/** The currencies whose unaccounted money is above their four-eyes limit, in words ("EUR 12000.00 above EUR 10000"). */
function aboveFourEyes(amounts: Map<string, bigint>, limits: FourEyes): string[] {
  return [...amounts].sort(([a], [b]) => (a < b ? -1 : 1)).flatMap(([ccy, v]) => {
    const limit = aboveLimit(limits, ccy, v);
    return limit ? [`${moneyText(v, ccy)} above ${limitText(limit, ccy)}`] : [];
  });
}

/**
 * `recon close --approve`: the month's latest close must hold an acceptance waiting for a second person,
 * and the approver must be someone else than who accepted it. Returns the acceptance carried into the
 * next version, approved.
 */
export async function approvalOf(
  c: DuckDBConnection, month: string, approver: Actor, at: Date,
): Promise<AcceptanceRequest> {
  const last = await latestClose(c, month);
  if (!last) throw new UsageError(`month ${month} was never closed; there is no acceptance to approve`);
  if (last.acceptance_state !== 'pending') {
    throw new UsageError(`close ${month} v${String(last.version)} has no acceptance of unaccounted money `
      + 'waiting for approval');
  }
  if (!approver.by) throw new UsageError('--approve needs --by NAME (or RECON_ACK_BY): the second person who approves');
  if (samePerson(String(last.accepted_by), approver.by)) {
    throw new UsageError(`${String(last.accepted_by)} accepted the unaccounted money of ${month}, `
      + `so ${approver.by} cannot approve it: above the four-eyes threshold a second, different person approves `
      + '(recon close --month M --approve --by NAME)');
  }
  return {
    by: String(last.accepted_by), note: String(last.accepted_note ?? ''),
    osUser: (last.accepted_os_user as string | null) ?? null, host: (last.accepted_host as string | null) ?? null,
    approval: {
      by: approver.by, at, osUser: approver.osUser, host: approver.host, accepted: String(last.accepted ?? ''),
    },
  };
}

/** An acceptance as the close records it: who, why, what (the workbook's words), its state and approval. */
interface Acceptance {
  by: string;
  note: string;
  accepted: string[];
  state: 'accepted' | 'pending' | 'approved';
  osUser: string | null;
  host: string | null;
  approval: AcceptanceRequest['approval'];
}

/**
 * The acceptance of the month's unaccounted money (none when nothing is unaccounted for), and the provisional
 * reason it gives while it waits for a second person: above a currency's four-eyes limit it is pending, an
 * approval makes it approved — only of the very money that was accepted, or nothing is approved.
 */
export function acceptanceOf(
  month: string,
  accept: AcceptanceRequest | null,
  unaccounted: readonly string[],
  amounts: Map<string, bigint>,
  limits: FourEyes,
): { acceptance: Acceptance | null; waiting: string[] } {
  if (accept?.approval && accept.approval.accepted !== unaccounted.join('; ')) {
    throw new UsageError(`the money unaccounted for in ${month} changed since ${accept.by} accepted it `
      + `(then: ${accept.approval.accepted || 'nothing'}; now: ${unaccounted.join('; ') || 'nothing'}); `
      + 'nothing approved: accept it again with --accept-unaccounted');
  }
  if (!accept || unaccounted.length === 0) return { acceptance: null, waiting: [] };
  const above = aboveFourEyes(amounts, limits);
  const state = accept.approval ? 'approved' : above.length > 0 ? 'pending' : 'accepted';
  const acceptance: Acceptance = { by: accept.by, note: accept.note, accepted: [...unaccounted], state,
    osUser: accept.osUser ?? null, host: accept.host ?? null, approval: accept.approval ?? null };
  const waiting = state === 'pending'
    ? [`the acceptance of the unaccounted money by ${accept.by} waits for a second person's approval `
      + `(${above.join('; ')}): recon close --month ${month} --approve --by NAME`] : [];
  return { acceptance, waiting };
}

/** What the close's Summary prints about who did what, and the close's trail entry. */
export function closeControls(closer: Actor, a: Acceptance | null, entry: TrailEntry | null): CloseControls {
  return {
    closer,
    acceptance: a ? {
      osUser: a.osUser, host: a.host,
      approval: a.approval ? { by: a.approval.by, osUser: a.approval.osUser, host: a.approval.host } : null,
    } : null,
    trail: entry ? { seq: entry.seq, hash: entry.hash } : null,
  };
}

/** What the close row will hold about who and what was accepted (and its trail entry's content). */
export interface CloseRecord {
  month: string;
  version: number;
  closedAt: Date;
  runId: string;
  workbook: string;
  closer: Actor;
  acceptance: {
    by: string; note: string; accepted: string; state: 'accepted' | 'pending' | 'approved';
    osUser: string | null; host: string | null; approval: AcceptanceRequest['approval'];
  } | null;
}

/** The close's trail entry, chained after the head now (stored with the close row: src/store/closes.ts). */
export async function closeEntry(
  c: DuckDBConnection, r: CloseRecord,
): Promise<{ entry: TrailEntry; row: Record<string, unknown> }> {
  const totals = await closeTotals(c, r.month);
  const a = r.acceptance;
  const row = {
    month: r.month, version: r.version, closed_at: r.closedAt, run_id: r.runId, workbook: r.workbook,
    disbursements: totals.disbursements, disbursed_total: totals.total,
    closed_by: r.closer.by, closed_os_user: r.closer.osUser, closed_host: r.closer.host,
    accepted_by: a?.by ?? null, accepted_note: a?.note ?? null, accepted: a?.accepted ?? null,
    accepted_os_user: a?.osUser ?? null, accepted_host: a?.host ?? null, acceptance_state: a?.state ?? null,
    approved_by: a?.approval?.by ?? null, approved_at: a?.approval?.at ?? null,
    approved_os_user: a?.approval?.osUser ?? null, approved_host: a?.approval?.host ?? null,
  };
  const [entry] = chainAfter(await trailHead(c), [{
    at: r.closedAt, kind: r.version > 1 ? 'reissue' : 'close', subject: closeSubject(r.month, r.version),
    content: closeContent(row),
  }]);
  return { entry: entry!, row };
}
