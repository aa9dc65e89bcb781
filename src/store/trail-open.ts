// The store as `recon verify` reads it: read-only (nothing migrated, nothing written), and refused in
// words when another recon process has it open (DuckDB allows one writer or many readers) or when the
// store predates the audit trail.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { existsSync } from 'node:fs';
import { TerminalError, UsageError, oneLine } from '../errors.js';
import { sqlText } from './sql.js';
import { TRAIL_MIGRATION } from './trail-seed.js';

/** Another process holds the store (a run, an ack): try again when it ends. */
export class StoreBusyError extends TerminalError {
  override readonly name = 'StoreBusyError';
}

/** The trail is gone although the store was upgraded to it: that is a finding of verify, not a misuse. */
export class TrailMissingError extends TerminalError {
  override readonly name = 'TrailMissingError';
}

export async function openForVerify(db: string): Promise<{ connection: DuckDBConnection; close(): void }> {
  if (!existsSync(db)) throw new UsageError(`no store at ${db}; check --db / RECON_DB`);
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(db, { access_mode: 'READ_ONLY' });
  } catch (err) {
    const message = oneLine((err as Error).message);
    if (/lock/i.test(message)) {
      throw new StoreBusyError(`another recon process has the store ${db} open (a run, an ack): `
        + 'verify it when that ends');
    }
    throw new UsageError(`cannot open the store ${db} to verify it: ${message}`);
  }
  const connection = await instance.connect();
  const close = () => {
    connection.closeSync();
    instance.closeSync();
  };
  try {
    const found = await connection.runAndReadAll(sqlText('controls/trail_exists'), [TRAIL_MIGRATION]);
    const [hasTable, migrated] = found.getRowsJS()[0]!;
    if (migrated && !hasTable) {
      throw new TrailMissingError('the audit trail (table audit_trail) was removed from the store: '
        + 'nothing it recorded can be proven');
    }
    if (!migrated) {
      throw new UsageError(`the store ${db} predates the audit trail: any command that writes it `
        + '(recon check, recon run) upgrades it and seeds the trail');
    }
  } catch (err) {
    close();
    if (err instanceof TerminalError) throw err;
    throw new UsageError(`${db} is not a recon store: ${oneLine((err as Error).message)}`);
  }
  return { connection, close };
}
