// The command examples of README.md and docs/*.md for ack, doctor, run, schedule and sync parse as written:
// every flag known, every value valid, the positionals each command takes. A dry parse: nothing runs,
// nothing is written. The examples are read from the pages themselves, so a changed flag fails here.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_OPTIONS, parseCommandArgs } from '../../pipelines/config.js';
import { ACK_FLAGS } from '../../pipelines/cli/commands/ack.js';
import { ROOT } from '../helpers/child.js';

const CHECKED: Record<string, { extra: Parameters<typeof parseCommandArgs>[2]; positionals: number }> = {
  ack: { extra: ACK_FLAGS, positionals: 1 },
  doctor: { extra: {}, positionals: 0 },
  run: { extra: {}, positionals: 0 },
  schedule: { extra: {}, positionals: 0 },
  sync: { extra: {}, positionals: 0 },
};

/** A shell line's words: quotes kept together, a comment dropped, leading VAR=value assignments skipped. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: string | null = null;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = null;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      word ??= '';
    } else if (ch === '#' && word === null) {
      break;
    } else if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + ch;
    }
  }
  if (word !== null) words.push(word);
  while (words[0] && /^[A-Z_]+=/.test(words[0])) words.shift();
  return words;
}

/** The pages that hold command examples: the README and every page of docs/. */
const PAGES = ['README.md',
  ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

function examples(): Array<{ where: string; text: string; words: string[] }> {
  const out: Array<{ where: string; text: string; words: string[] }> = [];
  for (const page of PAGES) {
    let inCode = false;
    readFileSync(path.join(ROOT, page), 'utf8').split('\n').forEach((text, i) => {
      if (/^```/.test(text)) inCode = !inCode;
      if (!inCode) return;
      const words = shellWords(text);
      if (words[0] === 'npx' && words[1] === 'recon' && words[2] && words[2] in CHECKED) {
        out.push({ where: `${page}:${i + 1}`, text, words: words.slice(2) });
      }
    });
  }
  return out;
}

describe('the command examples of the README and docs/', () => {
  it('splits shell words as a shell would', () => {
    expect(shellWords('X=1 npx recon ack k --note "a b # c" --by \'d e\'   # comment')).toEqual(['npx', 'recon', 'ack', 'k', '--note', 'a b # c', '--by', 'd e']);
  });

  it('of ack, doctor, run, schedule and sync parse as written (flags known, values valid, the positionals taken)', () => {
    const found = examples();
    expect(found.map((e) => e.words[0])).toEqual(expect.arrayContaining(['ack', 'doctor', 'run', 'schedule']));
    const pages = new Set(found.map((e) => e.where.split(':')[0]));
    expect(pages.size, 'examples come from the README and the docs pages').toBeGreaterThan(2);
    for (const e of found) {
      const [name, ...argv] = e.words as [keyof typeof CHECKED, ...string[]];
      const spec = CHECKED[name]!;
      let parsed: ReturnType<typeof parseCommandArgs> | undefined;
      expect(() => (parsed = parseCommandArgs(argv, COMMAND_OPTIONS[name as keyof typeof COMMAND_OPTIONS], spec.extra, {})), `${e.where}: ${e.text}`).not.toThrow();
      expect(parsed!.positionals.length, `${e.where}: ${e.text}`).toBe(spec.positionals);
      if (name === 'ack') {
        expect(parsed!.config.ackBy, `${e.where}: an ack example names who`).toBeTruthy();
        expect(parsed!.extra.note, `${e.where}: an ack example has a note`).toBeTruthy();
      }
    }
  });

  it('a wrong example would fail: a mistyped flag is caught', () => {
    expect(() => parseCommandArgs(['k', '--nte', 'x'], COMMAND_OPTIONS.ack, ACK_FLAGS, {})).toThrow(/unknown option --nte/);
  });
});
