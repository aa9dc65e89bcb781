// Peak resident set of a process from /proc (VmHWM), in MB: for a process other than this one.
import { readFileSync } from 'node:fs';

export function vmHwmMb(pid: number | 'self' = 'self'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}
