#!/usr/bin/env node
// The `recon` bin: run the dispatcher, map an uncaught error to exit 2 with its message on stderr.
import { EXIT, UsageError } from './exit-codes.js';
import { main } from './dispatch.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const message = err instanceof UsageError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err);
    process.stderr.write(`recon: ${message}\n`);
    process.exitCode = EXIT.FAILED;
  },
);
