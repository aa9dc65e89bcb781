// The `recon` CLI: a thin dispatcher. Each command lives in commands/<name>.ts and is loaded lazily
// so `recon --help` stays fast and a broken command cannot break the others.
import { optionsHelp } from '../config.js';
import { EXIT, UsageError, type ExitCode } from '../../src/errors.js';
import type { Command } from './command.js';
import { didYouMean } from '../../src/suggest.js';
import { PACKAGE_VERSION } from '../../src/outlets/version.js';

interface Entry {
  summary: string;
  /** Each import named whole, so any loader (Node, a bundler, the test runner) sees every command. */
  load: () => Promise<{ command: Command }>;
}

const COMMANDS: Record<string, Entry> = {
  run: { summary: 'Nightly job once: sync → checks → workbook → publish', load: () => import('./commands/run.js') },
  sync: { summary: 'Pull delivered disbursements and their lines and files into DuckDB', load: () => import('./commands/sync.js') },
  check: { summary: 'Run every SQL check in sql/checks over what changed (--full: the whole store)', load: () => import('./commands/check.js') },
  report: { summary: 'Write the exception workbook of the latest check run', load: () => import('./commands/report.js') },
  close: { summary: 'Monthly close workbook: recon close --month YYYY-MM', load: () => import('./commands/close.js') },
  schedule: { summary: 'Run the nightly job on a cron schedule (RECON_CRON, RECON_TZ)', load: () => import('./commands/schedule.js') },
  sql: { summary: 'Ad-hoc read-only SQL on the published snapshot', load: () => import('./commands/sql.js') },
  ack: { summary: 'Acknowledge a finding: recon ack <key> --note "…"', load: () => import('./commands/ack.js') },
  assign: { summary: 'Give a finding an owner and a due date: recon assign <key> --to NAME [--due YYYY-MM-DD]',
    load: () => import('./commands/assign.js') },
  verify: { summary: 'Recompute the audit trail and compare the store with it: exit 0 intact, 1 naming what differs',
    load: () => import('./commands/verify.js') },
  bank: { summary: 'Import bank statements (camt.053, MT940, BAI2, CSV): recon bank import FILE…', load: () => import('./commands/bank.js') },
  export: { summary: 'Export every table and view as Parquet: recon export --parquet DIR', load: () => import('./commands/export.js') },
  prune: { summary: 'Remove workbooks, downloaded files and log lines older than --keep-days (never what is still needed)', load: () => import('./commands/prune.js') },
  sandbox: { summary: 'Serve the embedded sandbox of the payments service on 127.0.0.1', load: () => import('./commands/sandbox.js') },
  doctor: { summary: 'Before the first night: the key, the clock, the folders, free disk — one line each, exit 2 if a night would fail', load: () => import('./commands/doctor.js') },
  demo: { summary: 'Start the sandbox in-process, run the nightly job and a monthly close, print a summary', load: () => import('./commands/demo.js') },
};

function helpText(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.entries(COMMANDS).map(([name, e]) => `  ${name.padEnd(width)}  ${e.summary}`);
  return [
    'Usage: recon <command> [options]     (recon <command> --help for its options; recon --version)',
    '',
    'Commands:',
    ...lines,
    '',
    'Common options (flags override environment variables):',
    optionsHelp(['apiUrl', 'apiKey', 'db', 'reports', 'logLevel']),
    '',
    'Exit codes: 0 reconciled, 1 exceptions found, 2 failed or misused, 3 another run holds the lock.',
  ].join('\n');
}

export async function main(argv: string[]): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    process.stdout.write(`recon ${PACKAGE_VERSION}\n`);
    return EXIT.OK;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${helpText()}\n`);
    return name ? EXIT.OK : EXIT.FAILED;
  }
  if (!Object.hasOwn(COMMANDS, name)) {
    const hint = didYouMean(name, Object.keys(COMMANDS), (c) => `recon ${c}`);
    process.stderr.write(`recon: unknown command '${name}'${hint}; \`recon --help\` lists the commands\n`);
    return EXIT.FAILED;
  }
  const mod = await COMMANDS[name]!.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${mod.command.usage}\n`);
    return EXIT.OK;
  }
  try {
    return await mod.command.run(rest);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`recon ${name}: ${err.message}${err.seeHelp ? `; see \`recon ${name} --help\`` : ''}\n`);
    return err.exitCode;
  }
}
