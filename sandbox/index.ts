// The embedded sandbox of the payments service (docs/sandbox.md): a deterministic, local imitation of
// the read interface with planted anomalies, injected faults and a ground truth to test against.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Dataset } from './dataset.js';
import { FaultInjector } from './faults.js';
import { LinkSigner } from './files.js';
import { ModelCache } from './model.js';
import { resolveOptions, type FaultOptions, type SandboxOptions } from './options.js';
import type { RequestLogEntry, SandboxStats } from './replies.js';
import type { ApiContext } from './routes.js';
import { SandboxServer } from './server.js';
import { Truth } from './truth.js';
import { preferCompactHeap } from './heap.js';

export { ANOMALY_CHECKS, ANOMALY_KINDS, FAULT_KINDS, type AnomalyKind, type FaultKind } from './kinds.js';
export type { AnomalyOptions, FaultOptions, RateLimitOptions, SandboxOptions } from './options.js';
export type { Endpoint, RequestLogEntry, SandboxStats } from './replies.js';
export type { Expected, Truth, TruthAnomaly, TruthDisbursement } from './truth.js';

export interface Sandbox {
  /** Base URL without /payments/v1, e.g. 'http://127.0.0.1:41234'. */
  readonly url: string;
  readonly port: number;
  readonly apiKey: string;
  readonly truth: Truth;
  readonly generation: number;
  setGeneration(n: number): void;
  setFaults(faults: FaultOptions): void;
  /**
   * Only the `count` oldest disbursements have been delivered so far (the rest appear in the list, and by
   * id, once a later call raises the count): a night before and a night after new deliveries.
   */
  setDelivered(count: number): void;
  stats(): SandboxStats;
  resetStats(): void;
  requestLog(): RequestLogEntry[];
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  preferCompactHeap(); // every request builds its disbursement's model and drops it: short-lived garbage
  const opts = resolveOptions(options);
  const ds = new Dataset(opts);
  const models = new ModelCache(ds);
  const faults = new FaultInjector(opts.seed, opts.faults, opts.latencyMs);
  let generation = 0;
  let delivered = ds.n;
  let baseUrl = '';
  const ctx: ApiContext = {
    ds,
    opts,
    models,
    signer: new LinkSigner(opts.seed),
    faults,
    generation: () => generation,
    visibleCount: () => Math.max(0, delivered - faults.hidden()),
    baseUrl: () => baseUrl,
    readNo: (() => {
      const reads = new Map<string, number>();
      return (list: string, starts: boolean) => {
        const n = (reads.get(list) ?? 0) + (starts ? 1 : 0);
        reads.set(list, n);
        return n;
      };
    })(),
  };
  const setGeneration = (n: number): void => {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`generation must be a non-negative integer, got ${n}`);
    generation = n;
    models.clear();
  };
  const truth = new Truth({ ds, generation: () => generation, visibleCount: ctx.visibleCount });
  const app = new SandboxServer(ctx, { truth, setGeneration });
  const server = createServer(app.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`;

  let closing: Promise<void> | null = null;
  return {
    url: baseUrl,
    port,
    apiKey: opts.apiKey,
    truth,
    get generation() {
      return generation;
    },
    setGeneration,
    setFaults: (f) => faults.set(f),
    setDelivered(count) {
      if (!Number.isInteger(count) || count < 0 || count > ds.n)
        throw new RangeError(`delivered must be an integer in [0, ${ds.n}], got ${count}`);
      delivered = count;
    },
    stats: () => app.stats(),
    resetStats: () => app.resetStats(),
    requestLog: () => app.log.entries(),
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        app.stop();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
export { plantEveryKind } from './plant.js';
