// Seeded randomness for tests: the seed comes from RECON_TEST_SEED or is fixed per test file, and is
// printed with every failure so the failing run can be replayed exactly.
import { onTestFailed } from 'vitest';
import { Rng, fnv1a } from '../../sandbox/rng.js';

/**
 * A random stream for the current test. `name` fixes the default seed; RECON_TEST_SEED=<n> replays a
 * failing run. Call inside `it` so the seed is reported when that test fails.
 */
export function testRandom(name: string): { seed: number; next: () => number } {
  const fromEnv = process.env.RECON_TEST_SEED;
  const seed = fromEnv !== undefined && fromEnv !== '' ? Number(fromEnv) >>> 0 : fnv1a(name);
  onTestFailed(() => {
    console.error(`${name}: replay with RECON_TEST_SEED=${seed}`);
  });
  const rng = new Rng(seed);
  return { seed, next: () => rng.next() };
}
