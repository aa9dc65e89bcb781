// `recon verify`: the audit trail recomputed from its first entry, and the store's rows held to what it
// recorded. Every entry's hash is recomputed from its own fields and must follow the one before it (an
// edited, removed, inserted or reordered entry breaks that); then the runs, acknowledgements, assignments,
// closes and findings' states as the trail tells them are compared with the tables, field by field (a note
// edited by hand, a deleted acknowledgement, a changed close total, a removed run). Reads everything, page
// by page; writes nothing.
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlText } from './sql.js';
import { canonicalJson, entryHash, GENESIS, type TrailHead, type TrailKind } from './trail.js';
import { ackContent, assignContent, closeContent, runContent } from './trail-content.js';

export interface Difference {
  /** The trail entry that differs, or null for a row the trail has no entry for. */
  seq: number | null;
  what: string;
}

export interface VerifyResult {
  entries: number;
  head: TrailHead;
  /** Every difference found, in the chain's order, then the rows without an entry; empty when intact. */
  differences: Difference[];
}

type Row = Record<string, unknown>;
interface Recorded { seq: number; content: Row; hash: string }

const PAGE = 10_000;
/** Differences kept: the first ones name the problem; a rewritten table would list every row. */
const MAX_DIFFERENCES = 1000;

export async function verifyTrail(
  c: DuckDBConnection, opts: { expectHash?: string | null } = {},
): Promise<VerifyResult> {
  const found: Difference[] = [];
  const differ = (seq: number | null, what: string) => {
    if (found.length < MAX_DIFFERENCES) found.push({ seq, what });
  };
  const recorded = new Map<TrailKind, Map<string, Recorded>>();
  const states = new Map<string, { seq: number; state: string }>();
  let prev: TrailHead = { seq: 0, hash: GENESIS };
  let entries = 0;
  let sawExpected = false;
  for (;;) {
    const page = (await c.runAndReadAll(sqlText('controls/trail_page'), [prev.seq, PAGE])).getRowObjectsJS();
    for (const r of page) {
      const e = { seq: Number(r.seq), at: (r.entry_at as Date).toISOString(), kind: String(r.kind) as TrailKind,
        subject: String(r.subject), content: String(r.content), prevHash: String(r.prev_hash) };
      const name = `entry ${e.seq} (${e.kind} ${e.subject})`;
      if (e.seq !== prev.seq + 1) differ(e.seq, `${name} follows entry ${prev.seq}: ${gap(prev.seq, e.seq)}`);
      else if (entryHash(e) !== String(r.hash)) {
        differ(e.seq, `${name}: its hash does not match its content — the entry was edited, renumbered or moved`);
      } else if (e.prevHash !== prev.hash) {
        differ(e.seq, `${name} does not follow entry ${prev.seq}: `
          + 'the chain was cut there (an entry removed, inserted or moved)');
      }
      if (String(r.hash) === opts.expectHash) sawExpected = true;
      prev = { seq: e.seq, hash: String(r.hash) };
      entries += 1;
      let content: Row;
      try {
        content = JSON.parse(e.content) as Row;
      } catch {
        differ(e.seq, `${name}: its content is not JSON`);
        continue;
      }
      if (e.kind === 'finding' || e.kind === 'ack') {
        if (typeof content.state === 'string') states.set(e.subject, { seq: e.seq, state: content.state });
      }
      const id = e.kind === 'ack' || e.kind === 'assign' ? `${e.subject}#${String(content.seq)}` : e.subject;
      const kind: TrailKind = e.kind === 'reissue' ? 'close' : e.kind;
      if (!recorded.has(kind)) recorded.set(kind, new Map());
      recorded.get(kind)!.set(id, { seq: e.seq, content, hash: String(r.hash) });
    }
    if (page.length < PAGE) break;
  }
  const head = (await c.runAndReadAll(sqlText('controls/trail_head'))).getRowsJS()[0];
  if (entries > 0 && (!head || Number(head[0]) !== prev.seq || String(head[1]) !== prev.hash)) {
    const said = head ? String(head[0]) : 'none';
    differ(prev.seq, `audit_trail_head says entry ${said}, the chain ends at entry ${prev.seq}: `
      + 'entries after it were removed');
  }
  if (opts.expectHash && !sawExpected) {
    differ(null, `no entry of the trail has the hash ${opts.expectHash}: `
      + 'the printed close is not in this store\'s trail, or the trail was rewritten');
  }

  const rows = async (name: string) => (await c.runAndReadAll(sqlText(name))).getRowObjectsJS();
  compare('run', 'runs', (r) => String(r.run_id), runContent, await rows('controls/rows_runs'), recorded, differ);
  const numbered = (r: Row) => `${String(r.finding_key)}#${String(r.seq)}`;
  compare('ack', 'finding_acks', numbered, ackContent, await rows('controls/rows_acks'), recorded, differ);
  const assignments = await rows('controls/rows_assignments');
  compare('assign', 'finding_assignments', numbered, assignContent, assignments, recorded, differ);
  const closes = await rows('controls/rows_closes');
  compare('close', 'closes', (r) => `${String(r.month)} v${String(r.version)}`, closeContent, closes, recorded, differ);
  for (const r of closes) {
    const e = recorded.get('close')?.get(`${String(r.month)} v${String(r.version)}`);
    if (e && r.trail_hash !== null && r.trail_hash !== undefined && r.trail_hash !== e.hash) {
      differ(e.seq, `entry ${e.seq} (close ${String(r.month)} v${String(r.version)}) has hash ${e.hash}; `
        + `closes.trail_hash says ${String(r.trail_hash)}`);
    }
  }
  await compareStates(c, states, differ);
  found.sort((a, b) => (a.seq ?? Number.MAX_SAFE_INTEGER) - (b.seq ?? Number.MAX_SAFE_INTEGER));
  return { entries, head: prev, differences: found };
}

const shown = (v: unknown) => (v === null || v === undefined ? 'nothing' : JSON.stringify(v));

/** What a gap in the numbering says: the entries that are missing, or a number used twice. */
function gap(before: number, seq: number): string {
  if (seq <= before) return 'numbered twice';
  return seq === before + 2 ? `entry ${before + 1} removed` : `entries ${before + 1}–${seq - 1} removed`;
}

/** Each row against its entry, field by field; a row without an entry, and an entry without its row. */
function compare(
  kind: TrailKind, table: string, idOf: (r: Row) => string, contentOf: (r: Row) => Row, rows: Row[],
  recorded: Map<TrailKind, Map<string, Recorded>>, differ: (seq: number | null, what: string) => void,
): void {
  const entries = recorded.get(kind) ?? new Map<string, Recorded>();
  const seen = new Set<string>();
  for (const row of rows) {
    const id = idOf(row);
    seen.add(id);
    const e = entries.get(id);
    if (!e) {
      differ(null, `${table} row ${id} has no entry in the audit trail: it was added without recon`);
      continue;
    }
    const mine = JSON.parse(canonicalJson(contentOf(row))) as Row;
    for (const [field, value] of Object.entries(mine)) {
      if (canonicalJson(value) !== canonicalJson(e.content[field] ?? null)) {
        differ(e.seq, `entry ${e.seq} (${kind} ${id}) records ${field} ${shown(e.content[field])}; `
          + `${table} has ${shown(value)}`);
        break;
      }
    }
  }
  for (const [id, e] of entries) {
    if (!seen.has(id)) {
      differ(e.seq, `entry ${e.seq} (${kind} ${id}) records a row ${table} no longer has: it was removed`);
    }
  }
}

/** Each finding's state as the trail last recorded it, against the findings table, page by page. */
async function compareStates(
  c: DuckDBConnection,
  states: Map<string, { seq: number; state: string }>,
  differ: (seq: number | null, what: string) => void,
): Promise<void> {
  const seen = new Set<string>();
  let after = '';
  for (;;) {
    const page = (await c.runAndReadAll(sqlText('controls/rows_findings'), [after, PAGE])).getRowObjectsJS();
    for (const r of page) {
      const key = String(r.finding_key);
      seen.add(key);
      const s = states.get(key);
      if (!s) differ(null, `findings row ${key} has no state in the audit trail: it was added without recon`);
      else if (s.state !== r.state) {
        differ(s.seq, `entry ${s.seq} leaves finding ${key} ${s.state}; findings says ${String(r.state)}`);
      }
    }
    if (page.length < PAGE) break;
    after = String(page[page.length - 1]!.finding_key);
  }
  for (const [key, s] of states) {
    if (!seen.has(key)) {
      differ(s.seq, `entry ${s.seq} records finding ${key}, which the findings table no longer has: it was removed`);
    }
  }
}
