// recon close --journal-format: the month's Journal (the very lines of the close workbook's Journal
// sheet, balanced per currency) as the CSV each ledger's journal import takes, one file per currency
// beside the workbook (a journal entry has one currency). Amounts exact in major units with the
// currency's decimals; text quoted and never a formula (src/report/csv.ts).
//
//  generic     Journal, Date (ISO), Currency, Account, Recon account, Description, Debit, Credit
//  quickbooks  QuickBooks Online "Import journal entries": Journal No., Journal Date (MM/DD/YYYY), Currency,
//              Account Name (as in the chart of accounts; Parent:Sub), Debits, Credits, Description
//  xero        Xero's manual journal template: *Narration (groups the lines), *Date (dd/mm/yyyy),
//              Description, *AccountCode, *TaxRate, *Amount (positive debit, negative credit), tracking
//  netsuite    NetSuite CSV import of journal entries: External ID (groups the lines), Date, Subsidiary,
//              Currency, Exchange Rate (blank: the day's rate), Memo, Account, Debit, Credit, Line Memo
import { writeFile } from 'node:fs/promises';
import { CSV_EOL, toCsvField } from '../report/csv.js';
import type { JournalEntry } from '../report/types.js';
import { currencyDecimals, formatMajor } from '../money.js';
import { writeFileAtomically } from '../files.js';
import type { AccountMapping, DateFormat } from './accounts.js';
import type { JournalFormat } from './journal-formats.js';

export interface JournalExport {
  journal: readonly JournalEntry[];
  month: string;
  version: number;
  /** The close workbook: the files are named after it. */
  workbook: string;
  formats: readonly JournalFormat[];
  accounts: AccountMapping;
}

/** A field written as it is: an amount is data, never text to neutralise (a credit in Xero is negative). */
class Raw {
  constructor(readonly text: string) {}
}
type Field = string | Raw;

interface Layout {
  header: string[];
  row(entry: JournalEntry, ctx: { journalNo: string; date: string; narration: string; account: string }): Field[];
}

const amount = (subunits: bigint, currency: string) => new Raw(subunits === 0n ? '' : formatMajor(subunits, currency));

const LAYOUTS: Record<JournalFormat, (accounts: AccountMapping) => Layout> = {
  generic: () => ({
    header: ['Journal', 'Date', 'Currency', 'Account', 'Recon account', 'Description', 'Debit', 'Credit'],
    row: (e, c) => [c.journalNo, c.date, e.currency, c.account, e.account, e.description, amount(e.debit, e.currency), amount(e.credit, e.currency)],
  }),
  quickbooks: () => ({
    header: ['Journal No.', 'Journal Date', 'Currency', 'Account Name', 'Debits', 'Credits', 'Description'],
    row: (e, c) => [c.journalNo, c.date, e.currency, c.account, amount(e.debit, e.currency), amount(e.credit, e.currency), e.description],
  }),
  xero: (accounts) => ({
    header: ['*Narration', '*Date', 'Description', '*AccountCode', '*TaxRate', '*Amount', 'TrackingName1', 'TrackingOption1', 'TrackingName2', 'TrackingOption2'],
    row: (e, c) => [c.narration, c.date, e.description, c.account, accounts.xeroTaxRate, new Raw(formatMajor(e.debit - e.credit, e.currency)), '', '', '', ''],
  }),
  netsuite: (accounts) => ({
    header: ['External ID', 'Date', 'Subsidiary', 'Currency', 'Exchange Rate', 'Memo', 'Account', 'Debit', 'Credit', 'Line Memo'],
    row: (e, c) => [c.journalNo, c.date, accounts.netsuiteSubsidiary, e.currency, '', c.narration, c.account, amount(e.debit, e.currency), amount(e.credit, e.currency), e.description],
  }),
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The journal's date, the month's last day, as the import expects it. */
export function formatDate(day: Date, format: DateFormat): string {
  const [y, m, d] = [String(day.getUTCFullYear()), String(day.getUTCMonth() + 1).padStart(2, '0'), String(day.getUTCDate()).padStart(2, '0')];
  switch (format) {
    case 'YYYY-MM-DD': return `${y}-${m}-${d}`;
    case 'MM/DD/YYYY': return `${m}/${d}/${y}`;
    case 'DD/MM/YYYY': return `${d}/${m}/${y}`;
    case 'DD.MM.YYYY': return `${d}.${m}.${y}`;
    case 'D MMM YYYY': return `${day.getUTCDate()} ${MONTHS[day.getUTCMonth()]} ${y}`;
  }
}

const lastDayOf = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0));

/** close-2026-10.xlsx, xero, EUR → close-2026-10-xero-EUR.csv */
export function journalFilePath(workbook: string, format: JournalFormat, currency: string): string {
  return `${workbook.replace(/\.xlsx$/i, '')}-${format}-${currency.replace(/[^A-Za-z0-9]/g, '_')}.csv`;
}

function csvLine(fields: readonly Field[]): string {
  return fields.map((f) => (f instanceof Raw ? f.text : f === '' ? '' : toCsvField(f))).join(',');
}

/** Writes every asked format for every currency of the journal; returns the files and what their ledger may refuse. */
export async function writeJournalFiles(x: JournalExport): Promise<{ files: string[]; warnings: string[] }> {
  const currencies = [...new Set(x.journal.map((e) => e.currency))].sort();
  const files: string[] = [];
  const warnings: string[] = [];
  for (const format of x.formats) {
    const layout = LAYOUTS[format](x.accounts);
    for (const currency of currencies) {
      // a line of nothing adds nothing, and imports refuse a line without an amount
      const lines = x.journal.filter((e) => e.currency === currency && (e.debit !== 0n || e.credit !== 0n));
      if (lines.length === 0) continue;
      if (format === 'netsuite' && currencyDecimals(currency) > 2) {
        warnings.push(`${currency} has ${currencyDecimals(currency)} decimals; NetSuite's journal import takes 2: its ${currency} file is exact but NetSuite may refuse it`);
      }
      const ctx = {
        journalNo: `recon-${x.month}-${x.version}-${currency}`,
        narration: `recon close ${x.month} v${x.version} ${currency}`,
        date: formatDate(lastDayOf(x.month), x.accounts.dateFormat(format)),
      };
      const rows = [layout.header.join(','), ...lines.map((e) => csvLine(layout.row(e, { ...ctx, account: x.accounts.account(e.account, currency) })))];
      const file = journalFilePath(x.workbook, format, currency);
      await writeFileAtomically(file, (temp) => writeFile(temp, rows.join(CSV_EOL) + CSV_EOL, 'utf8'), '--reports / RECON_REPORTS_DIR');
      files.push(file);
    }
  }
  return { files, warnings };
}
