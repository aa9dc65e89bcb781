// recon check: the bank statements of --bank-dir, then every check, as one recorded run.
import type { Logger } from 'pino';
import { EXIT, type ExitCode } from '../src/errors.js';
import type { Config } from './config.js';
import { runChecks, type CheckRunResult } from '../src/checks/index.js';
import { bankStage } from '../src/bank/stage.js';
import { requireReadableFolder } from '../src/files.js';
import { republish, withRun, type Notices } from './run.js';
import { bankSettings, runSettings, layoutOf } from './settings.js';
import { saveOwnerRules } from '../src/store/owner-rules.js';

interface CheckOutcome {
  code: ExitCode;
  runId: string | null;
  result: CheckRunResult | null;
}

/** `full`: every check on the whole store (`recon check --full`); else what changed since the last check run. */
export async function runCheck(
  config: Config, logger: Logger, opts: Notices & { only?: string[]; full?: boolean } = {},
): Promise<CheckOutcome> {
  const bank = bankSettings(config);
  const { published } = layoutOf(config);
  const out: CheckOutcome = { code: EXIT.FAILED, runId: null, result: null };
  if (bank.bankDir) await requireReadableFolder(bank.bankDir, '--bank-dir / RECON_BANK_DIR');
  out.code = await withRun('check', runSettings(config), logger, async (ctx) => {
    out.runId = ctx.runId;
    const step = await bankStage(ctx.store.connection, bank, ctx.runId, logger);
    for (const refused of step?.refused ?? []) ctx.notice(`recon: bank statement refused: ${refused}`);
    if (config.defaultOwners) await saveOwnerRules(ctx.store.connection, config.defaultOwners);
    const mode = opts.full ? 'full' : 'incremental';
    out.result = await runChecks(ctx.store.connection, { runId: ctx.runId, only: opts.only, mode });
    return out.result.actionable > 0 ? EXIT.EXCEPTIONS : EXIT.OK;
  }, {
    notice: opts.notice,
    // accountants' recon sql reads the snapshot: it shows this run's findings, not the previous run's
    afterSuccess: republish(published),
  });
  return out;
}
