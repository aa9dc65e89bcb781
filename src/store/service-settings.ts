// What recon learned about the service (service_settings), remembered for later runs.
import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * A remembered page size is asked again larger after this many days: the interface does not show the
 * maximum of per_page, and one misleading refusal must not cost every later night its page size.
 */
export const PAGE_SIZE_REPROBE_DAYS = 7;
/**
 * The smallest page size remembered: the interface's default (Pagination parameters: per_page default 10).
 * A service that names a maximum below it is believed for that run only, with a warning.
 */
export const PAGE_SIZE_FLOOR = 10;
const DAY_MS = 86_400_000;

/**
 * The largest page size the service accepted after refusing a larger one, or null: none, one below the
 * floor, or one learned PAGE_SIZE_REPROBE_DAYS or more before `nowMs` (or after it: a clock set back).
 */
export async function rememberedPageSize(c: DuckDBConnection, nowMs: number): Promise<number | null> {
  const sql = `SELECT value, epoch_ms(learned_at) FROM service_settings WHERE key = 'per_page'`;
  const row = (await c.runAndReadAll(sql)).getRows()[0];
  const n = Number(row?.[0]);
  const learnedMs = Number(row?.[1]);
  if (!Number.isInteger(n) || n < PAGE_SIZE_FLOOR) return null;
  const age = nowMs - learnedMs;
  return age >= 0 && age < PAGE_SIZE_REPROBE_DAYS * DAY_MS ? n : null;
}

export async function rememberPageSize(c: DuckDBConnection, size: number, runId: string, nowMs: number): Promise<void> {
  const sql = `INSERT OR REPLACE INTO service_settings VALUES ('per_page', $1, make_timestamptz($2::BIGINT * 1000), $3)`;
  await c.run(sql, [String(size), BigInt(Math.round(nowMs)), runId]);
}
