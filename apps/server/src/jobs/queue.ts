// The job queue: pg-boss on the application database (PGlite through pg-boss's own adapter, or
// PostgreSQL). Jobs are declared in code with their retry policy and optional cron schedule. A job
// sent wakes its queue's workers at once (pg-boss's LISTEN/NOTIFY, docs/adr/0119); their polling
// stays as the fallback.
import { PgBoss, fromPglite, type Queue, type WorkOptions } from 'pg-boss';
import type { AppDatabase } from '../db/database.ts';

/** Heartbeats a worker sends per heartbeatSeconds of its job. */
const HEARTBEAT_BEATS = 5;

export type JobDefinition<Payload extends object> = {
  name: string;
  queue: Omit<Queue, 'name'>;
  /** Cron expression (UTC) when the job also runs on a schedule. */
  schedule?: string;
  /** How this process's worker fetches the queue's jobs (e.g. how many at once). */
  work?: Pick<WorkOptions, 'localConcurrency'>;
  handler: (payload: Payload) => Promise<unknown>;
};

// Erases the payload type so definitions of different payloads fit one list.
export type AnyJobDefinition = JobDefinition<never>;
export const defineJob = <Payload extends object>(definition: JobDefinition<Payload>) => definition as unknown as AnyJobDefinition;

export type JobQueue = {
  boss: PgBoss;
  send(name: string, payload: object): Promise<string>;
  /** A job's state and output as pg-boss keeps them, or null when it is unknown. */
  jobState(name: string, id: string): Promise<{ state: string; output: unknown } | null>;
  stop(): Promise<void>;
};

export async function startJobQueue(
  database: AppDatabase,
  options: { definitions: AnyJobDefinition[]; runWorkers: boolean; superviseIntervalSeconds: number; cronIntervalSeconds?: number; onError: (error: Error) => void },
): Promise<JobQueue> {
  const maintenance = {
    schedule: options.runWorkers,
    supervise: options.runWorkers,
    superviseIntervalSeconds: options.superviseIntervalSeconds,
    monitorIntervalSeconds: options.superviseIntervalSeconds,
    ...(options.cronIntervalSeconds ? { cronMonitorIntervalSeconds: options.cronIntervalSeconds } : {}),
  };
  // Only workers listen (a connection each); a sender's insert notifies in its own transaction.
  const boss =
    database.target.kind === 'pglite' && database.pglite
      ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite', useListenNotify: options.runWorkers, ...maintenance })
      : new PgBoss({ connectionString: database.target.kind === 'postgres' ? database.target.url : '', max: 4, useListenNotify: options.runWorkers, ...maintenance });
  boss.on('error', options.onError);
  await boss.start();
  for (const definition of options.definitions) {
    const queue = { ...definition.queue, notify: true };
    await boss.createQueue(definition.name, queue);
    // A queue created by an earlier version keeps its options on create: the definition's are brought over.
    const { policy: _fixedAtCreation, ...changeable } = queue;
    await boss.updateQueue(definition.name, changeable);
    if (!options.runWorkers) continue;
    // A live worker beats five times per heartbeatSeconds (pg-boss's default is twice): a job is
    // taken from it only after four beats in a row went missing, so a short heartbeat (a dead
    // server's run restarted within seconds) does not hand a slow but live worker's job to another.
    const heartbeat = definition.queue.heartbeatSeconds ? { heartbeatRefreshSeconds: definition.queue.heartbeatSeconds / HEARTBEAT_BEATS } : {};
    await boss.work<object>(definition.name, { ...definition.work, ...heartbeat }, async (jobs) => {
      const outputs = [];
      for (const job of jobs) outputs.push(await definition.handler(job.data as never));
      return outputs.length === 1 ? outputs[0] : outputs;
    });
    if (definition.schedule) await boss.schedule(definition.name, definition.schedule, {}, { tz: 'UTC' });
  }
  return {
    boss,
    send: async (name, payload) => {
      const id = await boss.send(name, payload);
      if (!id) throw new Error(`Queue ${name} refused the job`);
      return id;
    },
    jobState: async (name, id) => {
      const job = await boss.getJobById(name, id);
      return job ? { state: job.state, output: job.output } : null;
    },
    stop: () => boss.stop({ graceful: true, timeout: 10_000, close: true }),
  };
}
