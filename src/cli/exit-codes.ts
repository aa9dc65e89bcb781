// Kept while branches in flight still import it here; src/errors.ts is the source.
export { EXIT, UsageError, type ExitCode } from '../errors.js';
