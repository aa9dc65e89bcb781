// A run's workbook and results file (recon-2026-11-23-070307Z-f434.xlsx / .json, named by run-report.ts
// and results.ts), and the CSVs of its lists too long for a sheet (…-f434-disbursements.csv, list-sheet.ts),
// under the retention: which are older than the cut-off, read from the run id in the name
// (the run's own time, not the file's). Anything else in the reports folder — recon-latest.*, close
// workbooks and journals, junit.xml — is never a candidate, nor a symbolic link.
import { readdir } from 'node:fs/promises';
import path from 'node:path';

const RUN_FILE = /^recon-(\d{4})-(\d{2})-(\d{2})-(\d{6}Z-[0-9a-f]+)(?:\.(?:xlsx|json)|-[a-z0-9]+(?:-[a-z0-9]+)*\.csv)$/;

interface RunFile {
  path: string;
  runId: string;
  /** When the run started (from its id). */
  at: Date;
}

/**
 * The run id a workbook or results file name carries (recon-2026-11-23-070307Z-f434.xlsx → 20261123T070307Z-f434), or
 * null.
 */
function runOfReport(name: string): { runId: string; at: Date } | null {
  const m = RUN_FILE.exec(name);
  if (!m) return null;
  const [, y, mo, d, rest] = m as unknown as [string, string, string, string, string];
  const at = new Date(`${y}-${mo}-${d}T${rest.slice(0, 2)}:${rest.slice(2, 4)}:${rest.slice(4, 6)}Z`);
  return Number.isNaN(at.getTime()) ? null : { runId: `${y}${mo}${d}T${rest}`, at };
}

/** Every run workbook and results file in `reportsDir` (none when the folder does not exist). */
export async function runReports(reportsDir: string): Promise<RunFile[]> {
  const entries = await readdir(reportsDir, { withFileTypes: true }).catch(() => []);
  return entries.flatMap((e) => {
    const run = e.isFile() ? runOfReport(e.name) : null;
    return run ? [{ path: path.join(reportsDir, e.name), ...run }] : [];
  });
}
