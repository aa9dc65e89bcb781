// The audit trail: a hash chain anyone can recompute, seeded from the rows a store already holds when it is
// upgraded, appended to by what changes (never by what does not), and held against the tables by verify:
// an edited acknowledgement note, a deleted acknowledgement, a changed close total, a removed run, a
// reordered or edited entry are each named by the first entry that disagrees.
import { createHash } from 'node:crypto';
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQL_DIR } from '../../../src/paths.js';
import { openStore } from '../../../src/store/db.js';
import { canonicalJson, chainAfter, EMPTY_HEAD, entryHash } from '../../../src/store/trail.js';
import { verifyTrail } from '../../../src/store/trail-verify.js';
import { TRAIL_MIGRATION } from '../../../src/store/trail-seed.js';
import { runChecks } from '../../../src/checks/runner.js';
import { ackFinding } from '../../../src/checks/ack.js';
import { clean, loadClean, withSpec } from '../../helpers/check-fixtures.js';
import { tempDir } from '../../helpers/recon.js';

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  ({ dir, cleanup } = tempDir('recon-trail-'));
});
afterAll(() => cleanup());

type Row = Record<string, unknown>;
const rows = async (c: DuckDBConnection, sql: string): Promise<Row[]> => (await c.runAndReadAll(sql)).getRowObjectsJS();

/** A store as recon left it before the trail existed: the migrations before it, and rows of every kind. */
async function storeBeforeTheTrail(file: string): Promise<void> {
  const instance = await DuckDBInstance.create(file);
  const c = await instance.connect();
  await c.run('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMPTZ NOT NULL)');
  for (const name of readdirSync(path.join(SQL_DIR, 'schema')).filter((n) => n.endsWith('.sql')).sort()) {
    const version = Number(name.slice(0, 3));
    if (version >= TRAIL_MIGRATION) break;
    await c.run(readFileSync(path.join(SQL_DIR, 'schema', name), 'utf8'));
    await c.run('INSERT INTO schema_migrations VALUES ($1, $2, now())', [version, name]);
  }
  await c.run(`INSERT INTO runs (run_id, command, started_at, status) VALUES
    ('20261001T023000Z-aaaa', 'run', '2026-10-01 02:30:00+00', 'succeeded'),
    ('20261102T090000Z-bbbb', 'close', '2026-11-02 09:00:00+00', 'succeeded')`);
  await c.run(`INSERT INTO findings (finding_key, check_id, severity, disbursement_id, subject, currency, expected, actual, difference, detail,
      state, first_seen, last_seen, first_run_id, last_run_id, ack_by, ack_at, ack_note, ack_expected, ack_actual, ack_difference) VALUES
    ('k-acked', 'total_identity', 'error', 'D-1', 'amount', 'EUR', 100, 101, 1, 'off by one', 'acknowledged',
      '2026-10-01 02:30:00+00', '2026-10-01 02:30:00+00', '20261001T023000Z-aaaa', '20261001T023000Z-aaaa', 'ben', '2026-10-02 09:00:00+00', 'agreed', 100, 101, 1),
    ('k-resolved', 'missing_files', 'warning', 'D-2', 'file', NULL, NULL, NULL, NULL, 'no file', 'resolved',
      '2026-09-01 02:30:00+00', '2026-09-05 02:30:00+00', '20261001T023000Z-aaaa', '20261001T023000Z-aaaa', NULL, NULL, NULL, NULL, NULL, NULL)`);
  await c.run(`INSERT INTO finding_acks (finding_key, seq, action, ack_by, ack_at, note, expected, actual, difference, currency) VALUES
    ('k-acked', 1, 'ack', 'ana', '2026-10-01 10:00:00+00', 'a fee', 100, 101, 1, 'EUR'),
    ('k-acked', 2, 'withdraw', 'ben', '2026-10-01 11:00:00+00', 'not a fee', 100, 101, 1, 'EUR'),
    ('k-acked', 3, 'ack', 'ben', '2026-10-02 09:00:00+00', 'agreed', 100, 101, 1, 'EUR')`);
  await c.run(`INSERT INTO closes (month, version, closed_at, run_id, workbook, disbursements, disbursed_total, accepted_by, accepted_note, accepted)
    VALUES ('2026-10', 1, '2026-11-02 09:00:05+00', '20261102T090000Z-bbbb', 'close-2026-10.xlsx', 2, 201, 'ana', 'ticket FIN-9', '1.00 EUR not arrived (Bank)')`);
  c.closeSync();
  instance.closeSync();
}

/** A copy of `file` with `sql` applied to it, then verified. */
async function tampered(file: string, name: string, ...sql: string[]) {
  const copy = path.join(dir, `${name}.duckdb`);
  copyFileSync(file, copy);
  const store = await openStore(copy);
  for (const s of sql) await store.connection.run(s);
  const result = await verifyTrail(store.connection);
  store.close();
  return result;
}

describe('the chain', () => {
  it('hashes an entry as sha256 of [seq, entry_at, kind, subject, content, prev_hash], keys sorted', () => {
    expect(canonicalJson({ b: 1, a: { d: 2n, c: null, e: undefined }, at: new Date('2026-11-01T00:00:00Z') }))
      .toBe('{"a":{"c":null,"d":"2"},"at":"2026-11-01T00:00:00.000Z","b":1}');
    const [one, two] = chainAfter(EMPTY_HEAD, [
      { at: new Date('2026-11-01T02:30:00Z'), kind: 'run', subject: 'r1', content: { run_id: 'r1', command: 'run' } },
      { at: new Date('2026-11-01T02:31:00Z'), kind: 'finding', subject: 'k1', content: { state: 'open', key: 'k1' } },
    ]);
    const sha = (v: unknown[]) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
    const content = '{"command":"run","run_id":"r1"}';
    expect(one!.hash).toBe(sha([1, '2026-11-01T02:30:00.000Z', 'run', 'r1', content, '0'.repeat(64)]));
    expect(two!.prevHash).toBe(one!.hash);
    expect(two!.hash).toBe(entryHash({ ...two!, hash: undefined } as never));
  });
});

describe('the upgrade to the trail', () => {
  it('seeds the chain from the runs, closes, acknowledgements and findings already there, losing nothing', async () => {
    const file = path.join(dir, 'old.duckdb');
    await storeBeforeTheTrail(file);
    const store = await openStore(file);
    const c = store.connection;
    const trail = await rows(c, 'SELECT seq, kind, subject, content FROM audit_trail ORDER BY seq');
    expect(trail.map((r) => `${String(r.kind)} ${String(r.subject)}`)).toEqual([
      'run 20261001T023000Z-aaaa', 'run 20261102T090000Z-bbbb', 'close 2026-10 v1',
      'ack k-acked', 'ack k-acked', 'ack k-acked', 'finding k-acked', 'finding k-resolved']);
    expect(trail.every((r) => JSON.parse(String(r.content)).seeded === true)).toBe(true);
    const content = (i: number) => JSON.parse(String(trail[i]!.content)) as Row;
    expect(content(2)).toMatchObject({ month: '2026-10', disbursed_total: '201', accepted_by: 'ana' });
    expect(content(4)).toMatchObject({ key: 'k-acked', seq: 2, action: 'withdraw', by: 'ben', note: 'not a fee' });
    expect(content(7)).toMatchObject({ key: 'k-resolved', state: 'resolved' });
    // the history is as it was, and the trail knows each finding's state
    const history = await rows(c, 'SELECT seq, action, ack_by FROM finding_acks ORDER BY seq');
    expect(history.map((r) => r.action)).toEqual(['ack', 'withdraw', 'ack']);
    expect(await rows(c, 'SELECT * FROM trail_finding_state ORDER BY finding_key')).toEqual([
      { finding_key: 'k-acked', state: 'acknowledged' }, { finding_key: 'k-resolved', state: 'resolved' }]);
    const [last] = await rows(c, 'SELECT hash FROM audit_trail WHERE seq = 8');
    expect(await rows(c, 'SELECT seq, hash FROM audit_trail_head')).toEqual([{ seq: 8n, hash: last!.hash }]);
    expect((await verifyTrail(c)).differences).toEqual([]);
    store.close();
    // opened again: migrated once, seeded once
    const again = await openStore(file);
    expect(Number((await rows(again.connection, 'SELECT count(*) AS n FROM audit_trail'))[0]!.n)).toBe(8);
    again.close();
  });
});

describe('recon verify on a tampered store', () => {
  let file: string;
  const entry = async (sql: string) => {
    const s = await openStore(file);
    const [r] = await rows(s.connection, sql);
    s.close();
    return Number(r!.seq);
  };
  beforeAll(async () => {
    file = path.join(dir, 'upgraded.duckdb');
    await storeBeforeTheTrail(file);
    (await openStore(file)).close();
  });

  it('passes the untouched store', async () => {
    expect((await tampered(file, 'untouched')).differences).toEqual([]);
  });

  it('names the acknowledgement entry after an edited note', async () => {
    const seq = await entry(`SELECT seq FROM audit_trail WHERE kind = 'ack' AND CAST(json_extract(content, '$.seq') AS INTEGER) = 1`);
    const r = await tampered(file, 'note', `UPDATE finding_acks SET note = 'a fee, agreed' WHERE finding_key = 'k-acked' AND seq = 1`);
    const what = `entry ${seq} (ack k-acked#1) records note "a fee"; finding_acks has "a fee, agreed"`;
    expect(r.differences[0]).toEqual({ seq, what });
  });

  it('names the acknowledgement entry after a deleted acknowledgement', async () => {
    const seq = await entry(`SELECT seq FROM audit_trail WHERE kind = 'ack' AND CAST(json_extract(content, '$.seq') AS INTEGER) = 2`);
    const r = await tampered(file, 'deleted', `DELETE FROM finding_acks WHERE finding_key = 'k-acked' AND seq = 2`);
    const what = `entry ${seq} (ack k-acked#2) records a row finding_acks no longer has: it was removed`;
    expect(r.differences[0]).toEqual({ seq, what });
  });

  it('names the close entry after a changed close total', async () => {
    const seq = await entry(`SELECT seq FROM audit_trail WHERE kind = 'close'`);
    const r = await tampered(file, 'total', `UPDATE closes SET disbursed_total = 20100 WHERE month = '2026-10'`);
    const what = `entry ${seq} (close 2026-10 v1) records disbursed_total "201"; closes has "20100"`;
    expect(r.differences[0]).toEqual({ seq, what });
  });

  it('names the run entry after a removed run', async () => {
    const seq = await entry(`SELECT seq FROM audit_trail WHERE subject = '20261001T023000Z-aaaa'`);
    const r = await tampered(file, 'run', `DELETE FROM runs WHERE run_id = '20261001T023000Z-aaaa'`);
    const what = `entry ${seq} (run 20261001T023000Z-aaaa) records a row runs no longer has: it was removed`;
    expect(r.differences[0]).toEqual({ seq, what });
  });

  it('names the first entry moved when two entries are reordered', async () => {
    const r = await tampered(file, 'reordered', 'UPDATE audit_trail SET seq = 100 WHERE seq = 4',
      'UPDATE audit_trail SET seq = 4 WHERE seq = 5', 'UPDATE audit_trail SET seq = 5 WHERE seq = 100');
    expect(r.differences[0]!.seq).toBe(4);
    expect(r.differences[0]!.what)
      .toBe('entry 4 (ack k-acked): its hash does not match its content — the entry was edited, renumbered or moved');
  });

  it('names an entry whose content was edited, and a chain cut short', async () => {
    const edited = await tampered(file, 'content', `UPDATE audit_trail SET content = replace(content, '"a fee"', '"a gift"') WHERE seq = 4`);
    expect(edited.differences[0]!.what).toMatch(/^entry 4 \(ack k-acked\): its hash does not match its content/);
    const cut = await tampered(file, 'cut', 'DELETE FROM audit_trail WHERE seq = 8');
    expect(cut.differences.map((d) => d.what))
      .toContain('audit_trail_head says entry 8, the chain ends at entry 7: entries after it were removed');
  });
});

describe('a night\'s entries', () => {
  it('are the findings whose state changed: none when nothing did, one per change, an ack its own', async () => {
    const store = await openStore(path.join(dir, 'nights.duckdb'));
    const c = store.connection;
    await loadClean(c, withSpec({ ...clean('D-EU-1'), amount: 246913 }));
    const count = async () => Number((await rows(c, 'SELECT count(*) AS n FROM audit_trail'))[0]!.n);
    const night = (runId: string, day: number) =>
      runChecks(c, { runId, now: new Date(Date.UTC(2026, 6, day, 3)), only: ['total_identity'] });
    await night('r1', 1);
    expect(await rows(c, `SELECT kind, json_extract_string(content, '$.state') AS state FROM audit_trail`))
      .toEqual([{ kind: 'finding', state: 'open' }]);
    await night('r2', 2);
    expect(await count()).toBe(1); // nothing changed, nothing appended
    const key = String((await rows(c, 'SELECT finding_key FROM findings'))[0]!.finding_key);
    await ackFinding(c, { key, note: 'a fee', by: 'ana', now: new Date(Date.UTC(2026, 6, 2, 9)) });
    await night('r3', 3);
    expect(await count()).toBe(2); // the acknowledgement; the night that kept it acknowledged added nothing
    await c.run(`UPDATE disbursements SET amount = 246912 WHERE disbursement_id = 'D-EU-1'`);
    await night('r4', 4);
    const last = await rows(c, `SELECT kind, json_extract_string(content, '$.state') AS state, json_extract_string(content, '$.was') AS was
      FROM audit_trail ORDER BY seq DESC LIMIT 1`);
    expect(last).toEqual([{ kind: 'finding', state: 'resolved', was: 'acknowledged' }]);
    expect((await verifyTrail(c)).differences.filter((d) => !/runs|has no entry/.test(d.what))).toEqual([]);
    store.close();
  });
});
