// The outlets' own settings, built once at the top of a pipeline from the part of the configuration they
// need (a stage never sees the whole Config). A setting that cannot work (--mail-to without an SMTP server, an unreadable
// account mapping) is a misuse found before the run starts; anything failing later is only a warning.
import { hostname } from 'node:os';
import { UsageError } from '../errors.js';
import { readAccountMapping, type AccountMapping } from './accounts.js';
import { urlOrigin } from './escape.js';
import { DEFAULT_LIMITS, type DeliveryLimits } from './limits.js';
import { parseJournalFormats, type JournalFormat } from './journal-formats.js';
import type { MailSettings } from './mail.js';
import type { NotifyDocument } from './notify-schema.js';
import { parseSmtpUrl } from './smtp-url.js';

export interface OutletSettings {
  mail: MailSettings | null;
  notifyUrls: string[];
  pingUrl: string | null;
  metricsFile: string | null;
  junitFile: string | null;
  reportsDir: string;
  published: string;
  serviceUrl: string | null;
  logFile: string | null;
  /** Never in any outlet's output: the API key and the SMTP password. */
  secrets: string[];
  limits: DeliveryLimits;
  now: () => Date;
  /** The demo: each document as it would be posted (`make run` has no webhook to post to). */
  onDocument?: (doc: NotifyDocument) => void | Promise<void>;
}

export interface CloseOutletSettings extends OutletSettings {
  journalFormats: JournalFormat[];
  accounts: AccountMapping;
}

/** The settings the outlets are built from (the configuration's, handed over by the pipeline). */
export interface OutletConfig {
  reports: string;
  published: string;
  mailTo?: string;
  mailFrom?: string;
  smtpUrl?: string;
  mailMaxAttachmentMb?: number;
  notifyUrl?: string[];
  pingUrl?: string;
  metricsFile?: string;
  junit?: string;
  apiUrl?: string;
  apiKey?: string;
  logFile?: string;
  journalFormat?: string;
  journalAccounts?: string;
}

function mailSettings(config: OutletConfig): MailSettings | null {
  if (!config.mailTo) return null;
  if (!config.smtpUrl) {
    throw new UsageError('--mail-to needs an SMTP server: set RECON_SMTP_URL (smtp://user:password@host:587, or smtps://…:465)');
  }
  return {
    to: config.mailTo.split(',').map((a) => a.trim()).filter(Boolean),
    from: config.mailFrom ?? `recon@${hostname()}`,
    transport: { kind: 'smtp', smtp: parseSmtpUrl(config.smtpUrl) },
    maxAttachmentBytes: Math.round((config.mailMaxAttachmentMb ?? 10) * 1_048_576),
  };
}

export function outletSettings(config: OutletConfig, overrides: Partial<OutletSettings> = {}): OutletSettings {
  const mail = mailSettings(config);
  return {
    mail,
    notifyUrls: config.notifyUrl ?? [],
    pingUrl: config.pingUrl ?? null,
    metricsFile: config.metricsFile ?? null,
    junitFile: config.junit ?? null,
    reportsDir: config.reports,
    published: config.published,
    serviceUrl: config.apiUrl ?? null,
    logFile: config.logFile ?? null,
    secrets: [config.apiKey, mail?.transport.kind === 'smtp' ? mail.transport.smtp.auth?.pass : undefined].filter((s): s is string => !!s),
    limits: DEFAULT_LIMITS,
    now: () => new Date(),
    ...overrides,
  };
}

export function closeOutletSettings(config: OutletConfig, overrides: Partial<CloseOutletSettings> = {}): CloseOutletSettings {
  return {
    ...outletSettings(config),
    journalFormats: config.journalFormat ? parseJournalFormats(config.journalFormat) ?? [] : [],
    accounts: readAccountMapping(config.journalAccounts),
    ...overrides,
  };
}

/**
 * The outlet settings as the runs table may record them: the SMTP URL without its password, the webhook
 * and ping URLs by origin only (their paths are secrets: whoever has them can post or ping).
 */
export function storableOutletOptions(options: Record<string, unknown>): Record<string, unknown> {
  const out = { ...options };
  if (typeof out.smtpUrl === 'string') out.smtpUrl = withoutCredentials(out.smtpUrl);
  if (typeof out.pingUrl === 'string') out.pingUrl = urlOrigin(out.pingUrl);
  if (Array.isArray(out.notifyUrl)) out.notifyUrl = out.notifyUrl.map((u) => urlOrigin(String(u)));
  return out;
}

function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.href;
  } catch {
    return '(not a URL)';
  }
}
