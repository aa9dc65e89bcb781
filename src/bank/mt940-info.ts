// The :86: information to the account owner, in the shapes banks write it: code words (/EREF/…/REMI/…,
// Dutch and SWIFT style, with ING's /CNTP/account/BIC/name/ and /REMI/USTD//text/), the German subfield
// style (?00 booking text, ?20–?29 and ?60–?63 remittance with SEPA keywords such as EREF+, ?32–?33 the
// other party; Triodos writes > for ?), or free text.
import { clip } from './statement.js';

interface Information {
  endToEndId: string | null;
  remittance: string | null;
  counterparty: string | null;
}

/** Code words recon splits on; any other /XYZ/ is text (remittance text may hold slashes and capitals). */
const CODE_WORDS = new Set([
  'EREF', 'MREF', 'CRED', 'REMI', 'USTD', 'STRD', 'NAME', 'ORDP', 'BENM', 'CNTP', 'IBAN', 'BIC', 'TRTP', 'CSID', 'MARF',
  'PREF', 'RTRN', 'ISDT', 'ADDR', 'ULTB', 'ULTD', 'ULTC', 'PURP', 'SVCL', 'TRCD', 'ACCW', 'CHGS', 'OCMT', 'SUM', 'RTRE',
  'INFO',
]);

const NO_REFERENCE = /^(NOTPROVIDED|NONREF|NONE)$/i;

function codeWords(flat: string): Map<string, string> | null {
  const codes = new Map<string, string>();
  const marks = [...flat.matchAll(/\/([A-Z]{3,4})\//g)].filter((m) => CODE_WORDS.has(m[1]!));
  if (marks.length === 0 || marks[0]!.index !== 0) return null;
  marks.forEach((m, i) => {
    // a code word's value runs to the next code word (its subfields are separated by single slashes)
    const end = i + 1 < marks.length ? marks[i + 1]!.index : flat.length;
    const value = flat.slice(m.index! + m[0].length, end).replace(/^\/+|\/+$/g, '');
    if (!codes.has(m[1]!)) codes.set(m[1]!, value);
  });
  return codes;
}

const first = (...values: Array<string | undefined>): string | null =>
  values.find((v) => v !== undefined && v.trim() !== '')?.trim() ?? null;

function fromCodeWords(codes: Map<string, string>): Information {
  // ING: /REMI/USTD//text/ or /REMI/STRD/CUR/reference/; Rabobank: /REMI/text/
  const remi = codes.get('REMI')?.replace(/^(USTD|STRD)\/+(CUR\/+)?/, '');
  const cntp = codes.get('CNTP')?.split('/');
  const eref = first(codes.get('EREF'));
  return {
    endToEndId: clip(eref && !NO_REFERENCE.test(eref) ? eref : null),
    remittance: clip(first(remi, codes.get('USTD'), codes.get('STRD'))),
    counterparty: clip(first(codes.get('NAME'), cntp?.[2], codes.get('ORDP'), codes.get('BENM'))),
  };
}

function fromSubfields(flat: string, separator: string): Information {
  const sub = new Map<string, string>();
  const pattern = new RegExp(`\\${separator}(\\d{2})([^\\${separator}]*)`, 'g');
  for (const m of flat.matchAll(pattern)) sub.set(m[1]!, `${sub.get(m[1]!) ?? ''}${m[2]!}`);
  const remittance = ['20', '21', '22', '23', '24', '25', '26', '27', '28', '29', '60', '61', '62', '63']
    .map((k) => sub.get(k) ?? '')
    .join('');
  // the reference runs to the next SEPA keyword (XXXX+) or to a space some banks pad a subfield with
  const eref = /EREF\+(\S+?)(?=[A-Z]{4}\+|\s|$)/.exec(remittance)?.[1] ?? null;
  return {
    endToEndId: clip(eref && !NO_REFERENCE.test(eref) ? eref : null),
    remittance: clip(remittance),
    counterparty: clip(`${sub.get('32') ?? ''}${sub.get('33') ?? ''}`),
  };
}

export function information(text: string): Information {
  const flat = text.replace(/\n/g, '');
  if (/^\d{3}\?\d{2}|^\?\d{2}/.test(flat)) return fromSubfields(flat, '?');
  if (/^\d{3}>\d{2}/.test(flat)) return fromSubfields(flat, '>');
  const codes = codeWords(flat);
  if (codes) return fromCodeWords(codes);
  return { endToEndId: null, remittance: clip(text), counterparty: null };
}
