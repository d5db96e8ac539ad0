// Runs inside a worker_threads Worker: Node 24 strips the types itself, so this
// .ts file is loaded directly with no build step.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { PoolTaskModule, WorkerRequest, WorkerResponse, WorkerSetup } from './batch.ts';
import { BACKGROUND_NICE } from './priority.ts';

const setup = workerData as WorkerSetup | undefined;
// Linux keeps a nice value per thread, so this lowers this worker only; elsewhere it would lower
// the whole process, so it is left alone there. Lowered before the engine's modules load: compiling
// them is a thread's heaviest work at the start of a run, when requests were slowest (ADR 0119).
if (setup?.background && process.platform === 'linux') setPriority(0, BACKGROUND_NICE);
const { runRequest } = await import('./batch.ts');
const task = setup?.task ? ((await import(setup.task.module)) as PoolTaskModule) : null;

// Set by the pool's first message, before any work.
let context: unknown;

parentPort?.on('message', (request: WorkerRequest) => {
  if (request.kind === 'context') {
    context = request.context;
    return;
  }
  const results = request.kind === 'task' ? (task as PoolTaskModule).runItems(request.items, context) : runRequest(request as Parameters<typeof runRequest>[0]);
  const response: WorkerResponse = { id: request.id, results };
  parentPort?.postMessage(response);
});
