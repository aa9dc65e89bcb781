// `recon bank import`: statements in, the second import adds nothing, a malformed file refuses the
// whole import (exit 2, file and line named, nothing imported), and usage errors say what is missing.
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/index.js';
import { writeStatements } from '../../sandbox/statements.js';
import { query, tempDir } from '../helpers/recon.js';
import { ROOT } from '../helpers/child.js';
import { runCliHere } from '../helpers/in-process.js';
import { openStore } from '../../src/store/db.js';
import { readWorkbook, sheetOf } from '../unit/report/helpers.js';

describe('recon bank import', () => {
  it('imports statements once, refuses a malformed one as a whole, and names what is missing', { timeout: 60_000 }, async () => {
    const t = tempDir();
    const sb = await startSandbox({ seed: 5, disbursements: 30, payoutsPerDisbursement: 3 });
    try {
      const db = path.join(t.dir, 'recon.duckdb');
      (await openStore(db)).close();
      const { files } = await writeStatements(sb.truth, path.join(t.dir, 'statements'));
      const first = await runCliHere(['bank', 'import', ...files, '--db', db]);
      expect(first.code, first.stderr).toBe(0);
      const added = Number(/: (\d+) added/.exec(first.stdout)?.[1]);
      expect(added).toBeGreaterThan(30);
      const again = await runCliHere(['bank', 'import', ...files, '--db', db]);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/: 0 added, \d+ already imported/);

      const bad = path.join(t.dir, 'bad.sta');
      writeFileSync(bad, ':20:X\n:25:NL00RCON0000001234\n:28C:1/1\n:60F:C261101EUR0,00\n:61:2611021102C12,345NTRFNONREF//B1\n');
      const before = await query(db, 'SELECT count(*) AS n FROM bank_transactions');
      const refused = await runCliHere(['bank', 'import', files[0]!, bad, '--db', db]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/bad\.sta: line 5 \(:61:\): amount 12\.345 EUR is not a whole number of subunits; nothing of it was imported/);
      expect(await query(db, 'SELECT count(*) AS n FROM bank_transactions')).toEqual(before);

      const usage = await runCliHere(['bank', 'import', '--db', db]);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toMatch(/needs at least one statement file/);
      const verb = await runCliHere(['bank', 'export', '--db', db]);
      expect(verb.stderr).toMatch(/recon bank needs a verb: recon bank import FILE… \(got 'export'\)/);
    } finally {
      await sb.close();
      t.cleanup();
    }
  });
});

describe('first use and night safety', () => {
  it('creates the store on a first import, and imports nothing into it when a file is refused', { timeout: 60_000 }, async () => {
    const t = tempDir();
    try {
      const db = path.join(t.dir, 'new', 'recon.duckdb');
      const statement = path.join(t.dir, 'one.sta');
      writeFileSync(statement, ':20:FIRST\n:25:NL00RCON0000001234\n:28C:1/1\n:60F:C261101EUR0,00\n:61:2611021102C12,34NTRFNONREF//B1\n:62F:C261102EUR12,34\n-\n');
      const refused = await runCliHere(['bank', 'import', statement, path.join(t.dir, 'missing.sta'), '--db', db]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/missing\.sta: file: not a readable file/);
      expect(existsSync(db)).toBe(false); // nothing half-done, not even an empty store
      const first = await runCliHere(['bank', 'import', statement, '--db', db]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/1 entries: 1 added, 0 already imported/);
      expect(await query(db, 'SELECT count(*) AS n FROM bank_transactions')).toEqual([{ n: 1n }]);
    } finally {
      t.cleanup();
    }
  });

  it('refuses each malformed file of the corpus with exit 2, naming it', { timeout: 60_000 }, async () => {
    const t = tempDir();
    try {
      const dir = path.join(ROOT, 'test', 'fixtures', 'bank', 'malformed');
      for (const name of readdirSync(dir).filter((f) => !f.endsWith('.json'))) {
        const r = await runCliHere(['bank', 'import', path.join(dir, name), '--db', path.join(t.dir, 'recon.duckdb')]);
        expect(r.code, name).toBe(2);
        expect(r.stderr).toMatch(new RegExp(`recon bank: ${name.replace('.', '\\.')}: .*; nothing of it was imported`));
      }
    } finally {
      t.cleanup();
    }
  });

  it('in --bank-dir, refuses each unreadable file on its own (named on stderr and on the Bank sheet) and imports the rest', { timeout: 60_000 }, async () => {
    const t = tempDir();
    try {
      const db = path.join(t.dir, 'recon.duckdb');
      const dir = path.join(t.dir, 'bank');
      const outside = path.join(t.dir, 'outside.sta');
      mkdirSync(dir);
      const good = (ref: string) => `:20:${ref}\n:25:NL00RCON0000001234\n:28C:1/1\n:60F:C261101EUR0,00\n:61:2611021102C12,34NTRFNONREF//${ref}\n:62F:C261102EUR12,34\n-\n`;
      writeFileSync(path.join(dir, 'a-good.sta'), good('GOOD1'));
      writeFileSync(outside, good('OUTSIDE'));
      writeFileSync(path.join(dir, 'b-entity.xml'), '<?xml version="1.0"?>\n<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
        + '<Document><BkToCstmrStmt><Stmt><Id>S</Id><Acct><Id><IBAN>NL00RCON0000001234</IBAN></Id></Acct><Ntry><Amt Ccy="EUR">&x;</Amt></Ntry></Stmt></BkToCstmrStmt></Document>');
      writeFileSync(path.join(dir, 'c-date.sta'), good('BADDATE').replace('2611021102C', '2613321332C'));
      writeFileSync(path.join(dir, 'd-huge.sta'), good('HUGE').replace('C12,34NTRF', 'C99999999999999999999,00NTRF'));
      symlinkSync(path.join(dir, 'a-good.sta'), path.join(dir, 'e-link-inside.sta'));
      symlinkSync(outside, path.join(dir, 'f-link-outside.sta'));
      (await openStore(db)).close();
      const run = await runCliHere(['check', '--db', db, '--bank-dir', dir]);
      expect([0, 1]).toContain(run.code);
      expect(run.stderr).toMatch(/bank statement refused: b-entity\.xml: line 2: a DOCTYPE/);
      expect(run.stderr).toMatch(/bank statement refused: c-date\.sta: line 5 \(:61:\): date 2026-13-32 does not exist/);
      expect(run.stderr).toMatch(/bank statement refused: d-huge\.sta: line 5 \(:61:\): amount 99999999999999999999\.00 EUR is larger than any account holds/);
      expect(run.stderr).toMatch(/bank statement refused: f-link-outside\.sta: a symbolic link to a file outside the folder/);
      expect(run.stderr).not.toMatch(/a-good|e-link-inside/);
      expect(await query(db, 'SELECT count(*) AS n FROM bank_transactions')).toEqual([{ n: 1n }]); // the link inside is the same statement
      const report = await runCliHere(['report', '--db', db, '--reports', path.join(t.dir, 'reports')]);
      expect([0, 1]).toContain(report.code);
      const workbook = /(\S+\.xlsx)/.exec(report.stdout)?.[1];
      const bank = sheetOf(await readWorkbook(workbook!), 'Bank');
      const top = [1, 2, 3, 4, 5].map((r) => String(bank.getRow(r).getCell(1).value ?? ''));
      expect(top[0]).toMatch(/^4 statement files refused by this run/);
      expect(top.slice(1).join('\n')).toMatch(/b-entity\.xml[\s\S]*c-date\.sta[\s\S]*d-huge\.sta[\s\S]*f-link-outside\.sta/);
    } finally {
      t.cleanup();
    }
  });
});
