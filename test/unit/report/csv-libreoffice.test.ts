// case 6, in a real spreadsheet: the CSV recon writes is imported by LibreOffice with each separator
// a locale may choose (, ; tab |). No cell may come out as a formula or its result.
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { CSV_EOL, toCsvRecord } from '../../../src/report/csv.js';
import { tempDir } from '../../helpers/recon.js';

const soffice = spawnSync('soffice', ['--version']).status === 0;
const HOSTILE = ['PO-1;=2*21;', 'a\t=6*7', 'b|=6*7', 'c,=6*7', '=6*7', '@SUM(1;41)', '+6*7'];

describe.skipIf(!soffice)('recon CSV in LibreOffice', () => {
  it.each([[',', 44], [';', 59], ['tab', 9], ['|', 124]])('imported with %s as separator, shows no formula and no 42', async (_name, code) => {
    const t = tempDir('recon-csv-lo-');
    try {
      const csv = path.join(t.dir, 'q.csv');
      writeFileSync(csv, [toCsvRecord(['reference', 'n']), ...HOSTILE.map((h, i) => toCsvRecord([h, i]))].join(CSV_EOL) + CSV_EOL);
      execFileSync('soffice', ['--headless', `-env:UserInstallation=file://${t.dir}/lo`, `--infilter=CSV:${code},34,76,1`, '--convert-to', 'xlsx', '--outdir', t.dir, csv], { stdio: 'ignore', timeout: 120_000 });
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(path.join(t.dir, 'q.xlsx'));
      const cells: unknown[] = [];
      wb.worksheets[0]!.eachRow((row) => row.eachCell((cell) => cells.push(cell.value)));
      expect(cells.length).toBeGreaterThan(HOSTILE.length);
      for (const v of cells) {
        expect(typeof v === 'object' && v !== null && 'formula' in v, JSON.stringify(v)).toBe(false);
        expect(v).not.toBe(42);
      }
    } finally {
      t.cleanup();
    }
  }, 150_000);
});
