// Read everything about one disbursement: payouts, refunds and adjustments (paginated), then its files.
// Validation failures are quarantined line by line; a list that cannot be read completely (not an
// envelope, never ending, ending early) marks the disbursement incomplete — it is never reconciled.
import type { z } from 'zod';
import { ApiError } from '../api/errors.js';
import { paginate } from '../api/paginate.js';
import { AdjustmentSchema, PayoutSchema, RefundSchema, describeIssues, type Disbursement } from '../api/schemas.js';
import {
  contentHash, type DisbursementBundle, type Line, type QuarantinedRecord, type SyncStatus,
} from '../store/bundle.js';
import { FileListError, describeProblem, fetchFiles, type FileDeps } from './files.js';
import { MAX_JSON_DEPTH, canonicalJson, tooDeepStandIn } from './canonical.js';

export interface ExtractDeps extends FileDeps {
  perPage: number;
  /** A child list whose totals counted fewer lines than were read (the list lagged): a warning on the run. */
  onLaggedList?: (note: string) => void;
}

/** Lines still allowed for one disbursement, shared by its three lists (memory stays bounded). */
interface LineAllowance {
  left: number;
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
  allowance: LineAllowance,
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
    paging: for (;;) {
      const next = await pages.next();
      if (next.done) {
        const o = next.value;
        if (o.ended === 'page_cap') problem = `${resource}: the list did not end after ${o.pages} pages`;
        else if (o.collected < o.totalEntries)
          problem = `${resource}: ${o.collected} of ${o.totalEntries} announced lines received ` +
                      `(${o.ended.replace('_', ' ')})`;
        if (o.lagged) deps.onLaggedList?.(o.lagged);
        break;
      }
      const onThisPage = new Map<string, number>();
      for (const item of next.value.items) {
        lineNo += 1;
        if (--allowance.left < 0) {
          problem = `${resource}: more than ${deps.maxLines} lines for one disbursement (--max-lines); the rest was ` +
                      `not read`;
          await pages.return({ totalEntries: 0, collected: 0, pages: 0, ended: 'last_page', lagged: null });
          break paging;
        }
        // canonical (keys sorted): the same line served with its fields in another order is the same line
        const raw = canonicalJson(item);
        if (raw === null) {
          quarantine.push({
            resource: singular,
            lineNo,
            reason: `nests deeper than ${MAX_JSON_DEPTH} levels; not kept`,
            raw: tooDeepStandIn(),
          });
          continue;
        }
        // An item served again on a later page is the list shifting under us, not a second line: kept
        // apart so it is neither summed twice nor lost (the missing line shows in the totals check).
        const earlier = seenOnEarlierPages.get(raw);
        if (earlier !== undefined) {
          quarantine.push({
            resource: singular,
            lineNo,
            reason: `repeats line ${earlier} of an earlier page (the list changed while it was read)`,
            raw,
          });
          continue;
        }
        if (!onThisPage.has(raw)) onThisPage.set(raw, lineNo);
        const parsed = schema.safeParse(item);
        if (parsed.success) lines.push({ lineNo, value: parsed.data, raw });
        else quarantine.push({ resource: singular, lineNo, reason: describeIssues(parsed.error, item), raw });
      }
      for (const [raw, n] of onThisPage) seenOnEarlierPages.set(raw, n);
    }
  } catch (err) {
    if (err instanceof ApiError && !err.transient) problem = `${resource}: ${err.message}`;
    else throw err; // transient failures that outlived their retries fail the run: the service is in trouble
  }
  return { lines, quarantine, problem };
}

/**
 * A disbursement recon could not read: stored as incomplete with the reason (a finding on it), never
 * reconciled, read again next run. Everything else in the night goes on.
 */
export function unreadBundle(record: Disbursement, raw: string, reason: string): DisbursementBundle {
  const partial = {
    record,
    payouts: [],
    refunds: [],
    adjustments: [],
    files: [],
    quarantine: [],
    syncStatus: 'incomplete' as const,
    syncNote: reason,
  };
  return { ...partial, raw, contentHash: contentHash(partial) };
}

export async function extractDisbursement(
  deps: ExtractDeps,
  record: Disbursement,
  raw: string,
): Promise<DisbursementBundle> {
  const id = record.disbursement_id;
  const announced = record.number_of_payments + record.number_of_refunds + record.number_of_adjustments;
  if (announced > deps.maxLines) {
    return unreadBundle(
      record,
      raw,
      `announces ${announced} lines, above the limit of ${deps.maxLines} for one disbursement (--max-lines); not read`,
    );
  }
  const allowance: LineAllowance = { left: deps.maxLines };
  const [payouts, refunds, adjustments] = await Promise.all([
    readChildren(deps, id, 'payouts', PayoutSchema, record.number_of_payments, allowance),
    readChildren(deps, id, 'refunds', RefundSchema, record.number_of_refunds, allowance),
    readChildren(deps, id, 'adjustments', AdjustmentSchema, record.number_of_adjustments, allowance),
  ]);
  const problems = [payouts.problem, refunds.problem, adjustments.problem].filter((p): p is string => p !== null);
  let files: DisbursementBundle['files'] = [];
  try {
    files = await fetchFiles(deps, id);
  } catch (err) {
    if (err instanceof FileListError || (err instanceof ApiError && !err.transient))
      problems.push(`files: ${(err as Error).message}`);
    else throw err;
  }
  const quarantine = [...payouts.quarantine, ...refunds.quarantine, ...adjustments.quarantine];
  for (const f of files) {
    for (const p of f.problems)
      quarantine.push({ resource: 'file', lineNo: p.lineNo, reason: `${f.name}: ${describeProblem(p)}`, raw: '' });
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
    syncNote: problems.length
      ? problems.join('; ')
      : quarantine.length
        ? `${quarantine.length} record(s) quarantined`
        : null,
  };
  return { ...partial, raw, contentHash: contentHash(partial) };
}
