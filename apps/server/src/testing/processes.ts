// The child processes of a process (Linux /proc), for tests and benchmarks that look at what a
// server process started (the catalogue run's process, ADR 0127).
import { readdirSync, readFileSync } from 'node:fs';

/** The processes whose parent is `parent`, with their command lines (arguments joined by spaces). */
export function childProcesses(parent: number): { pid: number; command: string }[] {
  const children: { pid: number; command: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent) continue;
      children.push({ pid: Number(entry), command: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ') });
    } catch {
      // The process ended while listing.
    }
  }
  return children;
}
