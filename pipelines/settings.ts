// Each stage's settings, built once from the options (flags, variables, the config file: pipelines/config.ts).
// The options stop here: a stage is handed its own settings type and never sees the options, a flag or a
// variable. Facts several stages share are built once too: the store's layout (its folders beside --db)
// and the secrets no stage may write anywhere.
import { hostname, userInfo } from 'node:os';
import path from 'node:path';
import { requireService, type Config } from './config.js';
import { UsageError } from '../src/errors.js';
import type { Secrets } from '../src/api/redact.js';
import { storeLayout, type StoreLayout } from '../src/store/layout.js';
import type { SyncSettings } from '../src/sync/step.js';
import type { BankSettings } from '../src/bank/step.js';
import type { ReportSettings } from '../src/report/settings.js';
import type { CloseSettings } from '../src/close/settings.js';
import type { AccessSettings } from '../src/access/settings.js';
import type { RetentionSettings } from '../src/retention/settings.js';
import type { ArchiveSettings } from '../src/store/archive.js';
import type { DoctorSettings } from '../src/doctor/settings.js';
import type { CloseOutletSettings, OutletSettings } from '../src/outlets/settings.js';
import type { MailSettings } from '../src/outlets/mail.js';
import { DEFAULT_LIMITS } from '../src/outlets/limits.js';
import { parseSmtpUrl } from '../src/outlets/smtp-url.js';
import { LEDGER_FORMATS, parseJournalFormats } from '../src/close/journal-formats.js';
import { CHART_HEADER, readChartOfAccounts } from '../src/close/chart.js';
import { JOURNAL_ROLES } from '../src/report/journal.js';
import { urlOrigin } from '../src/outlets/escape.js';
import { readRates } from '../src/rates.js';
import type { JobSettings } from './job.js';
import type { OutputPath } from '../src/access/own-files.js';
import { parsePostgresUrl, postgresSecrets, storableWarehouseOptions } from '../src/warehouse/target.js';
import type { PostgresExportSettings } from '../src/warehouse/export.js';
import type { Actor } from '../src/store/trail.js';

/** The store's folders, from --db (and --published). */
export function layoutOf(config: Pick<Config, 'db' | 'published'>): StoreLayout {
  return storeLayout(config.db, config.published);
}

/**
 * Every secret the options hold: the API key, the SMTP password, the PostgreSQL password. No stage writes any
 * of them anywhere.
 */
export function secretsOf(config: Pick<Config, 'apiKey' | 'smtpUrl' | 'exportPostgres'>): Secrets {
  const smtpPassword = config.smtpUrl ? smtpPasswordOf(config.smtpUrl) : undefined;
  return [config.apiKey, smtpPassword, ...postgresSecrets(config.exportPostgres)]
    .filter((s): s is string => typeof s === 'string' && s.length > 0);
}

function smtpPasswordOf(url: string): string | undefined {
  try {
    return parseSmtpUrl(url).auth?.pass;
  } catch {
    return undefined; // the option's own schema refuses it
  }
}

/** What every store-writing command needs: the store, its memory, and what must never be recorded. */
export function jobSettings(config: Config): JobSettings {
  return {
    layout: layoutOf(config), memoryMb: config.memoryMb, secrets: secretsOf(config), options: storableOptions(config), outputs: outputsOf(config),
    actor: actorOf(config),
  };
}

/**
 * Who runs a command: the person named (--by, RECON_ACK_BY or "ackBy"; null when none is), and the
 * operating-system user and host, which the trail and the workbooks show beside the name (anyone can type
 * a name; the account that ran recon is what the machine says).
 */
export function actorOf(config: Partial<Pick<Config, 'ackBy'>>): Actor {
  let osUser: string | null;
  try {
    osUser = userInfo().username;
  } catch {
    osUser = null; // a uid without a passwd entry (some containers): the host still says where
  }
  return { by: config.ackBy?.trim() || null, osUser, host: hostname() };
}

/**
 * The paths the user names that recon writes. Each is refused before a run starts when it is one of
 * recon's own files (the store, its lock and WAL, the downloaded files, the snapshot), save what the option
 * is meant to write: the log may go under logs/, the snapshot is --published's own.
 */
export function outputsOf(config: Partial<Config>): OutputPath[] {
  const out: OutputPath[] = [];
  const add = (flag: string, p: string | undefined, allowed: OutputPath['allowed'] = []) => {
    if (p) out.push({ flag, path: p, allowed });
  };
  add('--budget-file / RECON_BUDGET_FILE', config.budgetFile);
  add('--metrics-file / RECON_METRICS_FILE', config.metricsFile);
  add('--junit / RECON_JUNIT', config.junit);
  add('--log-file / RECON_LOG_FILE', config.logFile, ['logs']);
  add('--reports / RECON_REPORTS_DIR', config.reports);
  add('--published / RECON_PUBLISHED', config.published, ['snapshot']);
  return out;
}

/**
 * The options as the runs table records them: never the API key, the SMTP or the PostgreSQL password; the
 * webhook and ping URLs by origin only (their paths are secrets: whoever has them can post or ping).
 */
export function storableOptions(config: Partial<Config>): Record<string, unknown> {
  const { apiKey: _key, ...out } = config as Record<string, unknown>;
  if (typeof out.smtpUrl === 'string') out.smtpUrl = withoutCredentials(out.smtpUrl);
  if (typeof out.pingUrl === 'string') out.pingUrl = urlOrigin(out.pingUrl);
  if (Array.isArray(out.notifyUrl)) out.notifyUrl = out.notifyUrl.map((u) => urlOrigin(String(u)));
  return storableWarehouseOptions(out);
}

/** The PostgreSQL export (--export-postgres, or recon export --postgres URL given as `url`). */
export function warehouseSettings(config: Config, url = config.exportPostgres): PostgresExportSettings | null {
  return url ? { target: parsePostgresUrl(url, config.pgSchema) } : null;
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

export function syncSettings(config: Config): SyncSettings {
  const service = requireService(config);
  return {
    apiUrl: service.apiUrl,
    apiKey: service.apiKey,
    secrets: secretsOf(config),
    insecureHttp: config.insecureHttp,
    ratePerMinute: config.ratePerMinute,
    budgetFile: config.budgetFile ? path.resolve(config.budgetFile) : null,
    concurrency: config.concurrency,
    perPage: config.perPage ?? null,
    lookbackDays: config.lookbackDays,
    since: config.since ? new Date(`${config.since.slice(0, 10)}T00:00:00Z`) : null,
    full: config.full,
    timeoutMs: config.timeoutMs,
    maxFileBytes: Math.round(config.maxFileMb * 1024 * 1024),
    maxLines: config.maxLines,
    sampleBudget: config.sampleBudget,
    layoutsFile: config.layouts,
    filesDir: layoutOf(config).files,
    archiveDir: layoutOf(config).archive,
    syncMemoryMb: config.syncMemoryMb,
    memoryMb: config.memoryMb,
  };
}

export function bankSettings(config: Config): BankSettings {
  return {
    bankDir: config.bankDir ?? null,
    windowDays: config.bankWindowDays,
    feeTolerance: config.bankFeeTolerance,
    secrets: secretsOf(config),
  };
}

export function reportSettings(config: Config): ReportSettings {
  return { reportsDir: config.reports, serviceUrl: config.apiUrl, rates: config.rates ? readRates(config.rates) : null };
}

/**
 * The close's settings. A ledger's journal file without the user's chart of accounts would post to accounts
 * recon made up: refused here, before the close starts, with what the file must say.
 */
export function closeSettings(config: Config): CloseSettings {
  const formats = config.journalFormat ? parseJournalFormats(config.journalFormat) ?? [] : [];
  const ledgers = formats.filter((f) => LEDGER_FORMATS.includes(f));
  if (ledgers.length > 0 && !config.accounts) {
    throw new UsageError(`--journal-format ${ledgers.join(',')} needs your chart of accounts: --accounts FILE (or RECON_ACCOUNTS), a CSV `
      + `with the header ${CHART_HEADER.join(',')} and one line per journal role (${JOURNAL_ROLES.join(', ')}), currency a code or * `
      + 'for every currency, e.g. "bank,*,1010,Operating bank" (docs/close-and-journal.md); the generic format needs none');
  }
  return {
    reportsDir: config.reports, serviceUrl: config.apiUrl, booksTz: config.booksTz, fourEyes: config.fourEyes ?? [],
    chart: config.accounts ? readChartOfAccounts(config.accounts) : null,
    journal: {
      formats, provisional: config.provisionalJournal, dateFormat: config.journalDateFormat,
      xeroTaxRate: config.xeroTaxRate, netsuiteSubsidiary: config.netsuiteSubsidiary ?? '',
    },
  };
}

export function accessSettings(config: Config): AccessSettings {
  return {
    layout: layoutOf(config),
    limits: { memoryMb: config.memoryMb, maxTempMb: config.maxTempMb, timeoutS: config.queryTimeoutS },
  };
}

/** The archive of closed months (recon run): where, and how many months stay in the store. */
export function archiveSettings(config: Pick<Config, 'db' | 'published' | 'archiveAfterMonths'>): ArchiveSettings {
  return { archiveDir: layoutOf(config).archive, afterMonths: config.archiveAfterMonths };
}

export function retentionSettings(config: Config): RetentionSettings {
  const layout = layoutOf(config);
  return {
    keepDays: config.keepDays,
    reportsDir: config.reports,
    filesDir: layout.files,
    logFiles: [...new Set([layout.log, ...(config.logFile ? [path.resolve(config.logFile)] : [])])],
  };
}

export function doctorSettings(config: Config): DoctorSettings {
  let service: DoctorSettings['service'];
  try {
    service = requireService(config);
  } catch (err) {
    service = { error: (err as Error).message };
  }
  return {
    service,
    timeoutMs: config.timeoutMs,
    sampleBudget: config.sampleBudget,
    layout: layoutOf(config),
    reportsDir: path.resolve(config.reports),
    budgetFile: config.budgetFile ? path.resolve(config.budgetFile) : null,
    warehouse: warehouseSettings(config)?.target ?? null,
    outputs: outputsOf(config),
  };
}

function mailSettings(config: Config): MailSettings | null {
  if (!config.mailTo) return null;
  if (!config.smtpUrl) {
    throw new UsageError('--mail-to needs an SMTP server: set RECON_SMTP_URL (smtp://user:password@host:587, or smtps://…:465)');
  }
  return {
    to: config.mailTo.split(',').map((a) => a.trim()).filter(Boolean),
    from: config.mailFrom ?? `recon@${hostname()}`,
    transport: { kind: 'smtp', smtp: parseSmtpUrl(config.smtpUrl) },
    maxAttachmentBytes: Math.round(config.mailMaxAttachmentMb * 1_048_576),
  };
}

/** Where a night's outcome goes; `overrides` are the demo's and the tests' own (an outbox, a clock). */
export function outletSettings(config: Config, overrides: Partial<OutletSettings> = {}): OutletSettings {
  return {
    mail: mailSettings(config),
    notifyUrls: config.notifyUrl ?? [],
    pingUrl: config.pingUrl ?? null,
    metricsFile: config.metricsFile ?? null,
    junitFile: config.junit ?? null,
    reportsDir: config.reports,
    published: layoutOf(config).published,
    serviceUrl: config.apiUrl ?? null,
    logFile: config.logFile ?? null,
    secrets: secretsOf(config),
    limits: DEFAULT_LIMITS,
    now: () => new Date(),
    ...overrides,
  };
}

export function closeOutletSettings(config: Config, overrides: Partial<CloseOutletSettings> = {}): CloseOutletSettings {
  return outletSettings(config, overrides);
}
