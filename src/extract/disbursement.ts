// Read everything about one disbursement: payouts, refunds and adjustments (paginated), then its files.
// Validation failures are quarantined line by line; a list that cannot be read completely (not an
// envelope, never ending, ending early) marks the disbursement incomplete — it is never reconciled.
import type { z } from 'zod';
import type { PaymentsClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { paginate } from '../api/paginate.js';
import {
  AdjustmentSchema,
  PayoutSchema,
  RefundSchema,
  describeIssues,
  type Disbursement,
} from '../api/schemas.js';
import { contentHash, type DisbursementBundle, type Line, type QuarantinedRecord, type SyncStatus } from './bundle.js';
import { FileListError, fetchFiles, type FileDeps } from './files.js';

export interface ExtractDeps extends FileDeps {
  perPage: number;
}

interface ChildList<T> {
  lines: Line<T>[];
  quarantine: QuarantinedRecord[];
  problem: string | null;
}

async function readChildren<S extends z.ZodType>(
  deps: ExtractDeps,
  disbursementId: string,
  resource: 'payouts' | 'refunds' | 'adjustments',
  schema: S,
  announced: number,
): Promise<ChildList<z.infer<S>>> {
  const path = `/disbursements/${encodeURIComponent(disbursementId)}/${resource}`;
  const lines: Line<z.infer<S>>[] = [];
  const quarantine: QuarantinedRecord[] = [];
  const singular = resource.slice(0, -1) as 'payout' | 'refund' | 'adjustment';
  let lineNo = 0;
  let problem: string | null = null;
  const seenOnEarlierPages = new Map<string, number>();
  const pages = paginate(deps.client, path, resource, {
    perPage: deps.perPage,
    maxPages: announced + 5, // even at per_page 1 a list cannot need more pages; the first envelope narrows it
  });
  try {
    for (;;) {
      const next = await pages.next();
      if (next.done) {
        const o = next.value;
        if (o.ended === 'page_cap') problem = `${resource}: the list did not end after ${o.pages} pages`;
        else if (o.collected < o.totalEntries) problem = `${resource}: ${o.collected} of ${o.totalEntries} announced lines received (${o.ended.replace('_', ' ')})`;
        break;
      }
      const onThisPage = new Map<string, number>();
      for (const item of next.value.items) {
        lineNo += 1;
        const raw = JSON.stringify(item);
        // An item served again on a later page is the list shifting under us, not a second line: kept
        // apart so it is neither summed twice nor lost (the missing line shows in the totals check).
        const earlier = seenOnEarlierPages.get(raw);
        if (earlier !== undefined) {
          quarantine.push({ resource: singular, lineNo, reason: `repeats line ${earlier} of an earlier page (the list changed while it was read)`, raw });
          continue;
        }
        if (!onThisPage.has(raw)) onThisPage.set(raw, lineNo);
        const parsed = schema.safeParse(item);
        if (parsed.success) lines.push({ lineNo, value: parsed.data, raw });
        else quarantine.push({ resource: singular, lineNo, reason: describeIssues(parsed.error), raw });
      }
      for (const [raw, n] of onThisPage) seenOnEarlierPages.set(raw, n);
    }
  } catch (err) {
    if (err instanceof ApiError && !err.transient) problem = `${resource}: ${err.message}`;
    else throw err; // transient failures that outlived their retries fail the run: the service is in trouble
  }
  return { lines, quarantine, problem };
}

export async function extractDisbursement(deps: ExtractDeps, record: Disbursement, raw: string): Promise<DisbursementBundle> {
  const id = record.disbursement_id;
  const [payouts, refunds, adjustments] = await Promise.all([
    readChildren(deps, id, 'payouts', PayoutSchema, record.number_of_payments),
    readChildren(deps, id, 'refunds', RefundSchema, record.number_of_refunds),
    readChildren(deps, id, 'adjustments', AdjustmentSchema, record.number_of_adjustments),
  ]);
  const problems = [payouts.problem, refunds.problem, adjustments.problem].filter((p): p is string => p !== null);
  let files: DisbursementBundle['files'] = [];
  try {
    files = await fetchFiles(deps, id);
  } catch (err) {
    if (err instanceof FileListError || (err instanceof ApiError && !err.transient)) problems.push(`files: ${(err as Error).message}`);
    else throw err;
  }
  const quarantine = [...payouts.quarantine, ...refunds.quarantine, ...adjustments.quarantine];
  for (const f of files) {
    for (const p of f.problems) quarantine.push({ resource: 'file', lineNo: Number(/^line (\d+)/.exec(p)?.[1] ?? 0) || null, reason: `${f.name}: ${p}`, raw: '' });
  }
  const syncStatus: SyncStatus = problems.length ? 'incomplete' : quarantine.length ? 'invalid' : 'complete';
  const partial = {
    record,
    payouts: payouts.lines,
    refunds: refunds.lines,
    adjustments: adjustments.lines,
    files,
    quarantine,
    syncStatus,
    syncNote: problems.length ? problems.join('; ') : quarantine.length ? `${quarantine.length} record(s) quarantined` : null,
  };
  return { ...partial, raw, contentHash: contentHash(partial) };
}
