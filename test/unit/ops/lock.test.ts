import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, LockHeldError } from '../../../src/ops/lock.js';

// A holder in another process, written the way acquireLock writes it; stays alive until killed.
const HOLDER_SCRIPT = `
const fs = require('node:fs');
const os = require('node:os');
const fd = fs.openSync(process.argv[1], 'wx');
fs.writeSync(fd, JSON.stringify({ pid: process.pid, hostname: os.hostname(),
  startedAt: new Date().toISOString(), command: 'recon run' }));
fs.closeSync(fd);
process.stdout.write('ready\\n');
setInterval(() => {}, 1000);
`;

async function startHolder(lockPath: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', HOLDER_SCRIPT, lockPath], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  expect(chunk.toString()).toContain('ready');
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

describe('acquireLock', () => {
  let dir: string;
  let lockPath: string;
  const children: ChildProcess[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'recon-lock-'));
    lockPath = join(dir, 'recon.lock');
  });
  afterEach(async () => {
    await Promise.all(children.splice(0).map(kill));
    await rm(dir, { recursive: true, force: true });
  });

  it('writes who holds the lock as JSON', async () => {
    const lock = await acquireLock(lockPath, { command: 'recon run' });
    const written = JSON.parse(await readFile(lockPath, 'utf8')) as Record<string, unknown>;
    expect(written).toMatchObject({ pid: process.pid, command: 'recon run' });
    expect(typeof written.hostname).toBe('string');
    expect(Number.isNaN(Date.parse(String(written.startedAt)))).toBe(false);
    await lock.release();
    expect(existsSync(lockPath)).toBe(false);
  });

  it('recovers a lock whose pid is now ours (a container restarted: recon is pid 1 again)', async () => {
    // written by the previous incarnation: same host, same pid as this process, but another start time
    await writeFile(lockPath, JSON.stringify({ pid: process.pid, hostname: (await import('node:os')).hostname(),
      startedAt: '2026-11-23T02:30:00.000Z', command: 'recon run', processStart: '1' }));
    const lock = await acquireLock(lockPath, { command: 'recon run' });
    expect(JSON.parse(await readFile(lockPath, 'utf8'))).toMatchObject({ pid: process.pid, command: 'recon run' });
    await lock.release();
  });

  it('recovers a lock whose pid now belongs to another process, or from another boot', async () => {
    const host = (await import('node:os')).hostname();
    await writeFile(lockPath, JSON.stringify({ pid: 4242, hostname: host, startedAt: '2026-11-23T02:30:00.000Z', command: 'recon run', processStart: '100' }));
    const deps = { isAlive: () => true, processStart: (pid: number) => (pid === 4242 ? '999' : '5'), bootId: 'boot-b' };
    const lock = await acquireLock(lockPath, { command: 'recon run' }, deps);
    await lock.release();
    await writeFile(lockPath, JSON.stringify({ pid: 4242, hostname: host, startedAt: '2026-11-23T02:30:00.000Z', command: 'recon run', bootId: 'boot-a' }));
    const again = await acquireLock(lockPath, { command: 'recon run' }, { isAlive: () => true, processStart: () => null, bootId: 'boot-b' });
    await again.release();
    // the same process still running (same start time, same boot) is respected
    await writeFile(lockPath, JSON.stringify({ pid: 4242, hostname: host, startedAt: '2026-11-23T02:30:00.000Z', command: 'recon run', processStart: '100', bootId: 'boot-b' }));
    await expect(acquireLock(lockPath, { command: 'recon run' }, { isAlive: () => true, processStart: () => '100', bootId: 'boot-b' })).rejects.toBeInstanceOf(LockHeldError);
  });

  it('refuses a second acquire in the same process and names the holder', async () => {
    const lock = await acquireLock(lockPath, { command: 'recon run' });
    const error = await acquireLock(lockPath, { command: 'recon report' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockHeldError);
    const held = error as LockHeldError;
    expect(held.holderPid).toBe(process.pid);
    expect(held.holderCommand).toBe('recon run');
    expect(held.holderStartedAt).toBe(lock.holder.startedAt);
    expect(held.message).toMatch(/another recon run holds the lock \(pid \d+, `recon run`, since .+\); it exits 3/);
    await lock.release();
  });

  it('can be taken again after release, and a second release is harmless', async () => {
    const first = await acquireLock(lockPath);
    await first.release();
    const second = await acquireLock(lockPath);
    await first.release(); // must not remove the second holder's file
    expect(existsSync(lockPath)).toBe(true);
    await second.release();
  });

  it('respects a lock held by a live child process', async () => {
    const child = await startHolder(lockPath);
    children.push(child);
    const error = await acquireLock(lockPath).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockHeldError);
    expect((error as LockHeldError).holderPid).toBe(child.pid);
  });

  it('recovers a stale lock left by a child process killed with SIGKILL', async () => {
    const child = await startHolder(lockPath);
    await kill(child);
    expect(existsSync(lockPath)).toBe(true);
    const lock = await acquireLock(lockPath, { command: 'recon run' });
    const written = JSON.parse(await readFile(lockPath, 'utf8')) as { pid: number };
    expect(written.pid).toBe(process.pid);
    await lock.release();
  });

  it('respects a fresh garbage lock file (it may be being written) but takes over an old one', async () => {
    await writeFile(lockPath, '{"pid": 12');
    await expect(acquireLock(lockPath)).rejects.toThrow(/creating the lock .* right now/);
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await utimes(lockPath, twoMinutesAgo, twoMinutesAgo);
    const lock = await acquireLock(lockPath);
    await lock.release();
  });

  it('does not guess about a holder on another host', async () => {
    const record = { pid: 999_999, hostname: 'other-host', startedAt: '2026-11-22T02:30:00Z', command: 'recon run' };
    await writeFile(lockPath, JSON.stringify(record));
    const error = await acquireLock(lockPath).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockHeldError);
    expect((error as LockHeldError).message).toContain('on host other-host');
  });

  it('lets exactly one of two concurrent acquires win', async () => {
    const results = await Promise.allSettled([acquireLock(lockPath), acquireLock(lockPath)]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(LockHeldError);
    await (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireLock>>>).value.release();
  });

  it('lets exactly one of many contenders win a stale lock', async () => {
    const child = await startHolder(lockPath);
    await kill(child);
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => acquireLock(lockPath)));
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(LockHeldError);
    }
    await (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireLock>>>).value.release();
    expect(existsSync(`${lockPath}.takeover`)).toBe(false);
  });

  it('lets exactly one of several processes win a stale lock', async () => {
    const child = await startHolder(lockPath);
    await kill(child);
    // Real contenders in separate processes, using the build the global setup made; a winner keeps
    // holding until it is killed, so a late starter cannot win after it.
    const moduleUrl = new URL('../../../dist/src/ops/lock.js', import.meta.url).href;
    const script = `
      import(${JSON.stringify(moduleUrl)}).then(async ({ acquireLock }) => {
        try { await acquireLock(process.argv[1]); process.stdout.write('won'); setInterval(() => {}, 1000); }
        catch (e) { process.stdout.write(e.name); }
      });`;
    const contenders = Array.from({ length: 4 }, () =>
      spawn(process.execPath, ['-e', script, lockPath], { stdio: ['ignore', 'pipe', 'inherit'] }));
    children.push(...contenders);
    const outputs = await Promise.all(contenders.map(async (proc) => {
      const [chunk] = (await once(proc.stdout!, 'data')) as [Buffer];
      return chunk.toString();
    }));
    expect(outputs.filter((o) => o === 'won')).toHaveLength(1);
    expect(outputs.filter((o) => o === 'LockHeldError')).toHaveLength(3);
  });
});
