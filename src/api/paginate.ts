// Pagination over the interface's envelope {total_entries, total_pages, page, per_page, <items>}.
// Trust what the envelope says was applied (per_page may be capped); page on while the service says there
// is more (a `has_more: true` it may add), the page came full, or the totals announce more; stop on an
// empty page, a short one, or a 404 past the end; never page forever; and report whether what was
// collected matches total_entries. The totals are a count the service made, not the list: the interface
// gives them as "total number of results" and says of its lists that "the list can lag" (§ Payment
// (details)), so totals below what was read are a warning (ListOutcome.lagged), never the end.
import type { PaymentsClient } from './client.js';
import { EnvelopeSchema, describeIssues } from './schemas.js';
import { NotFoundError, ResponseShapeError, TerminalApiError, type ApiError } from './errors.js';

/** The page size every list of a run falls back to when the service refuses the one asked for (its default). */
const SERVICE_DEFAULT_PER_PAGE = 10;

/**
 * The page size asked for when none is configured or remembered: the interface does not show
 * the maximum of per_page, so recon asks large once — 1000, then 500, then 100 — and keeps the largest the
 * service accepted. A larger page is fewer requests, and requests are what a night costs.
 */
export const PROBE_PER_PAGE = 1000;
const LADDER = [500, 100];

/** The largest page size an error names ("per_page must be at most 50", {"errors": {"per_page": ["max 50"]}}). */
function namedMaximum(err: ApiError): number | null {
  const text = `${err.body?.detail ?? ''} ${JSON.stringify(err.body?.errors ?? '')}`;
  const m =
    /(?:max(?:imum)?|at most|<=|not (?:be )?(?:greater|more) than|less than or equal to|up to)\D{0,24}?(\d{1,6})/i.exec(
      text,
    );
  const n = m ? Number(m[1]) : NaN;
  return Number.isInteger(n) && n >= 1 ? n : null;
}

/**
 * The first page of a list, at the largest page size the service accepts. The interface does not show the
 * maximum of per_page, so a 400/422 to the size asked for is answered by asking again smaller — the
 * maximum the error names, else the next of 500 and 100, else half — down to the service's own default
 * (per_page left out). The size that worked is kept on the client for every later list (and by the caller
 * for later runs); an error that persists at the default was not about the page size and goes up unchanged.
 */
async function firstPage(client: PaymentsClient, path: string, asked: number): Promise<unknown> {
  let size: number | null = client.pageSize(asked);
  let firstError: ApiError | null = null;
  for (;;) {
    try {
      const body = await client.getJson(path, size === null ? { page: 1 } : { page: 1, per_page: size });
      if (firstError) client.acceptPageSize(size ?? SERVICE_DEFAULT_PER_PAGE, firstError.message);
      else if (size !== null) client.pageSizeServed(size);
      return body;
    } catch (err) {
      const refused =
        err instanceof TerminalApiError &&
        (err.status === 400 || err.status === 422) &&
        !(err instanceof NotFoundError);
      if (!refused || size === null) throw firstError ?? err;
      firstError ??= err;
      const named = namedMaximum(err);
      const current = size;
      const smaller: number =
        named !== null && named < size ? named : (LADDER.find((x) => x < current) ?? Math.floor(size / 2));
      size = smaller > SERVICE_DEFAULT_PER_PAGE || (named !== null && smaller === named) ? smaller : null;
    }
  }
}

interface PageOptions {
  perPage: number;
  /** Hard cap on pages for one list, whatever the envelope claims. */
  maxPages?: number;
  /**
   * Pages allowed beyond what the first envelope announced (items appearing while we page, totals that
   * lag). A list that goes on past that is "a list that never ends" and stops with ended = 'page_cap':
   * what was read is kept, and the caller says the list is unfinished.
   */
  slackPages?: number;
}

/** Pages read beyond the first envelope's announcement before a list counts as never ending. */
export const SLACK_PAGES = 5;
/** Pages of one list at most, whatever any envelope says. */
const MAX_PAGES = 100_000;

export interface ListOutcome {
  totalEntries: number;
  collected: number;
  pages: number;
  /** Why paging ended: 'last_page' | 'empty_page' | 'page_cap'. */
  ended: 'last_page' | 'empty_page' | 'page_cap';
  /** The totals counted fewer entries than were read (the list lagged): what they said, for a warning; else null. */
  lagged: string | null;
}

export interface Page {
  items: unknown[];
  page: number;
  perPage: number;
  totalPages: number;
  totalEntries: number;
}

/**
 * Yields pages of `arrayName` items. Returns a ListOutcome (the generator's return value) so callers can
 * tell a complete list (collected === totalEntries) from one that ended early or lied about its size.
 */
export async function* paginate(
  client: PaymentsClient,
  path: string,
  arrayName: string,
  options: PageOptions,
): AsyncGenerator<Page, ListOutcome> {
  let maxPages = options.maxPages ?? MAX_PAGES;
  const slack = options.slackPages ?? SLACK_PAGES;
  let collected = 0;
  let totalEntries = 0;
  let expectedPages = 1;
  let pages = 0;
  let said = '';
  let previous: unknown[] | null = null;
  const outcome = (ended: ListOutcome['ended']): ListOutcome => ({ totalEntries, collected, pages, ended,
    lagged: collected > totalEntries
      ? `${path}: the service counted ${said}, ${collected} entries were read in ${pages} pages` : null });
  for (let page = 1; ; page += 1) {
    if (pages >= maxPages) return outcome('page_cap');
    let body: unknown;
    try {
      body =
        page === 1
          ? await firstPage(client, path, options.perPage)
          : await client.getJson(path, { page, per_page: client.pageSize(options.perPage) });
    } catch (err) {
      // A page past the end answered 404: the list shrank while it was read, or the last page was full.
      // It ends here; whether what was collected is complete is for the caller to judge against total_entries.
      if (page > 1 && err instanceof NotFoundError) return outcome('empty_page');
      throw err;
    }
    pages += 1;
    const envelope = EnvelopeSchema.safeParse(body);
    const items = (body as Record<string, unknown> | null)?.[arrayName];
    if (!envelope.success || !Array.isArray(items)) {
      const why = envelope.success ? `no "${arrayName}" array` : describeIssues(envelope.error);
      throw new ResponseShapeError(`GET ${path}?page=${page}: not a pagination envelope (${why})`, {
        status: 200,
        path,
      });
    }
    totalEntries = Math.max(totalEntries, envelope.data.total_entries);
    said = `${envelope.data.total_entries} entries in ${envelope.data.total_pages} pages`;
    const perPage = envelope.data.per_page;
    if (page === 1) {
      const announced = Math.max(envelope.data.total_pages, Math.ceil(envelope.data.total_entries / perPage));
      maxPages = Math.min(maxPages, announced + slack);
    }
    // total_pages can lie; total_entries at the page size actually applied is the other witness.
    expectedPages = Math.max(envelope.data.total_pages, Math.ceil(totalEntries / perPage));
    if (items.length === 0) return outcome('empty_page');
    // past the announced pages, a service that answers any page number with its last page repeats it: the end
    if (page > expectedPages && previous !== null && JSON.stringify(items) === JSON.stringify(previous)) {
      pages -= 1;
      return outcome('last_page');
    }
    previous = items;
    collected += items.length;
    yield { items, page, perPage, totalPages: envelope.data.total_pages, totalEntries };
    if (!morePages(body, items.length, perPage, page, expectedPages)) return outcome('last_page');
  }
}

/**
 * Whether a list goes on after this page: the service says so (`has_more: true`, a field it may add), the
 * page came full (the totals may lag behind the list), or the totals announce more pages. An explicit
 * `has_more: false` ends a full page only when the totals agree.
 */
function morePages(body: unknown, served: number, perPage: number, page: number, expectedPages: number): boolean {
  const hasMore = (body as Record<string, unknown>).has_more;
  return hasMore === true || (hasMore !== false && served >= perPage) || page < expectedPages;
}
