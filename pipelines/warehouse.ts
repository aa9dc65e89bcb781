// The PostgreSQL export as a job: under the store's run lock (the months written are remembered in the
// store), it exports the published snapshot — the last whole night accountants see, never a night still
// running or one that failed half-way — and is recorded as a run of its own (command 'export'). After a
// night (recon run --export-postgres) it runs once the night has released the lock; a failure is then a
// warning on the night: its exit code, findings and workbook stand.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { EXIT, oneLine, type ExitCode } from '../src/errors.js';
import { redact } from '../src/api/redact.js';
import { openReadOnly, SnapshotMissingError } from '../src/store/publish.js';
import { addRunWarning, publishedRunId } from '../src/store/run-notes.js';
import {
  exportToPostgres, type PostgresExportResult, type PostgresExportRun, type PostgresExportSettings,
} from '../src/warehouse/export.js';
import { withRun, type Notices } from './run.js';
import { runSettings, layoutOf } from './settings.js';
import { UsageError } from '../src/errors.js';

interface PostgresExportOutcome {
  code: ExitCode;
  result: PostgresExportResult | null;
  /** Why it did not complete, on one line without the password. */
  error: string | null;
}

type ExportOptions = Notices & Pick<PostgresExportRun, 'beforeCommit' | 'onMonth'> & {
  /** The night this export follows: a failure is added to its runs row too. */
  nightRunId?: string;
};

export async function runPostgresExport(
  config: Config,
  settings: PostgresExportSettings,
  logger: Logger,
  opts: ExportOptions = {},
): Promise<PostgresExportOutcome> {
  const job = runSettings(config);
  const secrets = [...job.secrets, ...settings.target.secrets];
  const out: PostgresExportOutcome = { code: EXIT.FAILED, result: null, error: null };
  const { published } = layoutOf(config);
  out.code = await withRun(
    'export',
    { ...job, secrets },
    logger,
    async (ctx) => {
      const temp = `${path.resolve(config.db)}.export.tmp`;
      try {
        const snapshot = await openSnapshot(published, config.memoryMb, temp);
        try {
          out.result = await exportToPostgres(settings, {
            source: snapshot.connection,
            store: ctx.store.connection,
            runId: ctx.runId,
            snapshotRunId: await publishedRunId(snapshot.connection),
            beforeCommit: opts.beforeCommit,
            onMonth: opts.onMonth,
          });
        } finally {
          snapshot.connection.closeSync();
          snapshot.instance.closeSync();
          await rm(temp, { recursive: true, force: true }).catch(() => undefined);
        }
      } catch (err) {
        const message = oneLine(redact((err as Error).message, secrets));
        if (opts.nightRunId)
          await addRunWarning(ctx.store.connection, opts.nightRunId, `export to PostgreSQL failed: ${message}`).catch(
            () => undefined,
          );
        throw err;
      }
      logger.info(
        {
          runId: ctx.runId,
          target: out.result.target,
          replaced: out.result.replaced,
          removed: out.result.removed,
          rows: out.result.rows,
        },
        'exported to PostgreSQL',
      );
      return EXIT.OK;
    },
    { notice: opts.notice, handleSignals: false, onStopped: (message) => (out.error = message) },
  );
  return out;
}

/** The snapshot, read-only, its temporary files beside the store (DuckDB spills a large view there). */
async function openSnapshot(published: string, memoryMb: number, temp: string) {
  try {
    return await openReadOnly(published, { memory_limit: `${memoryMb}MB`, temp_directory: temp });
  } catch (err) {
    if (err instanceof SnapshotMissingError)
      throw new UsageError(`${err.message}: the export reads the published snapshot`);
    throw err;
  }
}

/**
 * After a night that completed (exit 0 or 1, snapshot published): the export, whose failure is returned
 * as the warning line the night shows; null when it succeeded.
 */
export async function exportAfterNight(
  config: Config,
  settings: PostgresExportSettings,
  logger: Logger,
  nightRunId: string,
): Promise<{ warning: string | null; result: PostgresExportResult | null }> {
  const seen: string[] = [];
  const out = await runPostgresExport(config, settings, logger, { nightRunId, notice: (line) => seen.push(line) });
  if (out.code === EXIT.OK) return { warning: null, result: out.result };
  const why = out.error ?? seen.at(-1) ?? `exit ${out.code}`;
  logger.warn({ runId: nightRunId, reason: why }, "export to PostgreSQL failed; the night's outcome is unchanged");
  return { warning: `export to PostgreSQL failed: ${why.replace(/^recon export: /, '')}`, result: null };
}
