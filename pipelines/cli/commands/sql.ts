import path from 'node:path';
import type { Command } from '../command.js';
import { EXIT, UsageError } from '../../../src/errors.js';
import { optionsHelp, parseCommandArgs, COMMAND_OPTIONS } from '../../config.js';
import { FORMATS, type Format } from '../../../src/access/output.js';
import { runAccountantQuery } from '../../access.js';

const KEYS = COMMAND_OPTIONS.sql;

/** --format, else the extension of --out (.csv, .json, .xlsx), else a table. */
function formatFor(format: string | undefined, outFile: string | undefined): Format {
  if (format !== undefined) {
    if (!FORMATS.includes(format as Format))
      throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`, true);
    return format as Format;
  }
  const ext = outFile ? path.extname(outFile).slice(1).toLowerCase() : '';
  return FORMATS.includes(ext as Format) && ext !== 'table' ? (ext as Format) : 'table';
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('no query: recon sql "SELECT …" or pipe SQL on stdin');
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

export const command: Command = {
  name: 'sql',
  usage: `Usage: recon sql ["SELECT …"] [--format table|csv|json|xlsx] [--out FILE]

Runs one query against the published snapshot (never the nightly job's own file, so a session never
blocks the run). Without a query, reads SQL from stdin. Queries only: COPY, EXPORT, ATTACH, INSTALL/LOAD,
SET/PRAGMA and writes are refused. Views: reconciliation, open_exceptions, monthly_summary, payment_lines
(see README, Data dictionary).

  --format F             table (default), csv, json or xlsx (xlsx needs --out)
  --out FILE             write to FILE (complete, or not at all) instead of stdout
${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, positionals, extra } = parseCommandArgs(argv, KEYS, {
      format: { type: 'string' },
      out: { type: 'string' },
    });
    const outFile = typeof extra.out === 'string' ? extra.out : undefined;
    const format = formatFor(typeof extra.format === 'string' ? extra.format : undefined, outFile);
    if (format === 'xlsx' && !outFile) throw new UsageError('--format xlsx needs --out FILE.xlsx', true);
    const sql = positionals.length ? positionals.join(' ') : await readStdin();
    if (!sql.trim()) throw new UsageError('empty query');
    const rows = await runAccountantQuery(config, sql, format, outFile, process.stdout);
    if (outFile) process.stderr.write(`${rows} rows → ${outFile}\n`);
    return EXIT.OK;
  },
};
