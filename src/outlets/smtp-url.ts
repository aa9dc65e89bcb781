// The SMTP server of --smtp-url / RECON_SMTP_URL, written in nodemailer's URL convention:
// smtp://user:password@host:587 (STARTTLS when the server offers it; ?requireTLS=true insists) or
// smtps://user:password@host:465 (TLS from the first byte). Read with WHATWG URL, so a password's
// reserved characters are percent-encoded; only the options below are accepted, a typo is refused.

export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the start (smtps://); otherwise STARTTLS when offered. */
  secure: boolean;
  auth?: { user: string; pass: string };
  requireTLS?: boolean;
  ignoreTLS?: boolean;
  /** The name this client greets the server with (EHLO). */
  name?: string;
  tls?: { rejectUnauthorized?: boolean; servername?: string; minVersion?: 'TLSv1.2' | 'TLSv1.3' };
}

const BOOLEAN_OPTIONS = ['requireTLS', 'ignoreTLS', 'tls.rejectUnauthorized'] as const;
const TEXT_OPTIONS = ['name', 'tls.servername', 'tls.minVersion'] as const;

/** Throws an Error saying what is wrong (never quoting the password). */
export function parseSmtpUrl(text: string): SmtpSettings {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error('not a URL');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error(`the scheme must be smtp: or smtps:, not ${url.protocol}`);
  if (!url.hostname) throw new Error('no host');
  const secure = url.protocol === 'smtps:';
  const settings: SmtpSettings = {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
  };
  if (url.username || url.password)
    settings.auth = { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) };
  for (const [key, value] of url.searchParams) {
    if ((BOOLEAN_OPTIONS as readonly string[]).includes(key)) {
      if (value !== 'true' && value !== 'false') throw new Error(`?${key} must be true or false`);
      setOption(settings, key, value === 'true');
    } else if ((TEXT_OPTIONS as readonly string[]).includes(key)) {
      if (key === 'tls.minVersion' && value !== 'TLSv1.2' && value !== 'TLSv1.3')
        throw new Error('?tls.minVersion must be TLSv1.2 or TLSv1.3');
      setOption(settings, key, value);
    } else {
      throw new Error(`unknown option ?${key} (known: ${[...BOOLEAN_OPTIONS, ...TEXT_OPTIONS].join(', ')})`);
    }
  }
  return settings;
}

function setOption(settings: SmtpSettings, key: string, value: string | boolean): void {
  if (key.startsWith('tls.')) {
    settings.tls = { ...settings.tls, [key.slice(4)]: value };
  } else {
    (settings as unknown as Record<string, unknown>)[key] = value;
  }
}
