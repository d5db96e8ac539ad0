// The real server as a separate process (`node apps/server/src/main.ts`), for fault tests that kill
// it and for benchmarks that must not share an event loop with their load generator.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const mainScript = path.resolve(import.meta.dirname, '../main.ts');

export type ServerProcess = { url: string; child: ChildProcess; stop(): Promise<void>; kill(): Promise<void> };

/**
 * `onStdout` receives the server's log (JSON lines) as it is written; without it the log is dropped.
 * `mainScript` runs another checkout's server (a benchmark's reference build).
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { startupTimeoutMs?: number; onStdout?: (text: string) => void; mainScript?: string } = {},
): Promise<ServerProcess> {
  const port = 20_000 + Math.floor(Math.random() * 30_000);
  const child = spawn(process.execPath, [options.mainScript ?? mainScript], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', options.onStdout ? 'pipe' : 'ignore', 'inherit'],
  });
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
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode} during start`);
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
