// Parent side of sandbox-child.ts: fork it, wait for its URL, ask it questions over IPC.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SandboxOptions, SandboxStats } from '../sandbox/index.js';
import type { ChildSelection, Minimum } from './sandbox-child.js';

const CHILD = fileURLToPath(new URL('./sandbox-child.js', import.meta.url));

export interface SandboxProcess {
  url: string;
  apiKey: string;
  pid: number;
  stats(): Promise<SandboxStats>;
  resetStats(): Promise<void>;
  /** [t ms, endpoint, status] of the last requests (the sandbox's ring buffer). */
  log(): Promise<Array<[number, string, number]>>;
  minimum(perPage: number, select?: ChildSelection): Promise<Minimum>;
  setDelivered(count: number): Promise<void>;
  /** Deliver every disbursement whose delivered_at is at or before `ms`; resolves to how many that is. */
  deliverUntil(ms: number): Promise<number>;
  rss(): Promise<{ vmHwmMb: number; maxRssMb: number }>;
  close(): Promise<void>;
}

export async function startSandboxProcess(options: SandboxOptions): Promise<SandboxProcess> {
  const child: ChildProcess = fork(CHILD, [JSON.stringify(options)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, (v: unknown) => void>();
  let nextId = 1;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<{ url: string; apiKey: string; pid: number }>((resolve, reject) => {
    pending.set(0, (v) => resolve(v as { url: string; apiKey: string; pid: number }));
    child.once('exit', (code) => reject(new Error(`sandbox process exited (${code}) before listening`)));
  });
  child.on('message', (m: { id: number; value: unknown }) => {
    pending.get(m.id)?.(m.value);
    pending.delete(m.id);
  });
  const ask = <T>(req: Record<string, unknown>): Promise<T> =>
    new Promise<T>((resolve) => {
      const id = nextId++;
      pending.set(id, (v) => resolve(v as T));
      child.send({ id, ...req });
    });
  const info = await ready;
  return {
    ...info,
    stats: () => ask({ type: 'stats' }),
    resetStats: () => ask({ type: 'reset-stats' }),
    log: () => ask({ type: 'log' }),
    minimum: (perPage, select) => ask({ type: 'minimum', perPage, select }),
    setDelivered: (count) => ask({ type: 'set-delivered', count }),
    deliverUntil: (ms) => ask({ type: 'deliver-until', ms }),
    rss: () => ask({ type: 'rss' }),
    async close() {
      if (child.connected) child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
