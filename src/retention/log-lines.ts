// A JSON log file (pino: one object a line) cut to the lines written since a cut-off, rewritten whole (temp
// file, then rename) or left as it was. A line's "time" is ISO 8601 (recon's logs, src/log.ts) or epoch
// milliseconds (pino's default, logs written before); a line without a readable time is kept. Streamed: a
// log of any size is never held in memory.
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

interface LogTrim {
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
      const time = lineTime(line);
      if (time !== null && time < cutoffMs) {
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

const ISO_TIME = /"time":"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))"/;
const EPOCH_TIME = /"time":(\d{10,})/;

/** When a log line was written (ms since the epoch), or null when it does not say. */
function lineTime(line: string): number | null {
  const head = line.slice(0, 200);
  const iso = ISO_TIME.exec(head);
  if (iso) {
    const ms = Date.parse(iso[1]!);
    return Number.isNaN(ms) ? null : ms;
  }
  const epoch = EPOCH_TIME.exec(head);
  return epoch ? Number(epoch[1]) : null;
}
