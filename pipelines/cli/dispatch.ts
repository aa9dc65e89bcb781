// The `recon` CLI: a thin dispatcher. Each command lives in commands/<name>.ts and is loaded lazily
// so `recon --help` stays fast and a broken command cannot break the others.
import { optionsHelp } from '../config.js';
import { EXIT, UsageError, type ExitCode } from '../../src/errors.js';
import type { Command } from './command.js';
import { didYouMean } from '../../src/suggest.js';
import { PACKAGE_VERSION } from '../../src/outlets/version.js';

/**
 * Each command's module, loaded only when the command runs. Each import is named whole, so any loader (Node, a
 * bundler, the test runner) sees every command.
 */
const LOADERS = {
  run: () => import('./commands/run.js'),
  sync: () => import('./commands/sync.js'),
  check: () => import('./commands/check.js'),
  report: () => import('./commands/report.js'),
  close: () => import('./commands/close.js'),
  schedule: () => import('./commands/schedule.js'),
  sql: () => import('./commands/sql.js'),
  ack: () => import('./commands/ack.js'),
  assign: () => import('./commands/assign.js'),
  verify: () => import('./commands/verify.js'),
  bank: () => import('./commands/bank.js'),
  export: () => import('./commands/export.js'),
  prune: () => import('./commands/prune.js'),
  sandbox: () => import('./commands/sandbox.js'),
  doctor: () => import('./commands/doctor.js'),
  demo: () => import('./commands/demo.js'),
} satisfies Record<string, () => Promise<{ command: Command }>>;

type CommandName = keyof typeof LOADERS;

/** A line each in `recon --help`, in this order. */
const SUMMARIES: Record<CommandName, string> = {
  run: 'Nightly job once: sync → checks → workbook → publish',
  sync: 'Pull delivered disbursements and their lines and files into DuckDB',
  check: 'Run every SQL check in sql/checks over what changed (--full: the whole store)',
  report: 'Write the exception workbook of the latest check run',
  close: 'Monthly close workbook: recon close --month YYYY-MM',
  schedule: 'Run the nightly job on a cron schedule (RECON_CRON, RECON_TZ)',
  sql: 'Ad-hoc read-only SQL on the published snapshot',
  ack: 'Acknowledge a finding: recon ack <key> --note "…"',
  assign: 'Give a finding an owner and a due date: recon assign <key> --to NAME [--due YYYY-MM-DD]',
  verify: 'Recompute the audit trail and compare the store with it: exit 0 intact, 1 naming what differs',
  bank: 'Import bank statements (camt.053, MT940, BAI2, CSV): recon bank import FILE…',
  export: 'Export every table and view as Parquet: recon export --parquet DIR',
  prune: 'Remove workbooks, downloaded files and log lines older than --keep-days (never what is still needed)',
  sandbox: 'Serve the embedded sandbox of the payments service on 127.0.0.1',
  doctor: 'Before the first night: the key, the clock, the folders, free disk — one line each, exit 2 if a night ' +
    'would fail',
  demo: 'Start the sandbox in-process, run the nightly job and a monthly close, print a summary',
};

function helpText(): string {
  const width = Math.max(...Object.keys(SUMMARIES).map((n) => n.length));
  const lines = Object.entries(SUMMARIES).map(([name, summary]) => `  ${name.padEnd(width)}  ${summary}`);
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
  if (!Object.hasOwn(LOADERS, name)) {
    const hint = didYouMean(name, Object.keys(LOADERS), (c) => `recon ${c}`);
    process.stderr.write(`recon: unknown command '${name}'${hint}; \`recon --help\` lists the commands\n`);
    return EXIT.FAILED;
  }
  const mod = await LOADERS[name as CommandName]();
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
