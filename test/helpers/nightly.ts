import path from 'node:path';
import { parseCommandArgs } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { runNightly } from '../../pipelines/nightly.js';
import { RUN_KEYS } from '../../src/cli/commands/run.js';
import type { Sandbox } from '../../src/sandbox/index.js';

/** `recon run` in-process against a sandbox, everything under `dir`. */
export async function nightlyOnce(sb: Sandbox, dir: string, args: string[] = []) {
  const { config } = parseCommandArgs(
    ['--api-url', sb.url, '--api-key', sb.apiKey, '--db', path.join(dir, 'recon.duckdb'), '--reports', path.join(dir, 'reports'),
      '--rate-per-minute', '60000', '--sample-budget', '0', ...args],
    RUN_KEYS, {}, {},
  );
  return { config, outcome: await runNightly(config, silentLogger, { tuning: { retryBaseMs: 5 }, handleSignals: false }) };
}
