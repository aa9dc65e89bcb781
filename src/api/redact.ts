// Secrets never reach logs: the API key is censored by the logger, pre-signed URLs lose their query.

/** A URL with its query string (signature, expiry) replaced by a marker. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : `${url.slice(0, q)}?[redacted]`;
}

/** Replace every occurrence of the secret in a text (error messages, details) before it is written anywhere. */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 4) return text;
  return text.split(secret).join('[redacted]');
}
