// The accounting systems recon writes the close journal for (journal-export.ts). Kept apart so the
// configuration can check --journal-format without loading the writers.

export const JOURNAL_FORMATS = ['generic', 'quickbooks', 'xero', 'netsuite'] as const;
export type JournalFormat = (typeof JOURNAL_FORMATS)[number];

/** "quickbooks, xero" → ['quickbooks', 'xero']; null when a name is not a known format. */
export function parseJournalFormats(text: string): JournalFormat[] | null {
  const names = text.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (names.length === 0 || !names.every((n): n is JournalFormat => (JOURNAL_FORMATS as readonly string[]).includes(n))) return null;
  return [...new Set(names)];
}
