// The process catalogue runs take place in (run-process.ts): its own database pool, the same
// runForecastGeneration as in the server, one reply per run.
import { openDatabase } from '../db/database.ts';
import { RUN_PROCESS_APPLICATION_NAME, type RunReply, type RunRequest } from './run-process.ts';
import { runForecastGeneration } from './service.ts';

const database = openDatabase({ kind: 'postgres', url: process.env.DATABASE_URL as string }, { applicationName: RUN_PROCESS_APPLICATION_NAME });
database.catch(() => {});

// Listening from the first moment: a message that arrives before a listener is dropped.
process.on('message', (request: RunRequest) => {
  void database
    .then(({ db }) => runForecastGeneration({ db }, { taskId: request.taskId }))
    .then(
      () => process.send?.({ id: request.id } satisfies RunReply),
      (error: unknown) => process.send?.({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies RunReply),
    );
});
// The server ended (or died): nothing is left to answer to.
process.on('disconnect', () => {
  void database
    .then((opened) => opened.close())
    .catch(() => {})
    .finally(() => process.exit(0));
});
