import path from 'node:path';
import type { Command } from '../command.js';
import { UsageError } from '../../../src/errors.js';
import { COMMAND_OPTIONS, optionsHelp, parseCommandArgs } from '../../config.js';
import { createLogger } from '../../../src/log.js';
import { runDemo } from '../../demo.js';
import { layoutOf } from '../../settings.js';
const KEYS = COMMAND_OPTIONS.demo;
import { describeDemo, describeNight } from '../summary.js';
import { notice } from '../notice.js';

const say = (line: string) => process.stdout.write(`${line}\n`);

const NUMBERS = { seed: 42, disbursements: 180, 'anomaly-rate': 0.02, 'time-compression': 10 } as const;

export const command: Command = {
  name: 'demo',
  usage:
    `Usage: recon demo [--seed N] [--disbursements N] [--anomaly-rate R] [--time-compression X] [options]

Starts the sandbox in-process, runs two nights of the nightly job and the close of the last full month,
and prints where everything was written. Each demo starts from an empty store of its own (a store it did
not make is refused), so running it twice tells the same story. Logs go to <db folder>/demo.log unless
--log-file is given.

  --seed N               dataset seed (default ${NUMBERS.seed})
  --disbursements N      how many (default ${NUMBERS.disbursements})
  --anomaly-rate R       share of disbursements with a planted anomaly (default ${NUMBERS['anomaly-rate']})
  --time-compression X   the sandbox's rate-limit window runs X times faster (default ${NUMBERS['time-compression']})
${optionsHelp(KEYS)}`,
  async run(argv) {
    const flags = Object.fromEntries(Object.keys(NUMBERS).map((k) => [k, { type: 'string' as const }]));
    const { config, extra } = parseCommandArgs(argv, KEYS, flags);
    const num = (name: keyof typeof NUMBERS) => {
      const x = extra[name] === undefined ? NUMBERS[name] : Number(extra[name]);
      if (!Number.isFinite(x) || x < 0) throw new UsageError(`--${name} must be a non-negative number`, true);
      return x;
    };
    const logger = createLogger({
      level: config.logLevel,
      logFile: config.logFile ?? path.join(layoutOf(config).dir, 'demo.log'),
    });
    const outcome = await runDemo(
      config,
      logger,
      {
        seed: num('seed'),
        disbursements: num('disbursements'),
        anomalyRate: num('anomaly-rate'),
        timeCompression: num('time-compression'),
      },
      {
        notice,
        sandbox: (s) =>
          say(
            `sandbox of the payments service on ${s.url} (seed ${s.seed}, ${s.disbursements} disbursements, ` +
              `${s.anomalies} anomalies planted; its 500 requests/min limit runs ${s.timeCompression}× faster)`,
          ),
        night: (n, night) => say(`night ${n}: ${describeNight(night)}`),
        statements: (s) =>
          say(
            `bank:    ${s.files} statements in ${s.dir} (camt.053, MT940, CSV, BAI2; ${s.planted} bank cases planted)`,
          ),
      },
    );
    process.stdout.write(describeDemo(outcome));
    return outcome.code;
  },
};
