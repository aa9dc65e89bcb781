import type { Command } from '../command.js';
import { EXIT, UsageError, type ExitCode } from '../../../src/errors.js';
import { optionsHelp, parseCommandArgs, COMMAND_OPTIONS } from '../../config.js';
import { runExport } from '../../access.js';
import { runPostgresExport } from '../../warehouse.js';
import { warehouseSettings } from '../../settings.js';
import { openTerminal } from '../progress.js';
import { notice } from '../notice.js';
import { describePostgresExport } from '../summary.js';

const KEYS = COMMAND_OPTIONS.export;

export const command: Command = {
  name: 'export',
  usage: `Usage: recon export --parquet DIR | --postgres URL [options]\n\nWrites every table of the published snapshot and its finance views as Parquet under DIR, by month\n(DIR/<name>/month=YYYY-MM/<export>.parquet), only the months that changed since the last export, and\nDIR/manifest.json last: the files of the export, which readers follow (docs/accountants-sql.md).\n\nWith --postgres (or RECON_EXPORT_POSTGRES_URL), writes the published snapshot into schema --pg-schema of that\nPostgreSQL, month by month: only the months whose content changed since the last export, each in one transaction.\nIt holds the store's run lock while it writes (exit 3 when a run holds it).\n\n  --parquet DIR          target folder\n  --postgres URL         postgres://user:password@host:5432/database?sslmode=verify-full (overrides RECON_EXPORT_POSTGRES_URL)\n${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, extra } = parseCommandArgs(argv, KEYS, { parquet: { type: 'string' }, postgres: { type: 'string' } });
    const pg = warehouseSettings(config, typeof extra.postgres === 'string' ? extra.postgres : config.exportPostgres);
    if (typeof extra.parquet !== 'string' && !pg) throw new UsageError('recon export needs --parquet DIR or --postgres URL (or RECON_EXPORT_POSTGRES_URL)');
    let code: ExitCode = EXIT.OK;
    if (typeof extra.parquet === 'string') {
      const out = await runExport(config, extra.parquet);
      for (const o of out.objects) {
        const rows = `${String(o.rows).padStart(10)} rows${o.partitioned ? ', by month' : ''}`;
        const files = `${o.written} of ${o.files} files written`;
        process.stdout.write(`${o.kind.padEnd(5)} ${o.name.padEnd(24)} ${rows}, ${files}\n`);
      }
      const mb = (out.bytesWritten / 1e6).toFixed(1);
      process.stdout.write(`export ${out.exportId}: ${out.filesWritten} files written (${mb} MB), `
        + `${out.filesRemoved} of an older export removed; readers follow ${out.manifest}\n`);
    }
    if (pg) {
      const out = await runPostgresExport(config, pg, openTerminal(config).logger, { notice });
      if (out.result) process.stdout.write(`${describePostgresExport(out.result)}\n`);
      code = out.code;
    }
    return code;
  },
};
