// Controls an auditor accepts, on the demo's store (two nights with planted anomalies and bank statements,
// the close of a month): who did what and when, provably. Four eyes on an acknowledgement and on accepting
// unaccounted money (the same person cannot approve their own), owners and due dates, the close's trail
// entry on its Summary and in its evidence pack (every file's hash checks out, the trail in it chains to the
// printed hash), the head in the published snapshot, and `recon verify` intact until a row or an entry is
// changed behind recon's back — then naming the entry.
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, tempDir } from '../helpers/recon.js';
import { runCliHere } from '../helpers/in-process.js';
import { unzip } from '../helpers/whole-store.js';

let dir: string;
let db: string;
let cleanup: () => void;
const OS_USER = userInfo().username;
const HOST = hostname();

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('recon-controls-'));
  db = path.join(dir, 'recon.duckdb');
  const r = await runCliHere(['demo', '--db', db, '--reports', path.join(dir, 'demo-reports'), '--disbursements', '120',
    '--time-compression', '60']);
  expect(r.code, r.stderr).toBe(1);
}, 300_000);
afterAll(() => cleanup());

type Row = Record<string, unknown>;
const one = async (sql: string): Promise<Row> => (await query(db, sql))[0]!;
const cli = (...args: string[]) => runCliHere([...args, '--db', db]);

/** A finding that needs a person, carries money and was never acknowledged. */
async function unacknowledged(skip: string[] = []): Promise<string> {
  const others = skip.map((k) => `AND finding_key <> '${k}'`).join(' ');
  const r = await one(`SELECT finding_key FROM open_exceptions WHERE state = 'open' AND stake > 0
    AND finding_key NOT IN (SELECT finding_key FROM finding_acks) ${others} ORDER BY finding_key LIMIT 1`);
  return String(r.finding_key);
}

/** A table sheet's rows as objects keyed by its header row. */
function rowsOf(sheet: ExcelJS.Worksheet): Row[] {
  const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const out: Row[] = [];
  sheet.eachRow((row, n) => {
    if (n > 1) out.push(Object.fromEntries(header.map((h, i) => [h, row.getCell(i + 1).value])));
  });
  return out;
}

/** Column A label → column B value, on a Summary sheet. */
function fields(sheet: ExcelJS.Worksheet): Map<string, unknown> {
  const out = new Map<string, unknown>();
  sheet.eachRow((row) => out.set(String(row.getCell(1).value), row.getCell(2).value));
  return out;
}

let acked = '';

describe('four eyes on an acknowledgement', () => {
  it('keeps an acknowledgement above the threshold pending, open, until someone else approves', async () => {
    acked = await unacknowledged();
    const config = path.join(dir, 'four-eyes.json');
    writeFileSync(config, JSON.stringify({ fourEyes: { '*': 0 } }));
    const note = 'provider confirmed in ticket FIN-41';
    const ack = await cli('ack', acked, '--note', note, '--by', 'ana', '--config', config);
    expect(ack.code, ack.stderr).toBe(0);
    expect(ack.stdout).toMatch(new RegExp(`acknowledgement of ${acked} .* by ana recorded, PENDING: .* `
      + 'above the four-eyes limit of .* 0 \\(the \\* limit\\); '
      + 'the finding stays open until a second person approves it '
      + `\\(recon ack ${acked} --approve --by NAME\\)`));
    expect(await one(`SELECT state, ack_by FROM findings WHERE finding_key = '${acked}'`))
      .toEqual({ state: 'open', ack_by: null });
    expect(await one(`SELECT status, awaiting_approval_of FROM open_exceptions WHERE finding_key = '${acked}'`))
      .toMatchObject({ awaiting_approval_of: 'ana' });

    const self = await cli('ack', acked, '--approve', '--by', ' Ana ');
    expect(self.code).toBe(2);
    expect(self.stderr).toBe(`recon ack --approve: ana acknowledged finding ${acked}, so Ana cannot approve it: `
      + 'above the four-eyes threshold a second, different person approves (recon ack KEY --approve --by NAME)\n');
    expect((await one(`SELECT state FROM findings WHERE finding_key = '${acked}'`)).state).toBe('open');

    const approved = await cli('ack', acked, '--approve', '--by', 'ben');
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout)
      .toMatch(new RegExp(`approved the acknowledgement of ${acked} .* by ana: approved by ben; 2 entries`));
    expect(await one(`SELECT state, ack_by, ack_note, ack_approved_by, ack_os_user, ack_host FROM findings
      WHERE finding_key = '${acked}'`)).toEqual({
      state: 'acknowledged', ack_by: 'ana', ack_note: note, ack_approved_by: 'ben', ack_os_user: OS_USER,
      ack_host: HOST });
    const who = { os_user: OS_USER, host: HOST };
    expect(await query(db, `SELECT seq, action, ack_by, four_eyes, approves, os_user, host, current FROM acknowledgements
      WHERE finding_key = '${acked}' ORDER BY seq`)).toEqual([
      { seq: 1, action: 'ack', ack_by: 'ana', four_eyes: true, approves: null, ...who, current: true },
      { seq: 2, action: 'approve', ack_by: 'ben', four_eyes: null, approves: 1, ...who, current: false },
    ]);
    const again = await cli('ack', acked, '--approve', '--by', 'carl');
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/has no acknowledgement waiting for approval/);
  }, 120_000);

  it('acknowledges at once below the threshold, and records who ran it', async () => {
    const key = await unacknowledged([acked]);
    const ack = await cli('ack', key, '--note', 'a bank fee', '--by', 'ana', '--four-eyes', '*:1000000000');
    expect(ack.code, ack.stderr).toBe(0);
    expect(ack.stdout).toMatch(new RegExp(`^acknowledged ${key} `));
    expect(await one(`SELECT state, ack_by, ack_approved_by, ack_os_user, ack_host FROM findings
      WHERE finding_key = '${key}'`))
      .toEqual({ state: 'acknowledged', ack_by: 'ana', ack_approved_by: null, ack_os_user: OS_USER, ack_host: HOST });
    const entry = await one(`SELECT content FROM audit_trail WHERE kind = 'ack' AND subject = '${key}'`);
    expect(JSON.parse(String(entry.content)))
      .toMatchObject({ action: 'ack', by: 'ana', os_user: OS_USER, host: HOST, four_eyes: false,
        state: 'acknowledged' });
  }, 60_000);
});

describe('owners and due dates', () => {
  let assigned = '';
  it('gives an unassigned finding the owner of the rules: the check\'s, the currency\'s, then *', async () => {
    const config = path.join(dir, 'owners.json');
    const rules = { 'check:total_identity': 'controller', 'currency:EUR': 'ana', '*': 'ops' };
    writeFileSync(config, JSON.stringify({ defaultOwners: rules }));
    const reports = path.join(dir, 'owners-reports');
    const r = await runCliHere(['report', '--db', db, '--reports', reports, '--config', config]);
    expect(r.code, r.stderr).toBe(1);
    const rows = await query(db, 'SELECT check_id, currency, owner, owner_source FROM open_exceptions');
    expect(rows.length).toBeGreaterThan(5);
    for (const f of rows) {
      const expected = f.check_id === 'total_identity' ? ['controller', 'check:total_identity']
        : f.currency === 'EUR' ? ['ana', 'currency:EUR'] : ['ops', '*'];
      expect([f.owner, f.owner_source], `${String(f.check_id)} ${String(f.currency)}`).toEqual(expected);
    }
    const bad = await runCliHere(['report', '--db', db, '--reports', reports, '--default-owners', 'cheque:x=ana']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('invalid --default-owners / RECON_DEFAULT_OWNERS "cheque:x=ana": '
      + 'expected {"check:<id>": NAME, "currency:<CCY>": NAME, "*": NAME}');
  }, 120_000);

  it('assigns an owner and a due date, shown with "overdue" in open_exceptions and the workbook', async () => {
    assigned = await unacknowledged([acked]);
    const r = await cli('assign', assigned, '--to', 'treasury', '--due', '2000-01-31', '--note', 'for the month end',
      '--by', 'lead');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^assigned ${assigned} \\(.*\\) to treasury, due 2000-01-31 by lead\n`));
    const later = await unacknowledged([acked, assigned]);
    expect((await cli('assign', later, '--to', 'ana', '--due', '2999-12-31', '--by', 'lead')).code).toBe(0);
    const view = await query(db, `SELECT finding_key, owner, owner_source, strftime(due_date, '%Y-%m-%d') AS due, overdue
      FROM open_exceptions WHERE finding_key IN ('${assigned}', '${later}') ORDER BY due`);
    expect(view).toEqual([
      { finding_key: assigned, owner: 'treasury', owner_source: 'assigned', due: '2000-01-31', overdue: true },
      { finding_key: later, owner: 'ana', owner_source: 'assigned', due: '2999-12-31', overdue: false },
    ]);
    expect(await query(db, `SELECT seq, owner, assigned_by, note, os_user, host FROM finding_assignments
      WHERE finding_key = '${assigned}'`))
      .toEqual([{ seq: 1, owner: 'treasury', assigned_by: 'lead', note: 'for the month end', os_user: OS_USER,
        host: HOST }]);

    const reports = path.join(dir, 'assign-reports');
    expect((await runCliHere(['report', '--db', db, '--reports', reports])).code).toBe(1);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path.join(reports, 'recon-latest.xlsx'));
    const rows = rowsOf(wb.getWorksheet('Exceptions')!);
    expect(rows.find((x) => x.Key === assigned))
      .toMatchObject({ Owner: 'treasury', 'Owner from': 'recon assign', Due: '2000-01-31', Overdue: 'overdue' });
    expect(rows.find((x) => x.Key === later)).toMatchObject({ Owner: 'ana', Due: '2999-12-31', Overdue: 'no' });
    expect(rows.find((x) => x.Key === acked))
      .toMatchObject({ 'Acknowledged by': 'ana', 'Acknowledged from': `${OS_USER}@${HOST}`,
        Approval: 'approved by ben' });
    expect(rows.some((x) => x['Owner from'] === 'rule check:total_identity' && x.Owner === 'controller')).toBe(true);
  }, 120_000);

  it('refuses an assignment it cannot make, with exit 2 and a sentence', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['assign', 'nope', '--to', 'ana', '--by', 'lead'], /no finding with key nope/],
      [['assign', assigned, '--to', 'ana', '--due', '2026-02-30', '--by', 'lead'],
        /--due must be a date YYYY-MM-DD that exists/],
      [['assign', assigned, '--by', 'lead'], /recon assign needs --to NAME/],
      [['assign', assigned, '--to', 'ana'], /who assigns must be named: pass --by NAME/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  }, 60_000);
});

describe('four eyes on accepting unaccounted money, and the close\'s evidence', () => {
  let month = '';
  it('keeps an acceptance above the threshold pending, the close provisional, until another approves', async () => {
    month = String((await one(`SELECT month_of(delivered_at) AS month FROM bank_status WHERE bank_status = 'not arrived'
      ORDER BY delivered_at LIMIT 1`)).month);
    const reports = path.join(dir, 'close-reports');
    const accepted = await runCliHere(['close', '--month', month, '--reissue', '--db', db, '--reports', reports,
      '--four-eyes', '*:0',
      '--accept-unaccounted', '--by', 'ana', '--note', 'trace requested, FIN-27']);
    expect(accepted.code, accepted.stderr).toBe(1);
    expect(accepted.stdout).toMatch(new RegExp('PROVISIONAL \\(exit 1\\): .*not arrived \\(Bank\\).*; '
      + 'the acceptance of the '
      + 'unaccounted money by ana waits for a second person\'s approval \\(.* above .* 0 \\(the \\* limit\\).*\\): '
      + `recon close --month ${month} --approve --by NAME`));
    expect(accepted.stdout)
      .toMatch(/accepted as unaccounted by ana, waiting for a second person's approval: .*not arrived/);
    const pending = await one(`SELECT version, acceptance_state, accepted_by, accepted_os_user, accepted_host, closed_by
      FROM closes WHERE month = '${month}' ORDER BY version DESC LIMIT 1`);
    expect(pending).toMatchObject({ acceptance_state: 'pending', accepted_by: 'ana', accepted_os_user: OS_USER,
      accepted_host: HOST, closed_by: 'ana' });

    const close = (...args: string[]) =>
      runCliHere(['close', '--month', month, ...args, '--db', db, '--reports', reports]);
    const self = await close('--approve', '--by', 'ana');
    expect(self.code).toBe(2);
    expect(self.stderr).toContain(`ana accepted the unaccounted money of ${month}, so ana cannot approve it: `
      + 'above the four-eyes threshold a second, different person approves');

    const approved = await close('--approve', '--by', 'ben');
    expect([0, 1], approved.stderr).toContain(approved.code);
    expect(approved.stdout).not.toMatch(/waits for a second person/);
    expect(approved.stdout).toMatch(/accepted as unaccounted by ana, approved by ben: .*not arrived/);
    const row = await one(`SELECT version, acceptance_state, accepted_by, accepted_note, approved_by, approved_os_user, closed_by, workbook, trail_hash
      FROM closes WHERE month = '${month}' ORDER BY version DESC LIMIT 1`);
    expect(row).toMatchObject({ version: Number(pending.version) + 1, acceptance_state: 'approved', accepted_by: 'ana',
      accepted_note: 'trace requested, FIN-27', approved_by: 'ben', approved_os_user: OS_USER, closed_by: 'ben' });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(String(row.workbook));
    const summary = fields(wb.getWorksheet('Summary')!);
    expect(String(summary.get('Status')))
      .toMatch(/Accepted as unaccounted by ana \("trace requested, FIN-27"\), approved by ben: .*not arrived/);
    expect(summary.get('Closed by')).toBe(`ben (operating-system user ${OS_USER} on host ${HOST})`);
    expect(summary.get('Unaccounted accepted by')).toBe(`ana (operating-system user ${OS_USER} on host ${HOST})`);
    expect(summary.get('Approved by')).toBe(`ben (operating-system user ${OS_USER} on host ${HOST})`);
    expect(summary.get('Audit trail hash')).toBe(row.trail_hash);
  }, 180_000);

  it('writes an evidence pack whose manifest verifies, its trail chaining to the printed hash', async () => {
    const close = await one(`SELECT version, workbook, trail_seq, trail_hash FROM closes WHERE month = '${month}'
      ORDER BY version DESC LIMIT 1`);
    const workbook = String(close.workbook);
    const pack = workbook.replace(/\.xlsx$/, '-evidence.zip');
    const members = unzip(pack);
    const names = [...members.keys()];
    expect(names).toEqual(expect.arrayContaining([path.basename(workbook), 'statements/bank_statements.csv',
      'statements/bank_entries.csv', 'trail.jsonl', 'manifest.json', 'SHA256SUMS']));
    expect(names.some((n) => /^journal\/close-\d{4}-\d\d(-v\d+)?-journal\.csv$/.test(n))).toBe(true);
    const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
    type Manifest = { month: string; version: number; close_entry: { seq: number; hash: string };
      files: Array<{ name: string; bytes: number; sha256: string }> };
    const manifest = JSON.parse(members.get('manifest.json')!.toString()) as Manifest;
    expect(manifest).toMatchObject({ month, version: Number(close.version),
      close_entry: { seq: Number(close.trail_seq), hash: close.trail_hash } });
    const listed = names.filter((n) => n !== 'manifest.json' && n !== 'SHA256SUMS');
    expect(manifest.files.map((f) => f.name).sort()).toEqual(listed.sort());
    for (const f of manifest.files) {
      expect(sha(members.get(f.name)!), f.name).toBe(f.sha256);
      expect(members.get(f.name)!.length, f.name).toBe(f.bytes);
    }
    expect(members.get('SHA256SUMS')!.toString()).toBe(manifest.files.map((f) => `${f.sha256}  ${f.name}\n`).join(''));
    expect(members.get(path.basename(workbook))!.equals(readFileSync(workbook))).toBe(true);
    // the trail in the pack: each hash recomputed, each entry after the one before, the last the printed close
    const trail = members.get('trail.jsonl')!.toString().trim().split('\n').map((l) => JSON.parse(l) as Row);
    for (const [i, e] of trail.entries()) {
      const fields = [e.seq, e.entry_at, e.kind, e.subject, e.content, e.prev_hash];
      expect(sha(JSON.stringify(fields)), `entry ${String(e.seq)}`).toBe(e.hash);
      if (i > 0) expect(e.prev_hash).toBe(trail[i - 1]!.hash);
    }
    expect(trail.at(-1)).toMatchObject({ seq: Number(close.trail_seq), hash: close.trail_hash, kind: 'reissue' });
    // the pack itself is an entry of the trail, recorded with the close
    const entry = await one(`SELECT content FROM audit_trail WHERE kind = 'evidence' ORDER BY seq DESC LIMIT 1`);
    expect(JSON.parse(String(entry.content)))
      .toMatchObject({ month, pack: path.basename(pack), sha256: sha(readFileSync(pack)) });

    const found = await cli('verify', '--head', String(close.trail_hash));
    expect(found.code, found.stdout).toBe(0);
    expect(found.stdout).toMatch(new RegExp(`entry with hash ${String(close.trail_hash)} present`));
    const missing = await cli('verify', '--head', 'f'.repeat(64));
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/no entry of the trail has the hash f{64}/);
  }, 60_000);

  it('publishes the head with the snapshot', async () => {
    const head = await one('SELECT seq, hash FROM audit_trail ORDER BY seq DESC LIMIT 1');
    const r = await cli('sql', 'SELECT seq, hash FROM audit_head', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ seq: Number(head.seq), hash: head.hash }]);
    const snapshot = await runCliHere(['verify', '--db', path.join(dir, 'published', 'recon.duckdb')]);
    expect(snapshot.code, snapshot.stdout).toBe(0);
  }, 60_000);
});

describe('recon verify', () => {
  /** A copy of the store with `sql` applied behind recon's back, verified. */
  async function verifyTampered(name: string, ...sql: string[]) {
    const copy = path.join(dir, `${name}.duckdb`);
    copyFileSync(db, copy);
    const instance = await DuckDBInstance.create(copy);
    const c = await instance.connect();
    for (const s of sql) await c.run(s);
    c.closeSync();
    instance.closeSync();
    return runCliHere(['verify', '--db', copy]);
  }
  const seqOf = async (sql: string) => Number((await one(sql)).seq);

  it('exits 0 on the untouched store', async () => {
    const r = await cli('verify');
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(new RegExp('^audit trail intact: \\d+ entries, head entry \\d+ [0-9a-f]{64}; '
      + 'runs, acknowledgements, assignments, closes and findings agree with it\n$'));
  }, 60_000);

  it('exits 1 naming the entry after an edited note, a deleted ack, a new total, a removed run, a reorder', async () => {
    const ack = await seqOf(`SELECT seq FROM audit_trail WHERE kind = 'ack' AND subject = '${acked}'
      ORDER BY seq LIMIT 1`);
    const approval = await seqOf(`SELECT seq FROM audit_trail WHERE kind = 'ack' AND subject = '${acked}'
      ORDER BY seq DESC LIMIT 1`);
    const close = await one(`SELECT month, version, trail_seq FROM closes ORDER BY closed_at LIMIT 1`);
    const run = await one(`SELECT subject, seq FROM audit_trail WHERE kind = 'run' ORDER BY seq LIMIT 1 OFFSET 1`);
    const cases: Array<[string, string[], RegExp]> = [
      ['note', [`UPDATE finding_acks SET note = 'nothing to see' WHERE finding_key = '${acked}' AND seq = 1`],
        new RegExp(`^audit trail broken: entry ${ack} \\(ack ${acked}#1\\) `
          + 'records note "provider confirmed in ticket FIN-41"; '
          + 'finding_acks has "nothing to see"\n')],
      ['deleted', [`DELETE FROM finding_acks WHERE finding_key = '${acked}' AND seq = 2`],
        new RegExp(`^audit trail broken: entry ${approval} \\(ack ${acked}#2\\) `
          + 'records a row finding_acks no longer has: '
          + 'it was removed\n')],
      ['total', [`UPDATE closes SET disbursed_total = disbursed_total - 100
          WHERE month = '${String(close.month)}' AND version = ${Number(close.version)}`],
        new RegExp(`^audit trail broken: entry ${Number(close.trail_seq)} `
          + `\\(close ${String(close.month)} v${Number(close.version)}\\) records disbursed_total `)],
      ['run', [`DELETE FROM runs WHERE run_id = '${String(run.subject)}'`],
        new RegExp(`^audit trail broken: entry ${Number(run.seq)} \\(run ${String(run.subject)}\\) records a row runs `
          + 'no longer has: it was removed\n')],
      ['reordered', ['UPDATE audit_trail SET seq = -1 WHERE seq = 3', 'UPDATE audit_trail SET seq = 3 WHERE seq = 4',
        'UPDATE audit_trail SET seq = 4 WHERE seq = -1'],
        new RegExp('^audit trail broken: entry 3 \\(\\w+ [^)]+\\): its hash does not match its content — '
          + 'the entry was edited, renumbered or moved\n')],
    ];
    for (const [name, sql, expected] of cases) {
      const r = await verifyTampered(name, ...sql);
      expect(r.code, `${name}: ${r.stdout}${r.stderr}`).toBe(1);
      expect(r.stdout, name).toMatch(expected);
    }
  }, 240_000);

  it('exits 2 on misuse and names a store without a trail', async () => {
    const bad = await cli('verify', '--head', 'xyz');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--head must be the 64 hexadecimal digits/);
    const none = await runCliHere(['verify', '--db', path.join(dir, 'nowhere.duckdb')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no store at/);
    const gone = await verifyTampered('gone', 'DROP TABLE audit_trail');
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/the audit trail \(table audit_trail\) was removed from the store/);
  }, 60_000);
});
