// What the month close needs beyond the store: where its workbook goes, which service it names, the books'
// time zone its months are counted in, the user's chart of accounts and the journal files to write.
import type { FourEyes } from '../checks/four-eyes.js';
import type { ChartOfAccounts } from './chart.js';
import type { JournalFileSettings } from './journal-files.js';

export interface CloseSettings {
  reportsDir: string;
  /** The service the workbook names (--api-url), else the one the latest run recorded. */
  serviceUrl: string | undefined;
  /** IANA zone (--books-tz): where the close's months and the Month sheet's days begin and end. */
  booksTz: string;
  /** Above these amounts per currency an acceptance of unaccounted money waits for a second person (--four-eyes). */
  fourEyes: FourEyes;
  /** The user's chart of accounts (--accounts); null: the Journal keeps recon's account names. */
  chart: ChartOfAccounts | null;
  /** --journal-format and what each ledger's import needs (none asked: no file). */
  journal: JournalFileSettings;
}
