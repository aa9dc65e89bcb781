// A check carries its own words (STYLE.md): its file's header names it, gives its severity, a title,
// what it means and what to do next. The runner holds the rows to the header, the Checks sheet and the
// check table of docs/checks.md are read from it, and the repeated shapes are generic checks.
import { mkdtemp, mkdir, writeFile, readFile } from 'node:fs/promises';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeChecks, loadChecks, runChecks, type CheckDescription } from '../../../src/checks/index.js';
import { ROOT } from '../../helpers/child.js';
import { openTempStore, type TempStore } from '../../helpers/check-fixtures.js';

let t: TempStore;
beforeEach(async () => {
  t = await openTempStore();
});
afterEach(async () => {
  await t.close();
});

const HEADER = (id: string, severity = 'error') => `-- check: ${id}\n-- severity: ${severity}\n-- title: A title\n-- meaning: What it means,\n--   over two lines.\n-- next step: What to do.\n--\n`;
/** A check's rows; with a severity column only where the header lets it choose per row. */
const SELECT = (_id: string, severity: string | null) => `SELECT ${severity ? `'${severity}' AS severity, ` : ''}'D1' AS disbursement_id, 'R1' AS recipient_id,
  's' AS subject, 'EUR' AS currency, CAST(1 AS BIGINT) AS expected, CAST(2 AS BIGINT) AS actual, CAST(1 AS BIGINT) AS difference, 'x' AS detail`;

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(t.dir, 'checks-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return dir;
}

describe('a check file header', () => {
  it('is read whole: id, severities, title, meaning and next step (values run on over indented lines)', async () => {
    const [check] = await loadChecks(await folder({ 'mine.sql': HEADER('mine', 'error or warning') + SELECT('mine', 'error') }));
    expect(check).toMatchObject({ id: 'mine', severities: ['error', 'warning'], title: 'A title', meaning: 'What it means, over two lines.', nextStep: 'What to do.' });
  });

  it('is required, names its own file, and gives a severity recon knows', async () => {
    await expect(loadChecks(await folder({ 'bare.sql': SELECT('bare', null) }))).rejects.toThrow(/its header lacks -- check:, -- severity:, -- title:, -- meaning:, -- next step:/);
    await expect(loadChecks(await folder({ 'mine.sql': HEADER('other') + SELECT('mine', null) }))).rejects.toThrow(/header says check: other, not the file name mine/);
    await expect(loadChecks(await folder({ 'mine.sql': HEADER('mine', 'fatal') + SELECT('mine', null) }))).rejects.toThrow(/severity: must be error, warning or "error or warning"/);
  });

  it('holds the rows to its severity: a check whose header says error cannot return a severity, which leaves nothing', async () => {
    const dir = await folder({ 'mine.sql': HEADER('mine', 'error') + SELECT('mine', 'warning') });
    await expect(runChecks(t.connection, { runId: 'c1', checksDir: dir })).rejects.toThrow(/must return exactly the columns disbursement_id, .*it returns severity, /);
    expect((await t.connection.runAndReadAll('SELECT count(*) FROM exceptions')).getRows()[0]![0]).toBe(0n);
  });

  it('may use a generic check: its SELECT is the template with the arguments, its id and severity the header\'s', async () => {
    const dir = await folder({
      'generic/kind_rows.sql': "SELECT 'D1' AS disbursement_id, 'R1' AS recipient_id,\n"
        + "  '{{kind}}' AS subject, 'EUR' AS currency, CAST(0 AS BIGINT) AS expected, CAST(0 AS BIGINT) AS actual, CAST(0 AS BIGINT) AS difference, 'x' AS detail",
      'uses_it.sql': `${HEADER('uses_it', 'warning').replace(/--\n$/, '')}-- uses: kind_rows(kind = refund)\n`,
      'bad_args.sql': `${HEADER('bad_args').replace(/--\n$/, '')}-- uses: kind_rows(kind = 'x; DROP')\n`,
    });
    await expect(loadChecks(dir)).rejects.toThrow(/argument 'kind = 'x; DROP'' must be key = word/);
    const [check] = await loadChecks(dir, ['uses_it']);
    expect(check!.sql).toMatch(/'refund' AS subject/);
    const result = await runChecks(t.connection, { runId: 'c1', checksDir: dir, only: ['uses_it'] });
    expect(result.byCheck).toEqual([{ checkId: 'uses_it', severity: 'warning', count: 1 }]);
  });
});

describe("recon's own checks", () => {
  it('every one explains itself; the duplicate and count shapes are one generic check each', async () => {
    const checks = await describeChecks();
    expect(checks.length).toBeGreaterThanOrEqual(24);
    for (const c of checks) {
      expect(c.meaning.length, c.id).toBeGreaterThan(30);
      expect(c.nextStep.length, c.id).toBeGreaterThan(20);
    }
    for (const id of ['duplicate_payout', 'duplicate_refund', 'duplicate_adjustment', 'count_payments', 'count_refunds', 'count_adjustments']) {
      expect(await readFile(path.join(ROOT, 'sql', 'checks', `${id}.sql`), 'utf8'), id).toMatch(/^-- uses: (settled_repeat|line_count)\(kind = \w+\)$/m);
    }
  });

  it("are the check table of docs/checks.md, written from their headers (UPDATE_DOCS=1 rewrites it)", async () => {
    const page = path.join(ROOT, 'docs', 'checks.md');
    const text = readFileSync(page, 'utf8');
    const [begin, end] = ['<!-- checks:begin -->', '<!-- checks:end -->'];
    const table = checksTable(await describeChecks());
    const [from, to] = [text.indexOf(begin) + begin.length, text.indexOf(end)];
    expect(from).toBeGreaterThan(begin.length - 1);
    if (process.env.UPDATE_DOCS) writeFileSync(page, `${text.slice(0, from)}\n${table}\n${text.slice(to)}`);
    else expect(text.slice(from, to).trim()).toBe(table);
  });
});

function checksTable(checks: CheckDescription[]): string {
  const cell = (s: string) => s.replaceAll('|', '\\|');
  return ['| check | severity | what it finds | what to do next |', '|---|---|---|---|',
    ...checks.map((c) => `| \`${c.id}\` | ${c.severities.join(' or ')} | **${cell(c.title)}.** ${cell(c.meaning)} | ${cell(c.nextStep)} |`)].join('\n');
}
