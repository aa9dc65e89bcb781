// The service promises no order (interface § Conventions): not of list items, not of an object's fields.
// Content is therefore compared in a canonical form: object keys sorted at every level. And it promises
// no bound on nesting, so depth is measured without recursion before anything recursive touches a value.

/** Nesting recon accepts in one record; deeper is quarantined (no real record nests more than a few levels). */
export const MAX_JSON_DEPTH = 64;

/** True when `value` nests objects or arrays deeper than `limit` levels (iterative: safe at any depth). */
export function nestsDeeperThan(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * JSON text with the keys of every object sorted: the same record served with its fields in another
 * order gives the same text. Only for values within MAX_JSON_DEPTH (check with nestsDeeperThan first).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(byKey)) : v);
}

/** What is stored in place of a record too deep to keep (its text could not even be written safely). */
export function tooDeepStandIn(): string {
  return JSON.stringify({ recon: `record not kept: it nests deeper than ${MAX_JSON_DEPTH} levels` });
}
