// Handlers of the read interface (docs/sandbox.md, Endpoints) and of pre-signed file downloads. Pure
// request → Reply functions; auth, limits, faults and delays are the server's business.
import type { Dataset } from './dataset.js';
import type { FaultInjector } from './faults.js';
import { CONTENT_TYPES, fileName, renderFile, s3Error, type LinkSigner } from './files.js';
import type { Model, ModelCache } from './model.js';
import type { Resolved } from './options.js';
import { errorReply, isReply, json, parsePaging, type Endpoint, type Reply } from './replies.js';
import {
  adjustmentJson, disbursementJson, envelopeJson, iso, payoutJson, paymentJson, refundJson, type JsonObject,
} from './resources.js';
import { rngFor } from './rng.js';

export interface ApiContext {
  ds: Dataset;
  opts: Resolved;
  models: ModelCache;
  signer: LinkSigner;
  faults: FaultInjector;
  generation(): number;
  /** Visible disbursements are indexes 0 … visibleCount − 1 (appearWhilePaging hides the newest). */
  visibleCount(): number;
  baseUrl(): string;
  /** How many reads of this list have started (a read starts at page 1): each read may see another order. */
  readNo(list: string, starts: boolean): number;
}

function notFound(path: string, what: string): Reply {
  return errorReply(404, path, `${what} does not exist`);
}

/**
 * A page of `total` items; `item(k)` renders the k-th item of the full sequence. With realism.shuffleOrder
 * a child list (`shuffled`) is served in another order on each read, the same order on every page of
 * one read. With faults.lagTotals the envelope counts fewer than it serves ("the list can lag").
 */
function pageOf(
  ctx: ApiContext,
  name: string,
  path: string,
  query: URLSearchParams,
  total: number,
  item: (k: number) => JsonObject,
  shuffled = false,
): Reply {
  const paging = parsePaging(query, path, ctx.opts.maxPerPage, 10, ctx.opts.realism.rejectPerPageAbove);
  if (isReply(paging)) return paging;
  let order: number[] | null = null;
  if (shuffled && ctx.opts.realism.shuffleOrder && total > 1) {
    const read = ctx.readNo(path, paging.page === 1);
    order = rngFor(ctx.opts.seed, `read-order:${path}`, read).shuffle(Array.from({ length: total }, (_, k) => k));
  }
  const items: JsonObject[] = [];
  const from = (paging.page - 1) * paging.perPage;
  for (let k = from; k < Math.min(total, from + paging.perPage); k += 1) items.push(item(order ? order[k]! : k));
  const counted = Math.max(0, total - ctx.faults.lagTotals);
  return json(
    200,
    envelopeJson(ctx.opts.seed, name, { total: counted, page: paging.page, perPage: paging.perPage }, items),
  );
}

function visibleModel(ctx: ApiContext, id: string): Model | null {
  const i = ctx.ds.parseDisbursementId(id);
  if (i === null || i >= ctx.visibleCount()) return null;
  return ctx.models.get(i, ctx.generation());
}

export function routeApi(ctx: ApiContext, endpoint: Endpoint, path: string, query: URLSearchParams): Reply {
  const seed = ctx.opts.seed;
  const parts = path.split('/').filter(Boolean); // payments, v1, resource, id, child
  const id = decodeURIComponent(parts[3] ?? '');
  switch (endpoint) {
    case 'list': {
      const visible = ctx.visibleCount();
      // newest first: position k is index visible − 1 − k (index order is delivered_at order)
      return pageOf(ctx, 'disbursements', path, query, visible, (k) =>
        disbursementJson(seed, ctx.models.get(visible - 1 - k, ctx.generation())),
      );
    }
    case 'disbursement': {
      const m = visibleModel(ctx, id);
      return m ? json(200, disbursementJson(seed, m)) : notFound(path, `Disbursement ${id}`);
    }
    case 'files': {
      const m = visibleModel(ctx, id);
      return m ? json(200, filesJson(ctx, m)) : notFound(path, `Disbursement ${id}`);
    }
    case 'payouts': {
      const m = visibleModel(ctx, id);
      if (!m) return notFound(path, `Disbursement ${id}`);
      const served = m.payouts.filter((p) => p.inApi);
      return pageOf(
        ctx,
        'payouts',
        path,
        query,
        served.length,
        (k) => payoutJson(seed, m, served[k] as (typeof served)[number]),
        true,
      );
    }
    case 'refunds': {
      const m = visibleModel(ctx, id);
      if (!m) return notFound(path, `Disbursement ${id}`);
      return pageOf(
        ctx,
        'refunds',
        path,
        query,
        m.refunds.length,
        (k) => refundJson(seed, m, m.refunds[k] as (typeof m.refunds)[number]),
        true,
      );
    }
    case 'adjustments': {
      const m = visibleModel(ctx, id);
      if (!m) return notFound(path, `Disbursement ${id}`);
      return pageOf(
        ctx,
        'adjustments',
        path,
        query,
        m.adjustments.length,
        (k) => adjustmentJson(seed, m, m.adjustments[k] as (typeof m.adjustments)[number]),
        true,
      );
    }
    case 'payment': {
      const pid = decodeURIComponent(parts[3] ?? '');
      const at = ctx.ds.parsePaymentId(pid);
      if (!at) return notFound(path, `Payment ${pid}`);
      const m = ctx.models.get(at.i, ctx.generation());
      const p = m.payouts.find((x) => x.j === at.j && !x.duplicate);
      if (p && refusesPayment(ctx, pid)) return errorReply(403, path, 'This API key may not read payment details');
      return p ? json(200, paymentJson(ctx.ds, m, p)) : notFound(path, `Payment ${pid}`);
    }
    default:
      return errorReply(404, path, `No resource at ${path}`);
  }
}

/** Payments whose details the sandbox refuses (realism.refusePaymentRate), fixed per payment. */
function refusesPayment(ctx: { opts: Resolved }, paymentId: string): boolean {
  return (
    ctx.opts.realism.refusePaymentRate > 0 &&
    rngFor(ctx.opts.seed, 'refuse-payment', paymentId).chance(ctx.opts.realism.refusePaymentRate)
  );
}

function filesJson(ctx: ApiContext, m: Model): JsonObject[] {
  const nowS = Math.floor(ctx.opts.now() / 1000);
  const expires = ctx.faults.linksExpired() ? nowS - 60 : nowS + ctx.opts.linkTtlSeconds;
  const links = m.files.map((layout) => {
    const n = m.recipient.layouts.indexOf(layout);
    const name = fileName(layout, m.id);
    const path = `/files/${m.id}/${n}`;
    const url = ctx.opts.realism.durationExpiry
      ? ctx.signer.durationUrl(ctx.baseUrl(), path, nowS, expires - nowS)
      : ctx.signer.url(ctx.baseUrl(), path, expires);
    return rngFor(ctx.opts.seed, 'order', name).chance(0.5) ? { name, url } : { url, name };
  });
  if (ctx.opts.realism.shuffleOrder && links.length > 1) {
    rngFor(ctx.opts.seed, `files-order:${m.id}`, ctx.readNo(`/files/${m.id}`, true)).shuffle(links);
  }
  return links;
}

function xml(status: number, code: string, message: string): Reply {
  return { status, headers: { 'content-type': 'application/xml' }, body: s3Error(code, message) };
}

/** GET /files/{disbursementId}/{n}?expires&signature — pre-signed, no API key (object-store style errors). */
export function download(ctx: ApiContext, path: string, query: URLSearchParams): Reply {
  const verdict = query.has('expiry')
    ? ctx.signer.verifyDuration(path, query.get('issued'), query.get('expiry'), query.get('signature'), ctx.opts.now())
    : ctx.signer.verify(path, query.get('expires'), query.get('signature'), ctx.opts.now());
  if (verdict === 'expired') return xml(403, 'AccessDenied', 'Request has expired');
  if (verdict === 'bad')
    return xml(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided.',
    );
  const [, , rawId, rawN] = path.split('/');
  const i = ctx.ds.parseDisbursementId(decodeURIComponent(rawId ?? ''));
  const m = i === null ? null : ctx.models.get(i, ctx.generation());
  const layout = m && /^\d+$/.test(rawN ?? '') ? m.recipient.layouts[Number(rawN)] : undefined;
  if (!m || !layout) return xml(404, 'NoSuchKey', 'The specified key does not exist.');
  const name = fileName(layout, m.id);
  const realism = ctx.opts.realism;
  // a CDN-style hop: the same signed URL again, marked so the second request is served
  if (
    !query.has('hop') &&
    realism.redirectRate > 0 &&
    rngFor(ctx.opts.seed, 'redirect', path).chance(realism.redirectRate)
  ) {
    return { status: 302, headers: { location: `${path}?${query.toString()}&hop=1` }, body: '' };
  }
  const slow = realism.slowFileRate > 0 && rngFor(ctx.opts.seed, 'slow-file', path).chance(realism.slowFileRate);
  return {
    status: 200,
    headers: { 'content-type': CONTENT_TYPES[layout], 'content-disposition': `attachment; filename="${name}"` },
    body: renderFile(layout, m, iso(m.deliveredAtMs)),
    ...(slow ? { sliceDelayMs: realism.slowFileSliceDelayMs } : {}),
  };
}
