// pino JSON logs on stderr (or --log-file). The API key is censored by path and, belt and braces, in any
// text it slipped into; callers redact pre-signed URLs (src/api/redact.ts) before logging them.
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export function createLogger(opts: { logFile?: string; level?: string; apiKey?: string; destination?: DestinationStream }): Logger {
  const destination = opts.destination ?? (opts.logFile
    ? pino.destination({ dest: opts.logFile, mkdir: true, sync: true })
    : pino.destination({ fd: 2, sync: true }));
  const options: LoggerOptions = {
    level: opts.level ?? 'info',
    base: undefined,
    redact: { paths: ['apiKey', 'api_key', '*.apiKey', 'headers["x-authentication-key"]'], censor: '[redacted]' },
  };
  const secret = opts.apiKey;
  if (secret && secret.length >= 4) {
    const scrub = (text: string) => text.split(secret).join('[redacted]');
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
