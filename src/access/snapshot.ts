// The accountants' side opens only the published snapshot, read-only; a missing one is a usage problem.
import { UsageError } from '../errors.js';
import { openReadOnly, SnapshotMissingError } from '../ops/publish.js';

export async function withSnapshot<T>(publishedPath: string, fn: (db: Awaited<ReturnType<typeof openReadOnly>>) => Promise<T>): Promise<T> {
  let db;
  try {
    db = await openReadOnly(publishedPath);
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
