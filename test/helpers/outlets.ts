// Test stand-ins for what the outlets deliver to: an HTTP receiver and an SMTP server, both on
// 127.0.0.1 at an ephemeral port, recording everything they get; a reader of the parts of a received
// mail; and a strict parser of the Prometheus text exposition format (prom-client only writes it).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Answer = { status: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** An HTTP server recording each request; `answer` decides the response (200 by default, 'hang' never answers). */
export async function startReceiver(answer: (r: Received, n: number) => Answer = () => ({ status: 200 })): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(r);
      const a = answer(r, received.length);
      if (a === 'hang') return;
      res.writeHead(a.status, a.headers).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export interface Mail {
  raw: string;
  from: string;
  to: string[];
  /** The session was TLS (implicit or after STARTTLS). */
  secure: boolean;
  user: string | null;
}

export interface SmtpStub {
  port: number;
  mails: Mail[];
  close(): Promise<void>;
}

/** An SMTP server (smtp-server, its own self-signed certificate) recording each message. */
export async function startSmtp(opts: { secure?: boolean; auth?: { user: string; pass: string }; allowInsecureAuth?: boolean } = {}): Promise<SmtpStub> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    secure: opts.secure ?? false,
    logger: false,
    authOptional: !opts.auth,
    allowInsecureAuth: opts.allowInsecureAuth ?? false,
    onAuth(auth, _session, cb) {
      if (opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.pass) cb(null, { user: auth.username });
      else cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          raw: Buffer.concat(chunks).toString('utf8'),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          secure: session.secure,
          user: typeof session.user === 'string' ? session.user : null,
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A port nothing listens on (taken, then freed). */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const soft = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i += 1) {
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The body of the first MIME part of this content type, decoded (base64, quoted-printable), or null. */
export function mimePart(raw: string, contentType: string): Buffer | null {
  const lines = raw.split(/\r?\n/);
  const boundaries = [...raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((m) => m[1]!);
  const delimiter = (line: string) => boundaries.some((b) => line === `--${b}` || line === `--${b}--`);
  for (let i = 0; i < lines.length; i += 1) {
    if (!delimiter(lines[i]!)) continue;
    // the part's headers, folded lines joined
    const headers: string[] = [];
    let j = i + 1;
    for (; j < lines.length && lines[j] !== ''; j += 1) {
      if (/^[ \t]/.test(lines[j]!) && headers.length > 0) headers[headers.length - 1] += ` ${lines[j]!.trim()}`;
      else headers.push(lines[j]!);
    }
    const type = headers.find((h) => /^content-type:/i.test(h))?.replace(/^content-type:\s*/i, '').toLowerCase() ?? '';
    if (!type.startsWith(contentType)) continue;
    const encoding = headers.find((h) => /^content-transfer-encoding:/i.test(h))?.replace(/^content-transfer-encoding:\s*/i, '').trim().toLowerCase() ?? '';
    const body: string[] = [];
    for (j += 1; j < lines.length && !delimiter(lines[j]!); j += 1) body.push(lines[j]!);
    if (encoding === 'base64') return Buffer.from(body.join('').replace(/\s+/g, ''), 'base64');
    if (encoding === 'quoted-printable') return Buffer.from(decodeQuotedPrintable(body.join('\r\n')).replace(/\r\n/g, '\n'), 'utf8');
    return Buffer.from(body.join('\n'), 'utf8');
  }
  return null;
}

/** The subject header of a raw message, RFC 2047 words decoded. */
export function subjectOf(raw: string): string {
  const m = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw);
  if (!m) return '';
  return m[1]!.replace(/\r?\n[ \t]/g, ' ').replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_w, enc: string, data: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')));
}

export interface PromMetric {
  help: string | null;
  type: string | null;
  samples: Array<{ labels: Record<string, string>; value: number }>;
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/**
 * The Prometheus text format (version 0.0.4), read strictly: names and label names by their grammar,
 * label values with only \\ \" \n escapes, values as Go's ParseFloat takes them, HELP and TYPE at most
 * once and TYPE before the metric's first sample, no series twice, and a line feed after the last line.
 * Throws on the first deviation, naming the line.
 */
export function parsePrometheusText(text: string): Map<string, PromMetric> {
  if (text.length > 0 && !text.endsWith('\n')) throw new Error('the exposition does not end with a line feed');
  const metrics = new Map<string, PromMetric>();
  const seen = new Set<string>();
  const metric = (name: string) => {
    let m = metrics.get(name);
    if (!m) metrics.set(name, (m = { help: null, type: null, samples: [] }));
    return m;
  };
  text.split('\n').slice(0, -1).forEach((line, i) => {
    const fail = (why: string): never => { throw new Error(`line ${i + 1} "${line}": ${why}`); };
    if (line.trim() === '') return;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!m) return; // any other comment is allowed
      const [, kind, name, rest] = m as unknown as [string, string, string, string];
      if (!METRIC_NAME.test(name)) fail('bad metric name');
      const entry = metric(name);
      if (kind === 'HELP') {
        if (entry.help !== null) fail('second HELP');
        if (/\\[^\\n]/.test(rest.replace(/\\\\/g, ''))) fail('bad escape in HELP');
        entry.help = rest;
      } else {
        if (entry.type !== null) fail('second TYPE');
        if (entry.samples.length > 0) fail('TYPE after samples');
        if (!TYPES.has(rest)) fail(`unknown type ${rest}`);
        entry.type = rest;
      }
      return;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)( -?\d+)?$/.exec(line) ?? fail('not a sample line');
    const [, name, labelText, valueText] = m as unknown as [string, string, string | undefined, string];
    const labels: Record<string, string> = {};
    if (labelText) {
      let rest = labelText.slice(1, -1);
      while (rest.length > 0) {
        const l = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/.exec(rest) ?? fail('bad label');
        if (!LABEL_NAME.test(l[1]!)) fail('bad label name');
        if (l[1]! in labels) fail('label twice');
        labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_x, c: string) => (c === 'n' ? '\n' : c));
        rest = rest.slice(l[0].length);
      }
    }
    if (!/^(?:[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|NaN|[+-]Inf)$/.test(valueText)) fail('bad value');
    const series = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(series)) fail('series twice');
    seen.add(series);
    metric(name).samples.push({ labels, value: valueText === 'NaN' ? NaN : valueText.endsWith('Inf') ? (valueText.startsWith('-') ? -Infinity : Infinity) : Number(valueText) });
  });
  return metrics;
}
