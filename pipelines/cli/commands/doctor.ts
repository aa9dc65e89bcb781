import type { Command } from '../command.js';
import { optionsHelp, parseCommandArgs, COMMAND_OPTIONS } from '../../config.js';
import { runDoctor } from '../../doctor.js';
import { terminalText } from '../../../src/report/safe-text.js';

const KEYS = COMMAND_OPTIONS.doctor;

export const command: Command = {
  name: 'doctor',
  usage: `Usage: recon doctor [options]

Before the first night: checks the API key against the service (the disbursements list, and a
payment's details when sampling is on), this machine's clock against the service's, that the store's
and the workbooks' folders can be written, free disk, and whether a run holds the lock. One line each:
OK, WARN (the night runs, worse), FAIL (the night would fail), SKIP. Exit 2 on any FAIL, else 0.

${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config } = parseCommandArgs(argv, KEYS);
    const { code, lines } = await runDoctor(config);
    const width = Math.max(...lines.map((l) => l.check.length));
    for (const l of lines)
      process.stdout.write(`${l.verdict.padEnd(4)}  ${l.check.padEnd(width)}  ${terminalText(l.reason)}\n`);
    return code;
  },
};
