// Opens the exception workbook in a real spreadsheet program: LibreOffice must load it and print it.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeExceptionWorkbook } from '../../../src/report/exceptions-workbook.js';
import { DISBURSEMENTS, FINDINGS, SUMMARY, tempDir } from './helpers.js';

const hasSoffice = spawnSync('soffice', ['--version'], { stdio: 'ignore', timeout: 30_000 }).status === 0;

describe('LibreOffice', () => {
  let dir: string;
  let cleanup: () => void;
  let profile: string;
  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
    profile = join(tmpdir(), `lo-${randomUUID()}`);
  });
  afterEach(() => {
    cleanup();
    rmSync(profile, { recursive: true, force: true });
  });

  it.skipIf(!hasSoffice)('converts the exception workbook to a non-empty PDF', { timeout: 150_000 }, async () => {
    const xlsx = join(dir, 'exceptions.xlsx');
    await writeExceptionWorkbook(xlsx, { summary: SUMMARY, findings: FINDINGS, disbursements: DISBURSEMENTS });
    execFileSync('soffice', [
      `-env:UserInstallation=file://${profile}`, '--headless', '--convert-to', 'pdf', '--outdir', dir, xlsx,
    ], { timeout: 120_000, stdio: 'pipe' });
    const pdf = join(dir, 'exceptions.pdf');
    expect(existsSync(pdf)).toBe(true);
    expect(statSync(pdf).size).toBeGreaterThan(1000);
    // item 1, as printed: the footer says page x of y, and the screen-only columns (the key) are not on paper
    if (spawnSync('pdftotext', ['-v'], { stdio: 'ignore' }).status === 0) {
      const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
      expect(text).toMatch(/Page 1 of \d+/);
      expect(text).toMatch(/Difference/);
      expect(text).not.toContain(FINDINGS[0]!.key);
    }
  });
});
