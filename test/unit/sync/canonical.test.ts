// The canonical text of a record (src/sync/canonical.ts) is what recon stores as a line's raw and compares
// a re-read line by: it must stay exactly JSON with every object's keys sorted as Array.prototype.sort
// sorts them, numbers past a double in their digits as sent, and null past MAX_JSON_DEPTH.
import { describe, expect, it } from 'vitest';
import { InexactNumber } from '../../../src/api/json.js';
import { MAX_JSON_DEPTH, canonicalJson } from '../../../src/sync/canonical.js';
import { testRandom } from '../../helpers/seed.js';

/** The definition, written the plain way: sorted keys, parts joined. */
function reference(value: unknown, depth = 1): string | null {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (value instanceof InexactNumber) return value.text;
  if (depth > MAX_JSON_DEPTH) return null;
  const parts: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      const text = reference(item, depth + 1);
      if (text === null) return null;
      parts.push(text);
    }
    return `[${parts.join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record).sort()) {
    const text = reference(record[key], depth + 1);
    if (text === null) return null;
    parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

// keys JSON may carry: integer-like ones (which objects list first), escapes, non-ASCII, a prototype's name
const KEYS = ['amount', 'a', 'A', 'b', '10', '9', '0', '', 'ü', 'é', '\u0000', '"', '\\', 'z\n', '__proto__', '𝔘',
  'constructor', 'reference', 'payment_id', 'status', '_links'];

function randomValue(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 4 ? 6 : 9));
  switch (pick) {
    case 0: return null;
    case 1: return next() < 0.5;
    case 2: return Math.floor(next() * 2e6) - 1e6;
    case 3: return next() * 1e3;
    case 4: return KEYS[Math.floor(next() * KEYS.length)]! + String.fromCharCode(Math.floor(next() * 0x3000));
    case 5: return new InexactNumber(`9007199254740${Math.floor(next() * 1000) + 993}`);
    case 6: return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
    default: {
      // parsed from text, as the service's records are (own keys only, "__proto__" a key like another)
      const pairs = Array.from({ length: Math.floor(next() * 8) }, () =>
        `${JSON.stringify(KEYS[Math.floor(next() * KEYS.length)])}:${JSON.stringify(randomValue(next, depth + 1))}`);
      return JSON.parse(`{${pairs.join(',')}}`);
    }
  }
}

describe('canonicalJson', () => {
  it('writes what the plain definition writes, for records of every shape', () => {
    const { next } = testRandom('canonical-json');
    for (let i = 0; i < 3000; i += 1) {
      const value = randomValue(next, 1);
      expect(canonicalJson(value)).toBe(reference(value));
    }
  });

  it('sorts keys by code unit, integer-like keys among the rest', () => {
    const record = JSON.parse('{"b":1,"10":2,"9":3,"a":{"y":[{"d":1,"c":2}],"x":null},"__proto__":4}') as unknown;
    expect(canonicalJson(record)).toBe('{"10":2,"9":3,"__proto__":4,"a":{"x":null,"y":[{"c":2,"d":1}]},"b":1}');
  });

  it('keeps a number a double cannot hold in its digits, and refuses nesting past the limit', () => {
    expect(canonicalJson({ b: new InexactNumber('9007199254740993'), a: 1 })).toBe('{"a":1,"b":9007199254740993}');
    let deep: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH; i += 1) deep = [deep];
    expect(canonicalJson(deep)).not.toBeNull();
    expect(canonicalJson([deep])).toBeNull();
    expect(canonicalJson({ a: [deep] })).toBeNull();
  });
});
