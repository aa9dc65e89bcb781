// The runner's contract: broken check files fail the run by name and leave nothing behind, `only`
// leaves other checks' findings alone, keys are distinct and stable, and findings stream in pages.
import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckFileError } from '../../../src/checks/errors.js';
import { ackFinding } from '../../../src/checks/ack.js';
import { latestFindings, type LatestFinding } from '../../../src/store/read/findings.js';
import { runChecks } from '../../../src/checks/runner.js';
import { markShown } from '../../../src/checks/lifecycle.js';
import { clean, loadClean, openTempStore, rows, runCheck, withSpec, type TempStore } from '../../helpers/check-fixtures.js';
import { loadChecks } from '../../../src/checks/contract.js';

let t: TempStore;
beforeEach(async () => {
  t = await openTempStore();
});
afterEach(async () => {
  await t.close();
});

/** The header every check file carries (src/checks/contract.ts); both severities allowed, for tests of the rows. */
const headerOf = (name: string) => `-- check: ${name.replace(/\.sql$/, '')}\n-- severity: error or warning\n-- title: t\n-- meaning: m\n-- next step: n\n--\n`;

async function checksDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(t.dir, 'checks-'));
  for (const [name, sql] of Object.entries(files)) await writeFile(path.join(dir, name), sql.startsWith('-- check:') ? sql : headerOf(name) + sql);
  return dir;
}

/** A row of a check that chooses its severity per row (the header above allows both); the runner adds the id. */
const row = (_id: string, severity: string, subject: string, detail = "'something'") =>
  `SELECT '${severity}' AS severity, 'D1' AS disbursement_id, 'R1' AS recipient_id,
     ${subject} AS subject, 'EUR' AS currency, CAST(1 AS BIGINT) AS expected, CAST(2 AS BIGINT) AS actual,
     CAST(1 AS BIGINT) AS difference, ${detail} AS detail`;

describe('runChecks', () => {
  it('names the file whose columns break the contract', async () => {
    const dir = await checksDir({ 'bad_columns.sql': "SELECT 'bad_columns' AS check_id, 'error' AS severity;" });
    const err = await runChecks(t.connection, { runId: 'c1', checksDir: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CheckFileError);
    expect((err as Error).message).toContain('bad_columns.sql');
    expect((err as Error).message).toContain('must return exactly the columns severity, disbursement_id, recipient_id');
    expect((err as Error).message).toContain('(in this order (severity first: its header lets it choose per row)); it returns check_id, severity');
  });

  it('refuses floating-point money columns', async () => {
    const dir = await checksDir({ 'floaty.sql': row('floaty', 'error', "'s'").replace('CAST(1 AS BIGINT) AS expected', '1.5::DOUBLE AS expected') });
    await expect(runChecks(t.connection, { runId: 'c1', checksDir: dir })).rejects.toThrow(/column expected must be integer subunits/);
  });

  it('rolls the whole run back when one check returns a bad severity', async () => {
    const dir = await checksDir({
      'a_good.sql': row('a_good', 'error', "'s'"),
      'b_bad.sql': row('b_bad', 'fatal', "'s'"),
    });
    await expect(runChecks(t.connection, { runId: 'c1', checksDir: dir })).rejects.toThrow(
      /check b_bad \(.*b_bad\.sql\): severity is 'fatal'/,
    );
    expect(await rows(t.connection, 'SELECT * FROM exceptions')).toEqual([]);
    expect(await rows(t.connection, 'SELECT * FROM findings')).toEqual([]);
    expect(await rows(t.connection, 'SELECT * FROM check_runs')).toEqual([]);
  });

  it('after a check fails late, leaves no TEMP table standing in for a view or the stage, and the next run is whole', async () => {
    const specs = withSpec({ ...clean('D-EU-2'), amount: 1 });
    await loadClean(t.connection, specs);
    const dir = await mkdtemp(path.join(t.dir, 'checks-'));
    await cp(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../sql/checks'), dir, { recursive: true });
    // last in order, after every real check staged and the shared views materialised
    const fails = row('zz_fails', 'error', "'s'").replace('CAST(1 AS BIGINT) AS expected', "CAST('x' AS BIGINT) AS expected");
    await writeFile(path.join(dir, 'zz_fails.sql'), headerOf('zz_fails.sql') + fails);
    await expect(runChecks(t.connection, { runId: 'c1', checksDir: dir })).rejects.toThrow(/check zz_fails .*failed: /);
    const temps = "SELECT table_name FROM duckdb_tables() WHERE temporary ORDER BY 1";
    expect(await rows(t.connection, temps)).toEqual([]);
    expect(await rows(t.connection, 'SELECT * FROM check_runs')).toEqual([]);
    const after = await runChecks(t.connection, { runId: 'c2' });
    expect(await rows(t.connection, temps)).toEqual([]);
    const fresh = await openTempStore();
    try {
      await loadClean(fresh.connection, specs);
      const whole = await runChecks(fresh.connection, { runId: 'c2' });
      expect(after.byCheck).toEqual(whole.byCheck);
      expect(after.byCheck.map((c) => c.checkId)).toContain('total_identity');
    } finally {
      await fresh.close();
    }
  });

  it('stops at the first check, in order, whose rows break the contract, and says what is wrong', async () => {
    const dir = await checksDir({
      'a_good.sql': row('a_good', 'error', "'s'"),
      'b_empty.sql': row('b_empty', 'error', "'s'", "''"),
      'c_fails.sql': row('c_fails', 'error', "'s'").replace('CAST(1 AS BIGINT) AS expected', "CAST('x' || subject AS BIGINT) AS expected"),
      'd_bad.sql': row('d_bad', 'fatal', "'s'"),
      'e_null.sql': row('e_null', 'warning', "'s'", 'CAST(NULL AS VARCHAR)'),
    });
    const err = await runChecks(t.connection, { runId: 'c1', checksDir: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CheckFileError);
    expect((err as Error).message).toMatch(/^check b_empty \(.*b_empty\.sql\): detail is empty for subject s$/);
    await expect(runChecks(t.connection, { runId: 'c2', checksDir: dir, only: ['c_fails', 'd_bad'] })).rejects.toThrow(/check c_fails \(.*c_fails\.sql\): failed: /);
    await expect(runChecks(t.connection, { runId: 'c3', checksDir: dir, only: ['a_good', 'd_bad'] })).rejects.toThrow(
      /check d_bad \(.*d_bad\.sql\): severity is 'fatal', not what its header allows \(error or warning\)$/,
    );
    await expect(runChecks(t.connection, { runId: 'c4', checksDir: dir, only: ['e_null'] })).rejects.toThrow(/check e_null \(.*\): detail is empty for subject s$/);
    expect(await rows(t.connection, 'SELECT * FROM check_runs')).toEqual([]);
  });

  it('stages each check in its own statement: its own rows and findings, its own time, laid end to end', async () => {
    const dir = await checksDir({
      'a_two.sql': `${row('a_two', 'error', "'s1'")} UNION ALL ${row('a_two', 'warning', "'s2'")}`,
      'b_none.sql': `${row('b_none', 'error', "'s'")} WHERE false`,
      'c_one.sql': row('c_one', 'warning', "'s'"),
    });
    const run = await runChecks(t.connection, { runId: 'c1', checksDir: dir });
    expect(run.checks.map((c) => [c.checkId, c.findings])).toEqual([['a_two', 2], ['b_none', 0], ['c_one', 1]]);
    expect(run.checks[0]!.offsetMs).toBe(0);
    // each began once the one before it ended (times rounded to the ms)
    for (let i = 1; i < run.checks.length; i += 1) {
      expect(run.checks[i]!.offsetMs).toBeGreaterThanOrEqual(run.checks[i - 1]!.offsetMs + run.checks[i - 1]!.ms - 1);
    }
    expect(await rows(t.connection, 'SELECT check_id, subject FROM exceptions ORDER BY check_id, subject')).toEqual([
      { check_id: 'a_two', subject: 's1' }, { check_id: 'a_two', subject: 's2' }, { check_id: 'c_one', subject: 's' }]);
  });

  it('gives every row of a check its file name as id and its header\'s severity; the check returns only its rows', async () => {
    const only = (severity: string) => `-- check: x\n-- severity: ${severity}\n-- title: t\n-- meaning: m\n-- next step: n\n--\n`;
    const rowsOnly = (subject: string) => `SELECT 'D1' AS disbursement_id, 'R1' AS recipient_id, '${subject}' AS subject, 'EUR' AS currency,
      CAST(1 AS BIGINT) AS expected, CAST(2 AS BIGINT) AS actual, CAST(1 AS BIGINT) AS difference, 'd' AS detail`;
    const dir = await checksDir({
      'named.sql': only('warning').replace('check: x', 'check: named') + `${rowsOnly('a')} UNION ALL ${rowsOnly('b')}`,
      'own_id.sql': only('error').replace('check: x', 'check: own_id') + `SELECT 'other' AS check_id, * FROM (${rowsOnly('c')})`,
    });
    await runChecks(t.connection, { runId: 'c1', checksDir: dir, only: ['named'] });
    expect(await rows(t.connection, 'SELECT check_id, severity, subject FROM exceptions ORDER BY subject')).toEqual([
      { check_id: 'named', severity: 'warning', subject: 'a' }, { check_id: 'named', severity: 'warning', subject: 'b' }]);
    // a check cannot name itself otherwise: its columns are its rows only
    await expect(runChecks(t.connection, { runId: 'c2', checksDir: dir, only: ['own_id'] }))
      .rejects.toThrow(/must return exactly the columns disbursement_id, recipient_id, .* it returns check_id, disbursement_id/);
  });

  it('gives the same check_id + disbursement + subject produced twice two distinct, stable keys', async () => {
    const dir = await checksDir({
      'twice.sql': `${row('twice', 'error', "'same'", "'first'")} UNION ALL ${row('twice', 'warning', "'same'", "'second'")}`,
    });
    await runChecks(t.connection, { runId: 'c1', checksDir: dir });
    await markShown(t.connection, 'c1');
    await runChecks(t.connection, { runId: 'c2', checksDir: dir });
    const keys = await rows(t.connection, 'SELECT run_id, finding_key, status FROM exceptions ORDER BY run_id, detail');
    expect(new Set(keys.map((k) => k.finding_key)).size).toBe(2);
    expect(keys.map((k) => k.status)).toEqual(['new', 'new', 'open', 'open']);
  });

  it('refuses to reuse a run id', async () => {
    await loadClean(t.connection);
    await runChecks(t.connection, { runId: 'c1' });
    await expect(runChecks(t.connection, { runId: 'c1' })).rejects.toThrow(/checks already ran for run c1/);
  });

  it('with only, runs those checks and leaves the findings of the others open', async () => {
    await loadClean(t.connection, withSpec({ ...clean('D-JP-1'), amount: 1, numberOfPayments: 9 }));
    const all = await runChecks(t.connection, { runId: 'c1', now: new Date('2026-07-01T00:00:00Z') });
    await markShown(t.connection, 'c1');
    expect(all.byCheck).toEqual([
      { checkId: 'count_payments', severity: 'error', count: 1 },
      { checkId: 'file_vs_api', severity: 'error', count: 1 }, // the footer's count vs number_of_*
      { checkId: 'total_identity', severity: 'error', count: 1 },
    ]);
    const one = await runChecks(t.connection, { runId: 'c2', only: ['total_identity'] });
    expect(one.checks.map((c) => c.checkId)).toEqual(['total_identity']);
    expect(one.byStatus).toEqual({ new: 0, open: 1, acknowledged: 0, resolved: 0 });
    await t.connection.run(`UPDATE disbursements SET amount = 14550 WHERE disbursement_id = 'D-JP-1'`);
    const fixed = await runChecks(t.connection, { runId: 'c3', only: ['total_identity'] });
    expect(fixed.byStatus.resolved).toBe(1);
    expect(await rows(t.connection, `SELECT check_id, state FROM findings ORDER BY check_id`)).toEqual([
      { check_id: 'count_payments', state: 'open' },
      { check_id: 'file_vs_api', state: 'open' },
      { check_id: 'total_identity', state: 'resolved' },
    ]);
  });

  it('skips a check whose requires: table is empty (no rows, no time), and runs it once the table has a row', async () => {
    await t.connection.run('CREATE TABLE statements_seen (n INTEGER)');
    const dir = await checksDir({
      'a_plain.sql': row('a_plain', 'error', "'s'"),
      'b_needs.sql': headerOf('b_needs.sql').replace('--\n', '-- requires: statements_seen\n--\n') + row('b_needs', 'warning', "'s'"),
    });
    const before = await runChecks(t.connection, { runId: 'c1', checksDir: dir });
    expect(before.checks).toEqual([{ checkId: 'a_plain', findings: 1, ms: expect.any(Number), offsetMs: 0 }, { checkId: 'b_needs', findings: 0, ms: 0, offsetMs: 0 }]);
    expect(before.byCheck.map((c) => c.checkId)).toEqual(['a_plain']);
    await t.connection.run('INSERT INTO statements_seen VALUES (1)');
    const after = await runChecks(t.connection, { runId: 'c2', checksDir: dir });
    expect(after.byCheck.map((c) => c.checkId)).toEqual(['a_plain', 'b_needs']);
  });

  it('refuses a requires: that names no table, naming the file', async () => {
    const dir = await checksDir({ 'needs_nothing.sql': headerOf('needs_nothing.sql').replace('--\n', '-- requires: no_such_table\n--\n') + row('needs_nothing', 'error', "'s'") });
    await expect(runChecks(t.connection, { runId: 'c1', checksDir: dir })).rejects.toThrow(/check needs_nothing \(.*needs_nothing\.sql\): requires: no_such_table/);
    const bad = await checksDir({ 'needs_odd.sql': headerOf('needs_odd.sql').replace('--\n', '-- requires: main.x; DROP\n--\n') + row('needs_odd', 'error', "'s'") });
    await expect(runChecks(t.connection, { runId: 'c1', checksDir: bad })).rejects.toThrow(/requires: 'main.x; DROP' is not a table name/);
  });

  it('the bank checks declare requires: bank_transactions, and without a statement they find nothing when run anyway', async () => {
    // every disbursement of the clean set, one off in every way the other checks flag: the skip must lose nothing
    await loadClean(t.connection, withSpec({ ...clean('D-JP-1'), amount: 1, numberOfPayments: 9 }));
    const declaring = (await loadChecks()).filter((c) => c.requires.length > 0);
    expect(declaring.map((c) => [c.id, c.requires])).toEqual(['bank_account_mismatch', 'bank_amount_differs', 'bank_duplicate_credit', 'bank_missing_credit',
      'bank_statement_gap', 'bank_statement_unbalanced', 'bank_unexpected_credit'].map((id) => [id, ['bank_transactions']]));
    for (const c of declaring) expect(await runCheck(t.connection, c.id), c.id).toEqual([]);
    const run = await runChecks(t.connection, { runId: 'c1' });
    expect(run.checks.filter((c) => c.ms === 0 && c.findings === 0).map((c) => c.checkId)).toEqual(expect.arrayContaining(declaring.map((c) => c.id)));
    expect(run.findings).toBe(3);
  });

  it('rejects an unknown check id in only', async () => {
    await expect(runChecks(t.connection, { runId: 'c1', only: ['no_such_check'] })).rejects.toThrow(/no such check; available: /);
  });
});

describe('latestFindings', () => {
  it('yields a run in pages, errors first, every finding once', async () => {
    const many = Array.from({ length: 7 }, (_, i) => row('many', i % 3 === 0 ? 'warning' : 'error', `'s${i}'`)).join(' UNION ALL ');
    const dir = await checksDir({ 'many.sql': many });
    await runChecks(t.connection, { runId: 'c1', checksDir: dir });
    const pages: LatestFinding[][] = [];
    for await (const page of latestFindings(t.connection, 'c1', { pageSize: 3 })) pages.push(page);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    const flat = pages.flat();
    expect(new Set(flat.map((f) => f.key)).size).toBe(7);
    expect(flat.map((f) => f.severity)).toEqual(['error', 'error', 'error', 'error', 'warning', 'warning', 'warning']);
    expect(flat.map((f) => f.subject)).toEqual(['s1', 's2', 's4', 's5', 's0', 's3', 's6']);
    expect(flat[0]).toMatchObject({ status: 'new', expected: 1n, actual: 2n, difference: 1n, currency: 'EUR', ageDays: 0 });
    expect(flat[0]?.firstSeen).toBeInstanceOf(Date);
  });

  it('orders new before open before acknowledged, errors first, the most money at stake first', async () => {
    const stake = (subject: string, difference: number, severity = 'error') =>
      `SELECT '${severity}' AS severity, 'D1' AS disbursement_id, 'R1' AS recipient_id, '${subject}' AS subject,
         'EUR' AS currency, CAST(0 AS BIGINT) AS expected, CAST(${difference} AS BIGINT) AS actual, CAST(${difference} AS BIGINT) AS difference, 'x' AS detail`;
    const first = await checksDir({ 'stake.sql': [stake('small', 5), stake('big', -900), stake('mid', 70), stake('warn', 5000, 'warning')].join(' UNION ALL ') });
    await runChecks(t.connection, { runId: 'c1', checksDir: first });
    await markShown(t.connection, 'c1');
    const [acked] = (await t.connection.runAndReadAll(`SELECT finding_key FROM exceptions WHERE run_id = 'c1' AND subject = 'big'`)).getRows();
    await ackFinding(t.connection, { key: String(acked![0]), note: 'agreed with treasury', by: 'ana' });
    const second = await checksDir({ 'stake.sql': [stake('small', 5), stake('big', -900), stake('mid', 70), stake('warn', 5000, 'warning'), stake('fresh', 1)].join(' UNION ALL ') });
    await runChecks(t.connection, { runId: 'c2', checksDir: second });
    const flat: LatestFinding[] = [];
    for await (const page of latestFindings(t.connection, 'c2', { pageSize: 2 })) flat.push(...page);
    expect(flat.map((f) => [f.status, f.subject])).toEqual([['new', 'fresh'], ['open', 'mid'], ['open', 'small'], ['open', 'warn'], ['acknowledged', 'big']]);
  });
});

describe('check contracts', () => {
  it('validates a check once for the store as it is, and again when its SQL changes', async () => {
    const dir = await checksDir({ 'once.sql': row('once', 'error', "'s'") });
    await runChecks(t.connection, { runId: 'c1', checksDir: dir });
    expect((await rows(t.connection, 'SELECT count(*)::INT AS n FROM check_contracts'))[0]!.n).toBe(1);
    await runChecks(t.connection, { runId: 'c2', checksDir: dir });
    expect((await rows(t.connection, 'SELECT count(*)::INT AS n FROM check_contracts'))[0]!.n).toBe(1);
    // the file changes: a money column that is not integer subunits is caught, not skipped
    await writeFile(path.join(dir, 'once.sql'), headerOf('once.sql') + row('once', 'error', "'s'").replace('CAST(1 AS BIGINT) AS expected', '1.5 AS expected'));
    await expect(runChecks(t.connection, { runId: 'c3', checksDir: dir })).rejects.toThrow(/column expected must be integer subunits/);
  });
});
