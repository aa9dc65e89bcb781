// --mail-to: the summary as plain text and HTML with the workbook attached (or, over the size limit, named
// with its path), through the SMTP server of RECON_SMTP_URL, bounded in time and attempts. The demo writes
// the same message as an .eml file (nodemailer's stream transport) instead. The SMTP password is only
// handed to nodemailer: errors are redacted before they are logged.
import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTransport } from 'nodemailer';
import { redact } from '../api/redact.js';
import { oneLine } from '../errors.js';
import { writeFileAtomically } from '../files.js';
import { renderHtml, renderText, type AttachmentNote } from './render.js';
import type { DeliveryLimits } from './limits.js';
import type { SmtpSettings } from './smtp-url.js';
import type { OutcomeSummary } from './summary.js';

export interface MailSettings {
  to: string[];
  from: string;
  transport: { kind: 'smtp'; smtp: SmtpSettings } | { kind: 'eml'; dir: string };
  maxAttachmentBytes: number;
}

interface Mailed {
  ok: boolean;
  /** Where the demo's stream transport wrote the message. */
  eml?: string;
  attached: boolean;
  error?: string;
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The workbook goes with the mail when it exists and is not over the limit; otherwise its path is named. */
async function attachmentFor(workbook: string | null, limit: number): Promise<AttachmentNote | null> {
  if (!workbook) return null;
  const bytes = await stat(workbook).then((s) => s.size, () => -1);
  if (bytes < 0) return null;
  return { path: workbook, bytes, limitBytes: limit, attached: bytes <= limit };
}

export async function sendSummaryMail(
  settings: MailSettings,
  s: OutcomeSummary,
  limits: DeliveryLimits,
  secrets: readonly (string | undefined)[],
): Promise<Mailed> {
  const attachment = await attachmentFor(s.workbook, settings.maxAttachmentBytes);
  const message = {
    from: settings.from,
    to: settings.to,
    subject: s.headline,
    text: renderText(s, attachment),
    html: renderHtml(s, attachment),
    attachments: attachment?.attached
      ? [{ filename: path.basename(attachment.path), path: attachment.path, contentType: XLSX }]
      : [],
  };
  const attached = attachment?.attached ?? false;
  if (settings.transport.kind === 'eml') {
    const eml = await writeEml(settings.transport.dir, s, message);
    return { ok: true, eml, attached };
  }
  const smtp = settings.transport.smtp;
  const allSecrets = [...secrets, smtp.auth?.pass];
  let error = 'not sent';
  const deadline = Date.now() + limits.timeoutMs;
  for (let attempt = 1; attempt <= Math.min(limits.attempts, 2); attempt += 1) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    try {
      await sendOnce(smtp, message, left);
      return { ok: true, attached };
    } catch (err) {
      error = oneLine(redact((err as Error).message, allSecrets));
      // a refusal (authentication, a rejected sender or recipient: SMTP 5xx) would be refused again
      const e = err as { code?: string; responseCode?: number };
      if (e.code === 'EAUTH' || e.code === 'EENVELOPE' || (e.responseCode !== undefined && e.responseCode >= 500))
        break;
    }
  }
  return { ok: false, attached, error };
}

async function sendOnce(
  smtp: SmtpSettings,
  message: Parameters<ReturnType<typeof createTransport>['sendMail']>[0],
  timeoutMs: number,
): Promise<void> {
  const transport = createTransport({
    ...smtp,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      transport.sendMail(message),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer from the SMTP server within ${Math.round(timeoutMs / 1000)} s`)),
          timeoutMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}

/** The message as the recipient's mail program would receive it, in a file of its own (whole or absent). */
async function writeEml(
  dir: string,
  s: OutcomeSummary,
  message: Parameters<ReturnType<typeof createTransport>['sendMail']>[0],
): Promise<string> {
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const info = await transport.sendMail(message);
  const name = `${s.kind === 'close' ? `close-${s.close?.month ?? ''}` : `recon-${s.runId ?? 'failed'}`}.eml`.replace(
    /[^A-Za-z0-9._-]/g,
    '_',
  );
  const file = path.join(dir, name);
  await writeFileAtomically(file, (temp) => writeFile(temp, info.message as Buffer));
  return file;
}
