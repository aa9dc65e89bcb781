// The user's chart of accounts (recon close --accounts FILE): which account of their books each journal line
// posts to. A CSV, strictly read:
//   role,currency,code,name
//   bank,*,1010,Operating bank            a role (src/report/journal.ts ROLES) for every currency
//   bank,USD,1020,Bank USD                the same role in one currency: this line wins for USD
// Without a chart the Journal keeps recon's own account names; the ledger formats refuse to be written
// without one (a made-up account is a line the ledger refuses, or worse, books somewhere else).
import { readFileSync, statSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { JOURNAL_ROLES } from '../report/journal.js';
import { safeText } from '../report/safe-text.js';
import type { JournalEntry, JournalRole, LedgerAccount } from '../report/types.js';
import { didYouMean } from '../suggest.js';
import { parseUserCsv } from '../user-csv.js';

export const CHART_HEADER = ['role', 'currency', 'code', 'name'] as const;
const MAX_LINES = 1000;
const MAX_FILE_BYTES = 256 * 1024;
const MAX_TEXT = 200;
const CODE = /^[A-Z]{3}$/;

interface ChartLine extends LedgerAccount {
  /** The line of the file, for messages. */
  line: number;
  role: JournalRole;
  /** A currency code, or '*' for every currency the file does not name for this role. */
  currency: string;
}

export interface ChartOfAccounts {
  /** The file as the user named it. */
  source: string;
  lines: ChartLine[];
}

/** What the asked journal formats need of every account they write: Xero a code, QuickBooks and NetSuite a name. */
export interface ChartNeeds {
  code: string | null;
  name: string | null;
}

const where = (source: string, line?: number) => `--accounts ${source}${line === undefined ? '' : ` line ${line}`}`;

/** A chart's text, or a UsageError naming the line and what is wrong. */
export function parseChartOfAccounts(text: string, source: string): ChartOfAccounts {
  const rows = parseUserCsv(text, where(source), MAX_LINES);
  if (rows[0]?.join(',') !== CHART_HEADER.join(',')) {
    throw new UsageError(
      `${where(source, 1)}: expected the header ${CHART_HEADER.join(',')} (then one line per journal role, ` +
        'e.g. bank,*,1010,Operating bank; see docs/close-and-journal.md)',
    );
  }
  if (rows.length > MAX_LINES + 1) throw new UsageError(`${where(source)}: more than ${MAX_LINES} lines`);
  const seen = new Map<string, number>();
  const lines = rows.slice(1).map((row, i) => chartLine(row, i + 2, source, seen));
  if (lines.length === 0)
    throw new UsageError(`${where(source)}: no accounts below the header (e.g. bank,*,1010,Operating bank)`);
  return { source, lines };
}

function chartLine(row: string[], line: number, source: string, seen: Map<string, number>): ChartLine {
  const at = where(source, line);
  if (row.length !== 4)
    throw new UsageError(`${at}: expected 4 fields (${CHART_HEADER.join(', ')}), found ${row.length}`);
  const [role, currency, code, name] = row as [string, string, string, string];
  if (!(JOURNAL_ROLES as readonly string[]).includes(role)) {
    throw new UsageError(
      `${at}: "${role.slice(0, 40)}" is not a journal role ` +
        `(${JOURNAL_ROLES.join(', ')})${didYouMean(role, JOURNAL_ROLES)}`,
    );
  }
  if (currency !== '*' && !CODE.test(currency)) {
    throw new UsageError(
      `${at}: currency "${currency.slice(0, 12)}" is neither a currency code (three capitals, e.g. EUR) nor * ` +
        `(every currency)`,
    );
  }
  for (const [field, value] of [['code', code], ['name', name]] as const) {
    if (value.length > MAX_TEXT) throw new UsageError(`${at}: the ${field} is longer than ${MAX_TEXT} characters`);
    // written as is into every journal file: a character a spreadsheet would change or run is refused, not altered
    if (safeText(value, 'csv') !== value || /[\r\n\t]/.test(value)) {
      throw new UsageError(
        `${at}: the ${field} "${value.slice(0, 40)}" holds a control character or starts like a spreadsheet formula ` +
          `(=, +, -, @)`,
      );
    }
  }
  if (code === '' && name === '') throw new UsageError(`${at}: ${role} in ${currency} has neither a code nor a name`);
  const key = `${role} ${currency}`;
  const before = seen.get(key);
  if (before !== undefined) throw new UsageError(`${at}: ${role} in ${currency} is already on line ${before}`);
  seen.set(key, line);
  return { line, role: role as JournalRole, currency, code, name };
}

/** The chart at `file` (bounded in size), parsed; a UsageError when it cannot be read or is wrong. */
export function readChartOfAccounts(file: string): ChartOfAccounts {
  let text: string;
  try {
    if (statSync(file).size > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES / 1024} KiB`);
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${where(file)} (RECON_ACCOUNTS): ${(e as Error).message}`);
  }
  return parseChartOfAccounts(text, file);
}

/** The chart's line for a role in a currency: the currency's own, else the role's '*'; null when neither. */
function accountFor(chart: ChartOfAccounts, role: JournalRole, currency: string): ChartLine | null {
  return chart.lines.find((l) => l.role === role && l.currency === currency)
    ?? chart.lines.find((l) => l.role === role && l.currency === '*') ?? null;
}

/**
 * Every line with the account of the user's books it posts to. A role the chart does not map in a line's
 * currency, or an account without what an asked format needs, stops the close: a UsageError naming the role,
 * the currency and how to write the line, raised before anything is written.
 */
export function mapJournal(
  journal: readonly JournalEntry[],
  chart: ChartOfAccounts,
  needs: ChartNeeds,
): JournalEntry[] {
  return journal.map((e) => {
    const account = accountFor(chart, e.role, e.currency);
    if (!account) {
      throw new UsageError(
        `${where(chart.source)}: no account for the journal role ${e.role} in ${e.currency} (recon's ` +
          `"${e.account}"); ` +
          `add a line ${e.role},${e.currency},<code>,<name> or ${e.role},*,<code>,<name>`,
      );
    }
    if (needs.code && account.code === '') {
      throw new UsageError(
        `${where(chart.source, account.line)}: ${e.role} in ${account.currency} has no code, and ${needs.code}`,
      );
    }
    if (needs.name && account.name === '') {
      throw new UsageError(
        `${where(chart.source, account.line)}: ${e.role} in ${account.currency} has no name, and ${needs.name}`,
      );
    }
    return { ...e, ledger: { code: account.code, name: account.name } };
  });
}
