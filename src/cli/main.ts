#!/usr/bin/env node
// The `recon` bin: run the dispatcher, map an uncaught error to exit 2 with its message on stderr.
// The dispatcher is imported only after the memory settings that must precede DuckDB's loading.
import { EXIT, ReconError } from '../errors.js';
import { returnFreedMemoryPromptly } from '../ops/memory.js';

returnFreedMemoryPromptly();
const { main } = await import('./dispatch.js');

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // recon's own errors are written for the user; anything else is a bug and keeps its stack
    const message = err instanceof ReconError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err);
    process.stderr.write(`recon: ${message}\n`);
    process.exitCode = EXIT.FAILED;
  },
);
