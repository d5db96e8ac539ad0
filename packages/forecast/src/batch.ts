import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { lowerPlatformThreads } from './priority.ts';
import { forecastProduct } from './product.ts';
import { forecastSeries, type SeriesForecast, type SeriesForecastOptions } from './series.ts';
import type { ForecastError, ProductForecast, ProductForecastInput } from './types.ts';

export type BatchOptions = { workers?: number; onProgress?: (done: number, total: number) => void; chunkSize?: number };
export type PoolOptions = {
  workers?: number;
  chunkSize?: number;
  /**
   * Runs the worker threads, and V8's platform threads that collect their garbage, at a lower CPU
   * priority (Linux, where the nice value is per thread): a server forecasting its catalogue in the
   * background keeps answering requests first.
   */
  background?: boolean;
  /** What the threads run: a module exporting `runItems` (see PoolTaskModule), and the context it is given. */
  task: PoolTask;
};
export type SeriesBatchItem = { values: number[]; options: SeriesForecastOptions };

/**
 * The caller's own work on the pool's threads: a server hands over its database rows as they came
 * and gets back the rows it writes, so its event loop neither builds forecast inputs nor
 * stringifies forecasts. `context` (shared by every item, e.g. the catalogue's calendar) is cloned
 * to each thread once; it may be a promise, so the threads start (and load their module) while the
 * caller is still working it out.
 */
export type PoolTask = { module: URL; context?: unknown };
/** The shape of a PoolTask module: called with a slice of items; one result per item, in order. */
export type PoolTaskModule = { runItems(items: unknown[], context: unknown): unknown[] };

export type WorkerRequest =
  | { id: number; kind: 'context'; context: unknown }
  | { id: number; kind: 'product' | 'task'; items: unknown[] }
  | { id: number; kind: 'series'; items: SeriesBatchItem[] };
export type WorkerResponse = { id: number; results: unknown[] };
export type WorkerSetup = { background: boolean; task?: { module: string } };

/** Work the package itself knows how to do on a thread. */
type BuiltInJob = { kind: 'product'; items: ProductForecastInput[] } | { kind: 'series'; items: SeriesBatchItem[] };
type Job = BuiltInJob | { kind: 'task'; items: unknown[] };

// Small enough to keep both cores busy to the end, large enough that message
// passing stays a rounding error next to the forecasting itself.
const DEFAULT_CHUNK_SIZE = 64;
// The next request already waits in a thread's queue when it finishes one: otherwise the thread
// idles until the caller's event loop, busy with a request or a write, reads the answer and sends
// more (5 % of a catalogue run's thread time, ADR 0112).
const REQUESTS_PER_WORKER = 2;

/**
 * Worker threads kept between batches, for a caller that forecasts a long stream of products in
 * slices (the server's catalogue run): threads start once, not once per slice.
 */
export type ForecastPool<Item, Result> = {
  run(items: Item[], onProgress?: (done: number, total: number) => void): Promise<Result[]>;
  close(): Promise<void>;
};

/** One thread would only add message passing to the work: then it runs on the caller's thread. */
const startWorkers = (count: number, setup: WorkerSetup): Worker[] =>
  count > 1 ? Array.from({ length: count }, () => new Worker(new URL('./worker.ts', import.meta.url), { workerData: setup })) : [];

export function createForecastPool<Item, Result>(options: PoolOptions): ForecastPool<Item, Result> {
  const setup: WorkerSetup = { background: options.background ?? false, task: { module: options.task.module.href } };
  if (setup.background) lowerPlatformThreads();
  const workers = startWorkers(Math.max(1, options.workers ?? availableParallelism()), setup);
  // Each thread gets the context once, as its first message; messages are handled in order.
  const context = Promise.resolve(options.task.context).then((value) => {
    for (const worker of workers) worker.postMessage({ id: -1, kind: 'context', context: value } satisfies WorkerRequest);
    return value;
  });
  context.catch(() => {});
  // Loaded here only when a chunk has to run on this thread (one core, or a worker failed).
  let local: Promise<PoolTaskModule> | null = null;
  const runLocally = async (items: unknown[]) => {
    local ??= import(options.task.module.href) as Promise<PoolTaskModule>;
    return (await local).runItems(items, await context);
  };
  // A worker answers one request at a time: calls take turns.
  let previous: Promise<unknown> = Promise.resolve();
  return {
    run: (items, onProgress) => {
      const run = previous.then(async () => {
        await context;
        return runBatch({ kind: 'task', items }, workers, { chunkSize: options.chunkSize, onProgress }, runLocally);
      });
      previous = run.catch(() => {});
      return run as Promise<Result[]>;
    },
    close: async () => {
      await Promise.all(workers.splice(0).map((worker) => worker.terminate()));
    },
  };
}

async function withPool<T>(job: BuiltInJob, options: BatchOptions): Promise<T> {
  const chunkSize = Math.max(1, options.chunkSize ?? DEFAULT_CHUNK_SIZE);
  const workers = startWorkers(Math.min(options.workers ?? availableParallelism(), Math.ceil(job.items.length / chunkSize)), { background: false });
  try {
    return (await runBatch(job, workers, options, (items) => runRequest({ ...job, items } as BuiltInJob))) as T;
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

/**
 * Forecasts many products across worker threads. Results come back in input
 * order, and each product's result depends only on its own input, so the output
 * is identical whatever the worker count.
 */
export function forecastBatch(inputs: ProductForecastInput[], options: BatchOptions = {}): Promise<(ProductForecast | ForecastError)[]> {
  return withPool({ kind: 'product', items: inputs }, options);
}

/** The generic-series counterpart, used by the benchmark to measure all-core throughput. */
export function forecastSeriesBatch(items: SeriesBatchItem[], options: BatchOptions = {}): Promise<SeriesForecast[]> {
  return withPool({ kind: 'series', items }, options);
}

/** What a worker does with a product or series request (a task request goes to its module). */
export function runRequest(request: BuiltInJob): unknown[] {
  switch (request.kind) {
    case 'product':
      return request.items.map(forecastProduct);
    case 'series':
      return request.items.map((item) => forecastSeries(item.values, item.options));
  }
}

/**
 * Runs the job on the given workers; a worker that fails is removed from the array and its chunk
 * runs on this thread (`runLocally`).
 */
async function runBatch(job: Job, workers: Worker[], options: Pick<BatchOptions, 'chunkSize' | 'onProgress'>, runLocally: (items: unknown[]) => unknown[] | Promise<unknown[]>): Promise<unknown[]> {
  const total = job.items.length;
  const chunkSize = Math.max(1, options.chunkSize ?? DEFAULT_CHUNK_SIZE);
  const results = new Array<unknown>(total);
  let done = 0;
  const store = (from: number, chunkResults: unknown[]): void => {
    chunkResults.forEach((result, i) => (results[from + i] = result));
    done += chunkResults.length;
    options.onProgress?.(done, total);
  };
  let nextChunk = 0;
  await Promise.all(
    [...workers].flatMap((worker) => Array.from({ length: REQUESTS_PER_WORKER }, () => worker)).map(async (worker) => {
      while (nextChunk * chunkSize < total && workers.includes(worker)) {
        const from = nextChunk++ * chunkSize;
        const to = Math.min(total, from + chunkSize);
        const request = { id: from, kind: job.kind, items: job.items.slice(from, to) } as WorkerRequest;
        try {
          store(from, (await exchange(worker, request)).results);
        } catch {
          // A worker that failed (could not start, ran out of memory) is dropped; its
          // chunk is forecast here, so one bad thread never loses a product.
          if (workers.includes(worker)) workers.splice(workers.indexOf(worker), 1);
          void worker.terminate();
          store(from, await runLocally(job.items.slice(from, to)));
          return;
        }
      }
    }),
  );
  // No worker (one core, or every worker failed before the queue was empty): this thread, yielding
  // between chunks so a server stays responsive while a batch runs inline.
  for (let from = nextChunk * chunkSize; from < total; from += chunkSize) {
    store(from, await runLocally(job.items.slice(from, Math.min(total, from + chunkSize))));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return results;
}

function exchange(worker: Worker, request: WorkerRequest): Promise<WorkerResponse> {
  return new Promise((resolve, reject) => {
    const onMessage = (response: WorkerResponse): void => {
      // Another request's answer (a worker holds REQUESTS_PER_WORKER at a time).
      if (response.id !== request.id) return;
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
