// What a rate-limited service counts: the most requests in any sliding window, as the tests of recon's pacing
// measure the times it sent at.

/** The most of `times` (ms, any order) that fall in one window of `windowMs`. */
export function busiestWindow(times: readonly number[], windowMs: number): number {
  const t = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < t.length; i += 1) {
    while (t[i]! - t[j]! >= windowMs) j += 1;
    most = Math.max(most, i - j + 1);
  }
  return most;
}
