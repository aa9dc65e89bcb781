// recon ack: a finding acknowledged (or its acknowledgement withdrawn), appended to its history, and the
// snapshot published again so `recon sql` shows it at once. During a run the ack waits for the run's lock
// up to --wait seconds, then exits 3 as before.
import type { Logger } from 'pino';
import { EXIT, type ExitCode } from '../src/errors.js';
import type { Config } from './config.js';
import { ackFinding, type AckAction, type AckResult } from '../src/checks/index.js';
import { republish, withRun, type Notices } from './run.js';
import { actorOf, runSettings, layoutOf } from './settings.js';

interface AckOutcome {
  code: ExitCode;
  ack: AckResult | null;
  published: string | null;
}

export async function runAck(
  config: Config,
  logger: Logger,
  opts: Notices & { key: string; note: string; by: string; action?: AckAction; now?: Date },
): Promise<AckOutcome> {
  const { published } = layoutOf(config);
  const out: AckOutcome = { code: EXIT.FAILED, ack: null, published: null };
  const actor = actorOf(config);
  const command = opts.action === 'withdraw' ? 'ack --withdraw' : opts.action === 'approve' ? 'ack --approve' : 'ack';
  out.code = await withRun(
    command,
    runSettings(config),
    logger,
    async (ctx) => {
      out.ack = await ackFinding(ctx.store.connection, {
        key: opts.key,
        note: opts.note,
        by: opts.by,
        action: opts.action,
        now: opts.now,
        osUser: actor.osUser,
        host: actor.host,
        fourEyes: config.fourEyes ?? [],
      });
      return EXIT.OK;
    },
    {
      notice: opts.notice,
      lockWaitMs: config.ackWaitS * 1000,
      afterSuccess: republish(published, () => { out.published = published; }),
    },
  );
  return out;
}
