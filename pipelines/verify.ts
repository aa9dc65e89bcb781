// recon verify: the store read-only, its audit trail recomputed and its rows compared with it. Not a run:
// it records nothing (a verification that wrote to the store would change what it verifies).
import { EXIT, type ExitCode } from '../src/errors.js';
import type { Config } from './config.js';
import { openForVerify, StoreBusyError, TrailMissingError } from '../src/store/trail-open.js';
import { verifyTrail, type VerifyResult } from '../src/store/trail-verify.js';

interface VerifyOutcome {
  code: ExitCode;
  result: VerifyResult | null;
  /** Why nothing could be compared (exit 1: the trail is gone; 3: the store is busy). */
  error: string | null;
}

export async function runVerify(
  config: Pick<Config, 'db'>, opts: { expectHash?: string | null } = {},
): Promise<VerifyOutcome> {
  let store;
  try {
    store = await openForVerify(config.db);
  } catch (err) {
    if (err instanceof StoreBusyError) return { code: EXIT.LOCKED, result: null, error: err.message };
    if (err instanceof TrailMissingError) return { code: EXIT.EXCEPTIONS, result: null, error: err.message };
    throw err;
  }
  try {
    const result = await verifyTrail(store.connection, { expectHash: opts.expectHash ?? null });
    return { code: result.differences.length === 0 ? EXIT.OK : EXIT.EXCEPTIONS, result, error: null };
  } finally {
    store.close();
  }
}
