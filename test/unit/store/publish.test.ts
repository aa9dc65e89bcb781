import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openReadOnly, publishSnapshot, PublishError, SnapshotMissingError } from '../../../src/store/publish.js';

const repoRoot = new URL('../../..', import.meta.url).pathname;

async function rows(connection: DuckDBConnection, sql: string): Promise<unknown[][]> {
  return (await connection.runAndReadAll(sql)).getRows();
}

/**
 * A reader in another process (as an accountant's tool would be): opens the snapshot read-only, answers
 * one SQL query per stdin line on the same connection, printing the rows as JSON.
 */
const READER_SCRIPT = `
import { DuckDBInstance } from '@duckdb/node-api';
import { createInterface } from 'node:readline';
const instance = await DuckDBInstance.create(process.argv[1], { access_mode: 'READ_ONLY' });
const connection = await instance.connect();
process.stdout.write('ready\\n');
for await (const sql of createInterface({ input: process.stdin })) {
  const result = await connection.runAndReadAll(sql);
  process.stdout.write(JSON.stringify(result.getRows(), (_k, v) => typeof v === 'bigint' ? Number(v) : v) + '\\n');
}
`;

function startReader(path: string): { child: ChildProcess; ask(sql: string): Promise<unknown> } {
  const child = spawn(process.execPath, ['--input-type=module', '-e', READER_SCRIPT, path], {
    cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const nextLine = async (): Promise<string> => {
    const { value, done } = await lines.next();
    if (done === true) throw new Error('reader exited');
    return value as string;
  };
  const ready = nextLine();
  return {
    child,
    async ask(sql) {
      expect(await ready).toBe('ready');
      child.stdin!.write(`${sql}\n`);
      return JSON.parse(await nextLine()) as unknown;
    },
  };
}

describe('publishSnapshot', () => {
  let dir: string;
  let writer: DuckDBInstance;
  let db: DuckDBConnection;
  let publishedPath: string;
  const cleanups: Array<() => void | Promise<void>> = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'recon-publish-'));
    publishedPath = join(dir, 'published', 'recon.duckdb');
    await mkdir(join(dir, 'published'));
    writer = await DuckDBInstance.create(join(dir, 'recon.duckdb'));
    db = await writer.connect();
    await db.run(`
      CREATE TABLE payouts (id VARCHAR, amount BIGINT);
      INSERT INTO payouts VALUES ('po_1', 1000), ('po_2', 2500);
      CREATE VIEW payout_total AS SELECT sum(amount) AS total FROM payouts;
      CREATE SCHEMA checks;
      CREATE VIEW checks.total_identity AS SELECT id FROM payouts WHERE amount < 0;
    `);
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    db.closeSync();
    writer.closeSync();
    await chmod(join(dir, 'published'), 0o755).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  async function readOnly(path = publishedPath): Promise<DuckDBConnection> {
    const { instance, connection } = await openReadOnly(path);
    cleanups.push(() => { connection.closeSync(); instance.closeSync(); });
    return connection;
  }

  it('publishes a copy that a separate read-only instance can query, views included', async () => {
    const published = await publishSnapshot({ sourceConnection: db, publishedPath });
    expect(published.path).toBe(publishedPath);
    expect(published.bytes).toBeGreaterThan(0);

    const reader = await readOnly();
    expect(await rows(reader, 'SELECT total FROM payout_total')).toEqual([[3500n]]);
    expect(await rows(reader, "SELECT table_schema, table_name FROM information_schema.tables WHERE table_type = 'VIEW' ORDER BY 1, 2"))
      .toEqual([['checks', 'total_identity'], ['main', 'payout_total']]);
    await expect(reader.run('CREATE TABLE x (a INT)')).rejects.toThrow(/read-only/i);
    expect((await readdir(join(dir, 'published'))).sort()).toEqual(['recon.duckdb', 'recon.duckdb.parts']);
  });

  it('swaps under a reader in another process: it keeps the old snapshot, a new connection sees the new one', async () => {
    await db.run("CREATE TABLE run_info AS SELECT 'night-1' AS night");
    await publishSnapshot({ sourceConnection: db, publishedPath });
    const reader = startReader(publishedPath);
    cleanups.push(() => { reader.child.kill('SIGKILL'); });
    expect(await reader.ask('SELECT count(*) FROM payouts')).toEqual([[2]]);

    await db.run("INSERT INTO payouts VALUES ('po_3', 4000); UPDATE run_info SET night = 'night-2'");
    await publishSnapshot({ sourceConnection: db, publishedPath });

    // run_info was never read by the reader before the swap, so this is read from its (old) open file.
    expect(await reader.ask('SELECT night FROM run_info')).toEqual([['night-1']]);
    expect(await reader.ask('SELECT total FROM payout_total')).toEqual([[3500]]);
    const fresh = await readOnly();
    expect(await rows(fresh, 'SELECT night FROM run_info')).toEqual([['night-2']]);
    expect(await rows(fresh, 'SELECT total FROM payout_total')).toEqual([[7500n]]);
  });

  it('swaps under a reader in the same process the same way', async () => {
    await db.run("CREATE TABLE run_info AS SELECT 'night-1' AS night");
    await publishSnapshot({ sourceConnection: db, publishedPath });
    const before = await readOnly();
    expect(await rows(before, 'SELECT count(*) FROM payouts')).toEqual([[2n]]);

    await db.run("UPDATE run_info SET night = 'night-2'");
    await publishSnapshot({ sourceConnection: db, publishedPath });
    expect(await rows(before, 'SELECT night FROM run_info')).toEqual([['night-1']]);
    expect(await rows(await readOnly(), 'SELECT night FROM run_info')).toEqual([['night-2']]);
  });

  it('keeps the previous snapshot and removes the temp file when the swap fails', async () => {
    await publishSnapshot({ sourceConnection: db, publishedPath });
    await db.run("INSERT INTO payouts VALUES ('po_3', 4000)");
    const failingRename = async (): Promise<void> => {
      throw Object.assign(new Error('ENOSPC: no space left on device, rename'), { code: 'ENOSPC' });
    };
    const error = await publishSnapshot({ sourceConnection: db, publishedPath, rename: failingRename }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PublishError);
    expect((error as PublishError).message).toMatch(/could not publish the snapshot to .*recon\.duckdb \(swap failed: ENOSPC.*the previous snapshot is unchanged/);
    expect(await readdir(join(dir, 'published'))).toEqual(['recon.duckdb', 'recon.duckdb.parts']);
    expect(await rows(await readOnly(), 'SELECT total FROM payout_total')).toEqual([[3500n]]);
  });

  // Root ignores directory permissions; there the injected-rename test above stands in for it.
  it.skipIf(process.getuid?.() === 0)('fails clearly when the folder is read-only, keeping the previous snapshot', async () => {
    await publishSnapshot({ sourceConnection: db, publishedPath });
    await chmod(join(dir, 'published'), 0o555);
    await expect(publishSnapshot({ sourceConnection: db, publishedPath })).rejects.toThrow(/\(copy failed: .*\); the previous snapshot is unchanged/);
    expect(await readdir(join(dir, 'published'))).toEqual(['recon.duckdb', 'recon.duckdb.parts']);
    expect(await rows(await readOnly(), 'SELECT total FROM payout_total')).toEqual([[3500n]]);
  });

  it('creates the published folder on the first publish', async () => {
    const fresh = join(dir, 'published-now', 'recon.duckdb');
    await expect(publishSnapshot({ sourceConnection: db, publishedPath: fresh })).resolves.toMatchObject({ path: fresh });
  });

  it('fails clearly when the target folder cannot be created', async () => {
    await writeFile(join(dir, 'a-file'), 'not a folder');
    const impossible = join(dir, 'a-file', 'recon.duckdb');
    await expect(publishSnapshot({ sourceConnection: db, publishedPath: impossible })).rejects.toThrow(PublishError);
    // The writer's connection is still usable afterwards.
    expect(await rows(db, 'SELECT count(*) FROM payouts')).toEqual([[2n]]);
  });

  it('removes leftovers of earlier failed attempts', async () => {
    const leftover = `${publishedPath}.tmp-999999999-1700000000000`;
    await writeFile(leftover, 'half a database');
    await writeFile(`${leftover}.wal`, 'wal');
    await publishSnapshot({ sourceConnection: db, publishedPath });
    expect(await readdir(join(dir, 'published'))).toEqual(['recon.duckdb', 'recon.duckdb.parts']);
  });
});

describe('openReadOnly', () => {
  it('says how to get a snapshot when there is none', async () => {
    const path = join(tmpdir(), `recon-missing-${process.pid}.duckdb`);
    const error = await openReadOnly(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SnapshotMissingError);
    expect((error as Error).message).toBe(`no published snapshot yet at ${path}; run \`recon run\` first`);
  });
});
