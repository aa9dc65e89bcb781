// What the workbooks need beyond the store: where they go, which service they name, the user's rates.
import type { Rates } from '../rates.js';

export interface ReportSettings {
  reportsDir: string;
  /** The service a workbook names (--api-url), else the one the latest run recorded. */
  serviceUrl: string | undefined;
  /** The user's exchange rates (--rates), read when the settings are made: a bad file stops the command (exit 2). */
  rates: Rates | null;
}
