// A JSON log file (pino: one object a line, its "time" in epoch milliseconds) cut to the lines written
// since a cut-off, rewritten whole (temp file, then rename) or left as it was. Lines without a readable
// time are kept. Streamed: a log of any size is never held in memory. Issue 26.
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export interface LogTrim {
  file: string;
  keptLines: number;
  removedLines: number;
  removedBytes: number;
}

/** Trims `file` to the lines since `cutoffMs`; with `dryRun` only counts. Null when the file does not exist. */
export async function trimLog(file: string, cutoffMs: number, dryRun: boolean): Promise<LogTrim | null> {
  const before = await stat(file).catch(() => null);
  if (!before?.isFile()) return null;
  const temp = `${file}.prune-${process.pid}.tmp`;
  const out = dryRun ? null : createWriteStream(temp, { flags: 'wx' });
  const result: LogTrim = { file, keptLines: 0, removedLines: 0, removedBytes: 0 };
  try {
    const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
    for await (const line of lines) {
      const time = /"time":(\d{10,})/.exec(line.slice(0, 200));
      if (time && Number(time[1]) < cutoffMs) {
        result.removedLines += 1;
        result.removedBytes += Buffer.byteLength(line) + 1;
        continue;
      }
      result.keptLines += 1;
      if (out && !out.write(`${line}\n`)) await once(out, 'drain');
    }
    if (out) {
      out.end();
      await once(out, 'close');
      if (result.removedLines > 0) await rename(temp, file);
      else await rm(temp, { force: true });
    }
    return result;
  } catch (err) {
    out?.destroy();
    await rm(temp, { force: true });
    throw err;
  }
}
