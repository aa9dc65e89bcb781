// What every store-writing command shares: the run lock, the store, a runs row from start to finish,
// SIGINT/SIGTERM turned into an abort signal, and errors mapped to exit codes. What the person running
// the command must read (who holds the lock, why the run failed) goes to the `notice` the CLI hands in:
// only pipelines/cli writes to the terminal.
import { makeFolder, plainFsError } from '../src/files.js';
import type { Logger } from 'pino';
import { EXIT, ReconError, UsageError, oneLine, type ExitCode } from '../src/errors.js';
import { openStore, type Store } from '../src/store/db.js';
import { finishRun, markAbandonedRuns, newRunId, type RunCounters, type RunStatus } from '../src/store/runs.js';
import { startRecordedRun } from '../src/store/trail-run.js';
import type { Actor } from '../src/store/trail.js';
import { acquireLockWaiting, LockHeldError } from '../src/ops/lock.js';
import { redact, type Secrets } from '../src/api/redact.js';
import type { StoreLayout } from '../src/store/layout.js';
import { guardOutputs, type OutputPath } from '../src/access/own-files.js';
import { applyFailureNote, noteFailure } from '../src/store/runs.js';
import { setMemoryLimit } from '../src/store/db.js';
import { publishSnapshot } from '../src/store/publish.js';

export interface RunContext {
  store: Store;
  runId: string;
  logger: Logger;
  signal: AbortSignal;
  counters: RunCounters;
  /** Set by the job to say how the run ended when it returns normally. */
  status: RunStatus;
  /** A line for the person running the command (the CLI shows it on stderr). */
  notice: (line: string) => void;
}

/** How a command's pipeline talks to its person: lines the CLI shows on stderr (nothing, in tests). */
export interface Notices {
  notice?: (line: string) => void;
}

/** What every store-writing command needs: the store, its memory, and what must never be recorded. */
export interface RunSettings {
  layout: StoreLayout;
  memoryMb: number;
  /** Redacted from every message the run records or shows. */
  secrets: Secrets;
  /** The run's options as recorded in runs.options: never a secret (pipelines/settings.ts storableOptions). */
  options: Record<string, unknown>;
  /** The paths the user named that the run writes: never one of recon's own files. */
  outputs: OutputPath[];
  /** Who runs the command (the person named, the operating-system user and host): the trail records it. */
  actor?: Actor;
}


/**
 * Run `fn` as one recorded run. Returns the exit code fn chose; LockHeldError → 3; any other error →
 * the run is recorded as failed and 2 is returned with the message on stderr.
 */
export async function withRun(
  command: string,
  job: RunSettings,
  logger: Logger,
  fn: (ctx: RunContext) => Promise<ExitCode>,
  opts: Notices & {
    serviceUrl?: string | null;
    handleSignals?: boolean;
    /**
     * Publishing the snapshot: runs under the lock while the run is recorded as publishing; only when it ends is the
     * run succeeded.
     */
    afterSuccess?: (ctx: RunContext) => Promise<void>;
    /** Told the line shown when the run does not complete (exit 2 or 3), for the outlets. */
    onStopped?: (message: string) => void;
    /** How long to wait for another run's lock before exit 3 (recon ack --wait); 0: refuse at once. */
    lockWaitMs?: number;
  } = {},
): Promise<ExitCode> {
  const notice = opts.notice ?? (() => undefined);
  await guardOutputs(job.outputs, job.layout);
  let lock;
  try {
    // The lock file lives beside the store, so its folder must exist before the lock can be taken.
    await makeFolder(job.layout.dir);
    lock = await acquireLockWaiting(
      job.layout.lock,
      { command: `recon ${command}` },
      {
        waitMs: opts.lockWaitMs ?? 0,
        onWait: (held) =>
          notice(
            `recon ${command}: waiting up to ${Math.round((opts.lockWaitMs ?? 0) / 1000)} s: ` +
              `${held.message.replace(/; it exits 3 — .*$/, '')}`,
          ),
      },
    );
  } catch (err) {
    if (err instanceof LockHeldError) {
      notice(`recon ${command}: ${err.message}`);
      opts.onStopped?.(err.message);
      return EXIT.LOCKED;
    }
    const message = `cannot create the store ${job.layout.db} or its lock file: ${oneLine(plainFsError(err))}; `
      + 'check --db / RECON_DB and that its folder can be written and has free space';
    logger.error({ err: message }, `recon ${command} failed`);
    notice(`recon ${command}: ${message}`);
    opts.onStopped?.(message);
    return EXIT.FAILED;
  }
  const controller = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    logger.warn(
      { signal: sig },
      'stopping: finishing the disbursements in progress, then recording the run as interrupted',
    );
    controller.abort();
  };
  if (opts.handleSignals !== false) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  let store: Store | null = null;
  const runId = newRunId();
  try {
    store = await openStore(job.layout.db);
    // bounded, so a nightly run's memory does not grow with the store; beyond it DuckDB spills to <db>.tmp
    await setMemoryLimit(store.connection, job.memoryMb);
    await markAbandonedRuns(store.connection);
    await applyFailureNote(store.connection, job.layout.db);
    await startRecordedRun(store.connection, {
      runId, command, serviceUrl: opts.serviceUrl ?? null, options: job.options, startedAt: new Date(),
      actor: job.actor ?? { by: null, osUser: null, host: null },
    });
    const ctx: RunContext = {
      store,
      runId,
      logger,
      signal: controller.signal,
      counters: {},
      status: 'succeeded',
      notice,
    };
    try {
      const code = await fn(ctx);
      const status = controller.signal.aborted ? 'interrupted' : ctx.status;
      if (!(status === 'succeeded' && opts.afterSuccess)) {
        await finishRun(
          store.connection,
          runId,
          status,
          ctx.counters,
          status === 'interrupted' ? 'stopped by a signal' : undefined,
        );
      }
      if (status === 'interrupted') return EXIT.FAILED;
      if (status === 'succeeded' && opts.afterSuccess) {
        // 'succeeded' only once the snapshot is published: killed while publishing, the run is not a success
        await finishRun(store.connection, runId, 'publishing', ctx.counters);
        try {
          await opts.afterSuccess(ctx);
        } catch (err) {
          throw new Error(`publishing failed: ${(err as Error).message}`, { cause: err }); // recorded as failed below
        }
        await finishRun(store.connection, runId, 'succeeded', ctx.counters);
      }
      return code;
    } catch (err) {
      if (controller.signal.aborted) {
        // a stop signal ended a wait or a request: the run is interrupted, not failed
        await finishRun(store.connection, runId, 'interrupted', ctx.counters, 'stopped by a signal').catch(
          () => undefined,
        );
        logger.warn({ runId }, `recon ${command} stopped by a signal; recorded as interrupted`);
        notice(`recon ${command}: stopped by a signal; the run is recorded as interrupted`);
        opts.onStopped?.('stopped by a signal; the run is recorded as interrupted');
        return EXIT.FAILED;
      }
      const message = redact(err instanceof Error ? err.message : String(err), job.secrets);
      // a store DuckDB has invalidated (a full disk) cannot record its own failure: a note beside it does
      await finishRun(store.connection, runId, 'failed', ctx.counters, message).catch(() =>
        noteFailure(job.layout.db, runId, message),
      );
      throw err;
    }
  } catch (err) {
    const message = failureMessage(err, job);
    // a misuse is the person's to read once, on stderr; the log keeps it below the lines a terminal shows
    if (err instanceof UsageError) logger.debug({ runId, err: message }, `recon ${command} refused`);
    else logger.error({ runId, err: message }, `recon ${command} failed`);
    notice(`recon ${command}: ${message}`);
    opts.onStopped?.(message);
    return EXIT.FAILED;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    store?.close();
    await lock.release();
  }
}

/**
 * What a failed command says, on one line. recon's own errors already name the file and the setting; a
 * DuckDB error about room or rights is about the store (or the snapshot copy), so it says where to look.
 */
function failureMessage(err: unknown, job: RunSettings): string {
  const message = oneLine(redact(err instanceof Error ? err.message : String(err), job.secrets));
  if (err instanceof ReconError) return message;
  return memoryHint(storageHint(message, job.layout.db), job.memoryMb);
}

/** A write that failed for lack of room or rights says where to look (DuckDB's own text does not). */
function storageHint(message: string, dbPath: string): string {
  if (!/No space left|File too large|Read-only file system|Permission denied|ENOSPC|EFBIG|EROFS|EACCES/i.test(message))
    return message;
  if (/check free space/.test(message)) return message;
  return `${message}; check free space and write permission where the store (${dbPath}) and the published snapshot ` +
           `live`;
}


/** DuckDB's out-of-memory error names its limit but not the setting that raises it. */
export function memoryHint(message: string, memoryMb: number): string {
  if (!/Out of Memory/i.test(message)) return message;
  return `${message}; the run's DuckDB memory limit is ${memoryMb} MB: raise it with --memory-mb / RECON_MEMORY_MB`;
}

/**
 * The `afterSuccess` of a command that changes what accountants read: the snapshot published again from the run's
 * store. It fails the run when it fails: a "succeeded" run whose change the snapshot does not show would be untrue.
 */
export function republish(published: string, then?: () => void): (ctx: RunContext) => Promise<void> {
  return async (ctx) => {
    await publishSnapshot({ sourceConnection: ctx.store.connection, publishedPath: published, runId: ctx.runId });
    then?.();
  };
}
