// `make bench`: every stage measured against its own limit, as ratios taken side by side in one run.
// Each stage runs in a fresh process (bench/stages/*); this prints the table and writes
// data/bench/latest.json. `--large` (make bench-large) re-runs only the 10M-payout checks (the heaviest
// stage: ~1.3 GB) and updates that figure in latest.json. docs/performance.md explains each figure.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/paths.js';
import { runStage, type StageResult } from './child.js';
import { type Figure, printTable } from './table.js';
import { measureExcelLimit } from './excel-limit.js';

const OUT_DIR = path.join(PROJECT_ROOT, 'data', 'bench');
const num = (r: StageResult, k: string): number => Number(r[k]);

type Measure = () => Promise<Figure[]>;

/** Every target, written once: what the table prints and the test that says met. */
const TARGETS = {
  request_efficiency: { text: '≤ 1.02', met: (v: number) => v <= 1.02 },
  budget_use: { text: '≥ 0.97 (busiest window ≤ 500)', met: (v: number) => v >= 0.97 },
  rate_limited: { text: '0', met: (v: number) => v === 0 },
  load_ratio: { text: '≤ 1.5', met: (v: number) => v <= 1.5 },
  checks_ratio: { text: '≤ 2', met: (v: number) => v <= 2 },
  excel_ratio: { text: '≤ 1.5', met: (v: number) => v <= 1.5 },
  excel_peak_rss_mb: { text: '< 400', met: (v: number) => v < 400 },
  sync_peak_rss_mb: { text: '< 400', met: (v: number) => v < 400 },
  scaling: { text: '≈ 10× time, flat RSS (≤ 12×, ≤ 1.5× per 10×)', met: (g: { time: number[]; rss: number[] }) => g.time.every((x) => x <= 12) && g.rss.every((x) => x <= 1.5) },
  sandbox_peak_rss_mb: { text: '< 200', met: (v: number) => v < 200 },
  bank_ratio: { text: '≤ 3', met: (v: number) => v <= 3 },
  night_requests_ratio: { text: '≤ 1.1', met: (v: number) => v <= 1.1 },
  night_minutes_10M: { text: '≤ 90', met: (v: number) => v <= 90 },
  sync_cpu_s_per_1M: { text: '≤ 120', met: (v: number) => v <= 120 },
  pg_export_s_per_1M: { text: 'printed', met: (v: number) => Number.isFinite(v) },
  pg_night_ratio: { text: '≈ 1/12 (≤ 0.15)', met: (v: number) => v <= 0.15 },
  year_publish_ratio: { text: '≤ 1.5', met: (v: number) => v <= 1.5 },
  year_export_ratio: { text: '≤ 1.5', met: (v: number) => v <= 1.5 },
  year_checks_ratio: { text: '≤ 1.5', met: (v: number) => v <= 1.5 },
} as const;
type NumericKey = Exclude<keyof typeof TARGETS, 'scaling'>;

/** A figure against its target. */
function figure(key: NumericKey, value: number, note: string, extra: Partial<Figure> = {}): Figure {
  return { key, target: TARGETS[key].text, value, met: TARGETS[key].met(value), note, ...extra };
}
const planned = (...keys: Array<keyof typeof TARGETS>) => keys.map((key) => ({ key, target: TARGETS[key].text }));

/** A store past a sheet's rows (excel-limit.ts): recon check and recon report at their defaults. */
const EXCEL_LIMIT_KEYS = [
  { key: 'excel_limit_check_peak_rss_mb', target: '< 400, exit 0 or 1' },
  { key: 'excel_limit_report_peak_rss_mb', target: '< 400, exit 0 or 1' },
  { key: 'excel_limit_sheet_rows', target: '≤ 1048576' },
];

/** A stage that fails leaves its figures missed with the reason, never absent. */
async function measure(keys: Array<Pick<Figure, 'key' | 'target'>>, fn: Measure): Promise<Figure[]> {
  try {
    return await fn();
  } catch (err) {
    const reason = `not measured: ${(err as Error).message}`;
    return keys.map((k) => ({ ...k, value: null, met: false, note: reason }));
  }
}

/** request_efficiency on three nights (stages/requests.ts); the minimum's rule is the sandbox child's, from the interface. */
const REQUEST_NIGHTS: Array<[mode: string, args: number[], label: string]> = [
  ['backfill', [250, 30], 'backfill, 100–300 ms latency, 5 % faults, sampling on'],
  ['night2', [2000, 30], 'second night, 1 % new, default lookback and rotation'],
  ['realistic', [1000, 30], 'realistic profile, negotiated page size'],
];

const requestEfficiency: Measure = async () => {
  const figures: Figure[] = [];
  for (const [mode, args, label] of REQUEST_NIGHTS) {
    const r = await runStage('requests', [mode, ...args]);
    const issued = num(r, 'issued');
    const needed = num(r, 'needed');
    const s = r.served as Record<string, number>;
    const m = r.minimum as Record<string, number>;
    figures.push(figure('request_efficiency', issued / needed,
      `${issued} answered read requests for a minimum of ${needed} at ${r.perPage} per page (${m.listed} listed, children of ${m.disbursements}: ` +
        `list ${s.list}/${m.list}, files ${s.files}/${m.files}, payouts ${s.payouts}/${m.payouts}, refunds ${s.refunds}/${m.refunds}, ` +
        `adjustments ${s.adjustments}/${m.adjustments}, by id ${s.disbursement}/0). Apart: retries of 5xx ${r.retries}, refused (page-size ` +
        `negotiation) ${r.refusals}, redirects ${r.redirects}, downloads ${r.downloads}/${m.downloads} offered, payment look-ups ${r.lookups}. ` +
        `${fmt(num(r, 'elapsed'))} s.`,
      { scale: label, detail: r }));
  }
  return figures;
};

/**
 * Ten nights at two volumes (stages/nights.ts): nights 2 and 10 against what they truly need, and the
 * night at 10M payouts a month projected from the two volumes' measured request counts.
 */
const NIGHT_VOLUMES = [300, 900];
/** 10M payouts a month at ~100 payouts per disbursement: disbursements delivered per night. */
const NEW_PER_NIGHT_10M = 10_000_000 / 100 / 30;
/** A year of history at that volume, walked whole without a list filter at the page size the service accepts. */
const HISTORY_10M = NEW_PER_NIGHT_10M * 365;
const BUDGET_PER_MINUTE = 450;

const nightsMeasure: Measure = async () => {
  const runs: StageResult[] = [];
  for (const v of NIGHT_VOLUMES) runs.push(await runStage('nights', [v, 100], 1_800_000));
  const figures: Figure[] = [];
  type Night = { night: number; newDisbursements: number; issued: number; needed: number; ratio: number; fetched: number; listed: number;
    by: Record<string, number>; minimum: Record<string, number>; reasons: Record<string, number> };
  for (const r of runs) {
    for (const night of r.nights as Night[]) {
      figures.push(figure('night_requests_ratio', night.ratio,
        `night ${night.night}: ${night.issued} read requests for a minimum of ${night.needed} (list ${night.by.list ?? 0}/${night.minimum.list} pages of ` +
        `${night.listed} listed at the largest page size accepted; children of ${night.minimum.disbursements}: ${night.reasons.new} new + ${night.reasons.changed} changed + ` +
        `${night.reasons.rotation} by the ${r.rotationNights}-night rotation of the ${r.lookbackDays}-day window; recon read ${night.fetched}).`,
        { scale: `${r.disbursements} disbursements × ${r.payoutsPer}, night ${night.night}`, detail: night }));
    }
  }
  // projection: child requests of night 10 as a line through the two volumes' (new per night, requests)
  const last = (r: StageResult) => (r.nights as Night[]).at(-1)!;
  const [a, b] = runs.map(last) as [Night, Night];
  const children = (x: Night) => x.issued - (x.by.list ?? 0);
  const slope = (children(b) - children(a)) / (b.newDisbursements - a.newDisbursements);
  const projectedChildren = children(a) + slope * (NEW_PER_NIGHT_10M - a.newDisbursements);
  const pageSize = 1000;
  const listPages = Math.ceil(HISTORY_10M / pageSize);
  const minutes = (projectedChildren + listPages) / BUDGET_PER_MINUTE;
  figures.push(figure('night_minutes_10M', minutes,
    `${Math.round(projectedChildren)} child requests (a line through night 10 at ${a.newDisbursements} and ${b.newDisbursements} new disbursements a night: ` +
    `${children(a)} and ${children(b)} requests, ${fmt(slope)} per new disbursement incl. its share of the rotation) at ${Math.round(NEW_PER_NIGHT_10M)} new a night, ` +
    `+ ${listPages} list pages (a year of history, ${Math.round(HISTORY_10M)} disbursements, walked whole at ${pageSize} per page without a list filter; ` +
    `at 100 per page it would be ${Math.ceil(HISTORY_10M / 100)} pages, ${fmt(Math.ceil(HISTORY_10M / 100) / BUDGET_PER_MINUTE)} min), at ${BUDGET_PER_MINUTE}/min.`,
    { detail: { slope, projectedChildren, listPages } }));
  // CPU per payout synced: the slope between the two backfills (fixed costs — opening, migrating and
  // checkpointing the store — cancel out), the whole process (DuckDB's threads too)
  const [small, big] = runs.map((r) => r.backfill as { payouts: number; cpuS: number; delivered: number }) as [{ payouts: number; cpuS: number; delivered: number }, { payouts: number; cpuS: number; delivered: number }];
  const perMillion = (big.cpuS - small.cpuS) / ((big.payouts - small.payouts) / 1e6);
  figures.push(figure('sync_cpu_s_per_1M', perMillion,
    `CPU (user + system, every thread) of recon's process for the backfill night: ${fmt(small.cpuS)} s for ${small.payouts} payouts of ${small.delivered} disbursements, ` +
    `${fmt(big.cpuS)} s for ${big.payouts} of ${big.delivered}, with their files (sandbox in its own process); the slope between them, per 1M payouts ` +
    `(${fmt(big.cpuS / (big.payouts / 1e6))} s per 1M at the larger volume, fixed costs included).`,
    { detail: { small, big } }));
  return figures;
};

const budgetUse: Measure = async () => {
  const r = await runStage('budget', [6000, 560]);
  const concurrency = num(r, 'concurrency');
  // of recon's own budget (what it may use), the service's limit held by the busiest sliding window
  const value = num(r, 'steadyPerWindow') / num(r, 'budgetPerWindow');
  const withinLimit = num(r, 'peakInWindow') <= num(r, 'serviceLimit');
  const limited = Math.max(num(r, 'sandboxRateLimited'), num(r, 'clientRateLimited'));
  const faults = Object.values(r.faults as Record<string, number>).reduce((a, b) => a + b, 0);
  return [figure('budget_use', value,
    `${fmt(num(r, 'steadyPerWindow'))} requests per 6 s window achieved over ${r.windows} whole windows against recon's budget of ` +
      `${r.budgetPerWindow} per window (the service's limit ${r.serviceLimit}, sliding; latency 100–300 ms, ${faults} transient 5xx ` +
      `faults = 5 %; recon's defaults: --concurrency ${concurrency} as the ceiling of the adaptive limit, which starts at 8 and at ` +
      `the first answers moves to what the budget's rate × the latency needs); ` +
      `overall ${fmt(num(r, 'overallPerWindow'))}/window over ${fmt(num(r, 'spanS'))} s; busiest sliding window ` +
      `${r.peakInWindow}/${r.serviceLimit}; CPU ${fmt(num(r, 'cpuS'))} s.`,
    { detail: r, met: TARGETS.budget_use.met(value) && withinLimit }),
  figure('rate_limited', limited, `429s answered by the sandbox during the budget run (client counted ${r.clientRateLimited}).`)];
};

const load: Measure = async () => {
  const r = await runStage('load', [5000, 100, 3]);
  const rows = r.rows as Record<string, number>;
  const pairs = r.pairs as Array<{ recon: number; duckdb: number; ratio: number; reconCpu: number; duckdbCpu: number; cpuRatio: number }>;
  const ratios = pairs.map((p) => p.ratio);
  const cpuRatios = pairs.map((p) => p.cpuRatio);
  const total = Object.values(rows).reduce((a, b) => a + b, 0);
  return [figure('load_ratio', median(ratios),
    `median ${spread(ratios)}: StoreWriter ${pairs.map((p) => fmt(p.recon)).join(' / ')} s vs DuckDB read_json ${pairs.map((p) => fmt(p.duckdb)).join(' / ')} s ` +
    `for the same ${total} rows (${Object.entries(rows).map(([t, n]) => `${t} ${n}`).join(', ')}), same column types, fresh stores, interleaved. ` +
    `CPU time (every thread): ratio ${spread(cpuRatios)}, ${pairs.map((p) => fmt(p.reconCpu)).join(' / ')} s vs ${pairs.map((p) => fmt(p.duckdbCpu)).join(' / ')} s.`,
    { detail: r })];
};

const checks = (disbursements: number, label: string): Measure => async () => {
  const r = await runStage('checks', [disbursements, 100], 1_800_000);
  const night = r.night as StageResult;
  const pairs = r.pairs as Array<{ checksS: number; bareS: number; ratio: number }>;
  const ratios = pairs.map((p) => p.ratio);
  const checksS = median(pairs.map((p) => p.checksS));
  const slow = (r.slowestChecks as Array<{ checkId: string; ms: number }>).map((c) => `${c.checkId} ${fmt(c.ms / 1000)}`).join(', ');
  const perMillion = checksS / (num(r, 'payouts') / 1e6);
  return [figure('checks_ratio',
    median(ratios),
    `median ${spread(ratios)}: runChecks ${pairs.map((p) => fmt(p.checksS)).join(' / ')} s vs the bare work ${pairs.map((p) => fmt(p.bareS)).join(' / ')} s ` +
    `(8 scans: per line table GROUP BY, 3 repeat scans, file-line ⋈ API-line) over ${r.payouts} payouts, ${r.refunds} refunds, ${r.adjustments} adjustments, ` +
    `${r.fileLines} file lines of ${r.disbursements} disbursements (sandbox proportions, ${r.findings} findings open from the night before), ` +
    `--memory-mb ${r.memoryMb}: ${fmt(perMillion)} s per 1M payouts; phases of the last run (ms): ${Object.entries((r.phases ?? {}) as Record<string, number>).map(([k, v]) => `${k} ${v}`).join(', ')}; `
    + `slowest checks (s): ${slow}; findings hash ${String(r.findingsHash)}.`, { scale: label, detail: r }),
  figure('excel_peak_rss_mb', num(night, 'peakRssMb'),
    `maxRSS of a process (checks-workbook.ts, the bin's memory settings) that opened that store, ran the checks and then wrote the run's exception workbook from it ` +
    `(${night.findings} findings, ${r.disbursements} disbursements, ${fmt(num(night, 'workbookS'))} s), as recon run does; ${fmt(num(night, 'rssBeforeWorkbookMb'))} MB before the workbook. ` +
    `The store was built by another process and the bare work ran in a third (the checks stage's).`,
    { scale: `after checks, same process, ${label}` })];
};

const excel: Measure = async () => {
  const pairs: Array<{ recon: StageResult; bare: StageResult; styled: StageResult; ratio: number; floor: number }> = [];
  for (let i = 0; i < 3; i += 1) {
    const order = i % 2 === 0 ? ['recon', 'bare', 'styled'] : ['styled', 'bare', 'recon'];
    const got: Record<string, StageResult> = {};
    for (const mode of order) got[mode] = await runStage('excel', [mode, 100_000]);
    const bareS = num(got.bare!, 'seconds');
    pairs.push({ recon: got.recon!, bare: got.bare!, styled: got.styled!, ratio: num(got.recon!, 'seconds') / bareS, floor: num(got.styled!, 'seconds') / bareS });
  }
  const ratios = pairs.map((p) => p.ratio);
  const floors = pairs.map((p) => p.floor);
  const cpuRatios = pairs.map((p) => num(p.recon, 'cpuSeconds') / num(p.bare, 'cpuSeconds'));
  const rss = Math.max(...pairs.map((p) => num(p.recon, 'peakRssMb')));
  return [figure('excel_ratio', median(ratios),
    `median ${spread(ratios)}: writeExceptionWorkbook ${pairs.map((p) => fmt(num(p.recon, 'seconds'))).join(' / ')} s vs bare exceljs ` +
    `${pairs.map((p) => fmt(num(p.bare, 'seconds'))).join(' / ')} s for the same ${pairs[0]!.bare.cells} cell values (100 000 findings, empty cells left out), ` +
    `the same money conversion and the same yielding; each side in its own process, interleaved. CPU time (all threads) ` +
    `${pairs.map((p) => fmt(num(p.recon, 'cpuSeconds'))).join(' / ')} s vs ${pairs.map((p) => fmt(num(p.bare, 'cpuSeconds'))).join(' / ')} s, ` +
    `ratio ${spread(cpuRatios)}. exceljs's own styled path (the same cells with recon's styles given the cheapest way: ` +
    `one shared style object per column, no lookup; recon renders its table rows itself) ${pairs.map((p) => fmt(num(p.styled, 'seconds'))).join(' / ')} s, ` +
    `median ${fmt(median(floors))}× bare ${spread(floors)}.`, { detail: pairs }),
  figure('excel_peak_rss_mb', rss, `maxRSS of a process writing only the workbook (100 000 findings), the most of the 3 runs.`, { scale: 'alone' })];
};

const bank: Measure = async () => {
  const r = await runStage('bank', [100_000, 50_000]);
  const pairs = r.pairs as Array<{ checksS: number; bareS: number; ratio: number }>;
  const ratios = pairs.map((p) => p.ratio);
  const found = Object.entries(r.findings as Record<string, number>).map(([k, v]) => `${k} ${v}`).join(', ');
  const kinds = Object.entries(r.matches as Record<string, number>).map(([k, v]) => `${k} ${v}`).join(', ');
  const agrees = num(r, 'baselineDisagrees') === 0;
  return [figure('bank_ratio', agrees ? median(ratios) : Number.POSITIVE_INFINITY,
    `median ${spread(ratios)}: the seven bank checks ${pairs.map((p) => fmt(p.checksS)).join(' / ')} s vs the matching alone by the simplest correct ` +
    `query over the raw tables (bench/stages/bank-baseline.ts: batches by reference, rounds of mutual first choices, fees, batches by sum) ` +
    `${pairs.map((p) => fmt(p.bareS)).join(' / ')} s, ${r.disbursements} disbursements against ${r.bankLines} bank lines (--memory-mb 192); ` +
    `${agrees ? 'the baseline agrees with bank_matches pair for pair' : `THE BASELINE DISAGREES WITH bank_matches ON ${num(r, 'baselineDisagrees')} PAIRS`} ` +
    `(${kinds}); findings: ${found}; findings hash ${String(r.findingsHash)}.`, { detail: r })];
};

/** Runs of each of the two smaller scales (interleaved): one run's peak RSS moves by ±10 % (GC and checkpoint timing). */
const SCALING_RUNS = 3;

const scaling: Measure = async () => {
  const small: StageResult[][] = [[], []];
  for (let i = 0; i < SCALING_RUNS; i += 1) {
    for (const [k, d] of [100, 1000].entries()) small[k]!.push(await runStage('sync-scale', [d, 100], 900_000));
  }
  const big = await runStage('sync-scale', [10_000, 100], 900_000);
  // per scale: the median of its runs (the 1M scale runs once: it is sync_peak_rss_mb's own run)
  const scales = [...small, [big]].map((rs) => ({
    payouts: rs[0]!.payouts, requests: rs[0]!.requests,
    syncS: median(rs.map((r) => num(r, 'syncS'))), checksS: median(rs.map((r) => num(r, 'checksS'))),
    peakRssMb: median(rs.map((r) => num(r, 'peakRssMb'))), peaks: rs.map((r) => num(r, 'peakRssMb')),
  }));
  const total = (r: (typeof scales)[number]) => r.syncS + r.checksS;
  const timeGrowth = [total(scales[1]!) / total(scales[0]!), total(scales[2]!) / total(scales[1]!)];
  const rssGrowth = [scales[1]!.peakRssMb / scales[0]!.peakRssMb, scales[2]!.peakRssMb / scales[1]!.peakRssMb];
  const met = TARGETS.scaling.met({ time: timeGrowth, rss: rssGrowth });
  const steps = scales.map((r) => `${r.payouts} payouts: sync ${fmt(r.syncS)} s + checks ${fmt(r.checksS)} s, ` +
    `${rate(Number(r.payouts), r.syncS)} payouts/s synced, ${r.requests} requests, peak RSS ${fmt(r.peakRssMb)} MB` +
    (r.peaks.length > 1 ? ` (median of ${r.peaks.map(fmt).join(' / ')})` : ''));
  return [figure('sync_peak_rss_mb', num(big, 'syncRssMb'),
    `maxRSS after a full sync of ${big.payouts} payouts (${big.disbursements} disbursements, ${big.files} files) in ${fmt(num(big, 'syncS'))} s; sandbox in its own process. ` +
      `JS heap + buffers peaked at ${fmt(num(big, 'jsPeakMb'))} MB: the rest is DuckDB (held to --sync-memory-mb, default 64 MB, during the sync and --memory-mb, default 192 MB, for the checks) and the process itself.`),
  {
    key: 'scaling', target: TARGETS.scaling.text, value: { timeGrowthPer10x: timeGrowth, rssGrowthPer10x: rssGrowth }, met,
    note: `sync+checks at 10k/100k/1M payouts (10k and 100k ${SCALING_RUNS} runs each, interleaved, their medians): time ×${timeGrowth.map(fmt).join(', ×')} per 10×, ` +
      `RSS ×${rssGrowth.map(fmt).join(', ×')}; ${steps.join('; ')}.`,
    detail: [...small.flat(), big],
  }];
};

const sandboxRss: Measure = async () => {
  const r = await runStage('sandbox-rss', [100_000, 100, 25, 45]);
  return [figure('sandbox_peak_rss_mb', num(r, 'peakMb'),
    `VmHWM of the sandbox process serving 100 000 disbursements × ~100 payouts (10M) while a client walked ${r.listPages} of the 1000 list pages (for at ` +
      `most half the 45 s), then ${r.walkedDisbursements} disbursements' payouts, files and downloads: ${r.requests} requests; ${fmt(num(r, 'afterStartMb'))} MB after start-up ` +
      `(${fmt(num(r, 'startupS'))} s).`, { detail: r })];
};

const pgExport: Measure = async () => {
  const r = await runStage('pg-export', [5000, 100], 1_200_000);
  type Run = { s: number; rows: number; replaced: string[]; months: number };
  const [first, night, unchanged] = [r.first, r.night, r.unchanged] as Run[];
  return [figure('pg_export_s_per_1M', num(r, 'perMillionS'),
    `first export of ${first!.months} months (${first!.rows} rows of every table and finance view, 5000 disbursements × 100 payouts with their files' lines, ` +
    `refunds and adjustments, deliveries over a year) into a local PostgreSQL (Debian's, fsync off): ${fmt(first!.s)} s, ${r.pgMb} MB in the schema; ` +
    `recon's process peaked at ${fmt(num(r, 'peakRssMb'))} MB.`, { detail: r }),
  figure('pg_night_ratio', num(r, 'ratio'),
    `a night later, one disbursement of one month restated and a run recorded: ${night!.replaced.join(', ')} replaced (${night!.rows} rows) in ${fmt(night!.s)} s ` +
    `against the first export's ${fmt(first!.s)} s; with nothing changed an export takes ${fmt(unchanged!.s)} s (fingerprinting every month of the snapshot).`)];
};

/** A night's publish and Parquet export on 12 months of history against 1 month (stages/year-publish.ts). */
const yearPublish: Measure = async () => {
  const r = await runStage('year-publish', [10_000, 100], 3_600_000);
  type Night = { publishS: number; exportS: number; monthFilesWritten: number; exportFilesWritten: number;
    storeMb: number; snapshotMb: number; exportMb: number; firstPublishS: number; firstExportS: number };
  const [one, year] = [r.one, r.year] as Night[];
  const scale = `${Number(r.perMonth) * Number(r.payoutsPer)} payouts a month`;
  const side = (n: Night) => `store ${fmt(n.storeMb)} MB, snapshot with its month files ${fmt(n.snapshotMb)} MB, ` +
    `export folder ${fmt(n.exportMb)} MB`;
  return [figure('year_publish_ratio', num(r, 'publishRatio'),
    `a night (a day's disbursements of the last month restated, a run recorded; the quicker of two), ${scale}: ` +
    `publishing the snapshot ` +
    `took ${fmt(year!.publishS)} s on 12 months (${year!.monthFilesWritten} month files written; ${side(year!)}) ` +
    `against ${fmt(one!.publishS)} s on 1 month (${one!.monthFilesWritten}; ${side(one!)}); the first publish of each ` +
    `${fmt(year!.firstPublishS)} s and ${fmt(one!.firstPublishS)} s.`, { detail: r }),
  figure('year_export_ratio', num(r, 'exportRatio'),
    `the same night's \`recon export --parquet\` into the folder of the export before: ${fmt(year!.exportS)} s on ` +
    `12 months (${year!.exportFilesWritten} files written) against ${fmt(one!.exportS)} s on 1 month ` +
    `(${one!.exportFilesWritten}); the first export of each ${fmt(year!.firstExportS)} s and ${fmt(one!.firstExportS)} s; ` +
    `peak RSS ${fmt(num(r, 'peakRssMb'))} MB.`)];
};

/**
 * A night's incremental check on twelve months of history against the same night's on one month
 * (stages/year-checks.ts), both at 1M payouts a month, by CPU time; then the last night checked in full on a
 * copy of each store, which must give the same rows and findings.
 */
const yearChecks: Measure = async () => {
  const r = await runStage('year-checks', [10_000, 12, 3], 1_800_000);
  type Check = { cpuS: number; wallS: number; scope: { disbursements: number; keys: number; carried: number } | null; slowest: string[] };
  const nights = r.measured as Array<{ night: number; year: Check; month: Check }>;
  const ratios = nights.map((n) => n.year.cpuS / n.month.cpuS);
  const same = r.same as Record<'year' | 'month', { identical: boolean; incremental: Check; full: Check; findingsHash: string }>;
  const counts = r.counts as Record<'year' | 'month', { payouts: number; disbursements: number }>;
  const identical = same.year.identical && same.month.identical;
  const cpu = (side: 'year' | 'month') => nights.map((n) => fmt(n[side].cpuS)).join(' / ');
  const wall = (side: 'year' | 'month') => nights.map((n) => fmt(n[side].wallS)).join(' / ');
  const s = nights[0]!.year.scope!;
  return [figure('year_checks_ratio', identical ? median(ratios) : Number.POSITIVE_INFINITY,
    `median ${spread(ratios).replace('pairs', 'nights')}, CPU time (user + system, every thread): a night's incremental check on ${counts.year.payouts} payouts ` +
    `(${counts.year.disbursements} disbursements, 12 months) ${cpu('year')} s against the same night on ${counts.month.payouts} (one month) ${cpu('month')} s; ` +
    `wall ${wall('year')} s against ${wall('month')} s on the shared machine. A night: ${s.disbursements} disbursements re-checked (new and restated), ` +
    `${s.keys} keys, ${s.carried} open findings carried (year). The full check of the last night: ${fmt(same.year.full.cpuS)} s (year) and ` +
    `${fmt(same.month.full.cpuS)} s (month) against ${fmt(same.year.incremental.cpuS)} s and ${fmt(same.month.incremental.cpuS)} s incremental; ` +
    `${identical ? 'the same rows and findings' : 'THE ROWS OR FINDINGS DIFFER FROM THE FULL CHECK'} (${same.year.findingsHash}; ${same.month.findingsHash}). ` +
    `Slowest checks of the year's first night (ms): ${nights[0]!.year.slowest.join(', ')}.`, { detail: r })];
};

/** The middle of an odd number of values (the lower middle of an even number). */
function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}
/** "1.21 (1.18–1.30 over 3 pairs)": the median ratio and the spread it came from. */
const spread = (ratios: number[]) => `${fmt(median(ratios))} (${fmt(Math.min(...ratios))}–${fmt(Math.max(...ratios))} over ${ratios.length} pairs)`;

function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  return Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2);
}
const rate = (rows: number, s: number): string => Math.round(rows / s).toLocaleString('en-US');

function machine(): Record<string, unknown> {
  return {
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    ramGb: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    // the machine may be shared: the 1-minute load average says how busy it was when the run ended
    loadAverage1m: Number(os.loadavg()[0]!.toFixed(2)),
    date: new Date().toISOString(),
  };
}

async function main(): Promise<void> {
  const large = process.argv.includes('--large');
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
  const started = performance.now();
  const plan: Array<[string, Array<Pick<Figure, 'key' | 'target'>>, Measure]> = large
    ? [['checks', planned('checks_ratio', 'excel_peak_rss_mb'), checks(100_000, '10M payouts / 100k disbursements')]]
    : [
        ['requests', planned('request_efficiency'), requestEfficiency],
        ['nights', planned('night_requests_ratio', 'night_minutes_10M', 'sync_cpu_s_per_1M'), nightsMeasure],
        ['budget', planned('budget_use', 'rate_limited'), budgetUse],
        ['load', planned('load_ratio'), load],
        ['checks', planned('checks_ratio', 'excel_peak_rss_mb'), checks(10_000, '1M payouts / 10k disbursements')],
        ['excel', planned('excel_ratio', 'excel_peak_rss_mb'), excel],
        ['bank', planned('bank_ratio'), bank],
        ['scaling', planned('sync_peak_rss_mb', 'scaling'), scaling],
        ['sandbox', planned('sandbox_peak_rss_mb'), sandboxRss],
        ['pg-export', planned('pg_export_s_per_1M', 'pg_night_ratio'), pgExport],
        ['year-publish', planned('year_publish_ratio', 'year_export_ratio'), yearPublish],
        ['year-checks', planned('year_checks_ratio'), yearChecks],
        ['excel-limit', EXCEL_LIMIT_KEYS, () => measureExcelLimit(OUT_DIR)],
      ];
  process.stderr.write(`recon bench${large ? ' (large)' : ''}: each stage in its own process\n`);
  const figures: Figure[] = [];
  for (const [name, keys, fn] of plan) {
    if (only && !only.includes(name)) continue;
    figures.push(...(await measure(keys, fn)));
  }
  const durationS = (performance.now() - started) / 1000;
  printTable(figures, durationS);

  mkdirSync(OUT_DIR, { recursive: true });
  const file = path.join(OUT_DIR, 'latest.json');
  const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  const entries = Object.fromEntries(figures.map((f) => [f.scale ? `${f.key} [${f.scale}]` : f.key, f]));
  const partial = large || only !== undefined; // re-measured figures replace theirs, the rest stay
  const out = partial
    ? { ...previous, ...entries, partialRun: { stages: figures.map((f) => f.key), machine: machine(), durationS } }
    : { ...entries, machine: machine(), durationS };
  writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  process.stderr.write(`wrote ${path.relative(process.cwd(), file)} (${fmt(durationS)} s)\n`);
}

void main();
