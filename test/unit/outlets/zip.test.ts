// The evidence pack's zip container, written by hand: read back by a reader of the test's own (central
// directory, local headers, inflate, CRC-32), and by unzip and Python's zipfile where the machine has them.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dosDateTime, writeZip } from '../../../src/outlets/zip.js';
import { readZip } from '../../helpers/zip-reader.js';
import { tempDir } from '../../helpers/recon.js';

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  ({ dir, cleanup } = tempDir('recon-zip-'));
});
afterAll(() => cleanup());

const has = (tool: string, args: string[]) => spawnSync(tool, args, { stdio: 'ignore' }).status === 0;
const AT = new Date('2026-11-02T08:15:42Z');

describe('writeZip', () => {
  it('writes members from files and bytes that read back byte for byte: CRC-32, UTF-8 names, the time', async () => {
    const big = randomBytes(3 * 1024 * 1024 + 17); // incompressible, several read chunks
    const text = 'Journal,Date,Currency\r\n"recon-2026-10-1-EUR","2026-10-31","EUR"\r\n'.repeat(2000);
    writeFileSync(path.join(dir, 'big.bin'), big);
    writeFileSync(path.join(dir, 'journal.csv'), text);
    const file = path.join(dir, 'pack.zip');
    const bytes = await writeZip(file, [
      { name: 'close-2026-10.xlsx', file: path.join(dir, 'big.bin') },
      { name: 'journal/ÉUR €.csv', file: path.join(dir, 'journal.csv') },
      { name: 'manifest.json', data: '{"month":"2026-10"}\n' },
      { name: 'empty.txt', data: '' },
    ], AT);
    const members = readZip(file);
    expect(members.map((m) => m.name))
      .toEqual(['close-2026-10.xlsx', 'journal/ÉUR €.csv', 'manifest.json', 'empty.txt']);
    expect(members[0]!.data.equals(big)).toBe(true);
    expect(members[1]!.data.toString('utf8')).toBe(text);
    expect(members[2]!.data.toString('utf8')).toBe('{"month":"2026-10"}\n');
    expect(members[3]!.data.length).toBe(0);
    expect(members.every((m) => m.time === dosDateTime(AT).time && m.date === dosDateTime(AT).date)).toBe(true);
    expect(bytes).toBeLessThan(big.length + text.length); // the text deflated
  });

  it('is the same bytes when made twice from the same files', async () => {
    const a = path.join(dir, 'a.zip');
    const b = path.join(dir, 'b.zip');
    for (const f of [a, b]) {
      await writeZip(f, [{ name: 'x.txt', data: 'same' }, { name: 'y/z.txt', data: 'again' }], AT);
    }
    expect(execFileSync('cmp', [a, b]).length).toBe(0);
  });

  it.runIf(has('unzip', ['-v']))('passes unzip -t', async () => {
    const file = path.join(dir, 'unzip.zip');
    await writeZip(file, [{ name: 'a.txt', data: 'hello\n' }, { name: 'dir/b.bin', data: randomBytes(70_000) }], AT);
    expect(execFileSync('unzip', ['-t', file]).toString()).toMatch(/No errors detected/);
  });

  it.runIf(has('python3', ['-c', 'import zipfile']))('reads back in Python\'s zipfile, CRC checked', async () => {
    const file = path.join(dir, 'python.zip');
    await writeZip(file, [{ name: 'a.txt', data: 'hello\n' }, { name: 'é.csv', data: 'x,y\n1,2\n' }], AT);
    const script = 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(z.testzip()); '
      + 'print(",".join(z.namelist())); print(z.read("a.txt").decode())';
    const out = execFileSync('python3', ['-c', script, file]).toString();
    expect(out).toBe('None\na.txt,é.csv\nhello\n\n');
  });
});
