// Workbooks are written to a temp file beside the target and renamed into place, so the path an
// accountant opens is either yesterday's complete workbook or today's complete workbook — never a
// half-written one after a crash.
import { copyFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { streamInto, writeFileAtomically } from '../files.js';

export type StreamingWorkbook = ExcelJS.stream.xlsx.WorkbookWriter;

/** The temp files writeWorkbookFile (and its sheets' CSVs, list-sheet.ts) leave behind when their process is killed mid-write. */
const TEMP = /^\..+\.(?:xlsx|csv)\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/**
 * Removes the temp workbooks of killed runs from `dir`. Call it under the run lock: then no other run is
 * writing there, and only this process's own temp files (none yet) are kept. Returns how many went.
 */
export async function removeStaleTemporaries(dir: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const m = TEMP.exec(name);
    if (!m || Number(m[1]) === process.pid) continue;
    await rm(join(dir, name), { force: true });
    removed += 1;
  }
  return removed;
}

/**
 * Lets `fill` add and commit sheets on a streaming workbook written to a temp file beside `path`, then
 * commits, fsyncs and renames (writeFileAtomically). A write that fails (a full disk, a folder that
 * cannot be written) ends the wait at once instead of leaving exceljs waiting on a dead stream: the
 * failure is a WriteError naming the workbook and `setting`, and nothing at `path` is replaced.
 */
export async function writeWorkbookFile<T>(
  path: string,
  fill: (workbook: StreamingWorkbook) => Promise<T>,
  setting: string | null = '--reports / RECON_REPORTS_DIR',
): Promise<T> {
  return writeFileAtomically(path, (temp) => streamInto(temp, async (out) => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    workbook.creator = 'recon';
    const result = await fill(workbook);
    await workbook.commit();
    return result;
  }), setting);
}

// Deflate runs off the main thread but takes its next chunk (64 KB of sheet XML) only on a turn of the
// event loop. Yielding every 200 rows (~2 chunks) let it fall behind until the 1 MB wait below ran on
// nearly every call, the writer idling in 1 ms polls; every 50 rows (about half a chunk) deflate keeps
// up while rows are written.
const PACE_EVERY_ROWS = 50;
const MAX_BACKLOG_BYTES = 1 << 20;
const STALLED_AFTER_POLLS = 500;

/**
 * exceljs's sheet stream ignores backpressure: it writes every committed row into the zip entry's
 * PassThrough whatever its fill, so a fast row source buffers the whole uncompressed sheet (about
 * 600 bytes a row) before deflate catches up. Every few dozen rows this yields a turn and waits until
 * that buffer is under 1 MB. The buffer is exceljs 4.x internals, so when it cannot be found this
 * only yields a turn; if it stops shrinking (nothing is consuming it) this gives up rather than hang
 * the run.
 */
export async function pace(sheet: ExcelJS.Worksheet, rowsWritten: number): Promise<void> {
  if (rowsWritten % PACE_EVERY_ROWS !== 0) return;
  await tick();
  let last = Infinity;
  for (let polls = 0; polls < STALLED_AFTER_POLLS; polls++) {
    const backlog = sheetBacklog(sheet);
    if (backlog <= MAX_BACKLOG_BYTES) return;
    if (backlog < last) polls = 0;
    last = backlog;
    await new Promise<void>((resolve) => setTimeout(resolve, 1));
  }
}

const tick = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** Bytes committed to the sheet but not yet taken by the zip; 0 when exceljs internals differ. */
export function sheetBacklog(sheet: ExcelJS.Worksheet): number {
  const internal = sheet as unknown as { stream?: { pipes?: Array<{ _writableState?: { length?: unknown } }> } };
  const length = internal.stream?.pipes?.[0]?._writableState?.length;
  return typeof length === 'number' ? length : 0;
}

/** `target` becomes a copy of `source`, swapped in by rename: a reader sees the old file or the new one. */
export async function replaceAtomically(source: string, target: string, setting: string | null = '--reports / RECON_REPORTS_DIR'): Promise<void> {
  await writeFileAtomically(target, (temp) => copyFile(source, temp), setting);
}
