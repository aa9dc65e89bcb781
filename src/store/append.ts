// Bulk rows into DuckDB through an appender fed with data chunks (column-wise), keeping memory to one
// chunk at a time. The chunk's vectors are filled in bulk through @duckdb/node-bindings rather than value
// by value through @duckdb/node-api's vectors, whose strings each cost a native call (DuckDBVarCharVector
// flush: one vector_assign_string_element per value, 45 % of the writer's time):
//  - a string of at most 12 UTF-8 bytes is inlined in its 16-byte slot (DuckDB's string_t: length, then
//    the bytes), written in JavaScript;
//  - the longer strings of a chunk are written one after the other into a blob that DuckDB copies into the
//    vector's heap in one call; each slot then points into it (a repeated string is written once);
//  - numbers, slots and validity go over in one copy per column (copy_data_to_vector).
// test/unit/store/append.test.ts writes every kind of value this way and reads the table back.
import duckdb from '@duckdb/node-bindings';
import {
  BIGINT, INTEGER, VARCHAR, DuckDBDataChunk, type DuckDBConnection, type DuckDBType, type DuckDBValue,
} from '@duckdb/node-api';

export type ColumnKind = 'varchar' | 'integer' | 'bigint';
const TYPES: Record<ColumnKind, DuckDBType> = { varchar: VARCHAR, integer: INTEGER, bigint: BIGINT };
const WIDTH: Record<ColumnKind, number> = { varchar: 16, integer: 4, bigint: 8 };
/**
 * Rows per data chunk (DuckDB's vector size); builders that hand over slices make them this long (src/store/writer.ts).
 */
export const CHUNK = 2048;
/** string_t: a string of up to this many bytes lives in the slot itself. */
const INLINE = 12;

/** Append rows (arrays in table column order) to `table`. Runs inside the caller's transaction. */
export async function appendRows(
  connection: DuckDBConnection,
  table: string,
  kinds: readonly ColumnKind[],
  rows: ReadonlyArray<readonly DuckDBValue[]>,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = kinds.map((_, c) => rows.map((row) => row[c] ?? null));
  await appendColumns(connection, table, kinds, columns);
}

/** Per-column scratch memory, reused chunk after chunk. */
interface Scratch {
  data: Uint8Array<ArrayBuffer>;
  view: DataView<ArrayBuffer>;
  validity: Uint8Array<ArrayBuffer>;
  /** The long strings of a chunk: their row, where they are in which blob, and their UTF-8 length. */
  longRow: Int32Array;
  longOffset: Int32Array;
  longLength: Int32Array;
  longBlob: Int32Array;
  /** Blob memory kept from chunk to chunk. */
  blobs: Uint8Array[];
}

const encoder = new TextEncoder();

/**
 * Append columns (one array of values per table column, in column order, all the same length) to
 * `table`. Runs inside the caller's transaction.
 */
export async function appendColumns(
  connection: DuckDBConnection,
  table: string,
  kinds: readonly ColumnKind[],
  columns: ReadonlyArray<readonly DuckDBValue[]>,
): Promise<void> {
  const rows = columns[0]?.length ?? 0;
  if (rows > 0) await appendSlices(connection, table, kinds, [{ columns, rows }]);
}

/** Rows given column-wise: the first `rows` values of each column (the arrays may be longer, and reused). */
export interface ColumnSlice {
  columns: ReadonlyArray<readonly DuckDBValue[]>;
  rows: number;
}

/**
 * Append slices of rows to `table` through one appender, each slice read as soon as it is given (the
 * iterator may refill the same arrays for the next one). Builders that produce a chunk's worth of rows
 * at a time (src/store/writer.ts) hold no column as long as a batch: a batch's 122 880 lines as 12
 * arrays were large-object allocations, grown by push, for every table of every batch. Runs
 * inside the caller's transaction.
 */
export async function appendSlices(
  connection: DuckDBConnection,
  table: string,
  kinds: readonly ColumnKind[],
  slices: Iterable<ColumnSlice>,
): Promise<void> {
  let appender: Awaited<ReturnType<DuckDBConnection['createAppender']>> | null = null;
  // One chunk, reset between slices: a chunk's vectors and string heap are native memory that is only
  // released when V8 collects the small JS wrapper, so a chunk per slice left ~100 MB waiting on GC.
  let chunk: DuckDBDataChunk | null = null;
  let scratch: Scratch[] | null = null;
  let kept = false;
  try {
    for (const { columns, rows } of slices) {
      if (rows === 0) continue;
      if (appender === null || chunk === null || scratch === null) {
        appender = await connection.createAppender(table);
        chunk = DuckDBDataChunk.create(kinds.map((k) => TYPES[k]));
        // nothing awaits from here to the end: the kept scratch is this append's alone meanwhile
        kept = !scratchLent;
        scratch = kept ? takeKeptScratch(kinds) : kinds.map(newScratch);
      }
      for (let start = 0; start < rows; start += CHUNK) {
        const n = Math.min(CHUNK, rows - start);
        chunk.reset();
        chunk.rowCount = n;
        for (let c = 0; c < kinds.length; c += 1) {
          const vector = duckdb.data_chunk_get_vector(chunk.chunk, c);
          fillVector(vector, kinds[c]!, columns[c]!, start, n, scratch[c]!);
        }
        appender.appendDataChunk(chunk);
      }
    }
    appender?.flushSync();
  } finally {
    appender?.closeSync();
    chunk?.reset();
    if (kept) scratchLent = false;
  }
}

function newScratch(kind: ColumnKind): Scratch {
  const data = new Uint8Array(CHUNK * WIDTH[kind]);
  return {
    data,
    view: new DataView(data.buffer),
    validity: new Uint8Array(CHUNK / 8),
    longRow: new Int32Array(CHUNK),
    longOffset: new Int32Array(CHUNK),
    longLength: new Int32Array(CHUNK),
    longBlob: new Int32Array(CHUNK),
    blobs: [],
  };
}

/**
 * Scratch memory kept from one append to the next, per column position of each kind: a sync appends to
 * five tables in every batch, and fresh scratch each time (a blob of long strings per text column among
 * it) was memory the collector kept clearing. Appends that overlap (a second connection's batch) take
 * fresh scratch rather than wait.
 */
const keptScratch: Record<ColumnKind, Scratch[]> = { varchar: [], integer: [], bigint: [] };
let scratchLent = false;

function takeKeptScratch(kinds: readonly ColumnKind[]): Scratch[] {
  scratchLent = true;
  const used: Record<ColumnKind, number> = { varchar: 0, integer: 0, bigint: 0 };
  return kinds.map((k) => (keptScratch[k][used[k]++] ??= newScratch(k)));
}

function fillVector(
  vector: duckdb.Vector,
  kind: ColumnKind,
  values: readonly DuckDBValue[],
  start: number,
  n: number,
  s: Scratch,
): void {
  let nulls = 0;
  s.validity.fill(0xff, 0, Math.ceil(n / 8));
  if (kind === 'varchar') {
    nulls = fillStrings(vector, values, start, n, s);
  } else {
    for (let r = 0; r < n; r += 1) {
      const v = values[start + r];
      if (v === null || v === undefined) {
        s.validity[r >> 3]! &= ~(1 << (r & 7));
        nulls += 1;
        if (kind === 'bigint') s.view.setBigInt64(r * 8, 0n, true);
        else s.view.setInt32(r * 4, 0, true);
      } else if (kind === 'bigint') {
        if (typeof v === 'number' && Number.isSafeInteger(v)) {
          // no BigInt per value: the two halves (little-endian), the high one signed
          const high = Math.floor(v / 4294967296);
          s.view.setUint32(r * 8, v - high * 4294967296, true);
          s.view.setInt32(r * 8 + 4, high, true);
          continue;
        }
        const big = typeof v === 'bigint' ? v : BigInt(v as number);
        if (BigInt.asIntN(64, big) !== big) throw new Error(`${big} is out of the BIGINT range`);
        s.view.setBigInt64(r * 8, big, true);
      } else {
        const int = Number(v);
        if (!Number.isInteger(int) || int < -2147483648 || int > 2147483647)
          throw new Error(`${String(v)} is not an INTEGER`);
        s.view.setInt32(r * 4, int, true);
      }
    }
    duckdb.copy_data_to_vector(vector, 0, s.data.buffer, 0, n * WIDTH[kind]);
  }
  if (nulls > 0) {
    duckdb.vector_ensure_validity_writable(vector);
    duckdb.copy_data_to_vector_validity(vector, 0, s.validity.buffer, 0, Math.ceil(n / 64) * 8);
  }
}

/** Long strings of a chunk are handed to DuckDB in blobs of at most this many bytes. */
const BLOB_BYTES = 1 << 20;
const FIRST_BLOB_BYTES = 1 << 16;
/** Blobs a column keeps from chunk to chunk. */
const KEPT_BLOBS = 8;

/**
 * The strings of one chunk. A short one is inlined in its slot. The long ones are written one after the
 * other into a blob (UTF-8), which DuckDB copies into the vector's string heap in one call (through the
 * slot of the blob's first row); every long string's slot then points into that copy: its length, its
 * first four bytes, and the heap address plus its offset. A string repeated from the row before (a line's
 * disbursement id, the run id) is written once. Returns the number of nulls.
 */
function fillStrings(
  vector: duckdb.Vector,
  values: readonly DuckDBValue[],
  start: number,
  n: number,
  s: Scratch,
): number {
  const out = s.data.subarray(0, n * 16);
  const { longRow, longOffset, longLength, longBlob } = s;
  let longs = 0;
  // the previous row's string when it was a long one, and its entry in the long arrays
  let previous: string | null = null;
  let previousLong = -1;
  const blobs: Array<{ bytes: Uint8Array; used: number; firstRow: number }> = [];
  const nextBlob = (room: number, firstRow: number) => {
    // DuckDB copies a blob when it is assigned, so the same memory serves chunk after chunk
    // sized to what the column needs (an id column's chunk fills a few kB, a raw column's megabytes):
    // the first small, each next one twice the last, up to BLOB_BYTES
    const reuse = s.blobs[blobs.length];
    const size = Math.min(BLOB_BYTES, FIRST_BLOB_BYTES * 2 ** Math.min(blobs.length, 8));
    const bytes = reuse && reuse.length >= room ? reuse : new Uint8Array(Math.max(size, room));
    // kept for the next chunk (and append) only up to a bound: one chunk of huge strings holds no more for good
    if (bytes.length <= BLOB_BYTES && blobs.length < KEPT_BLOBS) s.blobs[blobs.length] = bytes;
    const blob = { bytes, used: 0, firstRow };
    blobs.push(blob);
    return blob;
  };
  let nulls = 0;
  out.fill(0);
  for (let r = 0; r < n; r += 1) {
    const v = values[start + r];
    const at = r * 16;
    if (v === null || v === undefined) {
      s.validity[r >> 3]! &= ~(1 << (r & 7));
      nulls += 1;
      previous = null;
      continue;
    }
    const text = typeof v === 'string' ? v : String(v);
    if (text === previous) {
      longRow[longs] = r;
      longOffset[longs] = longOffset[previousLong]!;
      longLength[longs] = longLength[previousLong]!;
      longBlob[longs] = longBlob[previousLong]!;
      longs += 1;
      continue;
    }
    previous = null;
    if (text.length <= INLINE && inlineAscii(text, out, at + 4)) {
      s.view.setUint32(at, text.length, true);
      continue;
    }
    // at most 3 bytes of UTF-8 per UTF-16 unit
    const room = text.length * 3;
    let blob = blobs[blobs.length - 1];
    if (!blob || blob.used + room > blob.bytes.length) blob = nextBlob(room, r);
    const { written } = encoder.encodeInto(text, blob.bytes.subarray(blob.used));
    if (written <= INLINE) {
      s.view.setUint32(at, written, true);
      out.set(blob.bytes.subarray(blob.used, blob.used + written), at + 4);
      continue;
    }
    previous = text;
    previousLong = longs;
    longRow[longs] = r;
    longOffset[longs] = blob.used;
    longLength[longs] = written;
    longBlob[longs] = blobs.length - 1;
    longs += 1;
    blob.used += written;
  }
  if (longs > 0) {
    // each blob once into DuckDB's heap, through its first row's slot; where it landed, read back at once
    for (const blob of blobs)
      duckdb.vector_assign_string_element_len(vector, blob.firstRow, blob.bytes.subarray(0, blob.used));
    const landed = duckdb.vector_get_data(vector, n * 16);
    const landedView = new DataView(landed.buffer, landed.byteOffset, landed.byteLength);
    // heap addresses as numbers (below 2^53 on every platform DuckDB runs on): no BigInt per string
    const base = blobs.map((blob) => Number(landedView.getBigUint64(blob.firstRow * 16 + 8, true)));
    for (let i = 0; i < longs; i += 1) {
      const at = longRow[i]! * 16;
      const offset = longOffset[i]!;
      const bytes = blobs[longBlob[i]!]!.bytes;
      s.view.setUint32(at, longLength[i]!, true);
      out[at + 4] = bytes[offset]!;
      out[at + 5] = bytes[offset + 1]!;
      out[at + 6] = bytes[offset + 2]!;
      out[at + 7] = bytes[offset + 3]!;
      const address = base[longBlob[i]!]! + offset;
      s.view.setUint32(at + 8, address % 4294967296, true);
      s.view.setUint32(at + 12, Math.floor(address / 4294967296), true);
    }
  }
  duckdb.copy_data_to_vector(vector, 0, out.buffer, out.byteOffset, n * 16);
  return nulls;
}

/** Writes `text` at `at` when every character is ASCII (one byte each in UTF-8); false (nothing kept) if not. */
function inlineAscii(text: string, out: Uint8Array, at: number): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) return false;
    out[at + i] = code;
  }
  return true;
}
