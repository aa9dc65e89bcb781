// What a command tells its user when it ends: a few plain lines about what happened and what to do.
import path from 'node:path';
import type { CheckRunResult } from '../checks/index.js';
import { EXIT, type ExitCode } from '../errors.js';
import type { SyncResult } from '../../pipelines/sync.js';
import type { NightlyOutcome } from '../../pipelines/nightly.js';
import type { OutletsReport } from '../outlets/deliver.js';

export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

export function describeSync(s: SyncResult): string {
  const parts = [`${s.listed} listed`, `${s.written} read`];
  if (s.restated) parts.push(`${s.restated} restated by the service`);
  parts.push(`${s.skipped} unchanged`);
  if (s.quarantined) parts.push(`${s.quarantined} record${s.quarantined === 1 ? '' : 's'} quarantined`);
  if (s.sampled) parts.push(`${s.sampled} payments looked up`);
  return `disbursements: ${parts.join(', ')}${s.interrupted ? ' (interrupted)' : ''}`;
}

function describeFindings(c: CheckRunResult): string[] {
  const errors = c.byCheck.filter((b) => b.severity === 'error').reduce((n, b) => n + b.count, 0);
  const warnings = c.findings - errors;
  const b = c.byStatus;
  return [
    `findings: ${c.actionable} need a person (${b.new} new, ${b.open} still open), ${b.acknowledged} acknowledged, `
      + `${b.resolved} resolved since the last run`,
    `          ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`,
  ];
}

function describeExit(code: ExitCode): string {
  if (code === EXIT.OK) return 'exit 0: everything reconciles';
  if (code === EXIT.EXCEPTIONS) return 'exit 1: findings need a person; open the workbook';
  if (code === EXIT.LOCKED) return 'exit 3: another run holds the lock';
  return 'exit 2: the run failed (see the message above and the log)';
}

/** What `recon run` ends with: the night's outcome, how long it took and where its log went. */
export function describeRun(r: NightlyOutcome & { elapsedMs: number; logFile: string | null }): string {
  const lines = [`recon run${r.runId ? ` ${r.runId}` : ''}: ${duration(r.elapsedMs)}`];
  if (r.sync) lines.push(`  ${describeSync(r.sync)}`);
  if (r.checks) lines.push(...describeFindings(r.checks).map((l) => `  ${l}`));
  if (r.workbook) lines.push(`  workbook: ${path.resolve(r.workbook)}`);
  if (r.published) lines.push(`  snapshot: ${path.resolve(r.published)} (recon sql "SELECT …")`);
  if (r.logFile) lines.push(`  log: ${path.resolve(r.logFile)}`);
  lines.push(describeOutlets(r.outlets).trimEnd());
  lines.push(`  ${describeExit(r.code)}`);
  return `${lines.filter(Boolean).join('\n')}\n`;
}

/** What the outlets (#29) did, a line each, and what failed (the run's outcome is unchanged either way). */
export function describeOutlets(o: OutletsReport | undefined): string {
  if (!o) return '';
  const lines = [...o.delivered.map((d) => `  ${d}`), ...o.warnings.map((w) => `  warning: ${w} (the outcome is unchanged)`)];
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
