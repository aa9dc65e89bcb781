// pino JSON logs on stderr (or --log-file). The API key is censored by path and, belt and braces, every
// secret of the command in any text it slipped into; callers redact pre-signed URLs (src/api/redact.ts)
// before logging them.
import path from 'node:path';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { UsageError } from './errors.js';
import { makeFolderSync, plainFsError } from './files.js';

/**
 * pino's file destination, its folder made first by recon's own walk: pino's `mkdir: true` is Node's
 * recursive mkdir, which never returns on a path under /proc (a run spun at 82 % CPU).
 */
export function logFileDestination(file: string, setting = '--log-file / RECON_LOG_FILE'): DestinationStream {
  try {
    makeFolderSync(path.dirname(path.resolve(file)));
    return pino.destination({ dest: file, sync: true });
  } catch (err) {
    throw new UsageError(
      `cannot write the log ${path.resolve(file)}: ${plainFsError(err)}; check ${setting} and the folder's ` +
        `permissions and free space`,
    );
  }
}

export function createLogger(opts: {
  logFile?: string;
  level?: string;
  secrets?: readonly string[];
  destination?: DestinationStream;
}): Logger {
  const destination =
    opts.destination ?? (opts.logFile ? logFileDestination(opts.logFile) : pino.destination({ fd: 2, sync: true }));
  const options: LoggerOptions = {
    level: opts.level ?? 'info',
    base: undefined,
    // ISO 8601 times: a person on call reads "2026-11-27T03:12:09.123Z", not epoch milliseconds
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['apiKey', 'api_key', '*.apiKey', 'headers["x-authentication-key"]'], censor: '[redacted]' },
  };
  const secrets = (opts.secrets ?? []).filter((s) => s.length >= 4);
  if (secrets.length > 0) {
    const scrub = (text: string) => secrets.reduce((t, secret) => t.split(secret).join('[redacted]'), text);
    options.hooks = {
      logMethod(args, method) {
        method.apply(this, args.map((a) => (typeof a === 'string' ? scrub(a) : a)) as Parameters<typeof method>);
      },
    };
    options.formatters = { log: (obj) => JSON.parse(scrub(JSON.stringify(obj))) as Record<string, unknown> };
  }
  return pino(options, destination);
}

export const silentLogger: Logger = pino({ level: 'silent' });
