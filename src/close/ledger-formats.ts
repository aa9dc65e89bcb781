// How each accounting system's journal import reads a CSV: its columns in their order, its date, its sign
// convention and the decimals it holds, as its own documentation gives them (docs/close-and-journal.md cites
// each page):
//   quickbooks  QuickBooks Online, Import data → Journal entries: Journal No., Journal Date, Account Name,
//               Description, Debits, Credits, and Name (asked for on an A/R or A/P line only); the lines of
//               one Journal No. are one entry; amounts at 2 decimals
//   xero        Xero's manual journal template: *Narration, *Date (dd mmm yyyy), Description, *AccountCode,
//               *TaxRate, *Amount (positive a debit, negative a credit), two tracking pairs; the lines of one
//               narration and date are one journal, in the organisation's base currency; 2 decimals, 300 lines
//   netsuite    NetSuite's journal entry CSV import: External ID (groups the lines), Date, Subsidiary,
//               Currency, then per line Account, Debit, Credit, Memo; at most 10 digits before the decimal
//               point and 2 after
//   generic     recon's own: Journal, Date (ISO), Currency, Role, Code, Account, Description, Debit, Credit
import { formatIso, isoMinorUnits } from '../money.js';
import type { DateFormat, JournalFormat } from './journal-formats.js';
import type { BookedLine } from '../store/closes.js';

/** One line of a journal file: the line as the close booked it (the account of the user's books, subunits). */
type FileLine = BookedLine;

/** What one journal entry (one file) says on every line. */
export interface EntryText {
  journalNo: string;
  /** Xero's narration: one per journal. */
  narration: string;
  date: Date;
  /** Put before each line's description: PROVISIONAL and/or which entry a reversal reverses. */
  prefix: string;
}

/** What the user tells recon of their ledger (--journal-date-format, --xero-tax-rate, --netsuite-subsidiary). */
export interface LedgerSettings {
  dateFormat: DateFormat;
  xeroTaxRate: string;
  netsuiteSubsidiary: string;
}

/** A field written as it is: an amount is data, never text to neutralise (a credit in Xero is negative). */
export class Raw {
  constructor(readonly text: string) {}
}
export type Field = string | Raw;

export interface Layout {
  title: string;
  header: readonly string[];
  /** The most decimals an amount may have; null: any (ISO 4217's). */
  maxDecimals: number | null;
  /** The most digits before the decimal point; null: no limit documented. */
  maxIntegerDigits: number | null;
  /** The longest journal number the import takes; null: no limit documented. */
  maxJournalNo: number | null;
  /** The most lines one file may hold; null: no limit documented. */
  maxLines: number | null;
  row(line: FileLine, entry: EntryText, s: LedgerSettings): Field[];
}

const amount = (subunits: bigint, currency: string) => new Raw(subunits === 0n ? '' : formatIso(subunits, currency));
const text = (line: FileLine, entry: EntryText) => `${entry.prefix}${line.description}`;
/** NetSuite takes "number name" with Use Account Numbers on, the name alone with it off (the chart says which). */
const netsuiteAccount = (l: FileLine) => [l.code, l.name].filter(Boolean).join(' ');

export const LAYOUTS: Record<JournalFormat, Layout> = {
  generic: {
    title: 'generic',
    header: ['Journal', 'Date', 'Currency', 'Role', 'Code', 'Account', 'Description', 'Debit', 'Credit'],
    maxDecimals: null,
    maxIntegerDigits: null,
    maxJournalNo: null,
    maxLines: null,
    row: (l, e) => [
      e.journalNo,
      formatDate(e.date, 'YYYY-MM-DD'),
      l.currency,
      l.role,
      l.code,
      l.name || l.account,
      text(l, e),
      amount(l.debit, l.currency),
      amount(l.credit, l.currency),
    ],
  },
  quickbooks: {
    title: 'QuickBooks',
    header: ['Journal No.', 'Journal Date', 'Account Name', 'Description', 'Debits', 'Credits', 'Name'],
    maxDecimals: 2,
    maxIntegerDigits: null,
    maxJournalNo: 21,
    maxLines: null,
    row: (l, e, s) => [
      e.journalNo,
      formatDate(e.date, s.dateFormat),
      l.name,
      text(l, e),
      amount(l.debit, l.currency),
      amount(l.credit, l.currency),
      '',
    ],
  },
  xero: {
    title: 'Xero',
    header: [
      '*Narration', '*Date', 'Description', '*AccountCode', '*TaxRate', '*Amount', 'TrackingName1', 'TrackingOption1',
      'TrackingName2', 'TrackingOption2',
    ],
    maxDecimals: 2,
    maxIntegerDigits: null,
    maxJournalNo: null,
    maxLines: 300,
    row: (l, e, s) => [
      e.narration,
      formatDate(e.date, 'D MMM YYYY'),
      text(l, e),
      l.code,
      s.xeroTaxRate,
      new Raw(formatIso(l.debit - l.credit, l.currency)),
      '',
      '',
      '',
      '',
    ],
  },
  netsuite: {
    title: 'NetSuite',
    header: ['External ID', 'Date', 'Subsidiary', 'Currency', 'Account', 'Debit', 'Credit', 'Memo'],
    maxDecimals: 2,
    maxIntegerDigits: 10,
    maxJournalNo: null,
    maxLines: null,
    row: (l, e, s) => [
      e.journalNo,
      formatDate(e.date, s.dateFormat),
      s.netsuiteSubsidiary,
      l.currency,
      netsuiteAccount(l),
      amount(l.debit, l.currency),
      amount(l.credit, l.currency),
      text(l, e),
    ],
  },
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A day (UTC midnight) as an import expects it. */
function formatDate(day: Date, format: DateFormat): string {
  const [y, m, d] = [
    String(day.getUTCFullYear()),
    String(day.getUTCMonth() + 1).padStart(2, '0'),
    String(day.getUTCDate()).padStart(2, '0'),
  ];
  switch (format) {
    case 'YYYY-MM-DD': return `${y}-${m}-${d}`;
    case 'MM/DD/YYYY': return `${m}/${d}/${y}`;
    case 'DD/MM/YYYY': return `${d}/${m}/${y}`;
    case 'DD.MM.YYYY': return `${d}.${m}.${y}`;
    case 'D MMM YYYY': return `${day.getUTCDate()} ${MONTHS[day.getUTCMonth()]} ${y}`;
  }
}

/**
 * Why `layout` cannot hold these lines of `currency` exactly, or null. A ledger that keeps fewer decimals than
 * ISO 4217 gives the currency (KWD and BHD have 3) would round them, one that keeps fewer digits would cut them:
 * the file is not written, and the sentence says so.
 */
export function cannotHold(layout: Layout, currency: string, lines: readonly FileLine[]): string | null {
  const decimals = isoMinorUnits(currency);
  if (layout.maxDecimals !== null && decimals > layout.maxDecimals) {
    return (
      `${currency} has ${decimals} decimals (ISO 4217) and the ${layout.title} journal import holds ` +
        `${layout.maxDecimals}: ` +
      `no ${layout.title} ${currency} file is written; book it by hand or from the generic file`
    );
  }
  if (layout.maxLines !== null && lines.length > layout.maxLines) {
    return (
      `the ${currency} journal has ${lines.length} lines and ${layout.title} imports at most ${layout.maxLines} in ` +
        `one file: ` +
      `no ${layout.title} ${currency} file is written; book it by hand or from the generic file`
    );
  }
  const digits = layout.maxIntegerDigits;
  const magnitude = (l: FileLine) => formatIso(l.debit > l.credit ? l.debit : l.credit, currency);
  const big = digits === null ? undefined : lines.find((l) => magnitude(l).split('.')[0]!.length > digits);
  if (big) {
    return (
      `a ${currency} line of ${magnitude(big)} has more than ${digits} digits before the decimal point, the most ` +
      `the ${layout.title} journal import takes: no ${layout.title} ${currency} file is written; book it by hand or ` +
        `from the generic file`
    );
  }
  return null;
}
