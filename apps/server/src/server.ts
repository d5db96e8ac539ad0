// Starts a whole server process: database, migrations, demo data, job queue and HTTP, per ROLE.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from './db/schema.ts';
import type { ServerConfig } from './environment.ts';
import { migrateToLatest, openDatabase, type AppDatabase } from './db/database.ts';
import { buildApp, featureContexts } from './app.ts';
import { syncConfiguredTables } from './tables/service.ts';
import { jobDefinitions } from './jobs/definitions.ts';
import { startJobQueue, type JobQueue } from './jobs/queue.ts';
import { DEMO_USERNAME, seedDemoData } from './demo/seed.ts';
import { passwordPolicy } from '@stockwise/contract';
import { productName } from './product.ts';
import { verifyPassword } from './auth/passwords.ts';
import { createForecastingContext, requestCatalogueForecast } from './forecasting/service.ts';
import { catalogueRunProcess } from './forecasting/run-process.ts';
import { createIntegrationsFeature, settleInterruptedRuns, syncAllSchedules, type IntegrationsFeature } from './integrations/service.ts';
import { refreshForecastsAfterImport } from './app.ts';

export type RunningServer = { app: FastifyInstance; database: AppDatabase; queue: JobQueue; integrations: IntegrationsFeature; url: string; stop(): Promise<void> };

/**
 * `runProcessAtStart`: a catalogue run's process (ADR 0127) is started with the server rather than
 * by the first run (the deployment, main.ts; ADR 0152). Tests leave it to the first run: most of
 * their servers never run a catalogue, and each process is ~0.4 s of a core to start.
 */
export async function startServer(config: ServerConfig, options: { runProcessAtStart?: boolean } = {}): Promise<RunningServer> {
  const database = await openDatabase(config.database);
  await migrateToLatest(database.db);
  await syncConfiguredTables(featureContexts({ config, database }).tablesContext);
  const seed = config.demoData ? await seedDemoData(database.db, { password: config.demoPassword }) : null;
  let started: JobQueue | null = null;
  const startedQueue = () => {
    if (!started) throw new Error('The job queue has not started yet');
    return started;
  };
  const integrations = await createIntegrationsFeature({
    config,
    database,
    loadConfig: featureContexts({ config, database }).loadConfig,
    queue: startedQueue,
    onTableImported: (written) => refreshForecastsAfterImport(createForecastingContext(database.db, startedQueue()), written),
  });
  // A process that answers requests runs catalogue forecasts in another (PostgreSQL; PGlite lives in
  // this one): its reads stay quick during a run (ADR 0127).
  const catalogueRuns = config.role === 'all' && config.database.kind === 'postgres' ? catalogueRunProcess(config.database.url) : null;
  const queue = await startJobQueue(database, {
    definitions: jobDefinitions(database.db, {
      heartbeatSeconds: config.jobHeartbeatSeconds,
      integrationRuns: { context: integrations.runs, concurrency: config.integrations.concurrency },
      ...(catalogueRuns ? { catalogueRuns: catalogueRuns.run } : {}),
    }),
    runWorkers: config.role !== 'api',
    superviseIntervalSeconds: config.jobSuperviseIntervalSeconds,
    cronIntervalSeconds: config.jobCronIntervalSeconds,
    onError: (error) => console.error('job queue error', error),
  });
  started = queue;
  if (config.role !== 'api') {
    // A run cut off when a process died is closed as failed; schedules follow the integrations.
    await settleInterruptedRuns(integrations.service);
    await syncAllSchedules(integrations.service);
  }
  const app = await buildApp({ config, database, queue, integrations: integrations.service });
  if (seed?.seeded) {
    app.log.info(`Seeded demo data: ${seed.products} products, ${seed.salesRows} daily sales rows`);
    // Forecast the demo catalogue in the background so the first visit has forecasts and a report.
    await requestCatalogueForecast(createForecastingContext(database.db, queue));
  }
  if (options.runProcessAtStart) catalogueRuns?.start();
  let url = '';
  if (config.role !== 'worker') {
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    url = `http://localhost:${port}`;
  }
  return {
    app,
    database,
    queue,
    integrations,
    url,
    stop: async () => {
      await app.close();
      await queue.stop();
      await catalogueRuns?.close();
      await database.close();
    },
  };
}

/** What the sign-in hint needs to know of the accounts: any at all, and the demo user still on its starting password. */
export type AccountsAtStart = { any: boolean; demoOnStartingPassword: boolean };

/** The accounts as the console's sign-in hint describes them: the demo user's password checked against `demoPassword`. */
export async function accountsAtStart(db: Kysely<Database>, demoPassword: string): Promise<AccountsAtStart> {
  const any = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  const demo = await db.selectFrom('users').select('password_hash').where('username', '=', DEMO_USERNAME).where('disabled_at', 'is', null).executeTakeFirst();
  return { any: any !== undefined, demoOnStartingPassword: demo !== undefined && (await verifyPassword(demo.password_hash, demoPassword)) };
}

/**
 * What the console says at start: where the app is, and how to sign in — the demo user while it
 * still has its starting password (once changed, printing it would advertise a password that no
 * longer works: QA8 F4), or on a database without any account, where to create the first one.
 */
export function signInHint(config: ServerConfig, url: string, accounts: AccountsAtStart): string {
  const hasAccount = accounts.any;
  const lines = [`${productName} is running at ${url}`];
  if (config.demoData && accounts.demoOnStartingPassword) lines.push(`Sign in with username "${DEMO_USERNAME}" and password "${config.demoPassword}"`);
  else if (!hasAccount && config.registrationEnabled) {
    lines.push(
      `No account yet. Open ${url}/login to create the first one, an administrator (it adds the others in Settings → Users), or from a shell:`,
      `  curl -X POST ${url}/api/accounts/register/ -H 'content-type: application/json' -d '{"username": "owner", "password": "at least ${passwordPolicy.minLength} characters"}'`,
    );
  } else if (!hasAccount) lines.push('No account yet, and registration is off (REGISTRATION_ENABLED=false): start once with it on to create the first account.');
  return lines.join('\n');
}
