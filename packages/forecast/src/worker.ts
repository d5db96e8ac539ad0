// Runs inside a worker_threads Worker: Node 24 strips the types itself, so this
// .ts file is loaded directly with no build step.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { runRequest, type WorkerRequest, type WorkerResponse, type WorkerSetup } from './batch.ts';

// Linux keeps a nice value per thread, so this lowers this worker only; elsewhere it would lower
// the whole process, so it is left alone there.
if ((workerData as WorkerSetup | undefined)?.background && process.platform === 'linux') setPriority(0, 10);

parentPort?.on('message', (request: WorkerRequest) => {
  const response: WorkerResponse = { id: request.id, results: runRequest(request) };
  parentPort?.postMessage(response);
});
