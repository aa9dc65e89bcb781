// recon demo (make run): the embedded sandbox in-process with a seeded dataset holding anomalies, two
// nights of the nightly job (the second after the service restated some disbursements), then the close
// of the dataset's last full month, and an at-a-glance summary.
import path from 'node:path';
import type { Logger } from 'pino';
import { EXIT, type ExitCode } from '../src/cli/exit-codes.js';
import { parseCommandArgs, type OptionKey } from '../src/config.js';
import { plantEveryKind, startSandbox, type Sandbox } from '../src/sandbox/index.js';
import { runNightly, type NightlyOutcome } from './nightly.js';
import { runMonthlyClose, type CloseOutcome } from './monthly-close.js';

export interface DemoOptions {
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
}

const KEYS: OptionKey[] = ['db', 'reports', 'published', 'memoryMb', 'logFile'];

/** The month before the month that follows the end date: the last month the dataset covers entirely. */
export function lastFullMonth(endDate: string): string {
  const next = new Date(Date.parse(endDate) + 86_400_000);
  const month = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() - 1, 1));
  return month.toISOString().slice(0, 7);
}

export async function runDemo(argv: string[], logger: Logger, o: DemoOptions, out: NodeJS.WritableStream): Promise<DemoOutcome> {
  const endDate = '2026-10-31T22:00:00Z';
  const windowMs = Math.round(60_000 / o.timeCompression);
  const sb: Sandbox = await startSandbox({
    seed: o.seed,
    disbursements: o.disbursements,
    payoutsPerDisbursement: 20,
    endDate,
    anomalies: { rate: o.anomalyRate, plant: plantEveryKind(12) },
    rateLimit: { limit: 500, windowMs, blockMs: Math.round(600_000 / o.timeCompression) },
  });
  try {
    out.write(`sandbox of the payments service on ${sb.url} (seed ${o.seed}, ${o.disbursements} disbursements, `
      + `${sb.truth.anomalies().length} anomalies planted; its 500 requests/min limit runs ${o.timeCompression}× faster)\n`);
    const { config } = parseCommandArgs(['--api-url', sb.url, '--api-key', sb.apiKey, ...argv], [...KEYS, 'apiUrl', 'apiKey', 'sampleBudget']);
    const tuning = { intervalMs: windowMs, blockMs: Math.round(600_000 / o.timeCompression) };
    const nights: NightlyOutcome[] = [];
    nights.push(await runNightly(config, logger, { tuning }));
    out.write(`night 1: ${describeNight(nights[0]!)}\n`);
    sb.setGeneration(1); // the service restates a few disbursements after delivery
    if (nights[0]!.code <= EXIT.EXCEPTIONS) {
      nights.push(await runNightly(config, logger, { tuning }));
      out.write(`night 2: ${describeNight(nights[1]!)}\n`);
    }
    const month = lastFullMonth(endDate);
    const last = nights[nights.length - 1]!;
    let close: CloseOutcome | null = null;
    if (last.code <= EXIT.EXCEPTIONS) {
      close = await runMonthlyClose(config, logger, { month, reissue: true });
    }
    const outcome: DemoOutcome = {
      code: close && close.code !== EXIT.OK ? close.code : last.code,
      nights, close, month,
      db: path.resolve(config.db),
      published: path.resolve(config.published),
      anomaliesPlanted: sb.truth.anomalies().length,
    };
    out.write(summary(outcome));
    return outcome;
  } finally {
    await sb.close();
  }
}

function describeNight(n: NightlyOutcome): string {
  if (!n.sync || !n.checks) return `failed (exit ${n.code}); see the log`;
  return `${n.sync.listed} disbursements listed, ${n.sync.written} read, ${n.sync.restated} restated, ${n.sync.quarantined} records quarantined; `
    + `${n.checks.findings} findings (${n.checks.byStatus.new} new, ${n.checks.byStatus.open} open, ${n.checks.byStatus.resolved} resolved)`;
}

function summary(o: DemoOutcome): string {
  const last = o.nights[o.nights.length - 1]!;
  const lines = ['', 'Findings by check (last night):'];
  const byCheck = new Map<string, { error: number; warning: number }>();
  for (const b of last.checks?.byCheck ?? []) {
    const e = byCheck.get(b.checkId) ?? { error: 0, warning: 0 };
    e[b.severity] += b.count;
    byCheck.set(b.checkId, e);
  }
  const width = Math.max(10, ...[...byCheck.keys()].map((k) => k.length));
  for (const [check, n] of [...byCheck.entries()].sort()) {
    lines.push(`  ${check.padEnd(width)}  ${String(n.error).padStart(4)} error  ${String(n.warning).padStart(4)} warning`);
  }
  if (byCheck.size === 0) lines.push('  (none)');
  const row = (label: string, value: string) => lines.push(`${label.padEnd(24)}${value}`);
  lines.push('');
  row('DuckDB store:', o.db);
  row('published (read-only):', o.published);
  if (last.workbook) row('exception workbook:', path.resolve(last.workbook));
  if (o.close?.workbook) row(`close ${o.month} (v${o.close.version}):`, path.resolve(o.close.workbook));
  row('exit code:', `${o.code} (${o.code === 0 ? 'reconciled' : o.code === 1 ? 'exceptions found' : 'failed'})`);
  lines.push(
    `Try: npx recon sql "SELECT status, count(*) FROM reconciliation GROUP BY ALL"`, '');
  return lines.join('\n');
}
