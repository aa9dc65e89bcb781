// docs/configuration.md's table is the CLI's own options table (OPTIONS in pipelines/config.ts) written out:
// a new option, a changed default or variable fails here until the page is rewritten
// (UPDATE_DOCS=1 rewrites it). The prose around the table is a person's.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { optionsReference, type OptionReference } from '../../pipelines/config.js';
import { ROOT } from '../helpers/child.js';

const PAGE = path.join(ROOT, 'docs', 'configuration.md');
const [BEGIN, END] = ['<!-- options:begin -->', '<!-- options:end -->'];

export function optionsTable(rows: OptionReference[]): string {
  const cell = (s: string) => s.replaceAll('|', '\\|');
  const code = (s: string | null) => (s === null ? '—' : `\`${s}\``);
  return ['| Key | Flag | Variable | Default | Meaning |', '|---|---|---|---|---|',
    ...rows.map((r) => `| ${[code(r.key), code(r.flag), code(r.variable), code(r.default), cell(r.meaning)].join(' | ')} |`)]
    .join('\n');
}

describe('docs/configuration.md', () => {
  it('lists every option of the CLI: key, flag, variable, default and meaning (UPDATE_DOCS=1 rewrites it)', () => {
    const text = readFileSync(PAGE, 'utf8');
    const [from, to] = [text.indexOf(BEGIN), text.indexOf(END)];
    expect(from, `${PAGE} has its ${BEGIN} … ${END} markers`).toBeGreaterThanOrEqual(0);
    expect(to).toBeGreaterThan(from);
    const table = optionsTable(optionsReference());
    const page = `${text.slice(0, from + BEGIN.length)}\n${table}\n${text.slice(to)}`;
    if (process.env.UPDATE_DOCS) writeFileSync(PAGE, page);
    else expect(text.slice(from + BEGIN.length, to).trim()).toBe(table);
  });

  it('names each key the config file accepts, and not --config, which a config file cannot set', () => {
    const rows = optionsReference();
    expect(rows.find((r) => r.flag === '--config')?.key).toBeNull();
    expect(rows.find((r) => r.flag === '--lookback-days'))
      .toMatchObject({ key: 'lookbackDays', variable: 'RECON_LOOKBACK_DAYS', default: '7' });
    expect(rows.find((r) => r.flag === '--by')).toMatchObject({ key: 'ackBy', variable: 'RECON_ACK_BY', default: null });
  });

  it('a page that differs from the code would fail: a changed default is caught', () => {
    const rows = optionsReference();
    const changed = rows.map((r) => (r.key === 'lookbackDays' ? { ...r, default: '8' } : r));
    expect(optionsTable(changed)).not.toBe(optionsTable(rows));
  });
});
