// The audit trail: a hash chain of what happened to the store (runs, finding states, acknowledgements,
// approvals, assignments, closes and reissues). Each entry's hash is the SHA-256 of the JSON array
// [seq, at, kind, subject, content, prev_hash] (content: canonical JSON, keys sorted), so changing, removing
// or reordering an entry breaks every hash after it, and a row changed without an entry disagrees with the
// entry that recorded it (trail-verify.ts). Appending reads only the head (audit_trail_head), never the
// chain: a night's entries cost what the night changed.
import { createHash } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { appendRows } from './append.js';
import { sqlText } from './sql.js';

/** Who did something: the person named (--by), and the operating-system user and host that ran recon. */
export interface Actor {
  by: string | null;
  osUser: string | null;
  host: string | null;
}

export type TrailKind = 'run' | 'finding' | 'ack' | 'assign' | 'close' | 'reissue' | 'evidence';

export interface TrailInput {
  at: Date;
  kind: TrailKind;
  subject: string;
  content: Record<string, unknown>;
}

export interface TrailEntry {
  seq: number;
  at: string;
  kind: TrailKind;
  subject: string;
  /** Canonical JSON text, as stored and hashed. */
  content: string;
  prevHash: string;
  hash: string;
}

export interface TrailHead {
  seq: number;
  hash: string;
}

/** The previous hash of the first entry. */
export const GENESIS = '0'.repeat(64);
export const EMPTY_HEAD: TrailHead = { seq: 0, hash: GENESIS };

/** JSON with object keys sorted at every level; bigint as a decimal string, a Date as ISO 8601, undefined left out. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value));
}

function canonical(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = canonical(v);
    }
    return out;
  }
  return value;
}

/** An entry's hash: anyone can recompute it from the row (README: The audit trail). */
export function entryHash(e: Omit<TrailEntry, 'hash'>): string {
  const fields = [e.seq, e.at, e.kind, e.subject, e.content, e.prevHash];
  return createHash('sha256').update(JSON.stringify(fields), 'utf8').digest('hex');
}

/** The inputs chained after `head`, hashed (nothing stored yet). */
export function chainAfter(head: TrailHead, inputs: readonly TrailInput[]): TrailEntry[] {
  const out: TrailEntry[] = [];
  let prev = head;
  for (const i of inputs) {
    const unhashed = {
      seq: prev.seq + 1, at: i.at.toISOString(), kind: i.kind, subject: i.subject,
      content: canonicalJson(i.content), prevHash: prev.hash,
    };
    const entry = { ...unhashed, hash: entryHash(unhashed) };
    out.push(entry);
    prev = entry;
  }
  return out;
}

/** The last entry as audit_trail_head keeps it; the empty head before the first. */
export async function trailHead(c: DuckDBConnection): Promise<TrailHead> {
  const row = (await c.runAndReadAll(sqlText('controls/trail_head'))).getRowsJS()[0];
  return row ? { seq: Number(row[0]), hash: String(row[1]) } : EMPTY_HEAD;
}

/** Chains and stores `inputs` after the head, inside the caller's transaction; returns the entries. */
export async function appendTrail(c: DuckDBConnection, inputs: readonly TrailInput[]): Promise<TrailEntry[]> {
  if (inputs.length === 0) return [];
  const entries = chainAfter(await trailHead(c), inputs);
  await storeEntries(c, entries);
  return entries;
}

/**
 * Stores entries chained beforehand (a close prints its own entry's hash before it is recorded), inside the
 * caller's transaction. They must follow the head as it is now: anything appended since would fork the chain.
 */
export async function storeEntries(c: DuckDBConnection, entries: readonly TrailEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const head = await trailHead(c);
  if (entries[0]!.seq !== head.seq + 1 || entries[0]!.prevHash !== head.hash) {
    throw new Error(`audit trail: entry ${entries[0]!.seq} was chained after another head than entry ${head.seq}; `
      + 'nothing recorded');
  }
  await c.run(sqlText('controls/trail_stage'));
  await appendRows(c, '_trail_stage', ['bigint', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar'],
    entries.map((e) => [BigInt(e.seq), e.at, e.kind, e.subject, e.content, e.prevHash, e.hash]));
  await c.run(sqlText('controls/trail_insert'));
  await c.run(sqlText('controls/trail_finding_state'));
  const last = entries[entries.length - 1]!;
  await c.run(sqlText('controls/trail_set_head'), [BigInt(last.seq), last.hash]);
  await c.run(sqlText('controls/trail_unstage'));
}

