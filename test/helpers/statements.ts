// What the bank parser tests ask of a statement file: that it is refused, and why.
import { parseStatementText } from '../../src/bank/parse.js';
import { StatementError } from '../../src/bank/statement.js';

/** The refusal of a statement text; fails the test when the text is read instead. */
export function refused(name: string, text: string): StatementError {
  try {
    parseStatementText(name, text);
  } catch (err) {
    if (err instanceof StatementError) return err;
    throw err;
  }
  throw new Error(`${name} was not refused`);
}
