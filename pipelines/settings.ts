// Each stage's settings, built once from the configuration (STYLE.md: a stage owns its settings). The
// configuration — flags, environment, config file — stops here: a stage is handed its own small object and
// never sees the whole Config, and nothing below pipelines/ imports src/config.ts.
import path from 'node:path';
import { requireService, type Config } from '../src/config.js';
import type { SyncSettings } from '../src/sync/step.js';
import type { BankSettings } from '../src/bank/step.js';
import type { SessionLimits } from '../src/access/snapshot.js';
import type { OwnFiles } from '../src/access/own-files.js';
import { storableOutletOptions } from '../src/outlets/settings.js';
import { readRates, type Rates } from '../src/rates.js';
import { parsePostgresUrl, postgresSecrets, storableWarehouseOptions } from '../src/warehouse/target.js';
import type { PostgresExportSettings } from '../src/warehouse/export.js';

/** What every store-writing command needs: the store, its memory, and what must never be recorded. */
export interface JobSettings {
  db: string;
  memoryMb: number;
  /** Redacted from every message and the run's recorded options (the API key). */
  secrets: string[];
  /** The run's options as recorded in runs.options: never the key, the SMTP password or a webhook's path. */
  options: Record<string, unknown>;
}

export function jobSettings(config: Config): JobSettings {
  const { apiKey, ...options } = config;
  return {
    db: config.db, memoryMb: config.memoryMb, secrets: [...(apiKey ? [apiKey] : []), ...postgresSecrets(config.exportPostgres)],
    options: storableWarehouseOptions(storableOutletOptions(options)),
  };
}

/** The PostgreSQL export (--export-postgres, or recon export --postgres URL given as `url`). */
export function warehouseSettings(config: Config, url = config.exportPostgres): PostgresExportSettings | null {
  return url ? { target: parsePostgresUrl(url, config.pgSchema) } : null;
}

/** The files beside the store: downloaded files (files/) by content. */
const filesDirOf = (db: string) => path.join(path.dirname(path.resolve(db)), 'files');

export function syncSettings(config: Config): SyncSettings {
  const service = requireService(config);
  return {
    apiUrl: service.apiUrl,
    apiKey: service.apiKey,
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
    filesDir: filesDirOf(config.db),
    syncMemoryMb: config.syncMemoryMb,
    memoryMb: config.memoryMb,
  };
}

export function bankSettings(config: Config): BankSettings {
  return {
    bankDir: config.bankDir ?? null,
    windowDays: config.bankWindowDays,
    feeTolerance: config.bankFeeTolerance,
    secrets: config.apiKey ? [config.apiKey] : [],
  };
}

/** Where workbooks go. */
export interface ReportSettings {
  reportsDir: string;
  /** The service a workbook names (--api-url), else the one the latest run recorded. */
  serviceUrl: string | undefined;
  /** The user's exchange rates (--rates), read when the settings are made: a bad file stops the command (exit 2). */
  rates: Rates | null;
}

/** The books' time zone (--books-tz): where the close's months begin and end. */
export function booksTz(config: Config): string {
  return config.booksTz ?? 'UTC';
}

export function reportSettings(config: Config): ReportSettings {
  return { reportsDir: config.reports, serviceUrl: config.apiUrl, rates: config.rates ? readRates(config.rates) : null };
}

/** The accountants' read-only copy. */
export interface PublishSettings {
  published: string;
}

export function publishSettings(config: Config): PublishSettings {
  return { published: config.published };
}

/** The accountants' session: which files are recon's own, and what one query may use. */
export interface AccessSettings {
  own: OwnFiles;
  limits: SessionLimits;
}

export function accessSettings(config: Config): AccessSettings {
  return {
    own: { db: config.db, published: config.published },
    limits: { memoryMb: config.memoryMb, maxTempMb: config.maxTempMb, timeoutS: config.queryTimeoutS },
  };
}

/** recon prune: what the retention covers (issue 26). */
export interface PruneSettings {
  keepDays: number;
  reportsDir: string;
  filesDir: string;
  /** The JSON log files trimmed to the kept days: --log-file, and the terminal's logs/recon.log beside the store. */
  logFiles: string[];
}

export function pruneSettings(config: Config): PruneSettings {
  const defaultLog = path.join(path.dirname(path.resolve(config.db)), 'logs', 'recon.log');
  return {
    keepDays: config.keepDays,
    reportsDir: config.reports,
    filesDir: filesDirOf(config.db),
    logFiles: [...new Set([defaultLog, ...(config.logFile ? [path.resolve(config.logFile)] : [])])],
  };
}
