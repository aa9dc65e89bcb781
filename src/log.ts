// pino JSON logs on stderr (or --log-file). The API key is censored wherever it appears by path, and
// callers redact pre-signed URLs (src/api/redact.ts) before logging them.
import { pino, type Logger } from 'pino';

export function createLogger(opts: { logFile?: string; level?: string; apiKey?: string }): Logger {
  const destination = opts.logFile ? pino.destination({ dest: opts.logFile, mkdir: true, sync: true }) : pino.destination({ fd: 2, sync: true });
  const secret = opts.apiKey;
  return pino(
    {
      level: opts.level ?? process.env.RECON_LOG_LEVEL ?? 'info',
      base: undefined,
      redact: { paths: ['apiKey', 'api_key', 'headers["x-authentication-key"]', '*.apiKey', '*.headers["x-authentication-key"]'], censor: '[redacted]' },
      hooks: secret && secret.length >= 4
        ? {
            // belt and braces: a key that slipped into a message or error text is censored too
            logMethod(args, method) {
              method.apply(this, args.map((a) => (typeof a === 'string' ? a.split(secret).join('[redacted]') : a)) as Parameters<typeof method>);
            },
          }
        : undefined,
      formatters: secret && secret.length >= 4
        ? { log: (obj) => JSON.parse(JSON.stringify(obj).split(secret).join('[redacted]')) as Record<string, unknown> }
        : undefined,
    },
    destination,
  );
}

export const silentLogger: Logger = pino({ level: 'silent' });
