// The CLI run inside the test's own process: the same dispatcher, commands and exit codes as the bin
// (pipelines/cli/main.ts maps an escaped error to exit 2 and one line, as here), without a Node start-up and
// module loading per call (about a second of CPU each). For long lists of cases against one command;
// what only a real process shows (signals, exit of the process, stdin) stays with test/helpers/child.ts.
// Calls run one at a time: process.stdout and process.stderr are swapped for the call's own streams.
import { Writable } from 'node:stream';
import { main } from '../../pipelines/cli/dispatch.js';
import { EXIT, oneLine } from '../../src/errors.js';

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

let queue: Promise<unknown> = Promise.resolve();

function swap(name: 'stdout' | 'stderr', stream: Writable): () => void {
  const original = Object.getOwnPropertyDescriptor(process, name);
  Object.defineProperty(process, name, { value: stream, configurable: true, writable: true });
  return () => {
    if (original) Object.defineProperty(process, name, original);
  };
}

/** `recon <args>` in this process, with the environment variables of `env` set for the call only. */
export function runCliHere(args: string[], env: NodeJS.ProcessEnv = {}): Promise<InProcessResult> {
  const turn = queue.then(async () => {
    const out = collector();
    const err = collector();
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    const restoreOut = swap('stdout', out.stream);
    const restoreErr = swap('stderr', err.stream);
    let code: number;
    try {
      code = await main(args);
    } catch (e) {
      // as the bin does: one line on stderr, exit 2
      err.stream.write(`recon: ${oneLine(e instanceof Error ? e.message : String(e))}\n`);
      code = EXIT.FAILED;
    } finally {
      restoreOut();
      restoreErr();
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    return { code, stdout: out.text(), stderr: err.text() };
  });
  queue = turn.catch(() => undefined);
  return turn;
}
