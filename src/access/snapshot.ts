// The accountants' side opens only the published snapshot, read-only; a missing one is a usage problem.
// `recon sql` opens it as a closed session: no file outside the snapshot can be read or written (so the
// live store can be neither changed nor locked), no extension installed or loaded, no setting changed,
// one statement per call. Temporary tables stay possible: they live in memory and die with the session.
import { UsageError } from '../errors.js';
import { openReadOnly, SnapshotMissingError } from '../ops/publish.js';

type Snapshot = Awaited<ReturnType<typeof openReadOnly>>;

/** DuckDB settings of the accountants' session, fixed at open (lock_configuration: SET cannot undo them). */
export const ACCOUNTANT_SESSION: Record<string, string> = {
  enable_external_access: 'false',
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
  allow_community_extensions: 'false',
  lock_configuration: 'true',
};

export async function withSnapshot<T>(publishedPath: string, fn: (db: Snapshot) => Promise<T>, settings: Record<string, string> = {}): Promise<T> {
  let db;
  try {
    db = await openReadOnly(publishedPath, settings);
  } catch (err) {
    if (err instanceof SnapshotMissingError) throw new UsageError(err.message);
    throw err;
  }
  try {
    return await fn(db);
  } finally {
    db.connection.closeSync();
    db.instance.closeSync();
  }
}

/** Refuses more than one statement in a call (the rest could not be shown, and could do anything). */
export async function requireOneStatement(db: Snapshot, sql: string): Promise<void> {
  const statements = await db.connection.extractStatements(sql);
  if (statements.count > 1) throw new UsageError(`one statement per call, got ${statements.count}; run them one by one`);
}
