// parse_us_per_line (issue 26): µs per line to read a disbursement file into rows and lines, for a tagged
// .dat file (header, detail and footer records of different lengths) and a header .csv file, through the
// shipped path (parseDisbursementFile: splitPlain for files without quotes) and through csv-parse as it was
// called before (relax_column_count, which builds a CsvError for every record whose length differs from
// the first's: every detail line of a tagged file). Median of 5 rounds after a warm-up round.
// Standalone: npx tsc -p bench/tsconfig.json && node dist-bench/bench/stages/parse.js [lines]
import { loadLayouts } from '../../src/sync/layouts.js';
import { detectDelimiter, parseDisbursementFile, parseQuoted, splitPlain } from '../../src/sync/parse-file.js';
import { stage } from '../lib.js';

function tagged(lines: number): string {
  const out = ['H;dsb_1;2026-10-01T00:00:00Z'];
  for (let i = 0; i < lines; i += 1) out.push(`D;${['P', 'R', 'AC', 'AD'][i % 4]};ref_${i};pay_${i};${1000 + i};EUR`);
  out.push(`T;${lines};0`);
  return `${out.join('\n')}\n`;
}

function csv(lines: number): string {
  const out = ['record_type,reference,payment_id,amount,currency,description'];
  for (let i = 0; i < lines; i += 1) out.push(`PAYOUT,ref_${i},pay_${i},${i}.${String(i % 100).padStart(2, '0')},EUR,payout`);
  return `${out.join('\r\n')}\r\n`;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function usPerLine(fn: () => unknown, lines: number): number {
  fn();
  const rounds: number[] = [];
  for (let r = 0; r < 5; r += 1) {
    const t = performance.now();
    fn();
    rounds.push(((performance.now() - t) * 1000) / lines);
  }
  return Number(median(rounds).toFixed(2));
}

stage(async (args) => {
  const lines = Number(args[0] ?? 100_000);
  const layouts = await loadLayouts();
  const out: Record<string, unknown> = { lines };
  for (const [name, text] of [['dat', tagged(lines)], ['csv', csv(lines)]] as const) {
    const delimiter = detectDelimiter(text);
    const buffer = Buffer.from(text);
    out[`${name}_split_before_us`] = usPerLine(() => parseQuoted(text, delimiter), lines);
    out[`${name}_split_after_us`] = usPerLine(() => splitPlain(text, delimiter), lines);
    out[`${name}_parse_file_after_us`] = usPerLine(() => parseDisbursementFile(buffer, layouts), lines);
  }
  return out;
});
