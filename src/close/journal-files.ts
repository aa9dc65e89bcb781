// recon close --journal-format: the close's Journal as each ledger's import CSV, one file per format and
// currency beside the workbook (a journal entry has one currency). Three promises to the person importing:
//   - nothing provisional is postable: a provisional close writes no file unless --provisional-journal asks,
//     and then every file name and every line's text says PROVISIONAL;
//   - a reissue reverses: version N first writes, per format and currency, the reversal of the entry still
//     standing (the latest one a file booked that no file reversed: its lines, debits and credits swapped,
//     read from close_journal_lines), then its own entry; importing every file ever written for the month, in
//     the order of docs/close-and-journal.md, nets to version N per account and currency;
//   - exact or absent: amounts at the currency's ISO 4217 decimals, and a currency a ledger cannot hold is
//     refused with a sentence (the reversal and the entry together, so the books never hold half a reissue).
import { writeFile } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { writeFileAtomically } from '../files.js';
import { CSV_EOL, toCsvField } from '../report/csv.js';
import { standingEntries, type BookedFile, type BookedLine } from '../store/closes.js';
import type { JournalFormat } from './journal-formats.js';
import {
  cannotHold, LAYOUTS, Raw, type EntryText, type Field, type Layout, type LedgerSettings,
} from './ledger-formats.js';

export interface JournalFileSettings extends LedgerSettings {
  formats: JournalFormat[];
  /** --provisional-journal: a provisional close writes its files too, each marked PROVISIONAL. */
  provisional: boolean;
}

interface JournalFilesRequest {
  month: string;
  version: number;
  /** The close workbook: the files are named after it. */
  workbook: string;
  /** The close is provisional (exit 1). */
  provisional: boolean;
  /** The version's Journal as booked, every currency. */
  lines: readonly BookedLine[];
}

interface WrittenJournalFiles {
  files: BookedFile[];
  /** Why a file asked for was not written, one sentence each. */
  notes: string[];
}

export const PROVISIONAL = 'PROVISIONAL';

/** The month's last day: the date of every entry and reversal, so the month nets to the latest version. */
const lastDayOf = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0));

export const journalNo = (month: string, version: number, currency: string) => `recon-${month}-${version}-${currency}`;
const reversalNo = (month: string, reversed: number, currency: string) => `recon-${month}-${reversed}R-${currency}`;

/**
 * close-2026-10-v2.xlsx, xero, EUR → close-2026-10-v2-xero-EUR.csv; its reversal of v1 …-xero-EUR-reversal-of-v1.csv
 */
function journalFilePath(
  workbook: string,
  format: JournalFormat,
  currency: string,
  o: { provisional: boolean; reverses?: number },
): string {
  const base = `${workbook.replace(/\.xlsx$/i, '')}${o.provisional ? `-${PROVISIONAL}` : ''}`;
  const reversal = o.reverses === undefined ? '' : `-reversal-of-v${o.reverses}`;
  return `${base}-${format}-${currency.replace(/[^A-Za-z0-9]/g, '_')}${reversal}.csv`;
}

const swapped = (l: BookedLine): BookedLine => ({ ...l, debit: l.credit, credit: l.debit });

/** Writes the asked formats for every currency (reversals first); returns what was written and what was refused. */
export async function writeJournalFiles(
  c: DuckDBConnection, r: JournalFilesRequest, s: JournalFileSettings,
): Promise<WrittenJournalFiles> {
  const out: WrittenJournalFiles = { files: [], notes: [] };
  if (s.formats.length === 0) return out;
  if (r.provisional && !s.provisional) {
    out.notes.push('the close is provisional: no journal file is written (nothing provisional is postable); '
      + `--provisional-journal writes them, every name and line marked ${PROVISIONAL}`);
    return out;
  }
  const marked = r.provisional;
  const date = lastDayOf(r.month);
  for (const format of s.formats) {
    const layout = LAYOUTS[format];
    const standing = new Map((await standingEntries(c, r.month, format)).map((e) => [e.currency, e]));
    const currencies = [...new Set([...r.lines.map((l) => l.currency), ...standing.keys()])].sort();
    for (const currency of currencies) {
      const previous = standing.get(currency);
      const lines = r.lines.filter((l) => l.currency === currency && (l.debit !== 0n || l.credit !== 0n));
      const files: Array<{
        kind: BookedFile['kind'];
        entryVersion: number;
        text: EntryText;
        lines: BookedLine[];
        path: string;
      }> = [];
      const mark = marked ? `${PROVISIONAL} ` : '';
      if (previous) {
        const no = reversalNo(r.month, previous.version, currency);
        files.push({
          kind: 'reversal',
          entryVersion: previous.version,
          lines: previous.lines.filter((l) => l.debit !== 0n || l.credit !== 0n).map(swapped),
          text: {
            journalNo: no,
            date,
            narration: `${mark}recon close ${r.month} v${r.version} ${currency}: reversal of v${previous.version}`,
            prefix: `${marked ? `${PROVISIONAL}: ` : ''}Reversal of ${previous.journalNo}: `,
          },
          path: journalFilePath(r.workbook, format, currency, { provisional: marked, reverses: previous.version }),
        });
      }
      if (lines.length > 0) {
        files.push({
          kind: 'entry',
          entryVersion: r.version,
          lines,
          text: {
            journalNo: journalNo(r.month, r.version, currency),
            date,
            narration: `${mark}recon close ${r.month} v${r.version} ${currency}`,
            prefix: marked ? `${PROVISIONAL}: ` : '',
          },
          path: journalFilePath(r.workbook, format, currency, { provisional: marked }),
        });
      }
      const refusal = files.map((f) => refused(layout, f.lines, f.text.journalNo)).find((x) => x !== null) ?? null;
      if (refusal) {
        out.notes.push(previous ? `${refusal} (nor its reversal of v${previous.version}, which stands)` : refusal);
        continue;
      }
      for (const f of files) {
        await writeCsv(f.path, [layout.header.map((h) => new Raw(h)), ...f.lines.map((l) => layout.row(l, f.text, s))]);
        out.files.push({
          format,
          currency,
          kind: f.kind,
          entryVersion: f.entryVersion,
          journalNo: f.text.journalNo,
          file: f.path,
          provisional: marked,
        });
      }
    }
  }
  return out;
}

/** Why `layout` cannot take this file, or null. */
function refused(layout: Layout, lines: readonly BookedLine[], no: string): string | null {
  if (layout.maxJournalNo !== null && no.length > layout.maxJournalNo) {
    return `the journal number ${no} is longer than the ${layout.maxJournalNo} characters ${layout.title} takes: no ` +
             `${layout.title} file is written`;
  }
  return lines.length === 0 ? null : cannotHold(layout, lines[0]!.currency, lines);
}

function csvLine(fields: readonly Field[]): string {
  return fields.map((f) => (f instanceof Raw ? f.text : f === '' ? '' : toCsvField(f))).join(',');
}

async function writeCsv(file: string, rows: ReadonlyArray<readonly Field[]>): Promise<void> {
  const text = rows.map((r) => csvLine(r)).join(CSV_EOL) + CSV_EOL;
  await writeFileAtomically(file, (temp) => writeFile(temp, text, 'utf8'), '--reports / RECON_REPORTS_DIR');
}
