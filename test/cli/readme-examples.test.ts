// #27: the README's command examples of the commands #27 touched (ack, doctor, run, sync) parse as
// written: every flag known, every value valid, the positionals each command takes. A dry parse: nothing
// runs, nothing is written. The examples are read from the README itself, so a changed flag fails here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_OPTIONS, parseCommandArgs } from '../../pipelines/config.js';
import { ACK_FLAGS } from '../../pipelines/cli/commands/ack.js';
import { ROOT } from '../helpers/child.js';

const CHECKED: Record<string, { extra: Parameters<typeof parseCommandArgs>[2]; positionals: number }> = {
  ack: { extra: ACK_FLAGS, positionals: 1 },
  doctor: { extra: {}, positionals: 0 },
  run: { extra: {}, positionals: 0 },
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

function examples(): Array<{ line: number; text: string; words: string[] }> {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n');
  const out: Array<{ line: number; text: string; words: string[] }> = [];
  let inCode = false;
  readme.forEach((text, i) => {
    if (/^```/.test(text)) inCode = !inCode;
    if (!inCode) return;
    const words = shellWords(text);
    if (words[0] === 'npx' && words[1] === 'recon' && words[2] && words[2] in CHECKED) out.push({ line: i + 1, text, words: words.slice(2) });
  });
  return out;
}

describe('the README\'s examples', () => {
  it('splits shell words as a shell would', () => {
    expect(shellWords('X=1 npx recon ack k --note "a b # c" --by \'d e\'   # comment')).toEqual(['npx', 'recon', 'ack', 'k', '--note', 'a b # c', '--by', 'd e']);
  });

  it('of ack, doctor, run and sync parse as written (flags known, values valid, positionals as the command takes)', () => {
    const found = examples();
    expect(found.map((e) => e.words[0])).toEqual(expect.arrayContaining(['ack', 'doctor', 'run']));
    for (const e of found) {
      const [name, ...argv] = e.words as [keyof typeof CHECKED, ...string[]];
      const spec = CHECKED[name]!;
      let parsed: ReturnType<typeof parseCommandArgs> | undefined;
      expect(() => (parsed = parseCommandArgs(argv, COMMAND_OPTIONS[name as keyof typeof COMMAND_OPTIONS], spec.extra, {})), `README.md:${e.line}: ${e.text}`).not.toThrow();
      expect(parsed!.positionals.length, `README.md:${e.line}: ${e.text}`).toBe(spec.positionals);
      if (name === 'ack') {
        expect(parsed!.config.ackBy, `README.md:${e.line}: an ack example names who`).toBeTruthy();
        expect(parsed!.extra.note, `README.md:${e.line}: an ack example has a note`).toBeTruthy();
      }
    }
  });

  it('a wrong example would fail: a mistyped flag is caught', () => {
    expect(() => parseCommandArgs(['k', '--nte', 'x'], COMMAND_OPTIONS.ack, ACK_FLAGS, {})).toThrow(/unknown option --nte/);
  });
});
