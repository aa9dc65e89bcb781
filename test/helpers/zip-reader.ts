// A zip reader of its own for the tests (the stack has none): the end record, the central directory, each
// member's local header, its deflated bytes inflated (zlib) and its CRC-32 checked. Only what recon writes
// (deflate or stored, no zip64, no encryption); anything else throws. recon writes zips two ways: the
// evidence pack (src/outlets/zip.ts) states CRC-32 and sizes in the local header, while exceljs's
// streaming writer (every xlsx) leaves them zero there and writes them in a data descriptor after the data
// (flag bit 3); either is checked against the central directory.
import { readFileSync } from 'node:fs';
import { crc32, inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  data: Buffer;
  crc: number;
  /** MS-DOS time and date as stored. */
  time: number;
  date: number;
}

export function readZip(file: string): ZipEntry[] {
  const zip = readFileSync(file);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('no end of central directory record');
  const count = zip.readUInt16LE(end + 10);
  const cdSize = zip.readUInt32LE(end + 12);
  let at = zip.readUInt32LE(end + 16);
  if (at + cdSize !== end) {
    throw new Error(`central directory at ${at} + ${cdSize} does not end at the end record (${end})`);
  }
  const out: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`no central header at ${at}`);
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const csize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const offset = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    if (zip.readUInt32LE(offset) !== 0x04034b50) throw new Error(`${name}: no local header at ${offset}`);
    const start = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28);
    const raw = zip.subarray(start, start + csize);
    const described = (flags & 0x08) !== 0;
    // a data descriptor's signature is optional (APPNOTE 4.3.9.3)
    const stated = !described ? offset + 14 : start + csize + (zip.readUInt32LE(start + csize) === 0x08074b50 ? 4 : 0);
    if (zip.readUInt32LE(stated) !== crc || zip.readUInt32LE(stated + 4) !== csize) {
      throw new Error(`${name}: ${described ? 'data descriptor' : 'local header'} disagrees with the central one`);
    }
    if (method !== 8 && method !== 0) throw new Error(`${name}: method ${method}`);
    const data = method === 8 ? inflateRawSync(raw) : Buffer.from(raw);
    if (data.length !== size) throw new Error(`${name}: ${data.length} bytes inflated, ${size} stated`);
    if ((crc32(data) >>> 0) !== crc) throw new Error(`${name}: CRC-32 does not match`);
    out.push({ name, data, crc, time: zip.readUInt16LE(at + 12), date: zip.readUInt16LE(at + 14) });
    at += 46 + nameLength + extra + comment;
  }
  return out;
}
