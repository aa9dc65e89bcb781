import path from 'node:path';
import { parseCommandArgs, COMMAND_OPTIONS } from '../../pipelines/config.js';
import { silentLogger } from '../../src/log.js';
import { runNightly } from '../../pipelines/nightly.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/index.js';
import { afterAll, beforeAll, expect } from 'vitest';
import { tempDir } from './recon.js';

/** `recon run` in-process against a sandbox, everything under `dir`. */
export async function nightlyOnce(sb: Sandbox, dir: string, args: string[] = []) {
  const { config } = parseCommandArgs(
    ['--api-url', sb.url, '--api-key', sb.apiKey, '--db', path.join(dir, 'recon.duckdb'), '--reports', path.join(dir, 'reports'),
      '--rate-per-minute', '60000', '--sample-budget', '0', ...args],
    COMMAND_OPTIONS.run, {}, {},
  );
  return { config, outcome: await runNightly(config, silentLogger, { tuning: { retryBaseMs: 5 }, handleSignals: false }) };
}

export interface NightlyFixture {
  sb: Sandbox;
  /** The temp folder the night wrote to, and its store. */
  dir: string;
  db: string;
}

/**
 * For a test file: a sandbox started and one night run into a temp folder before its tests (checking
 * the night's exit code), both removed after. Read the fields inside the tests, once beforeAll ran.
 */
export function nightBeforeAll(options: SandboxOptions, expectedCode: number): NightlyFixture {
  const fixture = {} as NightlyFixture;
  let cleanup = () => {};
  beforeAll(async () => {
    fixture.sb = await startSandbox(options);
    const t = tempDir();
    cleanup = t.cleanup;
    fixture.dir = t.dir;
    fixture.db = path.join(t.dir, 'recon.duckdb');
    expect((await nightlyOnce(fixture.sb, t.dir)).outcome.code).toBe(expectedCode);
  }, 120_000);
  afterAll(async () => {
    await fixture.sb?.close();
    cleanup();
  });
  return fixture;
}
