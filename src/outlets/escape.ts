// Text that came from the payments service (details, subjects, ids) is hostile wherever it is shown:
// each medium gets its own escaping, after the secrets are taken out (src/api/redact.ts).
import { redact } from '../api/redact.js';
import { terminalText } from '../report/safe-text.js';

/** For HTML mail: every character HTML gives a meaning to. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** For Slack's mrkdwn (and the `text` of the JSON document): the three characters Slack asks to escape. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Service text made safe to show: secrets, URL credentials and link signatures replaced, control
 * characters dropped, one line, cut at `max` characters. Still needs the medium's escaping.
 */
export function cleanText(
  text: string | null | undefined,
  secrets: readonly (string | undefined)[],
  max = 300,
): string {
  if (text === null || text === undefined) return '';
  const one = terminalText(redact(text, secrets)).replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** A URL as logs and documents may show it: scheme, host and port only (paths of webhooks are secrets). */
export function urlOrigin(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname === '/' && !u.search ? u.origin : `${u.origin}/…`;
  } catch {
    return '(not a URL)';
  }
}
