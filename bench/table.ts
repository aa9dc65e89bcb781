// The table `make bench` prints: one line per figure (value, target, met or missed), then the notes
// with the absolute figures behind each ratio.
export interface Figure {
  key: string;
  target: string;
  value: number | Record<string, number[]> | null;
  met: boolean;
  /** What was measured at which size, absolute seconds and rows/s, or why it was not measured. */
  note: string;
  scale?: string;
  detail?: unknown;
}

function show(value: Figure['value']): string {
  if (value === null) return '—';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(value >= 10 ? 1 : 3);
  return Object.entries(value).map(([k, v]) => `${k.replace(/Per10x$/, '')} ×${v.map((x) => x.toFixed(1)).join('/×')}`).join(', ');
}

export function printTable(figures: Figure[], durationS: number): void {
  const rows = figures.map((f) => [f.key, show(f.value), f.target, f.met ? 'met' : 'MISSED']);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...[['key', 'value', 'target', ''][i]!.length, ...rows.map((r) => r[i]!.length)]));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  const out = [line(['key', 'value', 'target', '']), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), ''];
  for (const f of figures) out.push(`${f.key}${f.scale ? ` [${f.scale}]` : ''}: ${f.note}`);
  out.push('', `total ${durationS.toFixed(0)} s`);
  process.stdout.write(`${out.join('\n')}\n`);
}
