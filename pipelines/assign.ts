// recon assign: a finding given an owner (and a due date), appended to its assignment history and the audit
// trail, and the snapshot published again so `recon sql` shows it at once. Like an acknowledgement, it
// waits for a run's lock up to --wait seconds, then exits 3.
import type { Logger } from 'pino';
import { EXIT, type ExitCode } from '../src/errors.js';
import type { Config } from './config.js';
import { assignFinding, type AssignResult } from '../src/checks/index.js';
import { republish, withRun, type Notices } from './run.js';
import { actorOf, runSettings, layoutOf } from './settings.js';

interface AssignOutcome {
  code: ExitCode;
  assigned: AssignResult | null;
  published: string | null;
}

export async function runAssign(
  config: Config,
  logger: Logger,
  opts: Notices & { key: string; to: string; due: string | null; note: string | null; by: string; now?: Date },
): Promise<AssignOutcome> {
  const { published } = layoutOf(config);
  const actor = actorOf(config);
  const out: AssignOutcome = { code: EXIT.FAILED, assigned: null, published: null };
  out.code = await withRun('assign', runSettings(config), logger, async (ctx) => {
    out.assigned = await assignFinding(ctx.store.connection, {
      key: opts.key, to: opts.to, due: opts.due, note: opts.note, by: opts.by, now: opts.now,
      osUser: actor.osUser, host: actor.host,
    });
    return EXIT.OK;
  }, {
    notice: opts.notice,
    lockWaitMs: config.ackWaitS * 1000,
    afterSuccess: republish(published, () => { out.published = published; }),
  });
  return out;
}
