// Runs inside a worker_threads Worker: Node 24 strips the types itself, so this
// .ts file is loaded directly with no build step.
import { parentPort } from 'node:worker_threads';
import { forecastProduct } from './product.ts';
import { forecastSeries } from './series.ts';
import type { WorkerRequest, WorkerResponse } from './batch.ts';

parentPort?.on('message', (request: WorkerRequest) => {
  const results = request.kind === 'product' ? request.items.map(forecastProduct) : request.items.map((item) => forecastSeries(item.values, item.options));
  const response: WorkerResponse = { id: request.id, results };
  parentPort?.postMessage(response);
});
