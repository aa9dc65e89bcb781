// What a command tells its user when it ends: a few plain lines about what happened and what to do.
import path from 'node:path';
import type { CheckRunResult } from '../../src/checks/index.js';
import { EXIT, type ExitCode } from '../../src/errors.js';
import type { SyncResult } from '../../src/sync/run.js';
import type { NightlyOutcome } from '../nightly.js';
import type { DemoOutcome } from '../demo.js';
import type { OutletsReport } from '../../src/outlets/deliver.js';
import type { PostgresExportResult } from '../../src/warehouse/export.js';

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

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/** The 429 blocks a sync sat through and their time: a 12-minute night that was 10 minutes of block says so. */
export function describePauses(
  pauses: ReadonlyArray<{ from: number; until: number }> | undefined,
  elapsedMs: number,
): string | null {
  if (!pauses || pauses.length === 0) return null;
  const total = pauses.reduce((ms, p) => ms + (p.until - p.from), 0);
  const shown = pauses
    .slice(0, 3)
    .map((p) => `${hhmm(p.from)}–${hhmm(p.until)}`)
    .join(', ');
  const more = pauses.length > 3 ? ` and ${pauses.length - 3} more` : '';
  return (
    `paused: ${pauses.length} 429 block${pauses.length === 1 ? '' : 's'} (${shown}${more} UTC), ${duration(total)} ` +
      `of the run's ${duration(elapsedMs)}` +
    " — no request could leave; another program on this IP may share the service's 500/min"
  );
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
  const paused = describePauses(r.sync?.pauses, r.elapsedMs);
  if (paused) lines.push(`  ${paused}`);
  if (r.checks) lines.push(...describeFindings(r.checks).map((l) => `  ${l}`));
  if (r.workbook) lines.push(`  workbook: ${path.resolve(r.workbook)}`);
  if (r.published) lines.push(`  snapshot: ${path.resolve(r.published)} (recon sql "SELECT …")`);
  if (r.logFile) lines.push(`  log: ${path.resolve(r.logFile)}`);
  lines.push(describeOutlets(r.outlets).trimEnd());
  if (r.export?.result) lines.push(`  ${describePostgresExport(r.export.result)}`);
  if (r.export?.warning) lines.push(`  warning: ${r.export.warning} (the outcome is unchanged)`);
  lines.push(`  ${describeExit(r.code)}`);
  return `${lines.filter(Boolean).join('\n')}\n`;
}

/** What the outlets did, a line each, and what failed (the run's outcome is unchanged either way). */
export function describeOutlets(o: OutletsReport | undefined): string {
  if (!o) return '';
  const lines = [
    ...o.delivered.map((d) => `  ${d}`),
    ...o.warnings.map((w) => `  warning: ${w} (the outcome is unchanged)`),
  ];
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** What an export to PostgreSQL wrote, on one line. */
export function describePostgresExport(e: PostgresExportResult): string {
  const unchanged = e.months - e.replaced.length;
  const months = (list: string[]) =>
    list.length > 6 ? `${list.slice(0, 5).join(', ')} … ${list.at(-1)}` : list.join(', ');
  return (
    `postgres: ${e.target}: ${e.replaced.length} month${e.replaced.length === 1 ? '' : 's'} replaced` +
    `${e.replaced.length ? ` (${months(e.replaced)})` : ''}, ${unchanged} ` +
      `unchanged${e.removed.length ? `, ${e.removed.length} removed` : ''}, ${e.rows} rows written` +
    `${e.migrations.length ? `; schema migrated: ${e.migrations.join(', ')}` : ''}`
  );
}

/** One line of what a demo night did. */
export function describeNight(n: NightlyOutcome): string {
  if (!n.sync || !n.checks) return `failed (exit ${n.code}); see the log`;
  return (
    `${n.sync.listed} disbursements listed, ${n.sync.written} read, ${n.sync.restated} restated, ` +
      `${n.sync.quarantined} records quarantined; ` +
    `${n.checks.findings} findings (${n.checks.byStatus.new} new, ${n.checks.byStatus.open} open, ` +
      `${n.checks.byStatus.resolved} resolved)`
  );
}

/** What `recon demo` ends with: findings by check, where everything is, and a first query to try. */
export function describeDemo(o: DemoOutcome): string {
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
    lines.push(
      `  ${check.padEnd(width)}  ${String(n.error).padStart(4)} error  ${String(n.warning).padStart(4)} warning`,
    );
  }
  if (byCheck.size === 0) lines.push('  (none)');
  const row = (label: string, value: string) => lines.push(`${label.padEnd(24)}${value}`);
  lines.push('');
  row('DuckDB store:', o.db);
  row('published (read-only):', o.published);
  if (last.workbook) row('exception workbook:', path.resolve(last.workbook));
  if (o.close?.workbook) {
    row(`close ${o.month} (v${o.close.version}):`, path.resolve(o.close.workbook));
    row('close status:', o.close.provisional.length === 0 ? 'final' : `provisional: ${o.close.provisional.join('; ')}`);
  }
  row('exit code:', `${o.code} (${o.code === 0 ? 'reconciled' : o.code === 1 ? 'exceptions found' : 'failed'})`);
  lines.push('Try: npx recon sql "SELECT status, count(*) FROM reconciliation GROUP BY ALL"', '');
  return lines.join('\n') + o.outlets;
}
