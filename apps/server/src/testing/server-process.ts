// The real server as a separate process (`node apps/server/src/main.ts`), for fault tests that kill
// it and for benchmarks that must not share an event loop with their load generator.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

const mainScript = path.resolve(import.meta.dirname, '../main.ts');

export type ServerProcess = { url: string; child: ChildProcess; stop(): Promise<void>; kill(): Promise<void> };

type StartOptions = { startupTimeoutMs?: number; onStdout?: (text: string) => void; mainScript?: string; ownSession?: boolean };

/** A port the system just handed out as free (another process may still take it before the server binds). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

/**
 * `onStdout` receives the server's log (JSON lines) as it is written; without it the log is dropped.
 * `mainScript` runs another checkout's server (a benchmark's reference build). A server that exits
 * while starting is started again on another port, twice at most: under a full test run an outgoing
 * connection can take the free port between the probe and the server's listen (EADDRINUSE).
 * `ownSession` starts it as a service runs, in a session of its own: Linux's scheduler (autogroup)
 * then shares the cores between it and its load generator as between two programs, not among all
 * their threads together. It is killed when this process exits.
 */
export async function startServerProcess(env: Record<string, string>, options: StartOptions = {}): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(env, options, await freePort());
    } catch (error) {
      if (!(error instanceof ExitedDuringStart) || attempt === 3) throw error;
    }
  }
}

class ExitedDuringStart extends Error {}

async function startOnce(env: Record<string, string>, options: StartOptions, port: number): Promise<ServerProcess> {
  const child = spawn(process.execPath, [options.mainScript ?? mainScript], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', options.onStdout ? 'pipe' : 'ignore', 'inherit'],
    detached: options.ownSession ?? false,
  });
  if (options.ownSession) {
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    child.once('exit', () => process.off('exit', killOnExit));
  }
  const { onStdout } = options;
  if (onStdout) child.stdout?.setEncoding('utf8').on('data', (text: string) => onStdout(text));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startupTimeoutMs ?? 120_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new ExitedDuringStart(`server exited with code ${child.exitCode} during start`);
    if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) {
      return { url, child, stop: () => signal('SIGTERM'), kill: () => signal('SIGKILL') };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await signal('SIGKILL');
  throw new Error('server did not start in time');
}

/** A JSON call to a server process (POST when there is a body), answering the parsed body. */
export async function callJson(server: Pick<ServerProcess, 'url'>, route: string, init: { token?: string; body?: unknown; method?: string } = {}): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.url}${route}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return (await response.json()) as Record<string, unknown>;
}
