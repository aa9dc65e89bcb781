// Running the outlets of a run together: each at once, each caught, what they did and what failed told
// back as lines for the command's summary; a failure is a warning, never an error of the run.
import type { Logger } from 'pino';
import { redact } from '../api/redact.js';
import { oneLine } from '../errors.js';
import { sendSummaryMail } from './mail.js';
import { notifyDocument, postDocument } from './notify.js';
import type { OutletSettings } from './settings.js';
import type { OutcomeSummary } from './summary.js';

export interface OutletsReport {
  /** One line per outlet that delivered ("mail: sent to …"). */
  delivered: string[];
  /** One line per outlet that failed, with why. */
  warnings: string[];
}

type Task = false | null | undefined | '' | 0 | (() => Promise<string>);

export async function deliverAll(
  logger: Logger,
  secrets: readonly string[],
  tasks: readonly Task[],
): Promise<OutletsReport> {
  const report: OutletsReport = { delivered: [], warnings: [] };
  const settled = await Promise.allSettled(
    tasks.filter((t): t is () => Promise<string> => typeof t === 'function').map((t) => t()),
  );
  for (const s of settled) {
    if (s.status === 'fulfilled') {
      report.delivered.push(s.value);
      logger.info({ outlet: s.value.split(':')[0] }, s.value);
    } else {
      const reason = oneLine(redact(s.reason instanceof Error ? s.reason.message : String(s.reason), secrets));
      report.warnings.push(reason);
      logger.warn({ reason }, `outlet failed; the run's outcome is unchanged: ${reason}`);
    }
  }
  return report;
}

/** The summary mailed (SMTP, or the demo's .eml file), when --mail-to is set. */
export function mailTask(settings: OutletSettings, summary: OutcomeSummary): Task {
  const mail = settings.mail;
  return mail && (async () => {
    const mailed = await sendSummaryMail(mail, summary, settings.limits, settings.secrets);
    if (!mailed.ok) throw new Error(`mail not sent: ${mailed.error}`);
    return mailed.eml
      ? `mail: written to ${mailed.eml}`
      : `mail: sent to ${mail.to.join(', ')}${mailed.attached ? ' (workbook attached)' : ''}`;
  });
}

/** The JSON document posted to every --notify-url (and handed to the demo). */
export function notifyTask(settings: OutletSettings, summary: OutcomeSummary): Task {
  return (settings.notifyUrls.length > 0 || settings.onDocument) && (async () => {
    const doc = notifyDocument(summary);
    await settings.onDocument?.(doc);
    if (settings.notifyUrls.length === 0) return 'alert: document written';
    const posted = await postDocument(settings.notifyUrls, doc, settings.limits);
    const failed = posted.filter((p) => !p.ok);
    if (failed.length > 0)
      throw new Error(
        `alert not delivered to ${failed.length} of ${posted.length} URLs: ` +
          `${failed.map((p) => p.error ?? `HTTP ${p.status}`).join('; ')}`,
      );
    return `alerts: posted to ${posted.length} URL${posted.length === 1 ? '' : 's'}`;
  });
}
