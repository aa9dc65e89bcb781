import type { Command } from '../command.js';
import { optionsHelp, parseCommandArgs, requireExistingStore, COMMAND_OPTIONS } from '../../config.js';
import { openTerminal } from '../progress.js';
import { notice } from '../notice.js';
import { runPrune } from '../../prune.js';
import type { PruneCount } from '../../../src/retention/index.js';

const KEYS = COMMAND_OPTIONS.prune;
/** Removed files named one per line, at most. */
const SHOWN = 100;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const line = (what: string, c: PruneCount, verb: string, extra = '') =>
  `${what}: ${c.removed} ${verb}${c.removedBytes ? ` (${mb(c.removedBytes)})` : ''}, ${c.kept} kept${extra}\n`;

export const command: Command = {
  name: 'prune',
  usage: `Usage: recon prune [--dry-run] [--keep-days N] [options]

Removes what is older than --keep-days (default 90): run workbooks and results files (recon-<run>.xlsx/.json),
downloaded files under files/ and log lines. Kept always: the newest run's workbook, workbooks of runs that
reported or showed a finding still unresolved, a downloaded file of a disbursement with an unresolved finding,
in a month not closed (recon close) or incomplete; recon-latest.*, close workbooks and journals; the store's rows.

  --dry-run              say what would be removed, remove nothing
${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, extra } = parseCommandArgs(argv, KEYS, { 'dry-run': { type: 'boolean' } });
    requireExistingStore(config);
    const dryRun = extra['dry-run'] === true;
    const out = await runPrune(config, openTerminal(config).logger, { dryRun, notice });
    const r = out.result;
    if (r) {
      const verb = dryRun ? 'would be removed' : 'removed';
      process.stdout.write(
        `${dryRun ? 'dry run: nothing removed; ' : ''}keeping ${r.keepDays} days (since ` +
          `${r.cutoff.toISOString().slice(0, 10)})\n`,
      );
      const paths = [...r.reports.removedPaths, ...r.blobs.removedPaths];
      for (const p of paths.slice(0, SHOWN)) process.stdout.write(`${dryRun ? 'would remove' : 'removed'} ${p}\n`);
      if (paths.length > SHOWN) process.stdout.write(`… and ${paths.length - SHOWN} more files\n`);
      process.stdout.write(line('workbooks and results', r.reports, verb));
      process.stdout.write(
        line(
          'downloaded files',
          r.blobs,
          verb,
          r.blobs.keptNeeded
            ? ` (${r.blobs.keptNeeded} needed by an unresolved finding, a month not closed or a recent disbursement)`
            : '',
        ),
      );
      process.stdout.write(line('log lines', r.logs, verb));
    }
    return out.code;
  },
};
