// recon sync: the sync stage alone, as one recorded run.
import type { Logger } from 'pino';
import { EXIT, type ExitCode } from '../src/errors.js';
import type { Config } from './config.js';
import { syncStage, type SyncProgressListener, type SyncTuning } from '../src/sync/stage.js';
import type { SyncResult } from '../src/sync/run.js';
import { withRun, type Notices } from './run.js';
import { runSettings, syncSettings } from './settings.js';

interface SyncOutcome {
  code: ExitCode;
  runId: string | null;
  result: SyncResult | null;
  requests: number;
}

export async function runSync(
  config: Config,
  logger: Logger,
  opts: Notices & { tuning?: SyncTuning; onProgress?: SyncProgressListener; handleSignals?: boolean } = {},
): Promise<SyncOutcome> {
  const settings = syncSettings(config);
  const out: SyncOutcome = { code: EXIT.FAILED, runId: null, result: null, requests: 0 };
  out.code = await withRun('sync', runSettings(config), logger, async (ctx) => {
    out.runId = ctx.runId;
    try {
      out.result = await syncStage(ctx, settings, logger, opts.tuning, opts.onProgress);
    } finally {
      out.requests = ctx.counters.requests ?? 0;
    }
    logger.info({ runId: ctx.runId, ...out.result, ...ctx.counters }, 'sync finished');
    return EXIT.OK;
  }, { serviceUrl: settings.apiUrl, notice: opts.notice, handleSignals: opts.handleSignals });
  return out;
}
