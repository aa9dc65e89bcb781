// The outlets of a monthly close: the journal CSVs for the ledger beside the close workbook, then the mail
// (summary, the workbook attached) and the alert document. Like a night's, they never change the close's
// exit code; the month is closed whether or not they deliver.
import type { Logger } from 'pino';
import { EXIT } from '../errors.js';
import { writeJournalFiles } from './journal-export.js';
import { deliverAll, mailTask, notifyTask, type OutletsReport } from './deliver.js';
import type { CloseOutletSettings } from './settings.js';
import { closeSummary, type CloseEnd } from './summary.js';

export async function withCloseOutlets<T extends CloseEnd>(
  settings: CloseOutletSettings, logger: Logger, close: () => Promise<T>,
): Promise<T & { outlets: OutletsReport }> {
  const startedAt = settings.now();
  let outcome: T;
  try {
    outcome = await close();
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    await deliverClose(settings, logger, startedAt, { code: EXIT.FAILED, month: '', version: null, workbook: null, disbursements: 0, provisional: [], error });
    throw err;
  }
  return Object.assign(outcome, { outlets: await deliverClose(settings, logger, startedAt, outcome) });
}

async function deliverClose(settings: CloseOutletSettings, logger: Logger, startedAt: Date, end: CloseEnd): Promise<OutletsReport> {
  const journalFiles: string[] = [];
  const first = await deliverAll(logger, settings.secrets, [
    settings.journalFormats.length > 0 && end.workbook && end.journal && end.version !== null && (async () => {
      const written = await writeJournalFiles({
        journal: end.journal!, month: end.month, version: end.version!, workbook: end.workbook!, formats: settings.journalFormats, accounts: settings.accounts,
      });
      journalFiles.push(...written.files);
      for (const w of written.warnings) logger.warn({ outlet: 'journal' }, w);
      return `journal: ${written.files.length} CSV file${written.files.length === 1 ? '' : 's'} (${settings.journalFormats.join(', ')}) beside the workbook`;
    }),
  ]);
  const summary = closeSummary({
    ...end, journalFiles, startedAt, finishedAt: settings.now(), serviceUrl: settings.serviceUrl, logFile: settings.logFile,
  }, settings.secrets);
  const rest = await deliverAll(logger, settings.secrets, [
    mailTask(settings, summary),
    notifyTask(settings, summary),
  ]);
  return { delivered: [...first.delivered, ...rest.delivered], warnings: [...first.warnings, ...rest.warnings] };
}
