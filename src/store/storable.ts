// What the writer can store as typed, checked one record at a time before a batch is written: a value
// DuckDB would refuse (a timestamp that names no instant, an amount that is no whole number or does not fit
// a BIGINT, a line number beyond an INTEGER) would fail the whole batch's transaction — every disbursement
// in it, and the night (issue 26). Here it quarantines that record alone, with a plain reason: a line is
// moved to the disbursement's quarantine rows; a disbursement record that cannot be stored is quarantined
// itself and its bundle not written.
import type { DisbursementBundle, FileResult, Line, QuarantinedRecord } from './bundle.js';
import { parseServiceTimestamp, utcText } from '../timestamp.js';

const BIGINT_MIN = -(2n ** 63n);
const BIGINT_MAX = 2n ** 63n - 1n;

/** Why `v` is not a BIGINT, or null when it is one. */
function notBigint(v: unknown): string | null {
  if (typeof v === 'bigint') return v < BIGINT_MIN || v > BIGINT_MAX ? `${v} does not fit a 64-bit whole number` : null;
  if (typeof v !== 'number' || !Number.isInteger(v)) return `${describe(v)} is not a whole number`;
  return Number.isSafeInteger(v) ? null : `${describe(v)} is beyond the whole numbers stored exactly`;
}

/** Why `v` is not an INTEGER (a line or file number), or null when it is one. */
function notInteger(v: unknown): string | null {
  return typeof v === 'number' && Number.isInteger(v) && v >= -2_147_483_648 && v <= 2_147_483_647
    ? null
    : `${describe(v)} is not a 32-bit whole number`;
}

function describe(v: unknown): string {
  const text =
    typeof v === 'string' ? JSON.stringify(v) : typeof v === 'bigint' ? String(v) : (JSON.stringify(v) ?? String(v));
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

type Storable =
  | { ok: true; bundle: DisbursementBundle; deliveredAt: string }
  | { ok: false; reason: string };

/**
 * The bundle with every line that cannot be stored moved to its quarantine (reasons name the field and
 * value), and its delivered_at as UTC text DuckDB casts exactly; or why the record itself cannot be stored.
 */
export function storable(b: DisbursementBundle): Storable {
  const r = b.record;
  const at = parseServiceTimestamp(String(r.delivered_at));
  if (typeof at === 'string') return { ok: false, reason: `delivered_at ${at} (got ${describe(r.delivered_at)})` };
  for (const field of ['amount', 'number_of_payments', 'number_of_refunds', 'number_of_adjustments'] as const) {
    const why = notBigint(r[field]);
    if (why) return { ok: false, reason: `${field}: ${why}` };
  }
  const quarantine: QuarantinedRecord[] = [];
  const payouts = keepLines(b.payouts, 'payout', quarantine);
  const refunds = keepLines(b.refunds, 'refund', quarantine);
  const adjustments = keepLines(b.adjustments, 'adjustment', quarantine);
  const files = b.files.flatMap((f) => keepFile(f, quarantine));
  const quarantined = b.quarantine.length + quarantine.length;
  if (quarantine.length === 0) return { ok: true, bundle: b, deliveredAt: utcText(at) };
  const syncStatus = b.syncStatus === 'complete' ? 'invalid' : b.syncStatus;
  const syncNote =
    b.syncStatus === 'complete' || b.syncStatus === 'invalid' ? `${quarantined} record(s) quarantined` : b.syncNote;
  return {
    ok: true,
    deliveredAt: utcText(at),
    bundle: {
      ...b,
      payouts,
      refunds,
      adjustments,
      files,
      quarantine: [...b.quarantine, ...quarantine],
      syncStatus,
      syncNote,
    },
  };
}

function keepLines<T extends { amount: unknown }>(
  lines: Line<T>[],
  resource: 'payout' | 'refund' | 'adjustment',
  out: QuarantinedRecord[],
): Line<T>[] {
  let bad: Set<Line<T>> | null = null;
  for (const l of lines) {
    const why = notInteger(l.lineNo)
      ? `line number: ${notInteger(l.lineNo)}`
      : notBigint(l.value.amount)
        ? `amount: ${notBigint(l.value.amount)}`
        : null;
    if (!why) continue;
    (bad ??= new Set()).add(l);
    out.push({ resource, lineNo: notInteger(l.lineNo) ? null : l.lineNo, reason: `${why}; not stored`, raw: l.raw });
  }
  return bad ? lines.filter((l) => !bad.has(l)) : lines;
}

function keepFile(f: FileResult, out: QuarantinedRecord[]): FileResult[] {
  const fileWhy = notInteger(f.fileNo) ?? (f.sizeBytes === null ? null : notBigint(f.sizeBytes));
  if (fileWhy) {
    out.push({ resource: 'file', lineNo: null, reason: `${f.name}: ${fileWhy}; the file is not stored`, raw: '' });
    return [];
  }
  let { footerCount, footerTotal } = f;
  const footerWhy =
    (footerCount === null ? null : notBigint(footerCount)) ?? (footerTotal === null ? null : notBigint(footerTotal));
  if (footerWhy) {
    out.push({
      resource: 'file',
      lineNo: null,
      reason: `${f.name}: footer: ${footerWhy}; its count and total are not stored`,
      raw: '',
    });
    footerCount = null;
    footerTotal = null;
  }
  let bad: Set<FileResult['lines'][number]> | null = null;
  for (const l of f.lines) {
    const why = notInteger(l.lineNo)
      ? `line number: ${notInteger(l.lineNo)}`
      : notBigint(l.amount)
        ? `amount: ${notBigint(l.amount)}`
        : null;
    if (!why) continue;
    (bad ??= new Set()).add(l);
    out.push({
      resource: 'file',
      lineNo: notInteger(l.lineNo) ? null : l.lineNo,
      reason: `${f.name}: line ${l.lineNo}: ${why}; not stored`,
      raw: l.raw,
    });
  }
  if (!bad && !footerWhy) return [f];
  return [{ ...f, footerCount, footerTotal, lines: bad ? f.lines.filter((l) => !bad.has(l)) : f.lines }];
}
