// --journal-accounts FILE: how recon's journal accounts (src/report/journal.ts ACCOUNTS) are called in the
// ledger that imports the journal CSVs, per currency where they differ, and the few settings each system's
// import needs (its date format, Xero's tax rate, NetSuite's subsidiary). Read and checked before the
// close starts: a mistake is a misuse (exit 2), never a file the ledger refuses.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { UsageError } from '../errors.js';
import { ACCOUNTS } from '../report/journal.js';
import { didYouMean } from '../suggest.js';
import type { JournalFormat } from './journal-formats.js';

export const DATE_FORMATS = ['YYYY-MM-DD', 'MM/DD/YYYY', 'DD/MM/YYYY', 'DD.MM.YYYY', 'D MMM YYYY'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

const RECON_ACCOUNTS: readonly string[] = Object.values(ACCOUNTS);
const accountMap = z.record(z.string(), z.string().min(1));
const dateFormat = z.enum(DATE_FORMATS);

const AccountsFile = z.object({
  accounts: accountMap.optional(),
  currencies: z.record(z.string().regex(/^[A-Z]{3}$/, 'a currency code such as EUR'), accountMap).optional(),
  generic: z.object({ dateFormat }).partial().strict().optional(),
  quickbooks: z.object({ dateFormat }).partial().strict().optional(),
  xero: z.object({ dateFormat, taxRate: z.string().min(1) }).partial().strict().optional(),
  netsuite: z.object({ dateFormat, subsidiary: z.string().min(1) }).partial().strict().optional(),
}).strict();
type AccountsFile = z.infer<typeof AccountsFile>;

/** What each system's import expects unless the file says otherwise (US QuickBooks Online and NetSuite, a UK/AU/NZ Xero). */
const DEFAULT_DATE_FORMAT: Record<JournalFormat, DateFormat> = { generic: 'YYYY-MM-DD', quickbooks: 'MM/DD/YYYY', xero: 'DD/MM/YYYY', netsuite: 'MM/DD/YYYY' };

export interface AccountMapping {
  /** The ledger's account for a recon account in a currency (recon's own name when unmapped). */
  account(reconAccount: string, currency: string): string;
  dateFormat(format: JournalFormat): DateFormat;
  xeroTaxRate: string;
  netsuiteSubsidiary: string;
}

export function accountMapping(file: AccountsFile = {}): AccountMapping {
  return {
    account: (name, currency) => file.currencies?.[currency]?.[name] ?? file.accounts?.[name] ?? name,
    dateFormat: (format) => file[format]?.dateFormat ?? DEFAULT_DATE_FORMAT[format],
    xeroTaxRate: file.xero?.taxRate ?? 'Tax Exempt',
    netsuiteSubsidiary: file.netsuite?.subsidiary ?? '',
  };
}

/** Reads and checks the mapping file; a UsageError names the file, the setting and what is wrong. */
export function readAccountMapping(path: string | undefined): AccountMapping {
  if (!path) return accountMapping();
  const where = `the journal account mapping ${path} (--journal-accounts / RECON_JOURNAL_ACCOUNTS)`;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read ${where}: ${(err as Error).message}`);
  }
  const parsed = AccountsFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`${where}: ${issue.path.join('.') || 'the file'}: ${issue.message}`);
  }
  const maps = [parsed.data.accounts ?? {}, ...Object.values(parsed.data.currencies ?? {})];
  for (const name of maps.flatMap((m) => Object.keys(m))) {
    if (!RECON_ACCOUNTS.includes(name)) {
      throw new UsageError(`${where}: "${name}" is not one of recon's journal accounts (${RECON_ACCOUNTS.join(', ')})${didYouMean(name, RECON_ACCOUNTS)}`);
    }
  }
  return accountMapping(parsed.data);
}
