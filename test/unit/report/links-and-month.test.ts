// items 2, 3 and 9, read back from the workbook a night wrote (not from the writer's inputs): each
// finding's disbursement links to its own row on Disbursements, wrapped rows are tall enough for their
// text, and the Month sheet's charts draw the sheet's own cells, which add up to the store's totals.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { plantEveryKind } from '../../../sandbox/index.js';
import { currencyFactor } from '../../../src/money.js';
import { wrappedLines } from '../../../src/report/table-sheet.js';
import { query } from '../../helpers/recon.js';
import { nightBeforeAll } from '../../helpers/nightly.js';
import { readWorkbook, sheetOf, zipEntryText } from './helpers.js';

const night = nightBeforeAll({ seed: 21, disbursements: 120, payoutsPerDisbursement: 6, rateLimit: { limit: 1_000_000 }, anomalies: { plant: plantEveryKind(24) } }, 1);
const workbook = () => path.join(night.dir, 'reports', 'recon-latest.xlsx');
/** Sheet XML part names in workbook order (Summary, Month, Checks, Exceptions, Disbursements). */
const part = (n: number) => `xl/worksheets/sheet${n}.xml`;

const cellText = (v: unknown): string => (v && typeof v === 'object' && 'text' in v ? String((v as { text: unknown }).text) : String(v ?? ''));

describe('the workbook as read back', () => {
  it('each finding\'s disbursement is an in-workbook link to the Disbursements row of that disbursement', async () => {
    const wb = await readWorkbook(workbook());
    const names = wb.worksheets.map((w) => w.name);
    expect(names).toEqual(['Summary', 'Month', 'Checks', 'Exceptions', 'Disbursements']);
    const exceptionsXml = zipEntryText(workbook(), part(names.indexOf('Exceptions') + 1));
    const links = [...exceptionsXml.matchAll(/<hyperlink ref="([A-Z]+)(\d+)"([^>]*)\/>/g)];
    const exceptions = sheetOf(wb, 'Exceptions');
    const disbursements = sheetOf(wb, 'Disbursements');
    const withDisbursement: number[] = [];
    exceptions.eachRow((row, n) => {
      if (n > 1 && cellText(row.getCell(5).value) !== '') withDisbursement.push(n);
    });
    expect(withDisbursement.length).toBeGreaterThan(10);
    expect(links.length).toBe(withDisbursement.length);
    for (const [, column, row, attributes] of links) {
      expect(column).toBe('E');
      // an internal location, never a relationship (Excel would open an r:id target as a file name)
      expect(attributes).not.toContain('r:id');
      const target = /location="Disbursements!A(\d+)"/.exec(attributes!);
      expect(target, attributes).not.toBeNull();
      const id = cellText(exceptions.getRow(Number(row)).getCell(5).value);
      expect(cellText(disbursements.getRow(Number(target![1])).getCell(1).value)).toBe(id);
    }
    // no external relationship was written for them
    let rels = '';
    try {
      rels = zipEntryText(workbook(), `xl/worksheets/_rels/sheet${names.indexOf('Exceptions') + 1}.xml.rels`);
    } catch {
      // no relationships at all
    }
    expect(rels).not.toContain('TargetMode="External"');
  });

  it('a row whose wrapped Detail takes several lines is that many lines tall; the other cells read from the top', async () => {
    const wb = await readWorkbook(workbook());
    const sheet = sheetOf(wb, 'Exceptions');
    const header = (sheet.getRow(1).values as unknown[]).map((v) => cellText(v));
    const detail = header.indexOf('Detail');
    let tall = 0;
    sheet.eachRow((row, n) => {
      if (n === 1) return;
      const lines = wrappedLines(cellText(row.getCell(detail).value), sheet.getColumn(detail).width!);
      if (lines > 1) {
        tall += 1;
        expect(row.height, `row ${n}`).toBeGreaterThanOrEqual(15 * lines);
      }
      expect(row.getCell(header.indexOf('Check')).alignment?.vertical).toBe('top');
    });
    expect(tall).toBeGreaterThan(5);
  });

  it('invalid_record reads in plain words on Detail, with the payload as received in its own column, cut at a field boundary', async () => {
    const sheet = sheetOf(await readWorkbook(workbook()), 'Exceptions');
    const header = (sheet.getRow(1).values as unknown[]).map((v) => cellText(v));
    const rows: Array<{ detail: string; received: string }> = [];
    sheet.eachRow((row, n) => {
      if (n > 1 && cellText(row.getCell(header.indexOf('Check')).value) === 'invalid_record') {
        rows.push({ detail: cellText(row.getCell(header.indexOf('Detail')).value), received: cellText(row.getCell(header.indexOf('Received')).value) });
      }
    });
    expect(rows.filter((r) => r.received.startsWith('{')).length).toBeGreaterThan(0);
    for (const { detail, received } of rows) {
      expect(detail).toMatch(/was quarantined: \S/);
      expect(detail).not.toContain('received:');
      expect(detail).not.toContain('{"');
      // an API record's payload, or nothing (a file line names its file and line instead)
      if (received !== '') expect(received).toMatch(/^[{[]/);
      // whole, or cut after a complete value (a closing quote, digit, bracket or literal) and marked
      if (received.endsWith(', …')) expect(received.slice(0, -3)).toMatch(/["\d\]}el]$/);
    }
  });

  it('reads the sheets\' rows in keyset pages: every disbursement once, in order, whatever the page size', async () => {
    const { reconciliationRows, bankRows } = await import('../../../src/store/read/rows.js');
    const { openStore } = await import('../../../src/store/db.js');
    const store = await openStore(night.db);
    try {
      const all: string[] = [];
      for await (const r of reconciliationRows(store.connection, { pageSize: 7 })) all.push(r.disbursementId);
      expect(all).toHaveLength(120);
      expect([...all].sort()).toEqual(all);
      expect(new Set(all).size).toBe(120);
      const bank: string[] = [];
      for await (const r of bankRows(store.connection, { pageSize: 11 })) bank.push(r.disbursementId);
      expect(bank).toEqual(all); // no statement yet: every one awaiting, none left out
    } finally {
      store.close();
    }
  });

  it('wrappedLines counts whole words per line and caps a row at 8 lines', () => {
    expect(wrappedLines('short', 20)).toBe(1);
    expect(wrappedLines('aaaa bbbb cccc dddd eeee', 10)).toBe(3);
    expect(wrappedLines('one\ntwo', 50)).toBe(2);
    expect(wrappedLines('x'.repeat(45), 10)).toBe(5);
    expect(wrappedLines('word '.repeat(500), 10)).toBe(8);
    expect(wrappedLines(42 as unknown as string, 10)).toBe(1);
  });

  it('the Month sheet holds 31 days of disbursed totals per currency that add up to the store, drawn by native charts over those cells', async () => {
    const wb = await readWorkbook(workbook());
    const sheet = sheetOf(wb, 'Month');
    expect(cellText(sheet.getRow(4).getCell(1).value)).toBe('Day');
    const header = (sheet.getRow(4).values as unknown[]).map((v) => cellText(v));
    const currencies = header.slice(2, header.indexOf('Open findings'));
    expect(currencies.length).toBeGreaterThanOrEqual(3);
    const firstDay = sheet.getRow(5).getCell(1).value as Date;
    const lastDay = sheet.getRow(35).getCell(1).value as Date;
    expect(lastDay.getTime() - firstDay.getTime()).toBe(30 * 86_400_000);
    const inWindow = `delivered_at >= '${firstDay.toISOString()}'::TIMESTAMPTZ AND delivered_at < '${new Date(lastDay.getTime() + 86_400_000).toISOString()}'::TIMESTAMPTZ`;
    const store = await query(night.db, `SELECT currency, CAST(sum(amount) AS VARCHAR) AS total FROM disbursements WHERE ${inWindow} GROUP BY currency`);
    const expected = new Map(store.map((r) => [String(r.currency), BigInt(String(r.total))]));
    currencies.forEach((currency, i) => {
      let sum = 0;
      for (let r = 5; r <= 35; r++) sum += Number(sheet.getRow(r).getCell(2 + i).value ?? 0);
      expect(Math.round(sum * currencyFactor(currency)), currency).toBe(Number(expected.get(currency)));
    });
    // the findings column counts open findings on the day's disbursements
    const open = await query(night.db, `SELECT count(*) AS n FROM findings f JOIN disbursements d USING (disbursement_id) WHERE f.state = 'open' AND d.${inWindow}`);
    let findings = 0;
    for (let r = 5; r <= 35; r++) findings += Number(sheet.getRow(r).getCell(header.indexOf('Open findings')).value ?? 0);
    expect(findings).toBe(Number(open[0]!.n));
    expect(findings).toBeGreaterThan(0);

    // one chart per currency plus the findings chart, each a declared part whose series reads this sheet's cells
    const types = zipEntryText(workbook(), '[Content_Types].xml');
    const sheetXml = zipEntryText(workbook(), part(2));
    expect(sheetXml).toMatch(/<drawing r:id="rId\d+"\/>/);
    expect(sheetXml.indexOf('<drawing')).toBeGreaterThan(sheetXml.indexOf('<headerFooter'));
    const drawing = zipEntryText(workbook(), 'xl/drawings/drawing1.xml');
    const charts = drawing.match(/<c:chart /g) ?? [];
    expect(charts.length).toBe(currencies.length + 1);
    expect(types).toContain('PartName="/xl/drawings/drawing1.xml"');
    for (let k = 1; k <= charts.length; k++) {
      expect(types).toContain(`PartName="/xl/charts/chart${k}.xml"`);
      const chart = zipEntryText(workbook(), `xl/charts/chart${k}.xml`);
      const [values] = [...chart.matchAll(/<c:val><c:numRef><c:f>Month!\$([A-Z]+)\$5:\$[A-Z]+\$35<\/c:f>/g)].map((m) => m[1]);
      expect(values, `chart ${k}`).toBeDefined();
      const column = values!.charCodeAt(0) - 64;
      const points = [...chart.matchAll(/<c:pt idx="(\d+)"><c:v>([^<]*)<\/c:v><\/c:pt>/g)];
      // the series name, the 31 days as date serials, then the values
      for (const [, idx, v] of points.slice(1, 32)) {
        expect(new Date((Number(v) - 25_569) * 86_400_000)).toEqual(sheet.getRow(5 + Number(idx)).getCell(1).value);
      }
      const cached = points.slice(32);
      for (const [, idx, v] of cached) {
        expect(Number(v)).toBeCloseTo(Number(sheet.getRow(5 + Number(idx)).getCell(column).value ?? 0), 6);
      }
    }
  });
});
