// recon close --month YYYY-MM: the controllers' close workbook (lines, disbursements, open findings,
// balanced journal) and the month marked closed with a snapshot of what it contained. Closing a closed
// month again needs --reissue and produces the next version.
import type { Logger } from 'pino';
import { EXIT, UsageError, type ExitCode } from '../src/errors.js';
import type { Config } from '../src/config.js';
import { MONTH, inMonth, writeMonthClose } from '../src/report/close-report.js';
import { publishSnapshot } from '../src/ops/publish.js';
import { withJob } from './job.js';

export interface CloseOutcome {
  code: ExitCode;
  month: string;
  version: number | null;
  workbook: string | null;
  disbursements: number;
}

export async function runMonthlyClose(
  config: Config,
  logger: Logger,
  opts: { month: string; reissue: boolean; now?: Date; handleSignals?: boolean },
): Promise<CloseOutcome> {
  if (!MONTH.test(opts.month)) throw new UsageError(`--month must be YYYY-MM (e.g. 2026-10), got '${opts.month}'`);
  const out: CloseOutcome = { code: EXIT.FAILED, month: opts.month, version: null, workbook: null, disbursements: 0 };
  out.code = await withJob('close', config, logger, async (ctx) => {
    const c = ctx.store.connection;
    const now = opts.now ?? new Date();
    const prior = Number((await c.runAndReadAll('SELECT coalesce(max(version), 0) FROM closes WHERE month = $1', [opts.month])).getRowsJS()[0]?.[0] ?? 0);
    if (prior > 0 && !opts.reissue) {
      throw new UsageError(`month ${opts.month} is already closed (version ${prior}); pass --reissue to issue version ${prior + 1}`);
    }
    const count = Number((await c.runAndReadAll(`SELECT count(*) FROM disbursements WHERE ${inMonth(opts.month)}`)).getRowsJS()[0]?.[0] ?? 0);
    if (count === 0) throw new UsageError(`no disbursements delivered in ${opts.month}; run recon sync first or pick another month`);
    const version = prior + 1;
    const written = await writeMonthClose(c, { month: opts.month, version, reportsDir: config.reports, serviceUrl: config.apiUrl ?? '', now });
    await c.run('BEGIN TRANSACTION');
    try {
      await c.run(
        `INSERT INTO close_disbursements SELECT $1, $2, disbursement_id, content_hash, amount, currency FROM disbursements WHERE ${inMonth(opts.month)}`,
        [opts.month, version],
      );
      await c.run(
        `INSERT INTO closes SELECT $1, $2, $3::TIMESTAMPTZ, $4, $5, count(*), CAST(coalesce(sum(amount), 0) AS HUGEINT)
           FROM close_disbursements WHERE month = $1 AND version = $2`,
        [opts.month, version, now.toISOString(), ctx.runId, written.path],
      );
      await c.run('COMMIT');
    } catch (err) {
      await c.run('ROLLBACK').catch(() => undefined);
      throw err;
    }
    Object.assign(out, { version, workbook: written.path, disbursements: count });
    logger.info({ month: opts.month, version, workbook: written.path, disbursements: count }, 'month closed');
    return EXIT.OK;
  }, {
    handleSignals: opts.handleSignals,
    // accountants see the close in the published snapshot too
    afterSuccess: async (ctx) => {
      await ctx.store.connection.run('CHECKPOINT');
      await publishSnapshot({ sourceConnection: ctx.store.connection, publishedPath: config.published });
    },
  });
  return out;
}
