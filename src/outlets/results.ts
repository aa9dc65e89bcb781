// The results file beside each exception workbook (recon-<run>.json) in the shape of dbt's
// run_results.json: one entry per check (unique_id, status pass / warn / fail, failures, timing,
// execution_time, message) plus the findings behind each count, and the run's metadata. Data-quality
// tools and dashboards read it instead of the workbook. Written whole or not at all; streamed, so a
// hundred thousand findings never sit in memory as one document. The JUnit file comes from the same pass.
import type { WriteStream } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { CheckRunResult } from '../checks/index.js';
import type { RunCounters } from '../store/runs.js';
import { redact } from '../api/redact.js';
import { formatMajor } from '../money.js';
import { streamInto, writeFileAtomically } from '../files.js';
import { replaceAtomically } from '../report/workbook-file.js';
import { urlOrigin } from './escape.js';
import { countOf, type CheckCount } from './facts.js';
import { JunitReport } from './junit.js';
import { runFindings, type RunFinding } from './run-findings.js';
import { PACKAGE_VERSION } from './version.js';
import type { MoneyAtStake } from './money-at-stake.js';

const RESULTS_SCHEMA = 'recon.run_results/v1';
/** The stable name beside recon-latest.xlsx. */
export const LATEST_RESULTS = 'recon-latest.json';

type CheckStatus = 'pass' | 'warn' | 'fail' | 'error';

interface ResultsInput {
  runId: string;
  checks: CheckRunResult;
  counts: readonly CheckCount[];
  counters: RunCounters;
  workbook: string;
  serviceUrl: string | null;
  generatedAt: Date;
  secrets: readonly (string | undefined)[];
  /** The run's money at stake per currency (the money_at_stake view), as the workbook's Summary gives it. */
  moneyAtStake: readonly MoneyAtStake[];
}

/** recon-2026-11-23-070307Z-f434.xlsx → recon-2026-11-23-070307Z-f434.json */
export function resultsPathFor(workbook: string): string {
  return workbook.replace(/\.xlsx$/i, '') + '.json';
}

/**
 * pass: no finding; fail: an error finding that needs a person (new or still open); warn: findings
 * otherwise (warnings, or errors a person acknowledged). error is for a check that could not run: today
 * that fails the whole run, which then writes no results file (the JUnit file says so instead).
 */
export function checkStatus(counts: readonly CheckCount[], checkId: string): CheckStatus {
  const needPerson =
    countOf(counts, { checkId, severity: 'error', status: 'new' }) +
    countOf(counts, { checkId, severity: 'error', status: 'open' });
  if (needPerson > 0) return 'fail';
  return findingsOf(counts, checkId) > 0 ? 'warn' : 'pass';
}

/** The run's findings of a check (new, open, acknowledged: what the workbook's Exceptions sheet lists as current). */
function findingsOf(counts: readonly CheckCount[], checkId: string): number {
  return counts.filter((c) => c.checkId === checkId && c.status !== 'resolved').reduce((n, c) => n + c.findings, 0);
}

/**
 * Writes the results file (and the JUnit file when asked) from one pass over the run's findings; returns the paths
 * written.
 */
export async function writeResults(
  connection: DuckDBConnection,
  input: ResultsInput,
  out: { results: string; latest: string | null; junit: string | null },
): Promise<string[]> {
  const junit = out.junit ? new JunitReport(`recon run ${input.runId}`, input.secrets) : null;
  await removeStaleTemporaries(path.dirname(out.results));
  await writeFileAtomically(
    out.results,
    (temp) =>
      streamInto(temp, async (stream) => {
        await put(stream, `{\n"metadata": ${JSON.stringify(metadata(input))},\n"results": [`);
        const pages = runFindings(connection, input.runId)[Symbol.asyncIterator]();
        let pending: RunFinding[] = (await pages.next()).value ?? [];
        let first = true;
        // the runner measures when each check's statement began (from the first) and how long it took; from
        // the check run's start that gives dbt's started_at / completed_at (checks staged together share them)
        for (const check of input.checks.checks) {
          const started = new Date(input.checks.checkedAt.getTime() + check.offsetMs);
          const entry = resultEntry(input, check, started, new Date(started.getTime() + check.ms));
          await put(stream, `${first ? '' : ','}\n${JSON.stringify(entry).slice(0, -1)},"findings":[`);
          first = false;
          junit?.startCheck(check.checkId, entry.severity, entry.execution_time);
          let firstFinding = true;
          for (;;) {
            // a check not in this run's list
            while (pending.length > 0 && pending[0]!.checkId < check.checkId) pending.shift();
            if (pending.length === 0) pending = (await pages.next()).value ?? [];
            if (pending.length === 0 || pending[0]!.checkId !== check.checkId) break;
            const mine = pending.filter((f) => f.checkId === check.checkId);
            pending = pending.slice(mine.length);
            await put(
              stream,
              mine
                .map(
                  (f) =>
                    `${firstFinding && f === mine[0] ? '' : ','}\n${JSON.stringify(findingEntry(f, input.secrets))}`,
                )
                .join(''),
            );
            firstFinding = false;
            for (const f of mine) junit?.finding(f);
          }
          junit?.endCheck();
          await put(stream, ']}');
        }
        await put(
          stream,
          `\n],\n"elapsed_time": ` +
            `${seconds(input.checks.checks.reduce((n, c) => Math.max(n, c.offsetMs + c.ms), 0))}\n}\n`,
        );
      }),
    '--reports / RECON_REPORTS_DIR',
  );
  const written = [out.results];
  if (out.latest) {
    await replaceAtomically(out.results, out.latest);
  }
  if (junit && out.junit) written.push(await junit.write(out.junit));
  return written;
}

function metadata(input: ResultsInput) {
  const c = input.counters;
  return {
    schema_version: RESULTS_SCHEMA,
    generated_at: input.generatedAt.toISOString(),
    invocation_id: input.runId,
    recon_version: PACKAGE_VERSION,
    command: 'run',
    // the checks' verdict, written with the workbook before the snapshot is published (a failure to
    // publish is the run's exit 2: the mail, the alert, the ping and the metrics say so)
    exit_code: input.checks.actionable > 0 ? 1 : 0,
    service: input.serviceUrl ? urlOrigin(input.serviceUrl) : null,
    workbook: input.workbook,
    checked_at: input.checks.checkedAt.toISOString(),
    disbursements:
      c.disbursements_listed === undefined
        ? null
        : {
            listed: c.disbursements_listed,
            read: c.disbursements_loaded ?? 0,
            unchanged: c.disbursements_skipped ?? 0,
            restated: c.restated ?? 0,
            quarantined: c.quarantined ?? 0,
          },
    findings: {
      total: input.checks.findings,
      new: input.checks.byStatus.new,
      open: input.checks.byStatus.open,
      acknowledged: input.checks.byStatus.acknowledged,
      resolved: input.checks.byStatus.resolved,
    },
    // a finding that reports the money of another (a cause's repeat) names it; the cause's money is on its root
    roots:
      'a finding whose cause is another\'s names that root finding in "root"; a root has root null and its cause\'s ' +
      'money in "at_stake" (each cause once, as the workbook\'s Summary and money_at_stake add it)',
    money_at_stake: input.moneyAtStake.map((m) => ({
      currency: m.currency,
      amount: formatMajor(m.subunits, m.currency),
      causes: m.findings,
    })),
  };
}

function resultEntry(input: ResultsInput, check: CheckRunResult['checks'][number], started: Date, completed: Date) {
  const counts = input.counts;
  const id = check.checkId;
  const byStatus = {
    new: countOf(counts, { checkId: id, status: 'new' }),
    open: countOf(counts, { checkId: id, status: 'open' }),
    acknowledged: countOf(counts, { checkId: id, status: 'acknowledged' }),
    resolved: countOf(counts, { checkId: id, status: 'resolved' }),
  };
  const failures = findingsOf(counts, id);
  const errors = counts.some((c) => c.checkId === id && c.severity === 'error' && c.status !== 'resolved');
  return {
    unique_id: `check.recon.${id}`,
    status: checkStatus(counts, id),
    failures,
    severity: failures === 0 ? null : errors ? 'error' : 'warning',
    message:
      failures === 0
        ? null
        : `${failures} finding${failures === 1 ? '' : 's'}: ${byStatus.new} new, ${byStatus.open} still open, ` +
            `${byStatus.acknowledged} acknowledged`,
    execution_time: seconds(check.ms),
    timing: [{ name: 'execute', started_at: started.toISOString(), completed_at: completed.toISOString() }],
    by_status: byStatus,
  };
}

/** One finding; money as exact decimal strings in major units of its currency (subunits when it has none). */
function findingEntry(f: RunFinding, secrets: readonly (string | undefined)[]) {
  const money = (v: bigint | null) => (v === null ? null : f.currency ? formatMajor(v, f.currency) : v.toString());
  return {
    key: f.key,
    status: f.status,
    severity: f.severity,
    disbursement_id: f.disbursementId,
    recipient_id: f.recipientId,
    subject: f.subject,
    currency: f.currency,
    expected: money(f.expected),
    actual: money(f.actual),
    difference: money(f.difference),
    at_stake: f.repeats === null ? money(f.stake) : null,
    detail: redact(f.detail, secrets),
    first_seen: f.firstSeen.toISOString(),
    root: f.repeats,
  };
}

const seconds = (ms: number) => Math.round(ms) / 1000;

/** The temp files of results written by runs that were killed (their process is gone; the run lock is ours). */
const TEMP = /^\.recon-.+\.json\.(\d+)\.[0-9a-f]{8}\.tmp$/;

async function removeStaleTemporaries(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const m = TEMP.exec(name);
    if (m && Number(m[1]) !== process.pid) await rm(path.join(dir, name), { force: true });
  }
}

/** Writes and waits when the stream's buffer is full (a hundred thousand findings never pile up in memory). */
async function put(stream: WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await new Promise<void>((resolve) => stream.once('drain', resolve));
}
