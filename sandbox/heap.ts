// The sandbox server builds and drops a response per request: a smaller heap-growing step keeps its RSS
// flat (the same setting recon's sync uses, src/ops/memory.ts; kept apart so the sandbox stands alone).
import v8 from 'node:v8';

let set = false;

export function preferCompactHeap(): void {
  if (set) return;
  v8.setFlagsFromString('--heap-growing-percent=50');
  set = true;
}
