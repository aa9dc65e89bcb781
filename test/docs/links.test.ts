// Every link between README.md and the pages of docs/ leads somewhere: a relative link names a file that
// exists, and its #anchor a heading of that page, as GitHub makes anchors (lower case, punctuation removed,
// spaces to '-', a repeated heading suffixed -1, -2 …). Links in code blocks and code spans are text, and
// links to other sites are not followed (tests talk to loopback only).
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/child.js';

/** The lines that are prose: fenced code blocks blanked, so line numbers stay those of the file. */
function proseLines(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split('\n').map((line) => {
    const opener = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (fence) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length) fence = null;
      return '';
    }
    if (opener) {
      fence = opener;
      return '';
    }
    return line;
  });
}

/** GitHub's anchor of a heading's text. */
export function slug(heading: string): string {
  const text = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor a page offers: its headings' (repeats numbered) and explicit `<a id=…>` / `<a name=…>`. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = slug(heading);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  return anchors;
}

/** The links of a page's prose, with their line numbers. */
export function linksOf(markdown: string): Array<{ line: number; target: string }> {
  const links: Array<{ line: number; target: string }> = [];
  proseLines(markdown).forEach((text, i) => {
    const prose = text.replace(/(`+)[^`]*?\1/g, '');
    for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ line: i + 1, target: m[1]! });
  });
  return links;
}

/** Each link of `files` (relative to `root`) that leads nowhere, as "file:line: target (why)". */
export function brokenLinks(root: string, files: string[]): string[] {
  const broken: string[] = [];
  const anchors = new Map<string, Set<string>>();
  const anchorsIn = (file: string) => {
    if (!anchors.has(file)) anchors.set(file, anchorsOf(readFileSync(file, 'utf8')));
    return anchors.get(file)!;
  };
  for (const file of files) {
    const full = path.join(root, file);
    for (const { line, target } of linksOf(readFileSync(full, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: — another site's business
      const [ref, anchor] = target.split('#', 2) as [string, string | undefined];
      const dest = ref === '' ? full : path.resolve(path.dirname(full), decodeURIComponent(ref));
      const where = `${file}:${line}: ${target}`;
      if (path.relative(path.resolve(root), dest).startsWith('..')) broken.push(`${where} (outside the repository)`);
      else if (!existsSync(dest)) broken.push(`${where} (no such file)`);
      else if (anchor !== undefined && dest.endsWith('.md') && !anchorsIn(dest).has(anchor)) broken.push(`${where} (no such anchor)`);
    }
  }
  return broken;
}

const PAGES = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

describe('the links of README.md and docs/*.md', () => {
  it('all lead to a file that exists and an anchor it has', () => {
    expect(PAGES.length).toBeGreaterThan(10);
    expect(brokenLinks(ROOT, PAGES)).toEqual([]);
  });

  it('make anchors as GitHub does', () => {
    expect(slug('Alerts (`--notify-url`)')).toBe('alerts---notify-url');
    expect(slug('Missed, and why (this run)')).toBe('missed-and-why-this-run');
    expect(slug('File layouts (`src/sync/layouts.json`)')).toBe('file-layouts-srcsynclayoutsjson');
    expect(slug("Accountants' SQL and exports")).toBe('accountants-sql-and-exports');
    expect(slug('A night at 10M payouts — a month')).toBe('a-night-at-10m-payouts--a-month');
    expect([...anchorsOf('# Mail\n```\n# not a heading\n```\n## Mail\n<a id="here"></a>')]).toEqual(['mail', 'mail-1', 'here']);
  });

  it('a link that leads nowhere would fail: a missing file, a missing anchor, a link out of the repository', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'recon-links-'));
    mkdirSync(path.join(root, 'docs'));
    writeFileSync(path.join(root, 'docs', 'a.md'), '# A page\n\n## Its part\n');
    writeFileSync(path.join(root, 'README.md'), [
      '[ok](docs/a.md#its-part) [ok too](#top) [away](https://example.com/x#y) `[code](nowhere.md)`',
      '```', '[in a block](nowhere.md)', '```',
      '[gone](docs/b.md) [no anchor](docs/a.md#its-whole) [out](../elsewhere.md)', '# Top',
    ].join('\n'));
    expect(brokenLinks(root, ['README.md', 'docs/a.md'])).toEqual([
      'README.md:5: docs/b.md (no such file)',
      'README.md:5: docs/a.md#its-whole (no such anchor)',
      'README.md:5: ../elsewhere.md (outside the repository)',
    ]);
  });
});
