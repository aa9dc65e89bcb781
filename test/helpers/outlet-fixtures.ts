// A night's facts by hand, with hostile service text, for the outlets' unit tests.
import ExcelJS from 'exceljs';
import path from 'node:path';
import type { CheckRunResult, LatestFinding } from '../../src/checks/index.js';
import type { NightFacts } from '../../src/outlets/facts.js';

export const HOSTILE = '<script>alert(1)</script> & <!channel> =HYPERLINK("http://x")';

export async function smallWorkbook(dir: string, name = 'recon-2026-11-24-023100Z-ab12.xlsx'): Promise<string> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Summary').addRow(['recon', 'a workbook']);
  const file = path.join(dir, name);
  await wb.xlsx.writeFile(file);
  return file;
}

export function finding(over: Partial<LatestFinding> = {}): LatestFinding {
  return {
    key: 'k1', status: 'new', ageDays: 0, checkId: 'total_identity', severity: 'error', recipientId: 'rcp_1', disbursementId: 'dsb_1',
    subject: 'amount', currency: 'EUR', expected: 10000n, actual: 11234n, difference: 1234n, detail: `provider said ${HOSTILE}`,
    firstSeen: new Date('2026-11-24T02:31:00Z'), lastSeen: new Date('2026-11-24T02:31:00Z'), ackNote: null, ackBy: null, ackAt: null, ackEntries: 0,
    stake: 1234n, stakeConverted: null, rootKey: over.key ?? 'k1', isRoot: true, groupSize: 1, ...over,
  };
}

export function nightFacts(workbook: string, over: Partial<NightFacts> = {}): NightFacts {
  const checks: CheckRunResult = {
    runId: '20261124T023100Z-ab12', checkedAt: new Date('2026-11-24T02:31:00Z'),
    checks: [{ checkId: 'total_identity', findings: 2, ms: 12, offsetMs: 0 }, { checkId: 'missing_files', findings: 1, ms: 3, offsetMs: 12 }],
    findings: 3,
    byCheck: [{ checkId: 'missing_files', severity: 'warning', count: 1 }, { checkId: 'total_identity', severity: 'error', count: 2 }],
    byStatus: { new: 1, open: 1, acknowledged: 1, resolved: 2 },
    actionable: 2,
  };
  return {
    nextSteps: { total_identity: 'Ask the provider which line is missing or wrong; post the difference to suspense until they answer, then acknowledge with their ticket number.' },
    runId: checks.runId,
    checks,
    counters: { disbursements_listed: 40, disbursements_loaded: 3, disbursements_skipped: 37, restated: 1, quarantined: 0, requests: 55, retries: 2, rate_limited: 1 },
    counts: [
      { checkId: 'missing_files', severity: 'warning', status: 'acknowledged', findings: 1 },
      { checkId: 'total_identity', severity: 'error', status: 'new', findings: 1 },
      { checkId: 'total_identity', severity: 'error', status: 'open', findings: 1 },
      { checkId: 'total_identity', severity: 'error', status: 'resolved', findings: 2 },
    ],
    moneyAtStake: [{ currency: 'EUR', subunits: 1234n, findings: 1 }, { currency: 'KWD', subunits: 5n, findings: 1 }],
    top: [finding(), finding({ key: 'k2', status: 'open', currency: 'KWD', difference: -5n, stake: 5n, detail: 'short by 0.005' })],
    bank: { settled: 30, awaiting: 8, unsettled: 2 },
    workbook,
    ageing: [{ currency: 'EUR', oldest: 4, buckets: [{ bucket: '0–2', causes: 0, atStake: null }, { bucket: '3–7', causes: 1, atStake: 1234n },
      { bucket: '8–30', causes: 0, atStake: null }, { bucket: '> 30', causes: 0, atStake: null }] }],
    ...over,
  };
}
