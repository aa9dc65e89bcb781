// Code a reader reads without scrolling: no line of recon's TypeScript passes 120 characters. SQL text (kept in
// src/store beside its statements), a bank's markup written as the bank writes it (the sandbox's statement files)
// and regular expressions are read as they are, so they are left at their natural width.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sources } from './rules.js';

const MAX = 120;
const ROOT = path.resolve(import.meta.dirname, '../..');
const WIDE = [/^src\/store\//, /^sandbox\/statement-formats\.ts$/];

/** Lines longer than MAX, as "file:line (n characters)", outside the exempt files and regex literals. */
export function longLines(files: readonly string[], read: (f: string) => string): string[] {
  const out: string[] = [];
  for (const file of files) {
    if (WIDE.some((w) => w.test(file))) continue;
    read(file).split('\n').forEach((line, i) => {
      if (line.length > MAX && !/^\s*\/.*\/[dgimsuy]*;?$/.test(line)) out.push(`${file}:${i + 1} (${line.length} characters)`);
    });
  }
  return out;
}

describe('line length', () => {
  it(`no line of src/, pipelines/ or sandbox/ passes ${MAX} characters`, () => {
    const files = ['src', 'pipelines', 'sandbox'].flatMap((d) => sources(ROOT, d));
    expect(files.length).toBeGreaterThan(100);
    expect(longLines(files, (f) => readFileSync(path.join(ROOT, f), 'utf8'))).toEqual([]);
  });

  it('finds a planted long line, and leaves SQL text in src/store and a regex literal alone', () => {
    const text: Record<string, string> = {
      'src/report/x.ts': `const a = 1;\nconst b = '${'x'.repeat(130)}';\n`,
      'src/store/y.ts': `const q = \`${'SELECT 1, '.repeat(20)}\`;\n`,
      'src/outlets/z.ts': `  /[${'a-z'.repeat(50)}]/g;\n`,
    };
    expect(longLines(Object.keys(text), (f) => text[f]!)).toEqual(['src/report/x.ts:2 (143 characters)']);
  });
});
