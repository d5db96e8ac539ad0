// Every job the workers run. Features add theirs here.
import type { Kysely } from 'kysely';
import { deleteExpiredAuthRecords } from '../auth/service.ts';
import type { Database } from '../db/schema.ts';
import { defineJob, type AnyJobDefinition } from './queue.ts';
import { GENERATE_FORECASTS_JOB, GENERATE_PRODUCT_FORECAST_JOB, runForecastGeneration, runNightlyForecast, type CatalogueRunner } from '../forecasting/service.ts';
import { runIntegration, type RunContext } from '../integrations/run.ts';
import { RUN_INTEGRATION_JOB, type RunJobPayload } from '../integrations/service.ts';

// A long integration run heartbeats; this only bounds a run that hangs without failing.
const INTEGRATION_RUN_EXPIRE_SECONDS = 6 * 3600;

export const PING_JOB = 'system.ping';

export function jobDefinitions(
  db: Kysely<Database>,
  options: {
    heartbeatSeconds: number;
    integrationRuns: { context: RunContext; concurrency: number };
    /** Where catalogue runs take place when not in this process (server.ts: a process of their own). */
    catalogueRuns?: CatalogueRunner;
  },
): AnyJobDefinition[] {
  const runCatalogue: CatalogueRunner = options.catalogueRuns ?? ((taskId) => runForecastGeneration({ db }, { taskId }));
  return [
    // Proves the queue end to end (send -> worker -> stored output) on whichever database runs.
    defineJob<{ message: string }>({
      name: PING_JOB,
      queue: { retryLimit: 2, retryDelay: 1, retryBackoff: true },
      handler: async ({ message }) => ({ pong: message, at: new Date().toISOString() }),
    }),
    defineJob<Record<string, never>>({
      name: 'auth.cleanup',
      queue: { retryLimit: 3, retryDelay: 60, retryBackoff: true },
      schedule: '17 * * * *',
      handler: () => deleteExpiredAuthRecords(db),
    }),
    // A worker that dies mid-run stops its heartbeat; pg-boss then hands the job to another try.
    defineJob<{ taskId: string }>({
      name: GENERATE_FORECASTS_JOB,
      queue: { retryLimit: 2, retryDelay: 5, retryBackoff: true, heartbeatSeconds: options.heartbeatSeconds, expireInSeconds: 3600 },
      handler: ({ taskId }) => runCatalogue(taskId),
    }),
    // Single products on a queue of their own, so a request for one is never behind a catalogue run.
    defineJob<{ taskId: string }>({
      name: GENERATE_PRODUCT_FORECAST_JOB,
      queue: { retryLimit: 2, retryDelay: 5, retryBackoff: true, heartbeatSeconds: options.heartbeatSeconds, expireInSeconds: 600 },
      handler: (payload) => runForecastGeneration({ db }, payload),
    }),
    defineJob<Record<string, never>>({
      name: 'forecasting.nightly',
      queue: { retryLimit: 1, retryDelay: 300, heartbeatSeconds: options.heartbeatSeconds, expireInSeconds: 3600 },
      schedule: '0 2 * * *',
      handler: () => runNightlyForecast({ db }, runCatalogue),
    }),
    // Scheduled (one pg-boss schedule per enabled integration) and manual runs. 'stately': at most
    // one queued and one active job per integration (singletonKey = its id); the run's own lock
    // keeps runs from overlapping even so. No retries of the job: a run retries its requests
    // itself, and a run cut off by a crash is marked failed and left to the next occurrence.
    defineJob<RunJobPayload>({
      name: RUN_INTEGRATION_JOB,
      queue: { policy: 'stately', retryLimit: 0, heartbeatSeconds: options.heartbeatSeconds, expireInSeconds: INTEGRATION_RUN_EXPIRE_SECONDS },
      work: { localConcurrency: options.integrationRuns.concurrency },
      handler: (payload) => runIntegration(options.integrationRuns.context, payload),
    }),
  ];
}
