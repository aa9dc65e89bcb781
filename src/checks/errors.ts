// The two ways the checks stage fails: a check file that breaks the contract (fix the SQL file), and an
// acknowledgement that cannot be recorded (fix the command line).
import { TerminalError, UsageError } from '../errors.js';

/** A sql/checks file that cannot run or does not return the exception columns. */
export class CheckFileError extends TerminalError {
  override readonly name = 'CheckFileError';
  constructor(
    readonly checkId: string,
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`check ${checkId} (${file}): ${message}`, options);
  }
}

/** An acknowledgement that was refused: unknown key, missing note, finding already resolved. */
/** A key that names no finding, a resolved one, a note missing: the person's mistake, said once (exit 2). */
export class AckError extends UsageError {
  override readonly name = 'AckError';
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(message);
  }
}
