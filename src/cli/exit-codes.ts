// Exit codes of the shared contract (DEVELOPERS.md): what a scheduler or shell script branches on.
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
}
