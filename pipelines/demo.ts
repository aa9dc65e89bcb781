// recon demo (make run): the embedded sandbox in-process with a seeded dataset holding anomalies, two
// nights of the nightly job (the second after the service restated some disbursements), then the close
// of the dataset's last full month, and an at-a-glance summary.
import path from 'node:path';
import type { Logger } from 'pino';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { makeFolder } from '../src/files.js';
import { EXIT, UsageError, type ExitCode } from '../src/errors.js';
import type { Config } from './config.js';
import { writeStatements } from '../sandbox/statements.js';
import { plantEveryKind, startSandbox, type Sandbox } from '../sandbox/index.js';
import { runNightly, type NightlyOutcome } from './nightly.js';
import type { Notices } from './run.js';
import { runClose, type CloseOutcome } from './monthly-close.js';
import { demoOutlets } from '../src/outlets/demo.js';
import { layoutOf } from './settings.js';

interface DemoOptions {
  seed: number;
  disbursements: number;
  anomalyRate: number;
  /** The sandbox enforces the service's limit in a window this many times shorter than a minute. */
  timeCompression: number;
}

export interface DemoOutcome {
  code: ExitCode;
  nights: NightlyOutcome[];
  close: CloseOutcome | null;
  month: string;
  db: string;
  published: string;
  anomaliesPlanted: number;
  /** Where each outlet's output went, and the last alert document, in words. */
  outlets: string;
}

/** What the demo tells as it goes (the CLI prints it). */
interface DemoEvents {
  sandbox?: (s: {
    url: string;
    seed: number;
    disbursements: number;
    anomalies: number;
    timeCompression: number;
  }) => void;
  night?: (n: number, outcome: NightlyOutcome) => void;
  statements?: (s: { files: number; dir: string; planted: number }) => void;
}

/**
 * A chart of accounts as a small company's books might have it: one account per journal role, a USD bank of its own.
 * The journal tests post to it too, so the chart the demo shows is one every ledger format accepts.
 */
export const DEMO_CHART = `role,currency,code,name
bank,*,1010,Operating bank
bank,USD,1020,Bank USD
cash_in_transit,*,1090,Cash in transit
bank_suspense,*,1095,Bank suspense
bank_charges,*,6810,Bank charges
refunds,*,4090,Refunds
fees,*,6820,Payment processing fees
clearing,*,1150,Payments clearing
credit_adjustments,*,4095,Payment adjustments
suspense,*,1199,Reconciliation suspense
rounding,*,6990,Rounding differences
`;

/** Beside a store the demo made, so a second demo may start it afresh and a real store is never touched. */
const markerOf = (db: string) => `${db}.demo`;

/**
 * Every demo starts from an empty store, so `make run` twice tells the same story. Only a store the demo
 * made itself is removed; any other is refused.
 */
async function freshDemoStore(config: Config): Promise<void> {
  if (existsSync(config.db) && !existsSync(markerOf(config.db))) {
    throw new UsageError(
      `${path.resolve(config.db)} is a store the demo did not make; give the demo its own: --db data/demo/recon.duckdb`,
    );
  }
  // the statements too: the sandbox writes new ones each demo, and yesterday's would be imported beside them
  const layout = layoutOf(config);
  const gone = [
    layout.db,
    `${layout.db}.wal`,
    layout.published,
    `${layout.published}.wal`,
    layout.files,
    layout.statements,
    layout.outbox,
  ];
  for (const p of gone) await rm(p, { recursive: true, force: true });
  await makeFolder(layout.dir);
  await writeFile(markerOf(config.db), 'made by recon demo: the next demo starts this store afresh\n');
}


/** The month before the month that follows the end date: the last month the dataset covers entirely. */
export function lastFullMonth(endDate: string): string {
  const next = new Date(Date.parse(endDate) + 86_400_000);
  const month = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() - 1, 1));
  return month.toISOString().slice(0, 7);
}

export async function runDemo(
  settings: Config,
  logger: Logger,
  o: DemoOptions,
  events: DemoEvents & Notices = {},
): Promise<DemoOutcome> {
  await freshDemoStore(settings);
  const endDate = '2026-10-31T22:00:00Z';
  const windowMs = Math.round(60_000 / o.timeCompression);
  const sb: Sandbox = await startSandbox({
    seed: o.seed,
    disbursements: o.disbursements,
    payoutsPerDisbursement: 20,
    endDate,
    anomalies: { rate: o.anomalyRate, plant: plantEveryKind(12) },
    profile: 'realistic', // everything the interface allows: order, field order, a page-size maximum, redirects, …
    rateLimit: { limit: 500, windowMs, blockMs: Math.round(600_000 / o.timeCompression) },
  });
  try {
    events.sandbox?.({
      url: sb.url,
      seed: o.seed,
      disbursements: o.disbursements,
      anomalies: sb.truth.anomalies().length,
      timeCompression: o.timeCompression,
    });
    const config: Config = { ...settings, apiUrl: sb.url, apiKey: sb.apiKey };
    const tuning = { intervalMs: windowMs, blockMs: Math.round(600_000 / o.timeCompression) };
    const nights: NightlyOutcome[] = [];
    // the mail as .eml files, the alerts as JSON, metrics, JUnit and journal CSVs: what would be sent
    const layout = layoutOf(config);
    const outlets = demoOutlets(layout, config.reports);
    // Each night samples the same payments on every demo, so `make run` twice tells the same story.
    const night = (c: Config) =>
      runNightly(c, logger, {
        notice: events.notice,
        tuning: { ...tuning, sampleSeed: `demo-${o.seed}-night-${nights.length + 1}` },
        outlets: outlets.night,
      });
    nights.push(await night(config));
    events.night?.(1, nights[0]!);
    sb.setGeneration(1); // the service restates a few disbursements after delivery
    // by night 2 the bank has sent its statements (four formats, eight planted cases): the run imports them
    const statementsDir = layout.statements;
    const statements = await writeStatements(sb.truth, statementsDir);
    if (nights[0]!.code <= EXIT.EXCEPTIONS) {
      nights.push(await night({ ...config, bankDir: statementsDir }));
      events.night?.(2, nights[1]!);
      events.statements?.({ files: statements.files.length, dir: statementsDir, planted: statements.planted.length });
    }
    const month = lastFullMonth(endDate);
    const last = nights[nights.length - 1]!;
    let close: CloseOutcome | null = null;
    if (last.code <= EXIT.EXCEPTIONS) {
      // the journal in all four formats, posting to a sample chart of accounts; the planted month is provisional,
      // so its files are written only as --provisional-journal writes them: marked PROVISIONAL
      const accounts = path.join(layout.dir, 'accounts-demo.csv');
      await writeFile(accounts, DEMO_CHART);
      const closing: Config = {
        ...config,
        journalFormat: 'generic,quickbooks,xero,netsuite',
        accounts,
        provisionalJournal: true,
      };
      close = await runClose(closing, logger, { month, reissue: true, notice: events.notice, outlets: outlets.close });
    }
    const outcome: DemoOutcome = {
      code: close && close.code !== EXIT.OK ? close.code : last.code,
      nights,
      close,
      month,
      db: path.resolve(config.db),
      published: path.resolve(config.published),
      anomaliesPlanted: sb.truth.anomalies().length,
      outlets: outlets.describe([
        ...nights.map((n, i) => ({ label: `night ${i + 1}`, outlets: n.outlets })),
        { label: 'close', outlets: close?.outlets },
      ]),
    };
    return outcome;
  } finally {
    await sb.close();
  }
}
