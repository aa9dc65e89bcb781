import type { Command } from '../command.js';
import { EXIT, UsageError } from '../../../src/errors.js';
import { optionsHelp, parseCommandArgs, COMMAND_OPTIONS } from '../../config.js';
import { runExport } from '../../access.js';

const KEYS = COMMAND_OPTIONS.export;

export const command: Command = {
  name: 'export',
  usage: `Usage: recon export --parquet DIR [options]\n\nWrites every table and view of the published snapshot as Parquet under DIR, partitioned by month\n(DIR/<name>/month=YYYY-MM/…). Read them with Spark, Trino, Athena or DuckDB (read_parquet('DIR/payouts/**/*.parquet', hive_partitioning=true)).\n\n  --parquet DIR          target folder\n${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, extra } = parseCommandArgs(argv, KEYS, { parquet: { type: 'string' } });
    if (typeof extra.parquet !== 'string') throw new UsageError('recon export needs --parquet DIR');
    for (const o of await runExport(config, extra.parquet)) {
      process.stdout.write(`${o.kind.padEnd(5)} ${o.name.padEnd(24)} ${String(o.rows).padStart(10)} rows${o.partitioned ? ', by month' : ''}\n`);
    }
    return EXIT.OK;
  },
};
