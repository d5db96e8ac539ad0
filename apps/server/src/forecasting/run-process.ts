// Catalogue runs in a process of their own, beside a server that answers requests (PostgreSQL,
// ROLE=all). A run's reads and writes pass ~20 kB of forecast per product through the event loop
// that runs them, which collects that garbage in pauses: requests of the same process waited behind
// them (p99 of a forecast read 63–88 ms during a 10,000-product run on a 2-core machine), while in a
// process of their own the reads answered in 24–27 ms at the same throughput (ADR 0124, 0127).
// The process starts with the server (main.ts; ADR 0152: its ~0.4 s of start-up no longer delays the
// first run) or else with the first run, and stays for the next; it ends with the server, or when its
// connection to the server closes (the server died).
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { CatalogueRunner } from './service.ts';

/** How PostgreSQL lists the run process's connections (pg_stat_activity.application_name). */
export const RUN_PROCESS_APPLICATION_NAME = 'stockwise catalogue run';

export type RunRequest = { id: number; taskId: string };
export type RunReply = { id: number; error?: string };

export type CatalogueRunProcess = { run: CatalogueRunner; start(): void; close(): Promise<void> };

export function catalogueRunProcess(databaseUrl: string): CatalogueRunProcess {
  let child: ChildProcess | null = null;
  let nextId = 0;
  const waiting = new Map<number, { resolve(): void; reject(error: Error): void }>();
  const forkRunProcess = (): ChildProcess => {
    const started = fork(new URL('./run-process-main.ts', import.meta.url), [], { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: 'inherit' });
    started.on('message', (reply: RunReply) => {
      const run = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (reply.error === undefined) run?.resolve();
      else run?.reject(new Error(reply.error));
    });
    // Died mid-run (out of memory, killed): the runs it held fail, and pg-boss tries them again.
    started.on('exit', (code, signal) => {
      if (child === started) child = null;
      for (const run of waiting.values()) run.reject(new Error(`The catalogue run's process ended (${signal ?? `exit code ${code}`}) before the run did.`));
      waiting.clear();
    });
    return started;
  };
  return {
    run: (taskId) =>
      new Promise<void>((resolve, reject) => {
        child ??= forkRunProcess();
        const id = nextId++;
        waiting.set(id, { resolve, reject });
        child.send({ id, taskId } satisfies RunRequest);
      }),
    start: () => {
      child ??= forkRunProcess();
    },
    close: async () => {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = once(running, 'exit');
      running.kill('SIGTERM');
      await exited;
    },
  };
}
