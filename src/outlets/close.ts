// The outlets of a monthly close: the mail (summary, the workbook attached) and the alert document, naming
// the journal files the close wrote (src/close/journal-files.ts: part of the close itself, recorded with it,
// since a reissue reverses them). Like a night's, they never change the close's exit code; the month is
// closed whether or not they deliver.
import type { Logger } from 'pino';
import { EXIT } from '../errors.js';
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
    await deliverClose(settings, logger, startedAt, { code: EXIT.FAILED, month: '', version: null, workbook: null, disbursements: 0, provisional: [],
      error });
    throw err;
  }
  return Object.assign(outcome, { outlets: await deliverClose(settings, logger, startedAt, outcome) });
}

async function deliverClose(settings: CloseOutletSettings, logger: Logger, startedAt: Date, end: CloseEnd): Promise<OutletsReport> {
  const summary = closeSummary({ ...end, startedAt, finishedAt: settings.now(), serviceUrl: settings.serviceUrl, logFile: settings.logFile },
    settings.secrets);
  return deliverAll(logger, settings.secrets, [mailTask(settings, summary), notifyTask(settings, summary)]);
}
