// #17 `recon bank import`: statements in, the second import adds nothing, a malformed file refuses the
// whole import (exit 2, file and line named, nothing imported), and usage errors say what is missing.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { writeStatements } from '../../src/sandbox/statements.js';
import { query, tempDir } from '../helpers/recon.js';
import { runCli } from '../helpers/child.js';
import { openStore } from '../../src/load/db.js';

describe('recon bank import', () => {
  it('imports statements once, refuses a malformed one as a whole, and names what is missing', { timeout: 60_000 }, async () => {
    const t = tempDir();
    const sb = await startSandbox({ seed: 5, disbursements: 30, payoutsPerDisbursement: 3 });
    try {
      const db = path.join(t.dir, 'recon.duckdb');
      (await openStore(db)).close();
      const { files } = await writeStatements(sb.truth, path.join(t.dir, 'statements'));
      const first = await runCli(['bank', 'import', ...files, '--db', db]);
      expect(first.code, first.stderr).toBe(0);
      const added = Number(/: (\d+) added/.exec(first.stdout)?.[1]);
      expect(added).toBeGreaterThan(30);
      const again = await runCli(['bank', 'import', ...files, '--db', db]);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/: 0 added, \d+ already imported/);

      const bad = path.join(t.dir, 'bad.sta');
      writeFileSync(bad, ':20:X\n:25:NL00RCON0000001234\n:28C:1/1\n:60F:C261101EUR0,00\n:61:2611021102C12,345NTRFNONREF//B1\n');
      const before = await query(db, 'SELECT count(*) AS n FROM bank_transactions');
      const refused = await runCli(['bank', 'import', files[0]!, bad, '--db', db]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/bad\.sta: line 5 \(:61:\): amount 12\.345 EUR is not a whole number of subunits; nothing of it was imported/);
      expect(await query(db, 'SELECT count(*) AS n FROM bank_transactions')).toEqual(before);

      const usage = await runCli(['bank', 'import', '--db', db]);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toMatch(/needs at least one statement file/);
      const verb = await runCli(['bank', 'export', '--db', db]);
      expect(verb.stderr).toMatch(/recon bank needs a verb: recon bank import FILE… \(got 'export'\)/);
    } finally {
      await sb.close();
      t.cleanup();
    }
  });
});
