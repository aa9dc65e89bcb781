import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastFullMonth } from '../../pipelines/demo.js';
import { tempDir } from '../helpers/recon.js';
import { runCliHere } from '../helpers/in-process.js';
import { copyDemo, DEMO_ARGS, sharedDemo } from '../helpers/demo.js';

/** A demo's story: its nights, its close and its findings per check, without times and paths. */
const story = (out: string) => out.split('\n').filter((l) => /^(night \d|close|\s+\w+\s+\d+ (error|warning))/.test(l))
  .map((l) => l.replace(/\d+(\.\d+)? ?(s|ms|min)\b/g, 'T').replace(/\/\S+/g, 'PATH'));

describe('recon demo (make run)', () => {
  it('reconciles the seeded sandbox, closes its last full month and prints where everything is', async () => {
    const r = await sharedDemo();
    expect(r.code, r.stderr).toBe(1); // planted anomalies: completed with exceptions
    const printed = (label: string) => new RegExp(`${label}\\s+(\\S+)`).exec(r.stdout)?.[1];
    const workbook = printed('exception workbook:');
    const close = printed('close 2026-10 \\(v\\d\\):');
    const published = printed('published \\(read-only\\):');
    for (const file of [workbook, close, published, r.db]) expect(file && existsSync(file), `${file}\n${r.stdout}`).toBe(true);
    expect(r.stdout).toMatch(/night 2: .*1 restated/);
    expect(r.stdout).toMatch(/total_identity\s+\d+ error/);
  }, 300_000); // the first reader builds the shared demo: a sandbox, two nights, statements and a close

  it('tells the same story when run again on the store it made (same nights, close v1 again), not a third night', async () => {
    const first = await sharedDemo();
    const t = tempDir();
    try {
      // a second `make run` on a copy of the demo's own folder, so the shared demo stays as it was
      const { db, reports } = copyDemo(first, t.dir);
      const again = await runCliHere(['demo', '--db', db, '--reports', reports, ...DEMO_ARGS]);
      expect(again.code, again.stderr).toBe(1);
      expect(story(first.stdout).length).toBeGreaterThan(3);
      expect(story(again.stdout)).toEqual(story(first.stdout));
      expect(again.stdout).toMatch(/close 2026-10 \(v1\)/);
      expect(again.stdout).toContain(db);
    } finally {
      t.cleanup();
    }
  }, 300_000);

  it('refuses to start afresh a store the demo did not make', async () => {
    const t = tempDir();
    try {
      const db = path.join(t.dir, 'recon.duckdb');
      writeFileSync(db, 'not the demo\'s');
      const r = await runCliHere(['demo', '--db', db, '--reports', path.join(t.dir, 'reports')]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/store the demo did not make/);
      expect(readFileSync(db, 'utf8')).toBe('not the demo\'s');
    } finally {
      t.cleanup();
    }
  });

  it('picks the last month the dataset covers entirely', () => {
    expect(lastFullMonth('2026-10-31T22:00:00Z')).toBe('2026-10');
    expect(lastFullMonth('2026-10-15T00:00:00Z')).toBe('2026-09');
  });
});
