import { once } from 'node:events';
import type { Command } from '../command.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { optionsHelp, parseCommandArgs, type OptionKey } from '../../config.js';
import { withSnapshot } from '../../access/snapshot.js';
import { openOut, runQuery, type Format } from '../../access/query.js';

const KEYS: OptionKey[] = ['db', 'published'];
const FORMATS: Format[] = ['table', 'csv', 'json', 'xlsx'];

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('no query: recon sql "SELECT …" or pipe SQL on stdin');
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

export const command: Command = {
  name: 'sql',
  summary: 'Ad-hoc read-only SQL on the published snapshot',
  usage: `Usage: recon sql ["SELECT …"] [--format table|csv|json|xlsx] [--out FILE]\n\nRuns read-only against the published snapshot (never the nightly job's own file, so an open session\nnever blocks the run). Without a query, reads SQL from stdin. Views: reconciliation, open_exceptions,\nmonthly_summary, payment_lines (see README, Data dictionary).\n\n  --format F             table (default), csv, json or xlsx (xlsx needs --out)\n  --out FILE             write to FILE instead of stdout\n${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, positionals, extra } = parseCommandArgs(argv, KEYS, { format: { type: 'string' }, out: { type: 'string' } });
    const format = (extra.format ?? 'table') as Format;
    if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`);
    const sql = positionals.length ? positionals.join(' ') : await readStdin();
    if (!sql.trim()) throw new UsageError('empty query');
    const outFile = typeof extra.out === 'string' ? extra.out : undefined;
    await withSnapshot(config.published, async (db) => {
      const out = format === 'xlsx' ? process.stdout : openOut(outFile);
      try {
        const n = await runQuery(db.connection, sql, format, out, outFile);
        if (format === 'xlsx' || outFile) process.stderr.write(`${n} rows → ${outFile}\n`);
      } catch (err) {
        throw new UsageError(`query failed: ${(err as Error).message}`);
      } finally {
        if (out !== process.stdout) {
          out.end();
          await once(out, 'finish');
        }
      }
    });
    return EXIT.OK;
  },
};
