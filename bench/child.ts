// Runs one benchmark stage in a fresh node process (so its peak RSS is its own) and returns the JSON it
// printed last. A stage that fails or times out comes back as an error with the end of its stderr.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS, returnFreedMemoryPromptly } from '../src/ops/memory.js';

export type StageResult = Record<string, unknown>;

export class StageError extends Error {
  override readonly name = 'StageError';
}

export function runStage(name: string, args: Array<string | number>, timeoutMs = 600_000): Promise<StageResult> {
  const script = fileURLToPath(new URL(`./stages/${name}.js`, import.meta.url));
  const label = `${name} ${args.join(' ')}`.trim();
  process.stderr.write(`  … ${label}\n`);
  return new Promise((resolve, reject) => {
    // each stage starts as the recon bin does: its node flags, DuckDB's allocator told to return freed pages at once
    const env = { ...process.env };
    returnFreedMemoryPromptly(env);
    const child = spawn(process.execPath, [...NODE_FLAGS, script, ...args.map(String)], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const last = stdout.trim().split('\n').pop() ?? '';
      if (code === 0) {
        try {
          resolve(JSON.parse(last) as StageResult);
          return;
        } catch {
          // fall through: no result line
        }
      }
      const why = signal === 'SIGKILL' ? `timed out after ${timeoutMs / 1000} s` : `exit ${code ?? signal}`;
      reject(new StageError(`${label}: ${why}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}
