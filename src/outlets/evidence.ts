// The evidence pack of a close: one zip beside the close workbook (close-2026-10-evidence.zip, -v2- for a reissue) that
// an auditor can take away and check without recon — the workbook, the journal as booked (one CSV of every currency's
// lines) and the ledger files the close wrote, the bank statements and entries the month used (as recon imported them:
// the statement files themselves are not kept), the latest night's results file, the month's part of the audit trail up
// to the close's own entry, and a manifest of every file's SHA-256 (manifest.json, and SHA256SUMS for `sha256sum -c`).
// Written whole or not at all, before the close is recorded: the close's entry (chained beforehand) ends the pack's
// trail, and the pack's own entry, chained after it, is recorded with the close in one transaction
// (src/close/index.ts), or neither is.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { writeFileAtomically } from '../files.js';
import { formatMajor } from '../money.js';
import { CSV_EOL, toCsvRecord } from '../report/csv.js';
import { evidenceRows, monthTrail } from '../store/read/evidence.js';
import { chainAfter, type TrailEntry } from '../store/trail.js';
import { closeSubject } from '../store/trail-content.js';
import type { BookedLine } from '../store/closes.js';
import { formatIso } from '../money.js';
import { LATEST_RESULTS } from './results.js';
import { writeZip, type ZipMember } from './zip.js';

interface EvidenceRequest {
  month: string;
  version: number;
  workbook: string;
  /** The close's journal as booked (ISO decimals, the user's accounts). */
  journal: readonly BookedLine[];
  /** The ledger files the close wrote beside the workbook (none: no format asked, or a provisional close). */
  journalFiles: readonly string[];
  reportsDir: string;
  /** The close's own trail entry, chained but not stored yet: the pack's part of the trail ends with it. */
  close: TrailEntry;
  at: Date;
}

interface ManifestFile {
  name: string;
  bytes: number;
  sha256: string;
}

interface EvidencePack {
  path: string;
  sha256: string;
  files: ManifestFile[];
  /** The trail entry that records the pack, chained after the close's (stored with it). */
  entry: TrailEntry;
}

/** close-2026-10.xlsx → close-2026-10-evidence.zip */
const evidencePathFor = (workbook: string): string => `${workbook.replace(/\.xlsx$/i, '')}-evidence.zip`;

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Writes the pack (temp folder under --reports, then one zip by rename); returns its trail entry to record. */
export async function writeEvidencePack(c: DuckDBConnection, r: EvidenceRequest): Promise<EvidencePack> {
  const work = await mkdtemp(path.join(r.reportsDir, '.evidence-'));
  try {
    const members: ZipMember[] = [{ name: path.basename(r.workbook), file: r.workbook }];
    const booked = path.join(work, `${path.basename(r.workbook).replace(/\.xlsx$/i, '')}-journal.csv`);
    await writeFile(booked, bookedCsv(r.journal), 'utf8');
    members.push({ name: `journal/${path.basename(booked)}`, file: booked });
    members.push(...r.journalFiles.map((f) => ({ name: `journal/${path.basename(f)}`, file: f })));
    members.push(...await statementFiles(c, r.month, work));
    const results = path.join(r.reportsDir, LATEST_RESULTS);
    if (await stat(results).then((s) => s.isFile(), () => false)) {
      members.push({ name: `results/${LATEST_RESULTS}`, file: results });
    }
    const trail = path.join(work, 'trail.jsonl');
    await writeTrail(c, r, trail);
    members.push({ name: 'trail.jsonl', file: trail });
    const files: ManifestFile[] = [];
    for (const m of members) {
      files.push({ name: m.name, bytes: (await stat(m.file!)).size, sha256: await sha256Of(m.file!) });
    }
    const manifest = {
      pack: 'recon.evidence/v1', month: r.month, version: r.version, created_at: r.at.toISOString(),
      close_entry: { seq: r.close.seq, hash: r.close.hash }, files,
      how_to_check: 'sha256sum -c SHA256SUMS; each trail.jsonl line\'s hash is sha256 of the JSON array '
        + '[seq, entry_at, kind, subject, content, prev_hash]',
    };
    members.push({ name: 'manifest.json', data: `${JSON.stringify(manifest, null, 2)}\n` });
    members.push({ name: 'SHA256SUMS', data: files.map((f) => `${f.sha256}  ${f.name}\n`).join('') });
    const target = evidencePathFor(r.workbook);
    await writeFileAtomically(target, (temp) => writeZip(temp, members, r.at), '--reports / RECON_REPORTS_DIR');
    const sha256 = await sha256Of(target);
    const [entry] = chainAfter(r.close, [{
      at: r.at, kind: 'evidence', subject: closeSubject(r.month, r.version),
      content: {
        month: r.month, version: r.version, pack: path.basename(target), sha256,
        files: files.map((f) => ({ name: f.name, sha256: f.sha256 })),
      },
    }]);
    return { path: target, sha256, files, entry: entry! };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * The journal as booked, every currency: amounts at the currency's ISO 4217 decimals, as the ledger files hold them.
 */
function bookedCsv(lines: readonly BookedLine[]): string {
  const header = ['currency', 'role', 'account', 'code', 'name', 'description', 'debit', 'credit'];
  const rows = lines.map((l) => toCsvRecord([l.currency, l.role, l.account, l.code, l.name, l.description,
    formatIso(l.debit, l.currency), formatIso(l.credit, l.currency)]));
  return [toCsvRecord(header), ...rows].join(CSV_EOL) + CSV_EOL;
}

/** The month's statements and bank entries as CSV files (none without statements). */
async function statementFiles(c: DuckDBConnection, month: string, dir: string): Promise<ZipMember[]> {
  const out: ZipMember[] = [];
  for (const query of ['statements', 'bank_entries'] as const) {
    const file = path.join(dir, `${query === 'statements' ? 'bank_statements' : 'bank_entries'}.csv`);
    let header: string[] | null = null;
    const lines: string[] = [];
    for await (const page of evidenceRows(c, query, month)) {
      for (const row of page) {
        const record = withMajor(row);
        header ??= Object.keys(record);
        lines.push(toCsvRecord(header.map((k) => record[k])));
      }
    }
    if (header === null) continue;
    await writeFile(file, [toCsvRecord(header), ...lines].join(CSV_EOL) + CSV_EOL, 'utf8');
    out.push({ name: `statements/${path.basename(file)}`, file });
  }
  return out;
}

/** Money columns (subunits) with their major-unit companion, exact, in the row's currency. */
function withMajor(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const currency = typeof row.currency === 'string' ? row.currency : null;
  for (const [k, v] of Object.entries(row)) {
    out[k] = v;
    if (currency && typeof v === 'bigint' && /amount|balance|credits|debits|difference/.test(k)) {
      out[`${k}_major`] = formatMajor(v, currency);
    }
  }
  return out;
}

/** The month's trail entries, one JSON object per line, as stored. */
async function writeTrail(c: DuckDBConnection, r: EvidenceRequest, file: string): Promise<void> {
  const lines: string[] = [];
  // the fields in the order the hash takes them, then the hash
  type Field = unknown;
  const line = (seq: number, at: string, kind: Field, subject: Field, content: Field, prev: Field, hash: Field) =>
    lines.push(JSON.stringify({ seq, entry_at: at, kind, subject, content, prev_hash: prev, hash }));
  for await (const page of monthTrail(c, r.month, r.close.seq - 1)) {
    for (const e of page) {
      line(Number(e.seq), (e.entry_at as Date).toISOString(), e.kind, e.subject, e.content, e.prev_hash, e.hash);
    }
  }
  const x = r.close;
  line(x.seq, x.at, x.kind, x.subject, x.content, x.prevHash, x.hash);
  await writeFile(file, lines.length > 0 ? `${lines.join('\n')}\n` : '', 'utf8');
}

/** Leftover work folders of a pack that was killed half-way (removed before the next). */
export async function removeEvidenceLeftovers(reportsDir: string): Promise<void> {
  for (const name of await readdir(reportsDir).catch(() => [] as string[])) {
    if (name.startsWith('.evidence-')) await rm(path.join(reportsDir, name), { recursive: true, force: true });
  }
}
