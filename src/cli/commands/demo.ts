import { parseArgs } from 'node:util';
import type { Command } from '../command.js';
import { UsageError } from '../exit-codes.js';
import { optionsHelp } from '../../config.js';
import { createLogger } from '../../log.js';
import { runDemo } from '../../../pipelines/demo.js';

export const command: Command = {
  name: 'demo',
  summary: 'Reconcile against the embedded sandbox',
  usage: `Usage: recon demo [--seed N] [--disbursements N] [--anomaly-rate R] [--time-compression X] [options]\n\nStarts the sandbox in-process, runs two nights of the nightly job and the close of the last full month,\nand prints where everything was written. Logs go to <db folder>/demo.log unless --log-file is given.\n\n${optionsHelp(['db', 'reports', 'published', 'logFile'])}`,
  async run(argv) {
    let parsed;
    try {
      parsed = parseArgs({ args: argv, strict: false, options: {
        seed: { type: 'string' }, disbursements: { type: 'string' }, 'anomaly-rate': { type: 'string' }, 'time-compression': { type: 'string' },
        'log-file': { type: 'string' }, db: { type: 'string' } } });
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const v = parsed.values as Record<string, string | undefined>;
    const num = (name: string, fallback: number) => {
      const x = v[name] === undefined ? fallback : Number(v[name]);
      if (!Number.isFinite(x) || x < 0) throw new UsageError(`--${name} must be a non-negative number`);
      return x;
    };
    const rest = argv.filter((a, i) => !['--seed', '--disbursements', '--anomaly-rate', '--time-compression'].includes(a)
      && !['--seed', '--disbursements', '--anomaly-rate', '--time-compression'].includes(argv[i - 1] ?? ''));
    const dbDir = (v.db ?? process.env.RECON_DB ?? 'data/recon.duckdb').replace(/[^/]*$/, '') || './';
    const logFile = v['log-file'] ?? process.env.RECON_LOG_FILE ?? `${dbDir}demo.log`;
    const logger = createLogger({ logFile });
    const outcome = await runDemo(rest, logger, {
      seed: num('seed', 42),
      disbursements: num('disbursements', 180),
      anomalyRate: num('anomaly-rate', 0.02),
      timeCompression: num('time-compression', 10),
    }, process.stdout);
    return outcome.code;
  },
};
