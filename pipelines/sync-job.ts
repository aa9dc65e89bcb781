// The sync step as used by `recon sync` and the nightly run: builds the client from the config, runs the
// sync pipeline and records counters in the run.
import path from 'node:path';
import type { Logger } from 'pino';
import { PaymentsClient } from '../src/api/client.js';
import { RequestBudget } from '../src/api/budget.js';
import type { Config } from '../src/config.js';
import { requireService } from '../src/config.js';
import { loadLayouts } from '../src/extract/layouts.js';
import type { JobContext } from './job.js';
import { runSync, type ListProgress, type SyncResult } from './sync.js';
import { assertReachable } from '../src/api/reach.js';
import { limitDuckDbMemory, preferCompactHeap } from '../src/ops/memory.js';
import { rememberPageSize, rememberedPageSize } from '../src/load/service-settings.js';
import { redactor } from '../src/api/redact.js';

export interface SyncTuning {
  /** Budget window for tests and benchmarks that compress time (default 60 000 ms). */
  intervalMs?: number;
  blockMs?: number;
  retryBaseMs?: number;
  now?: () => number;
  /** Orders the payment sample instead of the run id, so a demo samples the same payments every time. */
  sampleSeed?: string;
}

/** What the command shows of a sync in progress (a progress bar on a terminal). */
export type SyncProgressListener = (p: ListProgress & { requests: number }) => void;

export async function syncStep(
  ctx: JobContext,
  config: Config,
  logger: Logger,
  tuning: SyncTuning = {},
  onProgress?: SyncProgressListener,
): Promise<SyncResult> {
  const service = requireService(config);
  await assertReachable(service.apiUrl); // a mistyped --api-url fails in seconds, not after minutes of retries
  preferCompactHeap();
  const budget = new RequestBudget({ limit: config.ratePerMinute, intervalMs: tuning.intervalMs ?? 60_000 });
  const client = new PaymentsClient({
    baseUrl: service.apiUrl,
    apiKey: service.apiKey,
    budget,
    logger,
    timeoutMs: config.timeoutMs,
    blockMs: tuning.blockMs,
    retry: tuning.retryBaseMs === undefined ? undefined : { maxAttempts: 10, baseMs: tuning.retryBaseMs, capMs: tuning.retryBaseMs * 20 },
    connections: config.concurrency * 2,
    insecureHttp: config.insecureHttp,
    signal: ctx.signal,
  });
  client.acceptedPageSize = await rememberedPageSize(ctx.store.connection);
  // The sync only appends: DuckDB needs little memory for it, and without a lower limit its buffer pool
  // keeps the pages it wrote. The rest of the run gets the job's --memory-mb back.
  await limitDuckDbMemory(ctx.store.connection, config.syncMemoryMb);
  try {
    const result = await runSync(
      {
        connection: ctx.store.connection,
        client,
        runId: ctx.runId,
        logger,
        signal: ctx.signal,
        redact: redactor([service.apiKey]),
        extract: {
          layouts: await loadLayouts(config.layouts),
          filesDir: path.join(path.dirname(path.resolve(config.db)), 'files'),
          maxFileBytes: Math.round(config.maxFileMb * 1024 * 1024),
          maxLines: config.maxLines,
          now: tuning.now ?? Date.now,
          perPage: config.perPage,
        },
        onProgress: onProgress && ((p) => onProgress({ ...p, requests: client.stats.requests })),
      },
      {
        perPage: config.perPage,
        concurrency: config.concurrency,
        lookbackDays: config.lookbackDays,
        since: config.since ? new Date(`${config.since.slice(0, 10)}T00:00:00Z`) : null,
        full: config.full,
        sampleBudget: config.sampleBudget,
        sampleSeed: tuning.sampleSeed,
        now: tuning.now ?? Date.now,
      },
    );
    return result;
  } finally {
    const learned = client.acceptedPageSize;
    if (learned !== null) await rememberPageSize(ctx.store.connection, learned, ctx.runId).catch(() => undefined);
    await limitDuckDbMemory(ctx.store.connection, config.memoryMb);
    Object.assign(ctx.counters, {
      requests: client.stats.requests,
      retries: client.stats.retries,
      rate_limited: client.stats.rateLimited,
    });
    await client.close();
  }
}

export function recordSyncCounters(ctx: JobContext, r: SyncResult): void {
  Object.assign(ctx.counters, {
    disbursements_listed: r.listed,
    disbursements_loaded: r.written,
    disbursements_skipped: r.skipped,
    lines_loaded: r.lines,
    files_downloaded: r.files,
    quarantined: r.quarantined,
    restated: r.restated,
  });
}
