import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { forecastProduct } from './product.ts';
import { forecastSeries, type SeriesForecast, type SeriesForecastOptions } from './series.ts';
import type { ForecastError, ProductForecast, ProductForecastInput } from './types.ts';

export type BatchOptions = { workers?: number; onProgress?: (done: number, total: number) => void; chunkSize?: number };
export type SeriesBatchItem = { values: number[]; options: SeriesForecastOptions };

export type WorkerRequest =
  | { id: number; kind: 'product'; items: ProductForecastInput[] }
  | { id: number; kind: 'series'; items: SeriesBatchItem[] };
export type WorkerResponse = { id: number; results: unknown[] };

type Job = { kind: 'product'; items: ProductForecastInput[] } | { kind: 'series'; items: SeriesBatchItem[] };

// Small enough to keep both cores busy to the end, large enough that message
// passing stays a rounding error next to the forecasting itself.
const DEFAULT_CHUNK_SIZE = 64;

/**
 * Forecasts many products across worker threads. Results come back in input
 * order, and each product's result depends only on its own input, so the output
 * is identical whatever the worker count.
 */
export function forecastBatch(inputs: ProductForecastInput[], options: BatchOptions = {}): Promise<(ProductForecast | ForecastError)[]> {
  return runBatch({ kind: 'product', items: inputs }, options) as Promise<(ProductForecast | ForecastError)[]>;
}

/** The generic-series counterpart, used by the benchmark to measure all-core throughput. */
export function forecastSeriesBatch(items: SeriesBatchItem[], options: BatchOptions = {}): Promise<SeriesForecast[]> {
  return runBatch({ kind: 'series', items }, options) as Promise<SeriesForecast[]>;
}

function runLocally(job: Job, from: number, to: number): unknown[] {
  return job.kind === 'product' ? job.items.slice(from, to).map(forecastProduct) : job.items.slice(from, to).map((item) => forecastSeries(item.values, item.options));
}

async function runBatch(job: Job, options: BatchOptions): Promise<unknown[]> {
  const total = job.items.length;
  const chunkSize = Math.max(1, options.chunkSize ?? DEFAULT_CHUNK_SIZE);
  const workerCount = Math.max(1, Math.min(options.workers ?? availableParallelism(), Math.ceil(total / chunkSize)));
  const results = new Array<unknown>(total);
  let done = 0;
  const store = (from: number, chunkResults: unknown[]): void => {
    chunkResults.forEach((result, i) => (results[from + i] = result));
    done += chunkResults.length;
    options.onProgress?.(done, total);
  };
  if (workerCount === 1) {
    for (let from = 0; from < total; from += chunkSize) {
      store(from, runLocally(job, from, Math.min(total, from + chunkSize)));
      // Yield between chunks so a server stays responsive while a batch runs inline.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return results;
  }

  const workers = Array.from({ length: workerCount }, () => new Worker(new URL('./worker.ts', import.meta.url)));
  let nextChunk = 0;
  try {
    await Promise.all(
      workers.map(async (worker) => {
        while (nextChunk * chunkSize < total) {
          const from = nextChunk++ * chunkSize;
          const to = Math.min(total, from + chunkSize);
          const request = { id: from, kind: job.kind, items: job.items.slice(from, to) } as WorkerRequest;
          try {
            store(from, (await exchange(worker, request)).results);
          } catch {
            // A worker that failed (could not start, ran out of memory) is dropped; its
            // chunk is forecast here, so one bad thread never loses a product.
            store(from, runLocally(job, from, to));
            return;
          }
        }
      }),
    );
    // Every worker failed before the queue was empty: finish on this thread.
    for (let from = nextChunk * chunkSize; from < total; from += chunkSize) store(from, runLocally(job, from, Math.min(total, from + chunkSize)));
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return results;
}

function exchange(worker: Worker, request: WorkerRequest): Promise<WorkerResponse> {
  return new Promise((resolve, reject) => {
    const onMessage = (response: WorkerResponse): void => {
      cleanup();
      resolve(response);
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const cleanup = (): void => {
      worker.off('message', onMessage);
      worker.off('error', onError);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.postMessage(request);
  });
}
