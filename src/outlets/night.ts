// The outlets of a night (recon run, recon schedule, the demo): around the run, /start once it holds the
// lock; inside it, once the workbook is written, the results and JUnit files and the facts read from the
// store; after it, the mail, the alerts, the end ping and the metrics, all at once, each bounded. Nothing
// here changes the run's exit code: a failing outlet is a warning in the log and in the report.
import type { DuckDBConnection } from '@duckdb/node-api';
import path from 'node:path';
import type { Logger } from 'pino';
import type { CheckRunResult } from '../checks/index.js';
import { EXIT, oneLine } from '../errors.js';
import type { RunCounters } from '../store/runs.js';
import { redact } from '../api/redact.js';
import { readNightFacts, type NightFacts } from './facts.js';
import type { Delivered } from './http.js';
import { JunitReport } from './junit.js';
import { writeMetricsFile } from './metrics.js';
import { ping, pingEventFor } from './ping.js';
import { renderText } from './render.js';
import { LATEST_RESULTS, resultsPathFor, writeResults } from './results.js';
import { deliverAll, mailTask, notifyTask, type OutletsReport } from './deliver.js';
import type { OutletSettings } from './settings.js';
import { runSummary } from './summary.js';

/** What a night tells its outlets when it ends (pipelines/nightly.ts NightlyOutcome has these). */
interface NightEnd {
  code: number;
  runId: string | null;
  /** The one line the run wrote on stderr when it did not complete (exit 2, or 3: who holds the lock). */
  error?: string | null;
}

export interface NightHooks {
  /** The run holds the lock and begins: /start (not awaited: a slow pinger never delays the night). */
  begin(runId: string): void;
  /** Inside the run, once its workbook is written: results (and JUnit) files, and the facts the rest tell. */
  collect(
    connection: DuckDBConnection,
    run: { runId: string; checks: CheckRunResult; counters: RunCounters; workbook: string },
  ): Promise<void>;
}

export async function withNightOutlets<T extends NightEnd>(
  settings: OutletSettings, logger: Logger, night: (hooks: NightHooks) => Promise<T>,
): Promise<T & { outlets: OutletsReport }> {
  const startedAt = settings.now();
  let started: Promise<Delivered> | null = null;
  let facts: NightFacts | null = null;
  let written: string[] = [];
  const warnings: string[] = [];
  const warn = (what: string, err: unknown) => {
    const reason = oneLine(redact(err instanceof Error ? err.message : String(err), settings.secrets));
    warnings.push(`${what}: ${reason}`);
    logger.warn({ outlet: what, reason }, `${what} failed; the run's outcome is unchanged`);
  };
  const hooks: NightHooks = {
    begin(runId) {
      if (settings.pingUrl) started = ping(settings.pingUrl, 'start', `recon run ${runId} started`, settings.limits);
    },
    async collect(connection, run) {
      try {
        facts = await readNightFacts(connection, run);
      } catch (err) {
        warn('reading the night for the mail, alerts and metrics', err);
        return;
      }
      try {
        const results = resultsPathFor(run.workbook);
        written = await writeResults(
          connection,
          {
            runId: run.runId,
            checks: run.checks,
            counts: facts.counts,
            counters: run.counters,
            workbook: path.resolve(run.workbook),
            serviceUrl: settings.serviceUrl,
            generatedAt: settings.now(),
            secrets: settings.secrets,
            moneyAtStake: facts.moneyAtStake,
          },
          { results, latest: path.join(path.dirname(results), LATEST_RESULTS), junit: settings.junitFile },
        );
      } catch (err) {
        warn('results file', err);
      }
    },
  };

  let outcome: T;
  try {
    outcome = await night(hooks);
  } catch (err) {
    // a misuse found before the run (no service URL, a reports folder that cannot be written): a failed night
    const error = err instanceof Error ? err.message : String(err);
    await deliverNight(
      settings,
      logger,
      { code: EXIT.FAILED, runId: null, error },
      { startedAt, started, facts, written, warnings },
    );
    throw err;
  }
  const outlets = await deliverNight(settings, logger, outcome, { startedAt, started, facts, written, warnings });
  return Object.assign(outcome, { outlets });
}

interface Collected {
  startedAt: Date;
  started: Promise<Delivered> | null;
  facts: NightFacts | null;
  written: string[];
  warnings: string[];
}

async function deliverNight(
  settings: OutletSettings,
  logger: Logger,
  end: NightEnd,
  got: Collected,
): Promise<OutletsReport> {
  const finishedAt = settings.now();
  const results = got.written[0] ?? null;
  const summary = runSummary(
    {
      code: end.code,
      runId: end.runId,
      startedAt: got.startedAt,
      finishedAt,
      serviceUrl: settings.serviceUrl,
      error: end.error ?? null,
      facts: got.facts,
      results,
      logFile: settings.logFile,
    },
    settings.secrets,
  );
  const locked = end.code === EXIT.LOCKED; // the run holding the lock tells everyone; this one only notes it
  const report = await deliverAll(logger, settings.secrets, [
    settings.pingUrl &&
      (async () => {
        const start = await got.started; // sent first, so the pinger sees the start before the end
        const event = pingEventFor(end.code);
        const body = locked
          ? `recon run did not start: ${summary.error ?? 'another run holds the lock'}`
          : renderText(summary);
        const sent = await ping(settings.pingUrl!, event, body, settings.limits);
        const failed = [
          start && !start.ok && `ping /start: ${start.error ?? `HTTP ${start.status}`}`,
          !sent.ok && `ping ${event}: ${sent.error ?? `HTTP ${sent.status}`}`,
        ];
        if (failed.some(Boolean)) throw new Error(failed.filter(Boolean).join('; '));
        return `ping: ${event}`;
      }),
    !locked && mailTask(settings, summary),
    !locked && notifyTask(settings, summary),
    !locked &&
      settings.metricsFile &&
      (async () =>
        `metrics: ${await writeMetricsFile(settings.metricsFile!, {
          finishedAt,
          durationMs: finishedAt.getTime() - got.startedAt.getTime(),
          exitCode: end.code,
          counters: got.facts?.counters ?? null,
          facts: got.facts,
          published: settings.published,
        })}`),
    end.code === EXIT.FAILED &&
      settings.junitFile &&
      !got.written.includes(settings.junitFile) &&
      (async () =>
        `junit: ${await new JunitReport('recon run', settings.secrets)
          .failedRun(summary.error ?? 'the run failed').write(settings.junitFile!)}`),
  ]);
  const files = got.written.map((f, i) => `${i === 0 ? 'results' : 'junit'}: ${f}`);
  return { delivered: [...files, ...report.delivered], warnings: [...got.warnings, ...report.warnings] };
}
