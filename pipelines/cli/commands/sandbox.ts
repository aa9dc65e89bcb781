// `recon sandbox`: serve the embedded sandbox of the payments service on 127.0.0.1 until SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import type { Command } from '../command.js';
import { EXIT, UsageError, type ExitCode } from '../../../src/errors.js';
import { startSandbox, type SandboxOptions } from '../../../sandbox/index.js';
import { writeStatements } from '../../../sandbox/statements.js';

const usage = `Usage: recon sandbox [options]

Serve the embedded sandbox of the payments service on 127.0.0.1 (docs/sandbox.md).

Options:
  --port N                        listen port (default 0: any free port)
  --seed S                        dataset seed (default 1); same seed, same bytes
  --disbursements N               delivered disbursements (default 200)
  --payouts-per-disbursement N    mean payouts per disbursement (default 20)
  --anomaly-rate R                share of disbursements with a planted anomaly, 0…1 (default 0)
  --fault-rate R                  share of API requests with an injected fault, 0…1 (default 0)
  --api-key K                     expected X-Authentication-Key (default sandbox-key)
  --statements DIR                write the client's bank statements of these disbursements into DIR
                                  (camt.053, MT940, CSV, BAI2; eight planted bank cases) for recon bank import
  --profile P                     realistic (default: field and list order vary, per_page above 50 refused,
                                  duration expiry, redirects, slow files, some payment details refused)
                                  or friendly (a plain server)`;

function intFlag(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new UsageError(`--${name} must be an integer in [${min}, ${max}], got '${raw}'`, true);
  return Number(raw);
}

function rateFlag(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
    throw new UsageError(`--${name} must be a number between 0 and 1, got '${raw}'`, true);
  return n;
}

export function parseSandboxFlags(argv: string[]): SandboxOptions & { statements?: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        seed: { type: 'string' },
        disbursements: { type: 'string' },
        'payouts-per-disbursement': { type: 'string' },
        'anomaly-rate': { type: 'string' },
        'fault-rate': { type: 'string' },
        'api-key': { type: 'string' },
        profile: { type: 'string' },
        statements: { type: 'string' },
      },
    }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err), true);
  }
  const options: SandboxOptions & { statements?: string } = {
    port: intFlag('port', values.port, 0, 65535),
    seed: values.seed,
    disbursements: intFlag('disbursements', values.disbursements, 0, 10_000_000),
    payoutsPerDisbursement: intFlag('payouts-per-disbursement', values['payouts-per-disbursement'], 1, 10_000),
    anomalies: { rate: rateFlag('anomaly-rate', values['anomaly-rate']) ?? 0 },
    faults: { rate: rateFlag('fault-rate', values['fault-rate']) ?? 0 },
  };
  const profile = values.profile ?? 'realistic';
  if (profile !== 'realistic' && profile !== 'friendly')
    throw new UsageError(`--profile must be realistic or friendly, got '${profile}'`, true);
  options.profile = profile;
  if (values.statements !== undefined) {
    if (values.statements.trim() === '') throw new UsageError('--statements needs a folder', true);
    options.statements = values.statements;
  }
  if (values['api-key'] !== undefined) {
    if (values['api-key'] === '') throw new UsageError('--api-key must not be empty', true);
    options.apiKey = values['api-key'];
  }
  return options;
}

export const command: Command = {
  name: 'sandbox',
  usage,
  async run(argv: string[]): Promise<ExitCode> {
    const { statements, ...options } = parseSandboxFlags(argv);
    const sb = await startSandbox({ ...options, host: '127.0.0.1' });
    process.stdout.write(`sandbox listening on ${sb.url} (api key: ${sb.apiKey})\n`);
    if (statements) {
      const written = await writeStatements(sb.truth, statements);
      process.stdout.write(
        `bank statements: ${written.files.length} files in ${statements} (camt.053, MT940, CSV, BAI2; ` +
          `planted: ${written.planted.map((p) => `${p.kind} ${p.disbursement_id}`).join(', ')})\n`,
      );
    }
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await sb.close();
    process.stderr.write('sandbox closed\n');
    return EXIT.OK;
  },
};
