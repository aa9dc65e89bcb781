// The bytes of a statement file as text: a byte-order mark says UTF-8 or UTF-16 (little or big
// endian); an XML statement's declared encoding is honoured (ISO-8859-1, Windows-1252, UTF-16, …); text
// that is not valid UTF-8 is read as Windows-1252 (Latin-1) and marked so, for the formats that allow it
// to decide (a CSV layout names its encoding; MT940 and BAI2 predate UTF-8 and are read so).
import { StatementError } from './statement.js';

interface Decoded {
  text: string;
  /** The encoding the text was read in. */
  encoding: string;
  /** Not valid UTF-8 and read as Windows-1252 without a declaration saying so; the line of the first offending byte. */
  latin1Line: number | null;
}

const XML_DECLARATION = /^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/;

/** Encodings an XML declaration may name that recon reads (WHATWG labels). */
const XML_ENCODINGS: Record<string, string> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'utf-16': 'utf-16le',
  'utf-16le': 'utf-16le',
  'utf-16be': 'utf-16be',
  'iso-8859-1': 'windows-1252',
  latin1: 'windows-1252',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
  'iso-8859-15': 'iso-8859-15',
  'iso-8859-2': 'iso-8859-2',
  'windows-1250': 'windows-1250',
  'us-ascii': 'utf-8',
  ascii: 'utf-8',
};

const decoder = (encoding: string, fatal = false) => new TextDecoder(encoding, { fatal });

function lineOf(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i += 1) if (bytes[i] === 0x0a) line += 1;
  return line;
}

/** The offset of the first byte that is not valid UTF-8, or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  try {
    decoder('utf-8', true).decode(bytes);
    return -1;
  } catch {
    // find it: decode growing prefixes by lines (rare path, bounded by the file size limit)
    let start = 0;
    for (let i = 0; i <= bytes.length; i += 1) {
      if (i === bytes.length || bytes[i] === 0x0a) {
        try {
          decoder('utf-8', true).decode(bytes.subarray(start, i));
        } catch {
          return start;
        }
        start = i + 1;
      }
    }
    return 0;
  }
}

export function decodeStatement(file: string, bytes: Uint8Array): Decoded {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { text: decoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8', latin1Line: null };
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: decoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le', latin1Line: null };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: decoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be', latin1Line: null };
  // an XML document in UTF-16 without a mark still starts "<?" (XML 1.0, appendix F)
  if (bytes[0] === 0x3c && bytes[1] === 0x00 && bytes[2] === 0x3f && bytes[3] === 0x00)
    return { text: decoder('utf-16le').decode(bytes), encoding: 'utf-16le', latin1Line: null };
  if (bytes[0] === 0x00 && bytes[1] === 0x3c && bytes[2] === 0x00 && bytes[3] === 0x3f)
    return { text: decoder('utf-16be').decode(bytes), encoding: 'utf-16be', latin1Line: null };
  const head = decoder('windows-1252').decode(bytes.subarray(0, 200));
  const declared = XML_DECLARATION.exec(head)?.[1]?.toLowerCase();
  if (declared !== undefined) {
    const encoding = XML_ENCODINGS[declared];
    if (!encoding)
      throw new StatementError(file, 'line 1', `the XML declares encoding "${declared}", which recon does not read`);
    if (encoding === 'utf-8') {
      const bad = firstInvalidUtf8(bytes);
      if (bad >= 0)
        throw new StatementError(
          file,
          `line ${lineOf(bytes, bad)}`,
          'the XML declares UTF-8 but this line is not UTF-8',
        );
    }
    return { text: decoder(encoding).decode(bytes), encoding, latin1Line: null };
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad < 0) return { text: decoder('utf-8').decode(bytes), encoding: 'utf-8', latin1Line: null };
  return { text: decoder('windows-1252').decode(bytes), encoding: 'windows-1252', latin1Line: lineOf(bytes, bad) };
}
