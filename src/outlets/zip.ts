// A zip file written by hand (PKWARE APPNOTE 4.3: local headers, central directory, end record): the stack
// has no zip library and the evidence pack needs only this. Each member is deflated (raw deflate, zlib)
// as it streams from its file, its CRC-32 (zlib.crc32) and sizes computed on the way, and its local header
// written in place once they are known, so a member is never held whole in memory. Names are UTF-8 (flag
// bit 11); times are the one given (a pack made twice from the same files is the same bytes). No zip64:
// a member or an archive of 4 GiB or more is refused.
import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { crc32, createDeflateRaw } from 'node:zlib';

export interface ZipMember {
  /** The name inside the archive (forward slashes). */
  name: string;
  /** The file to read, or the bytes themselves. */
  file?: string;
  data?: Buffer | string;
}

const LIMIT = 0xffff_ffff;
const UTF8 = 0x0800;
const DEFLATE = 8;
const VERSION = 20;

interface Written {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** MS-DOS time and date of `at` (UTC), as zip stores them. */
export function dosDateTime(at: Date): { time: number; date: number } {
  const year = Math.min(Math.max(at.getUTCFullYear(), 1980), 2107);
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

/**
 * The fields a member's local header and its central directory entry share, in the same order: version needed,
 * flags (UTF-8 names), method, time, date, CRC-32, sizes, the name's length.
 */
function sharedFields(h: Buffer, at: number, w: Written, when: { time: number; date: number }): void {
  h.writeUInt16LE(VERSION, at);
  h.writeUInt16LE(UTF8, at + 2);
  h.writeUInt16LE(DEFLATE, at + 4);
  h.writeUInt16LE(when.time, at + 6);
  h.writeUInt16LE(when.date, at + 8);
  h.writeUInt32LE(w.crc >>> 0, at + 10);
  h.writeUInt32LE(w.compressed, at + 14);
  h.writeUInt32LE(w.size, at + 18);
  h.writeUInt16LE(w.name.length, at + 22);
}

function localHeader(w: Written, when: { time: number; date: number }): Buffer {
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  sharedFields(h, 4, w, when);
  h.writeUInt16LE(0, 28); // no extra field
  return Buffer.concat([h, w.name]);
}

function centralHeader(w: Written, when: { time: number; date: number }): Buffer {
  const h = Buffer.alloc(46);
  h.writeUInt32LE(0x02014b50, 0);
  h.writeUInt16LE(VERSION, 4); // made by
  sharedFields(h, 6, w, when);
  h.writeUInt32LE(w.offset, 42); // extra, comment, disk, attributes: 0
  return Buffer.concat([h, w.name]);
}

function endRecord(count: number, size: number, offset: number): Buffer {
  const e = Buffer.alloc(22);
  e.writeUInt32LE(0x06054b50, 0);
  e.writeUInt16LE(count, 8);
  e.writeUInt16LE(count, 10);
  e.writeUInt32LE(size, 12);
  e.writeUInt32LE(offset, 16);
  return e;
}

/** Writes `members` as a zip to `path` (the caller's temp file: src/files.ts writeFileAtomically). */
export async function writeZip(path: string, members: readonly ZipMember[], at: Date): Promise<number> {
  if (members.length > 0xffff) {
    throw new Error(`a zip of ${members.length} members needs zip64, which recon does not write`);
  }
  const when = dosDateTime(at);
  const handle = await open(path, 'w');
  try {
    let position = 0;
    const written: Written[] = [];
    for (const m of members) {
      const w: Written = { name: Buffer.from(m.name, 'utf8'), crc: 0, compressed: 0, size: 0, offset: position };
      position += 30 + w.name.length; // the local header is written once its sizes are known
      position = await deflateMember(handle, m, w, position);
      await handle.write(localHeader(w, when), 0, 30 + w.name.length, w.offset);
      written.push(w);
    }
    const central = Buffer.concat(written.map((w) => centralHeader(w, when)));
    if (position + central.length > LIMIT) throw new Error('the evidence pack would pass 4 GiB, which needs zip64');
    await handle.write(central, 0, central.length, position);
    await handle.write(endRecord(written.length, central.length, position), 0, 22, position + central.length);
    return position + central.length + 22;
  } finally {
    await handle.close();
  }
}

/** Streams one member through raw deflate into the file from `position`; returns where it ends. */
async function deflateMember(handle: FileHandle, m: ZipMember, w: Written, position: number): Promise<number> {
  const bytes = typeof m.data === 'string' ? Buffer.from(m.data, 'utf8') : m.data ?? Buffer.alloc(0);
  const source = m.file !== undefined ? createReadStream(m.file) : [bytes];
  const deflate = createDeflateRaw({ level: 9 });
  let at = position;
  const sink = (async () => {
    for await (const chunk of deflate as AsyncIterable<Buffer>) {
      await handle.write(chunk, 0, chunk.length, at);
      at += chunk.length;
      w.compressed += chunk.length;
    }
  })();
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      w.crc = crc32(chunk, w.crc);
      w.size += chunk.length;
      if (w.size > LIMIT) throw new Error(`${m.name} is 4 GiB or more, which needs zip64`);
      if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
    }
    deflate.end();
  } catch (err) {
    deflate.destroy();
    await sink.catch(() => undefined);
    throw err;
  }
  await sink;
  return at;
}
