// Run before each test file (vitest.config.ts, setupFiles). The workers run file after file with their
// modules loaded once, so what a helper module counts would carry over from the files before: put back here
// what a file's data depends on, so that a file sees what it would see in a process of its own.
import { restartFakeIds } from './fake-service.js';

restartFakeIds();
