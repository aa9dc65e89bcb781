// A folder for the whole test run, for what its test files share (the demo, empty-store templates):
// test/global-setup.ts makes it before the first file and removes it after the last.
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    runFolder: string;
  }
}

export function runFolder(): string {
  return inject('runFolder');
}
