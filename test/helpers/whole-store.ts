// Shared by the reliability suites: run the sync against the fake service, look inside xlsx files
// (a zip: every entry inflated with node:zlib), read every byte a run wrote, check that no stored
// disbursement lacks any of its lines, and record the figures of the README's Reliability table.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Sandbox } from '../../sandbox/index.js';
import type { SyncTuning } from '../../src/sync/stage.js';
import { afterEach } from 'vitest';
import { syncOnce, tempDir, type Fingerprints } from './recon.js';
import { ROOT } from './child.js';
import { readZip } from './zip-reader.js';
import { startFakeService, type FakeDisbursement, type FakeOptions, type FakeService } from './fake-service.js';

/** syncOnce only reads `url` and `apiKey` of the sandbox it is given. */
export function syncFake(fake: FakeService, db: string, args: string[] = [], tuning: SyncTuning = {}) {
  return syncOnce({ url: fake.url, apiKey: fake.apiKey } as unknown as Sandbox, db, args, tuning);
}

/** The entries of a zip file (xlsx, the evidence pack) by name, inflated and CRC-checked. */
export function unzip(file: string): Map<string, Buffer> {
  return new Map(readZip(file).map((m) => [m.name, m.data]));
}

/** Every regular file under dir (recursively). */
export function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const st = statSync(full);
    if (st.isDirectory()) out.push(...walk(full));
    else if (st.isFile()) out.push(full);
  }
  return out;
}

/** Files under dir whose bytes (for xlsx: any inflated entry's bytes) contain `needle`. */
export function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  const n = Buffer.from(needle);
  for (const file of walk(dir)) {
    const bytes = readFileSync(file);
    if (bytes.includes(n)) hits.push(file);
    if (file.endsWith('.xlsx')) {
      for (const [entry, content] of unzip(file)) if (content.includes(n)) hits.push(`${file}!${entry}`);
    }
  }
  return hits;
}

/** Formula cells (`<f>` elements) in the sheets of a workbook. */
/**
 * Every formula cell of a workbook, but recon's own: the close Journal's totals and balance test
 * (SUM over a column range, IF(ROUND(D-E)) over two cells), which read only cells recon wrote as numbers.
 */
export function formulaCells(xlsx: string): string[] {
  const found: string[] = [];
  const ours = /<f>(?:SUM\([DE]\d+:[DE]\d+\)|IF\(ROUND\(D\d+-E\d+,\d\)=0,&quot;Yes&quot;,&quot;No&quot;\))<\/f>/;
  for (const [entry, content] of unzip(xlsx)) {
    if (!entry.startsWith('xl/worksheets/')) continue;
    for (const m of content.toString('utf8').matchAll(/<c [^>]*>(?:(?!<\/c>).)*<f[ >](?:(?!<\/c>).)*<\/c>/gs)) {
      if (!ours.test(m[0])) found.push(`${entry}: ${m[0].slice(0, 120)}`);
    }
  }
  return found;
}

/** Every text a workbook holds: shared strings and inline strings. */
export function workbookText(xlsx: string): string {
  const parts: string[] = [];
  for (const [entry, content] of unzip(xlsx)) {
    if (entry === 'xl/sharedStrings.xml' || entry.startsWith('xl/worksheets/')) parts.push(content.toString('utf8'));
  }
  return parts.join('\n').replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&apos;', "'");
}

export { assertWholeDisbursements, sandboxLineCounts, type LineCounts } from './store.js';

export function totalRows(f: Fingerprints): number {
  return Object.values(f).reduce((n, t) => n + t.rows, 0);
}

/**
 * Figures for the README's Reliability table, one JSON file per suite under data/reliability/ (ignored
 * by git), so the numbers quoted are the numbers measured. Only when asked (`make soak` sets
 * RECON_RECORD_FIGURES): an ordinary test run leaves nothing in the checkout.
 */
export function recordFigures(suite: string, figures: Record<string, number | string>): void {
  if (!process.env.RECON_RECORD_FIGURES) return;
  const dir = path.join(ROOT, 'data', 'reliability');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${suite}${process.env.RECON_SOAK ? '.soak' : ''}.json`), `${JSON.stringify(figures, null, 2)}\n`);
}

/**
 * For a test file driving scripted fake services: `fake` starts one, `store` gives a temp folder and its
 * store path; both are closed and removed after each test.
 */
export function fakeServicesPerTest(prefix: string): {
  fake: (disbursements: FakeDisbursement[], override?: FakeOptions['override']) => Promise<FakeService>;
  store: () => { dir: string; db: string };
} {
  const open: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of open.splice(0)) await c();
  });
  return {
    async fake(disbursements, override) {
      const f = await startFakeService({ disbursements, override });
      open.push(() => f.close());
      return f;
    },
    store() {
      const t = tempDir(prefix);
      open.push(t.cleanup);
      return { dir: t.dir, db: path.join(t.dir, 'recon.duckdb') };
    },
  };
}
