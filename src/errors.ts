// The bottom of the stack, importable by every layer: the exit codes of the shared contract (what a
// scheduler or shell script branches on) and the error a user can act on.
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

/** An error whose message is for the user (stderr) and which maps to an exit code. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly exitCode: ExitCode = EXIT.FAILED;
  /** @param seeHelp the command's `--help` answers it (an unknown or malformed option): the CLI says so. */
  constructor(message: string, readonly seeHelp = false) {
    super(message);
  }
}
