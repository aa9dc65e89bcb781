// The bottom of the stack, importable by every layer: the exit codes of the shared contract (what a
// scheduler or shell script branches on) and the roots of recon's own errors.
export const EXIT = {
  /** Reconciled with no exceptions. */
  OK: 0,
  /** Completed and exceptions were found (workbook written). */
  EXCEPTIONS: 1,
  /** The run failed or the command was misused; nothing half-written was committed. */
  FAILED: 2,
  /** Another run holds the lock. */
  LOCKED: 3,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The root of every error recon raises itself. Its message is written for the person running recon: it
 * says what happened and what to do, holds no secret, and is shown without a stack. Anything else that
 * reaches the top is a bug and is shown with its stack.
 */
export abstract class ReconError extends Error {
  /** Trying the same thing again may succeed (a network error, a 5xx, a lock about to be released). */
  abstract readonly transient: boolean;
}

/** Trying again cannot help until something is changed: an input, a setting, a file. */
export abstract class TerminalError extends ReconError {
  readonly transient: boolean = false;
}

/** The same attempt may succeed later. */
export abstract class TransientError extends ReconError {
  readonly transient: boolean = true;
}

/** A misuse of a command or a setting the user must change; exit 2. */
export class UsageError extends TerminalError {
  override readonly name: string = 'UsageError';
  readonly exitCode: ExitCode = EXIT.FAILED;
  /** @param seeHelp the command's `--help` answers it (an unknown or malformed option): the CLI says so. */
  constructor(message: string, readonly seeHelp = false) {
    super(message);
  }
}

/** A message on one line: DuckDB's span several (a caret under the SQL); a terminal and a log get one. */
export function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ' ').trim();
}
