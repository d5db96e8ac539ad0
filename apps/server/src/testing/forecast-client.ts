import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../db/schema.ts';
import type { ProductForecastResponse, TaskStatusResponse } from '@stockwise/contract';
import { signUpUser, startTestServer, type Backend, type TestServer } from './test-server.ts';

/** A signed-in user's forecasting calls: request a run, wait for a task to end, read a product's forecast. */
export function forecastClient(server: TestServer, token: string) {
  const api = (path: string, body?: unknown) => server.request(path, { token, ...(body === undefined ? {} : { body }) });
  async function completed(taskId: string): Promise<TaskStatusResponse> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const status = (await api(`/api/forecasting/status/${taskId}/`)).json as unknown as TaskStatusResponse;
      if (status.status === 'completed' || status.status === 'failed' || Date.now() > deadline) return status;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  /** Requests a run (the catalogue's, or one product's) and waits for it to end. */
  const run = async (body: { style_code?: string } = {}) => completed((await api('/api/forecasting/request-generation/', body)).json.task_id as string);
  async function forecastOf(code: string): Promise<ProductForecastResponse> {
    const response = await api(`/api/forecasting/forecasts/${code}`);
    expect(response.status, response.text).toBe(200);
    return response.json as unknown as ProductForecastResponse;
  }
  return { run, completed, forecastOf };
}

export type ForecastClient = ReturnType<typeof forecastClient>;

/** A test server on `backend` and a signed-in user's forecast client for it. */
export async function startForecastServer(backend: Backend): Promise<{ server: TestServer; client: ForecastClient }> {
  const server = await startTestServer(backend);
  return { server, client: forecastClient(server, (await signUpUser(server)).access) };
}

/**
 * Waits until no whole-catalogue run is queued or running. An import of products, sales, stock or
 * deliveries queues one, and a later request joins it while it waits (ADR 0132): a test that counts
 * the runs a request adds lets the earlier ones end first.
 */
export async function catalogueRunsSettled(db: Kysely<Database>): Promise<void> {
  const active = async () => (await db.selectFrom('forecast_tasks').select('id').where('style_code', 'is', null).where('status', 'in', ['pending', 'running']).execute()).length;
  await expect.poll(active, { interval: 100, timeout: 60_000 }).toBe(0);
}
