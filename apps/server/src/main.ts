// Process entry point: `node apps/server/src/main.ts` (see README for the environment).
import { loadConfig } from './environment.ts';
import { accountsAtStart, signInHint, startServer } from './server.ts';

const config = loadConfig();
const server = await startServer(config, { runProcessAtStart: true });
if (server.url) {
  console.log(`\n${signInHint(config, server.url, await accountsAtStart(server.database.db, config.demoPassword))}\n`);
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
