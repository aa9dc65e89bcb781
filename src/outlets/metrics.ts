// --metrics-file: the night as a Prometheus textfile (node_exporter's textfile collector reads *.prom),
// from a prom-client registry of its own, written to a temp file and renamed into place, so the collector
// never reads half a file. Every value is the last run's (gauges): an alert on
// `time() - recon_last_run_timestamp_seconds > 26 * 3600` finds a missed night, one on
// `recon_last_run_success == 0` a failed one.
import { stat, writeFile } from 'node:fs/promises';
import { Gauge, Registry } from 'prom-client';
import type { RunCounters } from '../store/runs.js';
import { formatMajor } from '../money.js';
import { writeFileAtomically } from '../files.js';
import type { NightFacts } from './facts.js';

interface RunMetrics {
  finishedAt: Date;
  durationMs: number;
  exitCode: number;
  /** The run's own counters when it got that far (read from the store with the facts). */
  counters: RunCounters | null;
  facts: NightFacts | null;
  /** The accountants' snapshot, for its age. */
  published: string;
}

export async function metricsText(m: RunMetrics): Promise<string> {
  const registry = new Registry();
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers: [registry] });
  const seconds = (d: Date) => d.getTime() / 1000;

  gauge('recon_last_run_timestamp_seconds', 'When the last recon run ended (Unix time).').set(seconds(m.finishedAt));
  gauge(
    'recon_last_run_exit_code',
    'Exit code of the last recon run: 0 reconciled, 1 findings need a person, 2 failed.',
  ).set(m.exitCode);
  gauge('recon_last_run_success', '1 when the last recon run completed (exit 0 or 1), 0 when it failed.').set(
    m.exitCode <= 1 ? 1 : 0,
  );
  gauge('recon_last_run_duration_seconds', 'How long the last recon run took.').set(m.durationMs / 1000);
  const c = m.counters;
  if (c) {
    gauge('recon_last_run_requests', 'Requests the last run sent to the payments service.').set(c.requests ?? 0);
    gauge('recon_last_run_rate_limited', '429 answers the last run received.').set(c.rate_limited ?? 0);
    gauge('recon_last_run_retries', 'Requests the last run retried.').set(c.retries ?? 0);
    gauge('recon_last_run_disbursements_listed', 'Disbursements the service listed in the last run.').set(
      c.disbursements_listed ?? 0,
    );
    gauge(
      'recon_last_run_disbursements_read',
      'Disbursements the last run read (new, changed or within the lookback).',
    ).set(c.disbursements_loaded ?? 0);
  }
  const f = m.facts;
  if (f) {
    const byCheck = gauge(
      'recon_check_findings',
      'Findings of the last run per check (new, still open and acknowledged), 0 for a check that found nothing.',
      ['check'],
    );
    for (const check of f.checks.checks) byCheck.set({ check: check.checkId }, 0);
    const findings = gauge(
      'recon_findings',
      'Findings of the last run per check and severity (new, still open and acknowledged).',
      ['check', 'severity'],
    );
    const needPerson = gauge(
      'recon_findings_need_person',
      'Findings of the last run that need a person (new or still open), per severity.',
      ['severity'],
    );
    needPerson.set({ severity: 'error' }, 0);
    needPerson.set({ severity: 'warning' }, 0);
    for (const n of f.counts) {
      if (n.status === 'resolved') continue;
      findings.inc({ check: n.checkId, severity: n.severity }, n.findings);
      byCheck.inc({ check: n.checkId }, n.findings);
      if (n.status !== 'acknowledged') needPerson.inc({ severity: n.severity }, n.findings);
    }
    const stake = gauge(
      'recon_money_at_stake',
      'Money at stake in the findings that need a person, in major units of each currency (never added across ' +
        'currencies).',
      ['currency'],
    );
    for (const a of f.moneyAtStake) stake.set({ currency: a.currency }, Number(formatMajor(a.subunits, a.currency)));
    const causes = gauge('recon_open_causes',
      'Causes that need a person (each cause once), by business days since first seen: 0-2, 3-7, 8-30, >30.',
      ['currency', 'age']);
    const aged = gauge('recon_open_causes_at_stake',
      'Money at stake of those causes, in major units of each currency (never added across currencies).',
      ['currency', 'age']);
    const oldest = gauge('recon_oldest_open_cause_business_days',
      'Business days since the oldest cause that needs a person was first seen, per currency.', ['currency']);
    for (const a of f.ageing) {
      const currency = a.currency ?? 'none';
      oldest.set({ currency }, a.oldest);
      for (const b of a.buckets) {
        const age = b.bucket.replace('–', '-').replace('> ', '>');
        causes.set({ currency, age }, b.causes);
        if (a.currency) aged.set({ currency, age }, Number(formatMajor(b.atStake ?? 0n, a.currency)));
      }
    }
    if (f.bank) {
      gauge(
        'recon_bank_unsettled_disbursements',
        'Disbursements no bank credit settled although the statements cover their window.',
      ).set(f.bank.unsettled);
      gauge(
        'recon_bank_awaiting_statement_disbursements',
        'Disbursements whose window no bank statement covers yet.',
      ).set(f.bank.awaiting);
    }
  }
  const published = await stat(m.published).then((s) => s.mtime, () => null);
  if (published) {
    gauge('recon_snapshot_timestamp_seconds', "When the accountants' read-only snapshot was last published.").set(
      seconds(published),
    );
    gauge('recon_snapshot_age_seconds', "Age of the accountants' read-only snapshot when the last run ended.").set(
      Math.max(0, (m.finishedAt.getTime() - published.getTime()) / 1000),
    );
  }
  return registry.metrics();
}

export async function writeMetricsFile(file: string, m: RunMetrics): Promise<string> {
  const text = await metricsText(m);
  await writeFileAtomically(file, (temp) => writeFile(temp, text, 'utf8'), '--metrics-file / RECON_METRICS_FILE');
  return file;
}
