import type { ExitCode } from '../../src/errors.js';

/** One CLI command: parses its own flags (node:util parseArgs), calls one function, returns an exit code. */
export interface Command {
  name: string;
  usage: string;
  run(argv: string[]): Promise<ExitCode>;
}
