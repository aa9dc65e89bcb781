import type { Command } from '../command.js';
import { optionsHelp, parseCommandArgs, requireExistingStore, COMMAND_OPTIONS } from '../../config.js';
import { openTerminal } from '../progress.js';
import { notice } from '../notice.js';
import { runPrune, type PruneCount } from '../../../pipelines/prune.js';

const KEYS = COMMAND_OPTIONS.prune;
/** Removed files named one per line, at most. */
const SHOWN = 100;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const line = (what: string, c: PruneCount, verb: string, extra = '') => `${what}: ${c.removed} ${verb}${c.removedBytes ? ` (${mb(c.removedBytes)})` : ''}, ${c.kept} kept${extra}\n`;

export const command: Command = {
  name: 'prune',
  usage: `Usage: recon prune [--dry-run] [--keep-days N] [options]\n\nRemoves what is older than --keep-days (default 90): run workbooks and results files (recon-<run>.xlsx/.json),\ndownloaded files under files/ and log lines. Kept always: the newest run's workbook, workbooks of runs that\nreported or showed a finding still unresolved, a downloaded file of a disbursement with an unresolved finding,\nin a month not closed (recon close) or incomplete; recon-latest.*, close workbooks and journals; the store's rows.\n\n  --dry-run              say what would be removed, remove nothing\n${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, extra } = parseCommandArgs(argv, KEYS, { 'dry-run': { type: 'boolean' } });
    requireExistingStore(config);
    const dryRun = extra['dry-run'] === true;
    const out = await runPrune(config, openTerminal(config).logger, { dryRun, notice });
    if (out.cutoff) {
      const verb = dryRun ? 'would be removed' : 'removed';
      process.stdout.write(`${dryRun ? 'dry run: nothing removed; ' : ''}keeping ${out.keepDays} days (since ${out.cutoff.toISOString().slice(0, 10)})\n`);
      const paths = [...out.reports.removedPaths, ...out.blobs.removedPaths];
      for (const p of paths.slice(0, SHOWN)) process.stdout.write(`${dryRun ? 'would remove' : 'removed'} ${p}\n`);
      if (paths.length > SHOWN) process.stdout.write(`… and ${paths.length - SHOWN} more files\n`);
      process.stdout.write(line('workbooks and results', out.reports, verb));
      process.stdout.write(line('downloaded files', out.blobs, verb, out.blobs.keptNeeded ? ` (${out.blobs.keptNeeded} needed by an unresolved finding, a month not closed or a recent disbursement)` : ''));
      process.stdout.write(line('log lines', out.logs, verb));
    }
    return out.code;
  },
};
