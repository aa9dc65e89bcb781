// The accounting systems recon writes the close journal for (journal-files.ts), and the date formats their
// imports take. Kept apart so the configuration can check --journal-format without loading the writers.

export const JOURNAL_FORMATS = ['generic', 'quickbooks', 'xero', 'netsuite'] as const;
export type JournalFormat = (typeof JOURNAL_FORMATS)[number];

/** The three that a ledger imports: each needs the user's chart of accounts (--accounts). */
export const LEDGER_FORMATS: readonly JournalFormat[] = ['quickbooks', 'xero', 'netsuite'];

/** Dates as QuickBooks and NetSuite read them: the company's (QuickBooks) or the user's (NetSuite) date preference. */
export const DATE_FORMATS = ['MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD', 'DD.MM.YYYY'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number] | 'D MMM YYYY';

/** "quickbooks, xero" → ['quickbooks', 'xero']; null when a name is not a known format. */
export function parseJournalFormats(text: string): JournalFormat[] | null {
  const names = text.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (names.length === 0 || !names.every((n): n is JournalFormat => (JOURNAL_FORMATS as readonly string[]).includes(n))) return null;
  return [...new Set(names)];
}
