// Configuration: flags > environment > optional JSON config file (--config / RECON_CONFIG) > defaults.
// One table of options, each with its own zod schema; an error names both the flag and the variable to set.
import { isCalendarDate } from '../src/month.js';
import { readRates } from '../src/rates.js';
import { existsSync, readFileSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { UsageError } from '../src/errors.js';
import { parseCron, validateSchedule } from '../src/ops/cron-time.js';
import { didYouMean } from '../src/suggest.js';
import { redact } from '../src/api/redact.js';
import { DEFAULT_FEE_TOLERANCE, parseFeeTolerance } from '../src/bank/fees.js';
import { parseSmtpUrl } from '../src/outlets/smtp-url.js';
import { DATE_FORMATS, JOURNAL_FORMATS, parseJournalFormats } from '../src/close/journal-formats.js';
import { readChartOfAccounts } from '../src/close/chart.js';
import { storeLayout } from '../src/store/layout.js';
import { MAX_KEEP_DAYS } from '../src/retention/settings.js';;
import { postgresUrlProblem, SCHEMA_NAME } from '../src/warehouse/target.js';
import { parseFourEyes } from '../src/checks/four-eyes.js';
import { OWNER_RULE, ownerRulesValue } from '../src/store/owner-rules.js';

interface Option {
  flag: string;
  env?: string;
  type: 'string' | 'boolean';
  /** The flag may be given several times; the variable then holds the values separated by spaces. */
  multiple?: true;
  help: string;
  /** What a value must be, and its default (zod). */
  schema: z.ZodType;
}

/**
 * The least DuckDB memory a sync may have: at 16 MB DuckDB 1.5 invalidated the store at an automatic checkpoint
 * of a 100k-payout backfill ("misaligned count"); 32 MB synced it (docs/performance.md, "Option floors").
 */
const SYNC_MEMORY_FLOOR_MB = 32;

/**
 * A whole number of at least `min`; the CLI names the flag in front of the message ("--lookback-days must be ≥ 0,
 * got -3"), and `why` the floor says why it is there when that is not plain.
 */
const int = (min: number, why?: string) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(min, `must be ≥ ${min}${why ? ` (${why})` : ''}`);

/**
 * A file a stage reads (--rates, --accounts), read as it will be so that a bad one stops the command before anything
 * runs. The CLI names the flag, the variable and the file in front of the message; the reader's own naming of them
 * is left out.
 */
const readableFile = (flag: string, env: string, read: (file: string) => unknown) =>
  z.string().superRefine((file, ctx) => {
    try {
      read(file);
    } catch (e) {
      const named = `--${flag} ${file}`;
      const message = (e as Error).message.replace(`cannot read ${named} (${env}):`, 'cannot be read:');
      ctx.addIssue({
        code: 'custom',
        message: message.startsWith(named) ? message.slice(named.length).replace(/^:? /, '') : message,
      });
    }
  });

/**
 * Every setting recon knows, keyed by its config-file name: its flag, variable, help and schema (with its
 * default) in one place. Commands pick the ones they use (COMMAND_OPTIONS).
 */
const OPTIONS = {
  apiUrl: {
    flag: 'api-url',
    env: 'PAYMENTS_API_URL',
    type: 'string',
    help: 'service base URL, without /payments/v1',
    schema: z
      .string()
      .url()
      .refine(
        (v) => withoutCredentials(v),
        'must not carry credentials (user:password@); the service authenticates with --api-key / PAYMENTS_API_KEY',
      )
      .optional(),
  },
  apiKey: {
    flag: 'api-key',
    env: 'PAYMENTS_API_KEY',
    type: 'string',
    help: 'X-Authentication-Key',
    schema: z.string().min(1).optional(),
  },
  db: {
    flag: 'db',
    env: 'RECON_DB',
    type: 'string',
    help: 'DuckDB store',
    schema: z.string().default('data/recon.duckdb'),
  },
  reports: {
    flag: 'reports',
    env: 'RECON_REPORTS_DIR',
    type: 'string',
    help: 'workbook folder',
    schema: z.string().default('data/reports'),
  },
  published: {
    flag: 'published',
    env: 'RECON_PUBLISHED',
    type: 'string',
    help: 'read-only snapshot (default <db folder>/published/recon.duckdb)',
    schema: z.string().optional(),
  },
  logFile: {
    flag: 'log-file',
    env: 'RECON_LOG_FILE',
    type: 'string',
    help: 'JSON logs to this file instead of stderr (on a terminal: logs/recon.log beside the store)',
    schema: z.string().optional(),
  },
  logLevel: {
    flag: 'log-level',
    env: 'RECON_LOG_LEVEL',
    type: 'string',
    help: 'trace, debug, info, warn or error',
    schema: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  },
  layouts: {
    flag: 'layouts',
    env: 'RECON_LAYOUTS',
    type: 'string',
    help: 'settlement-file layouts (JSON)',
    schema: z.string().optional(),
  },
  ratePerMinute: {
    flag: 'rate-per-minute',
    env: 'RECON_RATE_PER_MINUTE',
    type: 'string',
    help: 'request budget (the service allows 500/min per IP)',
    schema: int(1).default(450),
  },
  budgetFile: {
    flag: 'budget-file',
    env: 'RECON_BUDGET_FILE',
    type: 'string',
    help: 'request budget shared by every recon process on this host (point every store at one file)',
    schema: z.string().min(1).optional(),
  },
  concurrency: {
    flag: 'concurrency',
    env: 'RECON_CONCURRENCY',
    type: 'string',
    help: 'the most disbursements read at once (the sync finds how many the budget needs, from 8, below this)',
    schema: int(1).max(64).default(32),
  },
  perPage: {
    flag: 'per-page',
    env: 'RECON_PER_PAGE',
    type: 'string',
    help: 'page size asked for (default: the largest the service accepts, 1000 down, found once and remembered)',
    schema: int(1).max(1000).optional(),
  },
  lookbackDays: {
    flag: 'lookback-days',
    env: 'RECON_LOOKBACK_DAYS',
    type: 'string',
    help: 're-read disbursements delivered this many days ago or less',
    schema: int(0).default(7),
  },
  since: {
    flag: 'since',
    env: 'RECON_SINCE',
    type: 'string',
    help: 'first backfill from this date (YYYY-MM-DD)',
    schema: z.string().refine(isCalendarDate, 'expected a date YYYY-MM-DD that exists, e.g. 2026-09-01').optional(),
  },
  full: {
    flag: 'full',
    type: 'boolean',
    help: 're-read every disbursement',
    schema: z.coerce.boolean().default(false),
  },
  timeoutMs: {
    flag: 'timeout-ms',
    env: 'RECON_TIMEOUT_MS',
    type: 'string',
    help: 'client time-out per request, and between the chunks of a download (above the service 8 s)',
    schema: int(100).default(10_000),
  },
  memoryMb: {
    flag: 'memory-mb',
    env: 'RECON_MEMORY_MB',
    type: 'string',
    help: 'DuckDB memory limit of a run; beyond it DuckDB spills to <db>.tmp',
    schema: int(64).default(192),
  },
  syncMemoryMb: {
    flag: 'sync-memory-mb',
    env: 'RECON_SYNC_MEMORY_MB',
    type: 'string',
    help: 'DuckDB memory limit while syncing (the rest of the run gets --memory-mb back)',
    schema: int(SYNC_MEMORY_FLOOR_MB, 'below it DuckDB invalidated the store during a backfill').default(64),
  },
  maxLines: {
    flag: 'max-lines',
    env: 'RECON_MAX_LINES',
    type: 'string',
    help: 'lines one disbursement (or one of its files) may hold; beyond it the disbursement is incomplete, the ' +
            'file unparseable',
    schema: int(1).default(250_000),
  },
  maxFileMb: {
    flag: 'max-file-mb',
    env: 'RECON_MAX_FILE_MB',
    type: 'string',
    help: 'largest file downloaded',
    schema: z.coerce.number().positive().default(50),
  },
  sampleBudget: {
    flag: 'sample-budget',
    env: 'RECON_SAMPLE_BUDGET',
    type: 'string',
    help: 'payment details read per run for payment_cross_check (0 = off)',
    schema: int(0).default(100),
  },
  insecureHttp: {
    flag: 'insecure-http',
    env: 'RECON_INSECURE_HTTP',
    type: 'boolean',
    help: 'allow http:// to a non-loopback host',
    schema: z.coerce.boolean().default(false),
  },
  cron: {
    flag: 'cron',
    env: 'RECON_CRON',
    type: 'string',
    help: 'schedule (cron, 5 fields)',
    schema: z
      .string()
      .refine(
        (v) => accepts(() => parseCron(v)),
        'not a 5-field cron expression (minute hour day-of-month month day-of-week), e.g. "30 2 * * *"',
      )
      .default('30 2 * * *'),
  },
  tz: {
    flag: 'tz',
    env: 'RECON_TZ',
    type: 'string',
    help: 'time zone of the schedule',
    schema: z
      .string()
      .refine((v) => accepts(() => validateSchedule('* * * * *', v)), 'not an IANA time zone, e.g. UTC or Europe/Paris')
      .default('UTC'),
  },
  config: {
    flag: 'config',
    env: 'RECON_CONFIG',
    type: 'string',
    help: 'JSON file with any of these settings',
    schema: z.string().optional(),
  },
  bankDir: {
    flag: 'bank-dir',
    env: 'RECON_BANK_DIR',
    type: 'string',
    help: 'folder of bank statements (camt.053, MT940, BAI2, CSV) imported by every run',
    schema: z.string().optional(),
  },
  queryTimeoutS: {
    flag: 'query-timeout-s',
    env: 'RECON_QUERY_TIMEOUT_S',
    type: 'string',
    help: 'recon sql stops a query after this many seconds',
    schema: int(1).default(300),
  },
  maxTempMb: {
    flag: 'max-temp-mb',
    env: 'RECON_MAX_TEMP_MB',
    type: 'string',
    help: 'temporary disk space one recon sql query may use',
    schema: int(16).default(2048),
  },
  bankWindowDays: {
    flag: 'bank-window-days',
    env: 'RECON_BANK_WINDOW_DAYS',
    type: 'string',
    help: 'business days after delivery a bank credit may arrive',
    schema: int(0).max(60).default(3),
  },
  bankFeeTolerance: {
    flag: 'bank-fee-tolerance',
    env: 'RECON_BANK_FEE_TOLERANCE',
    type: 'string',
    help: 'a credit short by at most this is a bank charge: CCY:AMOUNT:PERCENT% entries, * for any other currency, ' +
            'both limits holding',
    schema: z
      .string()
      .refine(
        (v) => parseFeeTolerance(v) !== null,
        'expected CCY:AMOUNT:PERCENT% entries separated by commas, * for every other currency, e.g. ' +
          '"EUR:25:1%,*:10:0.5%" (0:0% for none)',
      )
      .default(DEFAULT_FEE_TOLERANCE),
  },
  rates: {
    flag: 'rates',
    env: 'RECON_RATES',
    type: 'string',
    help: 'CSV of exchange rates (currency,rate_to_XXX,as_of): money at stake ordered and totalled in XXX; without ' +
            'it never across currencies',
    schema: readableFile('rates', 'RECON_RATES', readRates).optional(),
  },
  booksTz: {
    flag: 'books-tz',
    env: 'RECON_BOOKS_TZ',
    type: 'string',
    help: 'time zone of the books: the close counts the calendar months of delivered_at in it',
    schema: z
      .string()
      .refine(
        (v) => accepts(() => new Intl.DateTimeFormat('en', { timeZone: v })) && /^[A-Za-z0-9_+\-/]+$/.test(v),
        'not an IANA time zone, e.g. UTC or Europe/Paris',
      )
      .default('UTC'),
  },
  // outlets: where the night's outcome is delivered (src/outlets)
  mailTo: {
    flag: 'mail-to',
    env: 'RECON_MAIL_TO',
    type: 'string',
    help: 'mail the summary and the workbook to these addresses (comma-separated)',
    schema: z
      .string()
      .refine(
        isAddressList,
        'expected e-mail addresses separated by commas, e.g. "finance@example.com, ops@example.com"',
      )
      .optional(),
  },
  mailFrom: {
    flag: 'mail-from',
    env: 'RECON_MAIL_FROM',
    type: 'string',
    help: 'sender of that mail (default recon@<this host>)',
    schema: z.string().refine(isAddressList, 'expected one e-mail address, e.g. recon@example.com').optional(),
  },
  smtpUrl: {
    flag: 'smtp-url',
    env: 'RECON_SMTP_URL',
    type: 'string',
    help: 'smtp://user:password@host:587 (STARTTLS) or smtps://…:465; prefer the variable (a flag shows in ps)',
    schema: z
      .string()
      .refine(
        (v) => accepts(() => parseSmtpUrl(v)),
        'expected smtp://user:password@host:port or smtps://… (options: ?requireTLS=true, ' +
          '?tls.rejectUnauthorized=false, …)',
      )
      .optional(),
  },
  mailMaxAttachmentMb: {
    flag: 'mail-max-attachment-mb',
    env: 'RECON_MAIL_MAX_ATTACHMENT_MB',
    type: 'string',
    help: 'a larger workbook is named with its path instead of attached',
    schema: z.coerce.number().positive().default(10),
  },
  notifyUrl: {
    flag: 'notify-url',
    env: 'RECON_NOTIFY_URL',
    type: 'string',
    multiple: true,
    help: "POST the run's JSON document here (repeatable; the variable: URLs separated by spaces)",
    schema: z
      .preprocess(spaceSeparated, z.array(z.string().refine(isHttpUrl, 'expected http:// or https:// URLs')))
      .optional(),
  },
  pingUrl: {
    flag: 'ping-url',
    env: 'RECON_PING_URL',
    type: 'string',
    help: 'health pings, healthchecks.io style: /start, the URL on exit 0/1, /fail on 2',
    schema: z
      .string()
      .refine(isHttpUrl, 'expected an http:// or https:// URL, e.g. https://hc-ping.com/<uuid>')
      .optional(),
  },
  metricsFile: {
    flag: 'metrics-file',
    env: 'RECON_METRICS_FILE',
    type: 'string',
    help: 'Prometheus textfile written after each run (node_exporter textfile collector)',
    schema: z.string().optional(),
  },
  junit: {
    flag: 'junit',
    env: 'RECON_JUNIT',
    type: 'string',
    help: 'JUnit XML of the checks, one test case per finding, for CI systems',
    schema: z.string().optional(),
  },
  journalFormat: {
    flag: 'journal-format',
    env: 'RECON_JOURNAL_FORMAT',
    type: 'string',
    help: 'journal CSVs beside the close workbook: generic, quickbooks, xero or netsuite (comma-separated for several)',
    schema: z
      .string()
      .refine(
        (v) => parseJournalFormats(v) !== null,
        `expected ${JOURNAL_FORMATS.join(', ')} (comma-separated for several)`,
      )
      .optional(),
  },
  accounts: {
    flag: 'accounts',
    env: 'RECON_ACCOUNTS',
    type: 'string',
    help: 'CSV of your chart of accounts (role,currency,code,name): the account each journal line posts to; the ' +
            'quickbooks, xero and netsuite files need it',
    schema: readableFile('accounts', 'RECON_ACCOUNTS', readChartOfAccounts).optional(),
  },
  provisionalJournal: {
    flag: 'provisional-journal',
    env: 'RECON_PROVISIONAL_JOURNAL',
    type: 'boolean',
    help: 'a provisional close writes its journal files too, every file name and line marked PROVISIONAL',
    schema: z.coerce.boolean().default(false),
  },
  journalDateFormat: {
    flag: 'journal-date-format',
    env: 'RECON_JOURNAL_DATE_FORMAT',
    type: 'string',
    help: 'date of the quickbooks and netsuite journal files, as the company (QuickBooks) or user (NetSuite) ' +
            'preference reads it',
    schema: z.enum(DATE_FORMATS).default('MM/DD/YYYY'),
  },
  xeroTaxRate: {
    flag: 'xero-tax-rate',
    env: 'RECON_XERO_TAX_RATE',
    type: 'string',
    help: "the *TaxRate of every line of the xero journal files, as Xero's tax settings name it (BAS Excluded, No " +
            "GST, No VAT, …)",
    schema: z.string().trim().min(1).default('Tax Exempt'),
  },
  netsuiteSubsidiary: {
    flag: 'netsuite-subsidiary',
    env: 'RECON_NETSUITE_SUBSIDIARY',
    type: 'string',
    help: 'the Subsidiary of the netsuite journal files (NetSuite OneWorld); left blank without it',
    schema: z.string().trim().min(1).optional(),
  },
  // acknowledgements: who acknowledges (never silently the OS user), how long an ack waits for a run's lock
  ackBy: {
    flag: 'by',
    env: 'RECON_ACK_BY',
    type: 'string',
    help:
      'who does it (recon ack, assign; close records it): required for ack and assign, here or in the variable ' +
      'or the config file',
    schema: z.string().trim().min(1, 'must name who acknowledges').optional(),
  },
  ackWaitS: {
    flag: 'wait',
    env: 'RECON_ACK_WAIT_S',
    type: 'string',
    help: 'seconds recon ack waits for a run that holds the lock (then exit 3)',
    schema: int(0).max(86_400, 'must be ≤ 86400 (a day)').default(0),
  },
  // controls an auditor accepts: a second person above a threshold, and who owns a finding nobody was assigned
  fourEyes: {
    flag: 'four-eyes',
    env: 'RECON_FOUR_EYES',
    type: 'string',
    help:
      'above these amounts (major units per currency, * for any other) an acknowledgement or an acceptance of ' +
      "unaccounted money waits for a second person's approval: EUR:10000,USD:12000",
    schema: z
      .unknown()
      .refine(
        (v) => parseFourEyes(v) !== null,
        'expected CCY:AMOUNT entries separated by commas ' +
          '(major units, * for every other currency), e.g. "EUR:10000,USD:12000", or {"EUR": 10000} in the config file',
      )
      .transform((v) => parseFourEyes(v)!)
      .optional(),
  },
  defaultOwners: {
    flag: 'default-owners',
    env: 'RECON_DEFAULT_OWNERS',
    type: 'string',
    help:
      'owner of a finding nobody was assigned: {"check:<id>": NAME, "currency:<CCY>": NAME, "*": NAME} ' +
      '(or check:<id>=NAME,…); kept in the store until given again',
    schema: z
      .preprocess(
        ownerRulesValue,
        z.record(
          z.string().regex(OWNER_RULE, 'a rule is "check:<check id>", "currency:<CCY>" or "*"'),
          z
            .string()
            .trim()
            .min(1, 'an owner needs a name')
            .max(100, "an owner's name is at most 100 characters")
            .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'no control characters'),
          { error: 'expected {"check:<id>": NAME, "currency:<CCY>": NAME, "*": NAME}' },
        ),
      )
      .optional(),
  },
  keepDays: {
    flag: 'keep-days',
    env: 'RECON_KEEP_DAYS',
    type: 'string',
    help: 'recon prune: keep run workbooks, results, downloaded files and log lines this many days (what an ' +
            'unresolved finding or an unclosed month needs is kept always)',
    schema: int(1).max(MAX_KEEP_DAYS, `must be ≤ ${MAX_KEEP_DAYS} (a century keeps everything)`).default(90),
  },
  archiveAfterMonths: {
    flag: 'archive-after-months',
    env: 'RECON_ARCHIVE_AFTER_MONTHS',
    type: 'string',
    help:
      'recon run: a closed month older than the current month and this many before it leaves the store for Parquet ' +
      'files under archive/ beside it (the snapshot still reads them); 0 (the default) keeps every month in the store',
    schema: int(0).max(1200, 'must be ≤ 1200 (a century)').default(0),
  },
  // the night's results in the team's PostgreSQL (src/warehouse)
  exportPostgres: {
    flag: 'export-postgres',
    env: 'RECON_EXPORT_POSTGRES_URL',
    type: 'string',
    help: 'after each night, its results into this PostgreSQL: postgres://user:password@host/db?sslmode=verify-full ' +
            '(prefer the variable: a flag shows in ps)',
    schema: z
      .string()
      .superRefine((v, ctx) => {
        const problem = postgresUrlProblem(v);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
  },
  pgSchema: {
    flag: 'pg-schema',
    env: 'RECON_PG_SCHEMA',
    type: 'string',
    help: 'PostgreSQL schema the export writes',
    schema: z
      .string()
      .regex(SCHEMA_NAME, 'expected a plain lower-case name (letters, digits, _), e.g. recon')
      .default('recon'),
  },
} as const satisfies Record<string, Option>;
type OptionKey = keyof typeof OPTIONS;

const SYNC: OptionKey[] = [
  'apiUrl', 'apiKey', 'db', 'since', 'full', 'lookbackDays', 'perPage', 'concurrency', 'ratePerMinute', 'budgetFile',
  'timeoutMs', 'maxFileMb', 'maxLines', 'memoryMb', 'syncMemoryMb', 'sampleBudget', 'insecureHttp', 'logFile',
  'layouts',
];
const BANK: OptionKey[] = ['bankDir', 'bankWindowDays', 'bankFeeTolerance'];
const MAIL: OptionKey[] = ['mailTo', 'mailFrom', 'smtpUrl', 'mailMaxAttachmentMb', 'notifyUrl'];
const PG: OptionKey[] = ['exportPostgres', 'pgSchema'];
const RUN: OptionKey[] = [...SYNC, 'reports', 'published', ...BANK, ...MAIL, 'pingUrl', 'metricsFile', 'junit', 'rates',
  'archiveAfterMonths', ...PG, 'defaultOwners'];

/** The settings each command takes (its --help lists them; tests and the bench parse with the same lists). */
export const COMMAND_OPTIONS = {
  run: RUN,
  schedule: [...RUN, 'cron', 'tz'],
  sync: SYNC,
  check: ['db', 'published', 'memoryMb', 'logFile', ...BANK, 'defaultOwners'],
  report: ['db', 'reports', 'published', 'apiUrl', 'memoryMb', 'logFile', 'rates', 'defaultOwners'],
  close: [
    'db',
    'reports',
    'published',
    'apiUrl',
    'memoryMb',
    'logFile',
    'journalFormat',
    'accounts',
    'provisionalJournal',
    'journalDateFormat',
    'xeroTaxRate',
    'netsuiteSubsidiary',
    'booksTz',
    ...MAIL,
    'ackBy',
    'fourEyes',
  ],
  ack: ['db', 'published', 'memoryMb', 'logFile', 'ackBy', 'ackWaitS', 'fourEyes'],
  assign: ['db', 'published', 'memoryMb', 'logFile', 'ackBy', 'ackWaitS'],
  verify: ['db', 'memoryMb', 'logFile'],
  bank: ['db', 'published', 'memoryMb', 'logFile'],
  sql: ['db', 'published', 'memoryMb', 'queryTimeoutS', 'maxTempMb'],
  export: ['db', 'published', 'memoryMb', 'logFile', ...PG],
  prune: ['db', 'reports', 'keepDays', 'memoryMb', 'logFile'],
  demo: ['db', 'reports', 'published', 'memoryMb', 'sampleBudget', 'logFile', 'rates', 'defaultOwners'],
  // the settings a night runs with: the doctor looks at what the night would use
  doctor: [...new Set<OptionKey>([...RUN, ...PG])],
} as const satisfies Record<string, readonly OptionKey[]>;

/** The one schema, assembled from each option's own (types come from it: z.infer). */
const ConfigSchema = z.object(
  Object.fromEntries(Object.entries(OPTIONS).map(([k, o]) => [k, o.schema])) as {
    [K in OptionKey]: (typeof OPTIONS)[K]['schema'];
  },
);

/** Settings whose value is never quoted back in an error: it holds a secret. */
const SECRET_KEYS: ReadonlySet<string> = new Set(['apiKey', 'smtpUrl', 'exportPostgres']);

function isHttpUrl(v: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}

function isAddressList(v: string): boolean {
  const parts = v.split(',').map((a) => a.trim());
  return parts.length > 0 && parts.every((a) => z.email().safeParse(a).success);
}

/** A repeatable setting from a variable or the config file: "a b" or ["a", "b"]. */
function spaceSeparated(v: unknown): unknown {
  return typeof v === 'string' ? v.split(/\s+/).filter(Boolean) : v;
}

/** Every default, read from the schema (help texts show them from here, never written twice). */
const DEFAULTS = ConfigSchema.parse({}) as Record<string, unknown>;
/** True unless the URL carries user:password@ (never stored, never sent: refused). */
function withoutCredentials(v: string): boolean {
  try {
    const u = new URL(v);
    return u.username === '' && u.password === '';
  } catch {
    return true; // not a URL: the url() check above says so
  }
}

function accepts(fn: () => unknown): boolean {
  try {
    fn();
    return true;
  } catch {
    return false;
  }
}

export type Config = z.infer<typeof ConfigSchema> & { published: string };

export interface Parsed {
  config: Config;
  positionals: string[];
  extra: Record<string, string | boolean | undefined>;
}

/**
 * Parse argv for a command that accepts `keys` plus its own `extraFlags`. Env and the config file fill
 * what flags leave out; validation errors name the flag and the variable.
 */
export function parseCommandArgs(
  argv: string[],
  keys: readonly OptionKey[],
  extraFlags: Record<string, { type: 'string' | 'boolean'; short?: string }> = {},
  env: NodeJS.ProcessEnv = process.env,
): Parsed {
  const all = [...new Set<OptionKey>([...keys, 'config', 'logLevel'])];
  const flagOptions: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {
    ...extraFlags,
  };
  for (const k of all)
    flagOptions[OPTIONS[k].flag] = {
      type: OPTIONS[k].type,
      ...((OPTIONS[k] as Option).multiple ? { multiple: true } : {}),
    };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: joinNegativeValues(argv, flagOptions),
      options: flagOptions,
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw argsError(err as NodeJS.ErrnoException, Object.keys(flagOptions));
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const envOf = (k: OptionKey) => ('env' in OPTIONS[k] ? env[(OPTIONS[k] as Option).env!] : undefined);
  const configPath = (values.config as string | undefined) ?? envOf('config');
  const fromFile = configPath ? readConfigFile(configPath) : {};
  const merged: Record<string, unknown> = {};
  const source: Record<string, string> = {};
  for (const k of all) {
    const flag = `--${OPTIONS[k].flag}`;
    source[k] =
      values[OPTIONS[k].flag] !== undefined
        ? flag
        : envOf(k)
          ? `${(OPTIONS[k] as Option).env!} (the variable of ${flag})`
          : `"${k}" in the config file (the setting of ${flag})`;
    const v = values[OPTIONS[k].flag] ?? envOf(k) ?? fromFile[k];
    if (v !== undefined && v !== '')
      merged[k] = OPTIONS[k].type === 'boolean' && typeof v === 'string' ? v === 'true' || v === '1' : v;
  }
  const result = ConfigSchema.safeParse(merged);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const key = String(issue.path[0]) as OptionKey;
    const o = OPTIONS[key] as Option | undefined;
    const where = o ? `--${o.flag}${o.env ? ` / ${o.env}` : ''}` : key;
    const given = merged[key];
    // a number out of range says so in one sentence: "--lookback-days must be ≥ 0, got -3"
    if (
      o &&
      ['too_small', 'too_big', 'invalid_type'].includes(issue.code) &&
      /^must be/.test(issue.message) &&
      (typeof given === 'string' || typeof given === 'number')
    ) {
      const [who, which] = /^(.*?)( \(.*\))?$/.exec(source[key]!)!.slice(1) as [string, string | undefined];
      throw new UsageError(
        `${who} ${issue.message}, got ${String(given)
          .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
          .slice(0, 40)}${which ?? ''}`,
      );
    }
    // the value is quoted back (never the key, and never the credentials or signatures in a URL)
    const shown =
      typeof given === 'string' && !SECRET_KEYS.has(key)
        ? ` "${redact(given, [])
            .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
            .slice(0, 80)}"`
        : '';
    throw new UsageError(`invalid ${where}${shown}: ${issue.message}`);
  }
  const config = result.data as Config;
  config.published = storeLayout(config.db, config.published).published;
  const extra: Record<string, string | boolean | undefined> = {};
  for (const name of Object.keys(extraFlags)) extra[name] = values[name];
  return { config, positionals: parsed.positionals, extra };
}

/**
 * A negative number after a flag that takes a value is that value ("--lookback-days -3"), never a flag of
 * its own: node:util's parseArgs refuses it as ambiguous, so it is joined as "--lookback-days=-3" and
 * the option's own schema then says what is wrong with it.
 */
function joinNegativeValues(
  argv: readonly string[],
  options: Record<string, { type: 'string' | 'boolean' }>,
): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--') return [...out, ...argv.slice(i)];
    const next = argv[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : null;
    if (
      name &&
      !name.includes('=') &&
      options[name]?.type === 'string' &&
      next !== undefined &&
      /^-\d*\.?\d+$/.test(next)
    ) {
      out.push(`${arg}=${next}`);
      i += 1;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** node:util's parseArgs text, in one sentence that points at the command's --help. */
function argsError(err: NodeJS.ErrnoException, flags: string[]): UsageError {
  const option = /'(-[^']*)'/.exec(err.message)?.[1];
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) {
    return new UsageError(
      `unknown option ${option}${didYouMean(option.replace(/^-+/, ''), flags, (f) => `--${f}`)}`,
      true,
    );
  }
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    return new UsageError(
      `option ${option.split(/[ ,]/)[0]} ${/argument missing/.test(err.message) ? 'needs a value' : 'takes no value'}`,
      true,
    );
  }
  return new UsageError(err.message.split('. ')[0]!, true);
}

function readConfigFile(file: string): Record<string, unknown> {
  let values: Record<string, unknown>;
  try {
    values = z.record(z.string(), z.unknown()).parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (err) {
    throw new UsageError(`cannot read the config file ${file} (--config / RECON_CONFIG): ${(err as Error).message}`);
  }
  for (const key of Object.keys(values)) {
    if (!(key in OPTIONS) || key === 'config') {
      throw new UsageError(
        `unknown setting "${key}" in the config file ${file}${didYouMean(key, Object.keys(OPTIONS))}; ` +
          'a key is its flag in camelCase (--lookback-days: "lookbackDays"), as the Key column of ' +
            'docs/configuration.md lists them',
      );
    }
  }
  return values;
}

/** For commands that read an existing store: a missing one is a mistyped --db, never a new empty store. */
export function requireExistingStore(config: Config): void {
  if (!existsSync(config.db)) {
    throw new UsageError(`no store at ${path.resolve(config.db)}; run \`recon run\` first or check --db / RECON_DB`);
  }
}

/** The service settings a command that talks to the service needs, or a message saying what to set. */
export function requireService(config: Config): { apiUrl: string; apiKey: string } {
  if (!config.apiUrl)
    throw new UsageError('no service URL: pass --api-url or set PAYMENTS_API_URL (the base URL, without /payments/v1)');
  if (!config.apiKey) throw new UsageError('no API key: pass --api-key or set PAYMENTS_API_KEY');
  const url = new URL(config.apiUrl);
  // 127.0.0.0/8 by address only: a name such as 127.0.0.1.example.com is a remote host like any other.
  const loopback =
    ['localhost', '[::1]'].includes(url.hostname) || (isIPv4(url.hostname) && url.hostname.startsWith('127.'));
  if (url.protocol === 'http:' && !loopback && !config.insecureHttp) {
    throw new UsageError(
      `refusing to send the API key over plain http:// to ${url.host}; use https:// or pass --insecure-http ` +
        `(RECON_INSECURE_HTTP=1)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--api-url must be http(s), got ${url.protocol}`);
  return { apiUrl: config.apiUrl.replace(/\/+$/, '').replace(/\/payments\/v1$/, ''), apiKey: config.apiKey };
}

/** Usage text lines for a set of options, and the two every command takes (--config, --log-level). */
export function optionsHelp(keys: readonly OptionKey[]): string {
  return [...new Set<OptionKey>([...keys, 'config', 'logLevel'])]
    .map((k) => {
      const o = OPTIONS[k] as Option;
      const left = `--${o.flag}${o.type === 'string' ? ' X' : ''}`;
      const d = DEFAULTS[k];
      const shown = d === undefined || d === false ? '' : ` (default ${String(d)})`;
      return `  ${left.padEnd(22)} ${(o.env ?? '').padEnd(22)} ${o.help}${shown}`;
    })
    .join('\n');
}

/** One row of the options reference: docs/configuration.md's table is generated from these rows. */
export interface OptionReference {
  /** The config-file key; null for --config itself, which a config file cannot name. */
  key: string | null;
  flag: string;
  variable: string | null;
  /** The default the CLI applies, or null when the option is unset unless given. */
  default: string | null;
  meaning: string;
}

/** Every option in the table's order, as the reference page shows it (the CLI reads OPTIONS itself). */
export function optionsReference(): OptionReference[] {
  return (Object.keys(OPTIONS) as OptionKey[]).map((k) => {
    const o = OPTIONS[k] as Option;
    const d = DEFAULTS[k];
    return { key: k === 'config' ? null : k, flag: `--${o.flag}`, variable: o.env ?? null,
      default: d === undefined ? null : String(d), meaning: o.help };
  });
}
