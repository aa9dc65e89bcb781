import { once } from 'node:events';
import { closeSync, createWriteStream, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import type { Command } from '../command.js';
import { EXIT, UsageError } from '../../errors.js';
import { plainFsError } from '../../ops/folders.js';
import { optionsHelp, parseCommandArgs, type OptionKey } from '../../config.js';
import { ACCOUNTANT_SESSION, requireOneStatement, withSnapshot } from '../../access/snapshot.js';
import { runQuery, type Format } from '../../access/query.js';

const KEYS: OptionKey[] = ['db', 'published'];
const FORMATS: Format[] = ['table', 'csv', 'json', 'xlsx'];

/** --format, else the extension of --out (.csv, .json, .xlsx), else a table. */
function formatFor(format: string | undefined, outFile: string | undefined): Format {
  if (format !== undefined) {
    if (!FORMATS.includes(format as Format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`, true);
    return format as Format;
  }
  const ext = outFile ? path.extname(outFile).slice(1).toLowerCase() : '';
  return FORMATS.includes(ext as Format) && ext !== 'table' ? (ext as Format) : 'table';
}

/** Creates --out's folder and proves the file can be written before the query runs. */
function prepareOut(file: string): void {
  try {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    closeSync(openSync(file, 'w'));
  } catch (err) {
    throw new UsageError(`cannot write --out ${file}: ${plainFsError(err)}; choose a file in a folder you can write`);
  }
}

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
    const outFile = typeof extra.out === 'string' ? extra.out : undefined;
    const format = formatFor(typeof extra.format === 'string' ? extra.format : undefined, outFile);
    if (format === 'xlsx' && !outFile) throw new UsageError('--format xlsx needs --out FILE.xlsx', true);
    const sql = positionals.length ? positionals.join(' ') : await readStdin();
    if (!sql.trim()) throw new UsageError('empty query');
    if (outFile) prepareOut(outFile);
    await withSnapshot(config.published, async (db) => {
      await requireOneStatement(db, sql);
      const out = format === 'xlsx' || !outFile ? process.stdout : createWriteStream(outFile);
      let writeError: Error | null = null;
      out.on('error', (err: Error) => (writeError ??= err));
      try {
        const n = await runQuery(db.connection, sql, format, out, outFile);
        if (outFile) process.stderr.write(`${n} rows → ${outFile}\n`);
      } catch (err) {
        throw new UsageError(`query failed: ${(err as Error).message}`);
      } finally {
        if (out !== process.stdout) {
          out.end();
          if (!writeError) await Promise.race([once(out, 'finish'), once(out, 'close')]);
        }
      }
      if (writeError) throw new UsageError(`cannot write --out ${outFile}: ${(writeError as Error).message}`);
    }, ACCOUNTANT_SESSION);
    return EXIT.OK;
  },
};
