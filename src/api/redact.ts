// The one redaction boundary. Every string that came from the service or the environment passes
// `redact` before it reaches the store, a log, a workbook or stdout: the API key (where it is echoed),
// credentials written into a URL, and the signatures of pre-signed links are replaced by a marker.

const MARK = '[redacted]';

/**
 * The values a command must never write anywhere (the API key, the SMTP password, …): built once per
 * command from its options (pipelines/settings.ts) and handed to every stage that writes text.
 */
export type Secrets = readonly string[];

/** Query parameters that carry a credential in pre-signed or signed URLs. */
const SIGNATURE_PARAMS =
  /([?&](?:signature|sig|x-amz-signature|x-amz-credential|x-amz-security-token|token|access_token|key)=)[^&#\s"'<>]*/gi;
/** user:password@ in any URL in the text. */
const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@"'<>]+@/gi;

/** A URL with its query string (signature, expiry) replaced by a marker. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : `${url.slice(0, q)}?${MARK}`;
}

/** Replace every occurrence of the secret in a text (error messages, details) before it is written anywhere. */
export function redactSecret(text: string, secret: string | undefined): string {
  // most texts hold no secret, and every line of a sync passes here: they come back as they are, not copied
  if (!secret || secret.length < 4 || !text.includes(secret)) return text;
  return text.split(secret).join(MARK);
}

/** The text with the secrets, URL credentials and link signatures in it replaced by a marker. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) out = redactSecret(out, s);
  if (out.includes('@')) out = out.replace(URL_CREDENTIALS, `$1${MARK}@`);
  if (out.includes('=')) out = out.replace(SIGNATURE_PARAMS, `$1${MARK}`);
  return out;
}

/** `redact` bound to this run's secrets; null and undefined pass through. */
export function redactor(
  secrets: readonly (string | undefined)[],
): <T extends string | null | undefined>(text: T) => T {
  return <T extends string | null | undefined>(text: T): T =>
    typeof text === 'string' ? (redact(text, secrets) as T) : text;
}
