// The checks as JUnit XML for CI systems (junit-report-builder): a test suite per check, a test case per
// finding of the run — failing when it needs a person (new or still open; the failure's type is its
// severity), skipped when acknowledged — and one passing case for a check that found nothing. So the
// counts a CI page shows are the workbook's. A run that failed before its checks gets one error case
// saying why.
import type { Builder, TestSuite } from 'junit-report-builder';
import { createRequire } from 'node:module';
import { writeFile } from 'node:fs/promises';
import { writeFileAtomically } from '../files.js';
import { formatMajor } from '../money.js';
import { cleanText } from './escape.js';
import type { RunFinding } from './run-findings.js';

/** Characters XML 1.0 cannot carry (C0 controls but tab and line breaks, lone surrogates, U+FFFE/U+FFFF). */
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const xmlText = (text: string) => text.replace(NOT_XML, '');

// The package's CommonJS export is the builder itself; its typings declare it as a default export.
const junit = createRequire(import.meta.url)('junit-report-builder') as Builder;

export class JunitReport {
  private readonly builder: Builder;
  private suite: TestSuite | null = null;
  private checkId = '';
  private cases = 0;

  constructor(name: string, private readonly secrets: readonly (string | undefined)[]) {
    this.builder = junit.newBuilder().name(xmlText(name));
  }

  startCheck(checkId: string, severity: string | null, seconds: number): void {
    this.suite = this.builder.testSuite().name(checkId).time(seconds);
    this.checkId = checkId;
    if (severity) this.suite.property('severity', severity);
    this.cases = 0;
  }

  finding(f: RunFinding): void {
    const suite = this.suite!;
    const where = [f.disbursementId ?? '(whole run)', f.subject].filter(Boolean).join(' ');
    // the cause's money, as the workbook's At stake column shows it: on its root, once
    const money = f.repeats !== null ? ` (same cause as finding ${f.repeats})`
      : f.stake !== null && f.currency ? ` (at stake ${f.currency} ${formatMajor(f.stake, f.currency)})` : '';
    // the key makes a name unique: CI tools merge test cases of one class that share a name
    const name = `${cleanText(where, this.secrets, 200)} [${f.key}]`;
    const testCase = suite.testCase().className(`recon.${f.checkId}`).name(xmlText(name))
      .property('key', f.key).property('status', f.status);
    const message = xmlText(`${f.status}: ${cleanText(f.detail, this.secrets, 1000)}${money}`);
    if (f.status === 'acknowledged') testCase.skipped().standardOutput(message);
    else testCase.failure(message, f.severity);
    this.cases += 1;
  }

  endCheck(): void {
    if (this.suite && this.cases === 0) this.suite.testCase().className(`recon.${this.checkId}`).name('no findings');
    this.suite = null;
  }

  /** A run that failed before its checks: one error case with the reason. */
  failedRun(reason: string): this {
    this.builder.testSuite().name('recon run').testCase().className('recon.run').name('the run completes')
      .error(xmlText(cleanText(reason, this.secrets, 2000)), 'run_failed');
    return this;
  }

  async write(file: string): Promise<string> {
    const xml = this.builder.build();
    await writeFileAtomically(file, (temp) => writeFile(temp, xml, 'utf8'), '--junit / RECON_JUNIT');
    return file;
  }
}
