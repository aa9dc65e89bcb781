// The service promises no order (interface § Conventions): not of list items, not of an object's fields.
// Content is therefore compared in a canonical form: object keys sorted at every level. And it promises
// no bound on nesting, so the canonical form is refused (null) past a depth, before anything deeper is
// touched: a record nested 200,000 levels deep must not overflow the stack. A number a double cannot hold
// (src/api/json.ts) is written with the digits the service sent.
import { InexactNumber } from '../api/json.js';

/** Nesting recon accepts in one record; deeper is quarantined (no real record nests more than a few levels). */
export const MAX_JSON_DEPTH = 64;

/**
 * JSON text with the keys of every object sorted, so the same record served with its fields in another
 * order gives the same text; null when the value nests deeper than MAX_JSON_DEPTH. For values from
 * parseJsonExact (no undefined, no functions, no toJSON).
 */
export function canonicalJson(value: unknown, depth = 1): string | null {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (value instanceof InexactNumber) return value.text;
  if (depth > MAX_JSON_DEPTH) return null;
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (const item of value) {
      const text = canonicalJson(item, depth + 1);
      if (text === null) return null;
      items.push(text);
    }
    return `[${items.join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const text = canonicalJson(record[key], depth + 1);
    if (text === null) return null;
    parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

/** What is stored in place of a record too deep to keep (its text could not even be written safely). */
export function tooDeepStandIn(): string {
  return JSON.stringify({ recon: `record not kept: it nests deeper than ${MAX_JSON_DEPTH} levels` });
}
