// What the month close needs beyond the store: where its workbook goes, which service it names, and the
// books' time zone its months are counted in.
import type { FourEyes } from '../checks/four-eyes.js';

export interface CloseSettings {
  reportsDir: string;
  /** The service the workbook names (--api-url), else the one the latest run recorded. */
  serviceUrl: string | undefined;
  /** IANA zone (--books-tz): where the close's months begin and end. */
  booksTz: string;
  /** Above these amounts per currency an acceptance of unaccounted money waits for a second person (--four-eyes). */
  fourEyes: FourEyes;
}
