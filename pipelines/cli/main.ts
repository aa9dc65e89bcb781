#!/usr/bin/env -S node --max-semi-space-size=4
// The `recon` bin: run the dispatcher, map an uncaught error to exit 2 with its message on stderr.
// The dispatcher is imported only after the memory settings that must precede DuckDB's loading.
import { EXIT, ReconError, oneLine } from '../../src/errors.js';
import { returnFreedMemoryPromptly } from '../../src/ops/memory.js';

returnFreedMemoryPromptly(process.env);
const { main } = await import('./dispatch.js');

const argv = process.argv.slice(2);
/** A stack is for whoever debugs recon (--log-level debug or trace), never for the person running it. */
const level = argv.includes('--log-level') ? argv[argv.indexOf('--log-level') + 1] : process.env.RECON_LOG_LEVEL;
const debugging = level === 'debug' || level === 'trace';

let settled = false;
// Node ends a process whose event loop ran dry with exit 0, even while a promise still waits (a stream
// that died without a word): recon then claimed a success it never had. Not any more.
process.once('beforeExit', () => {
  if (settled) return;
  process.stderr.write(
    'recon: stopped before finishing (a wait inside recon never ended); nothing it would have written is claimed\n',
  );
  process.exitCode = EXIT.FAILED;
});

main(argv).then(
  (code) => {
    settled = true;
    process.exitCode = code;
  },
  (err: unknown) => {
    settled = true;
    // recon's own errors are written for the user; anything else is shown on one line too (its stack when debugging)
    const message = err instanceof Error ? err.message : String(err);
    const shown =
      debugging && err instanceof Error && !(err instanceof ReconError) ? (err.stack ?? message) : oneLine(message);
    process.stderr.write(`recon: ${shown}\n`);
    process.exitCode = EXIT.FAILED;
  },
);
