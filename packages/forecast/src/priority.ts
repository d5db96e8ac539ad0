// CPU priority of background forecasting (Linux, where the nice value is per thread). Kept apart
// from the engine so a worker thread can lower itself before it loads anything heavier.
import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The nice value of background forecasting: requests of the same process and the database come first. */
export const BACKGROUND_NICE = 10;

/** The threads of this process named `name` (Linux: /proc/self/task), by thread id. */
export function threadsNamed(name: string): number[] {
  const ids: number[] = [];
  for (const id of readdirSync('/proc/self/task')) {
    try {
      if (readFileSync(`/proc/self/task/${id}/comm`, 'utf8').trim() === name) ids.push(Number(id));
    } catch {
      // The thread ended between listing and reading.
    }
  }
  return ids;
}

let platformThreadsLowered = false;

/**
 * Lowers V8's platform threads ('V8Worker': the garbage collector's parallel and concurrent work,
 * background compiling) to the background priority, once per process. They serve every isolate,
 * and during a catalogue run most of their work is the forecast threads' garbage: at normal
 * priority it took 0.3 CPU ms per product ahead of the event loop, whose requests waited (ADR 0120).
 * An unprivileged process cannot raise them again, so they stay lowered for the process's life.
 */
export function lowerPlatformThreads(): void {
  if (platformThreadsLowered || process.platform !== 'linux') return;
  platformThreadsLowered = true;
  for (const id of threadsNamed('V8Worker')) {
    try {
      setPriority(id, BACKGROUND_NICE);
    } catch {
      // Ended meanwhile, or not ours to change: it keeps its priority.
    }
  }
}
