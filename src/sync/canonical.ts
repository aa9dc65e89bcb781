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
  // built by concatenation, with each key's quoted form remembered: every line of a sync passes here, and
  // arrays of parts joined at every level were most of the garbage it made
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i += 1) {
      const item = canonicalJson(value[i], depth + 1);
      if (item === null) return null;
      text += i === 0 ? item : `,${item}`;
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = sortedKeys(record);
  let text = '{';
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i]!;
    const item = canonicalJson(record[key], depth + 1);
    if (item === null) return null;
    text += i === 0 ? `${quotedKey(key)}${item}` : `,${quotedKey(key)}${item}`;
  }
  return `${text}}`;
}

/**
 * An object's own keys in the order Array.prototype.sort gives them (UTF-16 code units): by insertion, as
 * a record has a handful of keys.
 */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  for (let i = 1; i < keys.length; i += 1) {
    const key = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > key; j -= 1) keys[j + 1] = keys[j]!;
    keys[j + 1] = key;
  }
  return keys;
}

/** Quoted keys remembered, up to a bound (the service names its fields; a hostile one could name many). */
const QUOTED_KEYS = 1024;
const quoted = new Map<string, string>();

/** `"key":` as JSON writes it. */
function quotedKey(key: string): string {
  let text = quoted.get(key);
  if (text === undefined) {
    text = `${JSON.stringify(key)}:`;
    if (quoted.size < QUOTED_KEYS) quoted.set(key, text);
  }
  return text;
}

/** What is stored in place of a record too deep to keep (its text could not even be written safely). */
export function tooDeepStandIn(): string {
  return JSON.stringify({ recon: `record not kept: it nests deeper than ${MAX_JSON_DEPTH} levels` });
}
