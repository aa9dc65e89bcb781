import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseSandboxFlags } from '../../../pipelines/cli/commands/sandbox.js';
import { runCliHere } from '../../helpers/in-process.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('recon sandbox', () => {
  it('maps flags to sandbox options', () => {
    expect(
      parseSandboxFlags(['--port', '0', '--seed', 'abc', '--disbursements', '50', '--payouts-per-disbursement', '7', '--anomaly-rate', '0.1', '--fault-rate', '0.05', '--api-key', 'k']),
    ).toMatchObject({ port: 0, seed: 'abc', disbursements: 50, payoutsPerDisbursement: 7, anomalies: { rate: 0.1 }, faults: { rate: 0.05 }, apiKey: 'k' });
  });

  it('returns exit code 2 on bad flags', async () => {
    for (const argv of [['--disbursements', 'many'], ['--fault-rate', '1.5'], ['--nope'], ['--port', '70000']]) {
      const r = await runCliHere(['sandbox', ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^recon sandbox: .*; see `recon sandbox --help`\n$/);
    }
  });

  it('serves on 127.0.0.1 until SIGTERM, then exits 0', async () => {
    const child = spawn(process.execPath, ['dist/pipelines/cli/main.js', 'sandbox', '--port', '0', '--seed', '5', '--disbursements', '7', '--api-key', 'cli-key'], { cwd: root });
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(out.trim());
      });
      child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
    });
    const match = /^sandbox listening on (http:\/\/127\.0\.0\.1:\d+) \(api key: cli-key\)$/.exec(line);
    expect(match).not.toBeNull();
    const res = await fetch(`${match?.[1] ?? ''}/payments/v1/disbursements`, { headers: { 'X-Authentication-Key': 'cli-key' } });
    expect(((await res.json()) as { total_entries: number }).total_entries).toBe(7);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
