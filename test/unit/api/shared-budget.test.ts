// The host-wide schedule behind --budget-file (issue #27): turns one spacing apart whichever process asks,
// a 429 one process received closes the gate for all, a crashed holder's lock is taken over.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SharedBudget } from '../../../src/api/shared-budget.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function file(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'recon-shared-budget-'));
  dirs.push(d);
  return path.join(d, 'budget.json');
}

describe('SharedBudget', () => {
  it('hands out turns one spacing apart across every process sharing the file', async () => {
    const f = file();
    const [a, b] = [new SharedBudget(f), new SharedBudget(f)];
    const turns = [await a.reserve(1000, 125), await b.reserve(1000, 125), await a.reserve(1010, 125), await b.reserve(1500, 125)];
    expect(turns).toEqual([1000, 1125, 1250, 1500]);
  });

  it('a block one process records holds every process until it ends', async () => {
    const f = file();
    const [a, b] = [new SharedBudget(f), new SharedBudget(f)];
    await a.block(60_000);
    expect(await b.reserve(1000, 125)).toBe(60_000);
  });

  it('takes over a lock left by a process that died holding it, and starts afresh from a damaged file', async () => {
    const f = file();
    writeFileSync(f, 'not json');
    writeFileSync(`${f}.lock`, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${f}.lock`, old, old);
    expect(await new SharedBudget(f).reserve(5000, 100)).toBe(5000);
  });

  it('a schedule far ahead of the clock (a clock set back) does not stall the run', async () => {
    const f = file();
    writeFileSync(f, JSON.stringify({ next: 10 ** 13, blockedUntil: 10 ** 13 }));
    expect(await new SharedBudget(f).reserve(5000, 100)).toBe(5000);
  });
});
