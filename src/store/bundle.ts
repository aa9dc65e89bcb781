// What the sync hands the store for one disbursement: the record, every line (valid ones typed, invalid ones
// quarantined with their reason), the files, and a content hash to detect restatements.
import { createHash } from 'node:crypto';
import type { Adjustment, Disbursement, Payout, Refund } from '../api/schemas.js';


/** A detail line of a settlement file, as parsed (src/sync/parse-file.ts). */
export interface FileLine {
  lineNo: number; // physical line in the file, from 1
  kind: 'payout' | 'refund' | 'adjustment';
  entryType: 'credit' | 'debit' | null;
  reference: string;
  paymentId: string | null;
  currency: string;
  amount: bigint;
  raw: string;
}

/** A line of a file that could not be read, with the physical line it is on (null: the file as a whole). */
export interface LineProblem {
  lineNo: number | null;
  reason: string;
}

/** A file of the disbursement: downloaded, stored by content, parsed (src/sync/files.ts). */
export interface FileResult {
  fileNo: number;
  name: string;
  extension: string | null;
  sha256: string | null;
  sizeBytes: number | null;
  layout: string | null;
  parseStatus: 'parsed' | 'unrecognised' | 'unparseable' | 'too_large' | 'download_failed';
  parseError: string | null;
  lines: FileLine[];
  footerCount: bigint | null;
  footerTotal: bigint | null;
  problems: LineProblem[];
}

export interface Line<T> {
  lineNo: number; // position in the service's list, from 1
  value: T;
  raw: string;
}

export interface QuarantinedRecord {
  resource: 'disbursement' | 'payout' | 'refund' | 'adjustment' | 'file' | 'page';
  lineNo: number | null;
  reason: string;
  raw: string;
}

export type SyncStatus = 'complete' | 'invalid' | 'incomplete';

export interface DisbursementBundle {
  record: Disbursement;
  raw: string;
  payouts: Line<Payout>[];
  refunds: Line<Refund>[];
  adjustments: Line<Adjustment>[];
  files: FileResult[];
  quarantine: QuarantinedRecord[];
  syncStatus: SyncStatus;
  syncNote: string | null;
  contentHash: string;
}

/**
 * Hash of what the service says about a disbursement: typed fields of the record and of every line, not
 * their order. The interface promises no order of list items or files, so the lines, quarantined records
 * and files are hashed as sorted sets: the same content read again in another order is not a restatement.
 */
export function contentHash(b: Omit<DisbursementBundle, 'contentHash' | 'raw'>): string {
  const h = createHash('sha256');
  const r = b.record;
  h.update(JSON.stringify([r.disbursement_id, r.recipient_id, r.status, r.delivered_at, r.number_of_payments,
    r.number_of_refunds, r.number_of_adjustments, r.amount, r.currency, r.bank_account_number ?? null]));
  const parts = [
    ...b.payouts.map((p) =>
      JSON.stringify([
        'p',
        p.value.reference,
        p.value.payment_id,
        p.value.amount,
        p.value.currency,
        p.value.status ?? null,
      ]),
    ),
    ...b.refunds.map((x) =>
      JSON.stringify(['r', x.value.refund_id, x.value.payment.id, x.value.amount, x.value.currency]),
    ),
    ...b.adjustments.map((a) =>
      JSON.stringify([
        'a',
        a.value.reference,
        a.value.entry_type,
        a.value.amount,
        a.value.currency,
        a.value.category ?? null,
      ]),
    ),
    ...b.quarantine.map((q) => JSON.stringify(['q', q.resource, q.reason.replace(/\bline \d+\b/g, 'line'), q.raw])),
    ...b.files.map((f) => JSON.stringify(['f', f.sha256, f.parseStatus])),
  ];
  parts.sort();
  for (const p of parts) h.update(p);
  return h.digest('hex');
}

/** Hash of the list record alone: a change seen in the list means the disbursement must be re-read. */
export function recordHash(r: Disbursement): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        r.disbursement_id,
        r.recipient_id,
        r.delivered_at,
        r.number_of_payments,
        r.number_of_refunds,
        r.number_of_adjustments,
        r.amount,
        r.currency,
        r.bank_account_number ?? null,
      ]),
    )
    .digest('hex');
}

/**
 * The bundle with every text that came from the service passed through `clean` (the redaction
 * boundary, src/api/redact.ts): raw payloads, notes, reasons, file names and parse errors. Typed fields
 * (ids, amounts, references) are stored as received: they are what the checks compare.
 */
export function redactBundle(
  b: DisbursementBundle,
  clean: <T extends string | null | undefined>(text: T) => T,
): DisbursementBundle {
  // lines in place: a disbursement may hold many, and the bundle is this sync's own
  for (const lines of [b.payouts, b.refunds, b.adjustments] as Array<Array<Line<unknown>>>)
    for (const l of lines) l.raw = clean(l.raw);
  return {
    ...b,
    raw: clean(b.raw),
    syncNote: clean(b.syncNote),
    quarantine: b.quarantine.map((q) => ({ ...q, reason: clean(q.reason), raw: clean(q.raw) })),
    files: b.files.map((f) => {
      for (const l of f.lines) l.raw = clean(l.raw); // in place: a file may hold many lines
      return { ...f, name: clean(f.name), parseError: clean(f.parseError) };
    }),
  };
}
