// "Did you mean …?" for a mistyped command, flag or config key: the closest candidate by edit distance.

/** Edit distance where swapping two neighbouring letters counts as one edit (optimal string alignment). */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        cur[j] = Math.min(cur[j]!, before[j - 2]! + 1);
    }
    [before, prev] = [prev, cur];
  }
  return prev[b.length]!;
}

/** The candidate closest to `word` when it is close enough to be a typo (a third of its length), else null. */
export function closest(word: string, candidates: Iterable<string>): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = distance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best !== null && bestDistance <= Math.max(1, Math.floor(Math.max(word.length, best.length) / 3)) ? best : null;
}

/** " (did you mean X?)" or "". */
export function didYouMean(
  word: string,
  candidates: Iterable<string>,
  format: (c: string) => string = (c) => c,
): string {
  const c = closest(word, candidates);
  return c ? ` (did you mean ${format(c)}?)` : '';
}
