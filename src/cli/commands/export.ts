import type { Command } from '../command.js';
import { EXIT, UsageError } from '../../errors.js';
import { optionsHelp, parseCommandArgs, type OptionKey } from '../../config.js';
import { withSnapshot } from '../../access/snapshot.js';
import { exportParquet } from '../../access/export.js';
import { refuseOwnFile } from '../../access/own-files.js';
import { requireWritableFolder } from '../../ops/folders.js';

const KEYS: OptionKey[] = ['db', 'published', 'memoryMb'];

export const command: Command = {
  name: 'export',
  summary: 'Export every table and view as Parquet',
  usage: `Usage: recon export --parquet DIR [options]\n\nWrites every table and view of the published snapshot as Parquet under DIR, partitioned by month\n(DIR/<name>/month=YYYY-MM/…). Read them with Spark, Trino, Athena or DuckDB (read_parquet('DIR/payouts/**/*.parquet', hive_partitioning=true)).\n\n  --parquet DIR          target folder\n${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, extra } = parseCommandArgs(argv, KEYS, { parquet: { type: 'string' } });
    if (typeof extra.parquet !== 'string') throw new UsageError('recon export needs --parquet DIR');
    const dir = extra.parquet;
    const own = { db: config.db, published: config.published };
    await refuseOwnFile(dir, own, '--parquet');
    await requireWritableFolder(dir, '--parquet');
    await withSnapshot(own, async (db) => {
      for (const o of await exportParquet(db.connection, dir)) {
        process.stdout.write(`${o.kind.padEnd(5)} ${o.name.padEnd(24)} ${String(o.rows).padStart(10)} rows${o.partitioned ? ', by month' : ''}\n`);
      }
    }, async () => ({ memory_limit: `${config.memoryMb}MB` }));
    return EXIT.OK;
  },
};
