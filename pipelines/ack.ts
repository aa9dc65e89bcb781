// recon ack: a finding acknowledged, and the snapshot published again so `recon sql` shows it at once.
import type { Logger } from 'pino';
import { EXIT, type ExitCode } from '../src/errors.js';
import type { Config } from '../src/config.js';
import { ackFinding, type AckResult } from '../src/checks/index.js';
import { publishSnapshot } from '../src/store/publish.js';
import { withJob, type Notices } from './job.js';
import { jobSettings, publishSettings } from './settings.js';

export interface AckOutcome {
  code: ExitCode;
  ack: AckResult | null;
  published: string | null;
}

export async function runAck(config: Config, logger: Logger, opts: Notices & { key: string; note: string; by: string }): Promise<AckOutcome> {
  const { published } = publishSettings(config);
  const out: AckOutcome = { code: EXIT.FAILED, ack: null, published: null };
  out.code = await withJob('ack', jobSettings(config), logger, async (ctx) => {
    out.ack = await ackFinding(ctx.store.connection, { key: opts.key, note: opts.note, by: opts.by });
    return EXIT.OK;
  }, {
    notice: opts.notice,
    afterSuccess: async (ctx) => {
      await publishSnapshot({ sourceConnection: ctx.store.connection, publishedPath: published, runId: ctx.runId });
      out.published = published;
    },
  });
  return out;
}
