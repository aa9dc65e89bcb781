// The CLI run inside the test's own process: the same dispatcher, commands and exit codes as the bin
// (pipelines/cli/main.ts maps an escaped error to exit 2 and one line, as here), without a Node start-up and
// module loading per call (about a second of CPU each). A call's stdout and stderr are what a child's pipes
// would carry: process.stdout and process.stderr are swapped for the call's own streams, and what is written
// to file descriptors 1 and 2 directly (pino's JSON log when no --log-file is given) is caught too.
// What only a real process shows stays with test/helpers/child.ts: signals and kills, the exit of the process
// itself, stdin, process-wide settings (the bin's node flags, TZ and DuckDB's allocator, read once at start),
// locks and snapshots between two processes, and a hang that must not take the test runner with it.
// Calls run one at a time.
import fs from 'node:fs';
import { Writable } from 'node:stream';
import { main } from '../../pipelines/cli/dispatch.js';
import { EXIT, ReconError, oneLine } from '../../src/errors.js';

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

interface Collector {
  stream: Writable;
  add: (chunk: Buffer) => void;
  text: () => string;
}

function collector(): Collector {
  const chunks: Buffer[] = [];
  const add = (chunk: Buffer) => void chunks.push(chunk);
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      add(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      done();
    },
  });
  return { stream, add, text: () => Buffer.concat(chunks).toString('utf8') };
}

let queue: Promise<unknown> = Promise.resolve();

function swap(name: 'stdout' | 'stderr', stream: Writable): () => void {
  const original = Object.getOwnPropertyDescriptor(process, name);
  Object.defineProperty(process, name, { value: stream, configurable: true, writable: true });
  return () => {
    if (original) Object.defineProperty(process, name, original);
  };
}

type WriteSync = (fd: number, data: string | NodeJS.ArrayBufferView, ...rest: unknown[]) => number;

/** fs.writeSync to fd 1 and 2 into the call's collectors (pino's destination looks fs.writeSync up on each write). */
function catchDescriptors(out: Collector, err: Collector): () => void {
  const target = fs as unknown as { writeSync: WriteSync };
  const original = target.writeSync;
  target.writeSync = function writeSync(fd, data, ...rest) {
    if (fd !== 1 && fd !== 2) return original.call(fs, fd, data, ...rest);
    const into = fd === 1 ? out : err;
    if (typeof data === 'string') {
      const bytes = Buffer.from(data, 'utf8');
      into.add(bytes);
      return bytes.length;
    }
    const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const offset = typeof rest[0] === 'number' ? rest[0] : 0;
    const length = typeof rest[1] === 'number' ? rest[1] : view.length - offset;
    into.add(Buffer.from(view.subarray(offset, offset + length)));
    return length;
  };
  return () => {
    target.writeSync = original;
  };
}

/** As the bin shows an error that escaped the dispatcher: one line, its stack only for --log-level debug or trace. */
function escaped(args: string[], e: unknown): string {
  const level = args.includes('--log-level') ? args[args.indexOf('--log-level') + 1] : process.env.RECON_LOG_LEVEL;
  const debugging = level === 'debug' || level === 'trace';
  const message = e instanceof Error ? e.message : String(e);
  return debugging && e instanceof Error && !(e instanceof ReconError) ? (e.stack ?? message) : oneLine(message);
}

export interface InProcessRun {
  /** What the call has written to stderr so far (a waiting command's notice, say). */
  stderr: () => string;
  done: Promise<InProcessResult>;
}

/** `recon <args>` in this process, once the calls before it ended; env's variables are set for the call only. */
export function startCliHere(args: string[], env: NodeJS.ProcessEnv = {}): InProcessRun {
  const out = collector();
  const err = collector();
  const done = queue.then(async () => {
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    for (const [k, v] of Object.entries(env)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    const restoreOut = swap('stdout', out.stream);
    const restoreErr = swap('stderr', err.stream);
    const restoreDescriptors = catchDescriptors(out, err);
    let code: number;
    try {
      code = await main(args);
    } catch (e) {
      err.stream.write(`recon: ${escaped(args, e)}\n`);
      code = EXIT.FAILED;
    } finally {
      restoreDescriptors();
      restoreOut();
      restoreErr();
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    return { code, stdout: out.text(), stderr: err.text() };
  });
  queue = done.catch(() => undefined);
  return { stderr: err.text, done };
}

/** `recon <args>` in this process, with the environment variables of `env` set for the call only. */
export function runCliHere(args: string[], env: NodeJS.ProcessEnv = {}): Promise<InProcessResult> {
  return startCliHere(args, env).done;
}
