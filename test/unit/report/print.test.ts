// "Proof that a person can read it": the workbooks of a demo (`make run`'s nights and close, the run's shared
// demo) are opened by LibreOffice and printed to PDF; the test reads the PDF back (pdftotext -bbox) for what a
// person holding the paper gets: every sheet printed, one page wide with its header row on each page, a page
// count that follows from the rows, and a print scale of at least 70 %. With UPDATE_DOCS=1 it also writes a
// PNG of each sheet's first page to docs/workbooks/ (pdftoppm), the pictures docs/workbooks.md shows. Skips where
// LibreOffice is absent.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/recon.js';
import { sharedDemo } from '../../helpers/demo.js';
import { readWorkbook } from './helpers.js';

const has = (cmd: string, arg: string) => spawnSync(cmd, [arg], { stdio: 'ignore', timeout: 30_000 }).status === 0;
// Without Calibri's metric twin (Carlito, fonts-crosextra-carlito) LibreOffice sets the cells in a wider
// face and every measure below would be of that face, not of the workbook.
const carlito = spawnSync('fc-list', [':family=Carlito'], { encoding: 'utf8' }).stdout?.includes('Carlito') ?? false;
const tools = has('soffice', '--version') && has('pdftotext', '-v') && has('pdftoppm', '-v') && carlito;

interface Word { text: string; yMin: number; yMax: number; xMin: number }
interface Page { words: Word[]; height: number }

/** The words of each page of a PDF, with their boxes (pdftotext -bbox). */
function pdfPages(pdf: string): Page[] {
  const html = execFileSync('pdftotext', ['-bbox', pdf, '-'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return html.split('<page ').slice(1).map((chunk) => ({
    height: Number(/height="([\d.]+)"/.exec(chunk)![1]),
    words: [...chunk.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<\/word>/g)]
      .map((m) => ({ xMin: Number(m[1]), yMin: Number(m[2]), yMax: Number(m[3]), text: m[4]! })),
  }));
}

/**
 * The 90th percentile of the heights of a page's words below its header line and above its footer: the
 * 11 pt cell text (chart axis labels are smaller, titles rarer). Over the same on a page printed at 100 %,
 * it is the page's print scale (LibreOffice scales the header and footer with the page).
 */
function textHeight(page: Page): number {
  const marker = headerMarker(page);
  const footer = Math.max(...page.words.filter((w) => w.text === 'Page').map((w) => w.yMin));
  const body = page.words.filter((w) => w.yMin > marker.yMax + 1 && w.yMax < footer - 1).map((w) => w.yMax - w.yMin).sort((a, b) => a - b);
  return body.length === 0 ? NaN : body[Math.floor(body.length * 0.9)]!;
}

/** A sheet of plain 11 pt cells as recon writes them, printed at 100 %: what textHeight is at full size. */
async function fullSizeTextHeight(dir: string): Promise<number> {
  const { writeWorkbookFile } = await import('../../../src/report/workbook-file.js');
  const { addSheet } = await import('../../../src/report/table-sheet.js');
  const { setText } = await import('../../../src/report/cells.js');
  const xlsx = path.join(dir, 'calibration.xlsx');
  await writeWorkbookFile(xlsx, async (wb) => {
    const sheet = addSheet(wb, 'Calibration', [20, 20], 1);
    for (let r = 1; r <= 30; r++) {
      const row = sheet.getRow(r);
      setText(row.getCell(1), `Disbursement ${r}`);
      setText(row.getCell(2), 'reconciled');
      row.commit();
    }
    sheet.commit();
  });
  return textHeight(pdfPages(toPdf(xlsx, dir))[0]!);
}

/** The page header's "recon" (right part): the line every page starts with. */
function headerMarker(page: Page): Word {
  const marker = page.words.find((w) => w.text === 'recon' && w.yMin < 60);
  if (!marker) throw new Error(`page without its header: ${page.words.slice(0, 8).map((w) => w.text).join(' ')}`);
  return marker;
}

/** The sheet a page belongs to: the left part of its header line. */
function sheetOfPage(page: Page): string {
  const marker = headerMarker(page);
  return page.words.filter((w) => Math.abs(w.yMin - marker.yMin) < 1 && w !== marker && w.xMin < 200).map((w) => w.text).join(' ');
}

function toPdf(xlsx: string, outDir: string): string {
  const profile = path.join(tmpdir(), `lo-${randomUUID()}`);
  try {
    execFileSync('soffice', [`-env:UserInstallation=file://${profile}`, '--headless', '--convert-to', 'pdf', '--outdir', outDir, xlsx], { timeout: 150_000, stdio: 'pipe' });
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
  return path.join(outDir, `${path.basename(xlsx, '.xlsx')}.pdf`);
}

/** Rows' heights in points (15 for a row without its own), the repeated header row counted on each page. */
async function tableHeight(xlsx: string, sheetName: string): Promise<{ rows: number; points: number }> {
  const sheet = (await readWorkbook(xlsx)).getWorksheet(sheetName)!;
  let points = 0;
  let rows = 0;
  sheet.eachRow({ includeEmpty: true }, (row) => {
    points += row.height || 15;
    rows += 1;
  });
  return { rows, points };
}

describe.skipIf(!tools)('the workbooks of make run, printed by LibreOffice', () => {
  it('print every sheet one page wide at a readable scale, header row on every page, as many pages as the rows need', { timeout: 300_000 }, async () => {
    const t = tempDir();
    try {
      const fullSize = await fullSizeTextHeight(t.dir);
      const r = await sharedDemo(); // read only: LibreOffice writes its PDFs to this test's own folder
      expect(r.code, r.stderr).toBe(1);
      const workbooks = { exceptions: path.join(r.reports, 'recon-latest.xlsx'), close: /close \S+ \(v\d\):\s+(\S+)/.exec(r.stdout)![1]! };
      const expectedSheets = {
        exceptions: ['Summary', 'Month', 'Checks', 'Exceptions', 'Disbursements', 'Bank', 'Unmatched credits'],
        close: ['Summary', 'Month', 'Disbursements', 'Open findings', 'Journal', 'Currency suspense', 'Bank', 'Unmatched credits'],
      };
      const headerWord: Record<string, string> = { Month: 'Day', Checks: 'Check', Exceptions: 'Status', Disbursements: 'Disbursement', 'Open findings': 'Status', 'Currency suspense': 'Disbursement', Bank: 'Disbursement', 'Unmatched credits': 'Credited' };
      for (const [kind, xlsx] of Object.entries(workbooks) as Array<[keyof typeof workbooks, string]>) {
        const pdf = toPdf(xlsx, t.dir);
        const pages = pdfPages(pdf);
        const bySheet = new Map<string, Page[]>();
        for (const page of pages) bySheet.set(sheetOfPage(page), [...(bySheet.get(sheetOfPage(page)) ?? []), page]);
        expect([...bySheet.keys()], kind).toEqual(expectedSheets[kind]);

        const scales = pages.map((p) => textHeight(p) / fullSize).filter((x) => !Number.isNaN(x));
        const smallest = Math.min(...scales);
        console.log(`${kind}: ${pages.length} pages, smallest print scale ${(smallest * 100).toFixed(0)} % (${[...bySheet].map(([s, p]) => `${s} ${p.length}`).join(', ')})`);
        expect(smallest, `${kind} print scales ${scales.map((s) => s.toFixed(2)).join(' ')}`).toBeGreaterThanOrEqual(0.7);

        for (const [sheet, sheetPages] of bySheet) {
          // one page wide: every page of a table starts with its header row (print titles), none holds
          // only the columns that did not fit
          if (headerWord[sheet]) {
            for (const page of sheetPages) expect(page.words.some((w) => w.text === headerWord[sheet] && w.yMin < 90), `${kind} ${sheet}`).toBe(true);
          }
          // pages follow from the rows: the sheet's height at its scale over a page's printable height
          if (sheet === 'Exceptions' || sheet === 'Disbursements' || sheet === 'Open findings') {
            const { points } = await tableHeight(xlsx, sheet);
            const scale = Math.min(...sheetPages.map((p) => textHeight(p) / fullSize));
            const printable = sheetPages[0]!.height - 2 * 0.6 * 72 - 15; // margins, and the repeated header row
            const needed = (points * scale) / printable;
            expect(sheetPages.length, `${kind} ${sheet}: ${points} pt at ${scale.toFixed(2)}`).toBeGreaterThanOrEqual(Math.floor(needed));
            expect(sheetPages.length, `${kind} ${sheet}: ${points} pt at ${scale.toFixed(2)}`).toBeLessThanOrEqual(Math.ceil(needed) + 1);
          }
        }

        if (process.env.UPDATE_DOCS === '1') {
          const docs = path.resolve('docs/workbooks');
          mkdirSync(docs, { recursive: true });
          for (const [sheet] of bySheet) {
            const n = pages.findIndex((p) => sheetOfPage(p) === sheet) + 1;
            const base = path.join(t.dir, `${kind}-${sheet.toLowerCase().replace(/ /g, '-')}`);
            execFileSync('pdftoppm', ['-r', '70', '-f', String(n), '-l', String(n), '-singlefile', '-png', pdf, base]);
            copyFileSync(`${base}.png`, path.join(docs, path.basename(`${base}.png`)));
          }
        }
      }
    } finally {
      t.cleanup();
    }
  });
});
