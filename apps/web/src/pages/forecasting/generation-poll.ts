// Forecast generation polling (spec §4, §9): after a task is requested its status is polled every
// 2 seconds, at most 60 times. pending, processing, running and not_found keep waiting; completed
// with results is done; completed without results, and failed, end with the task's own error or
// the spec's message; an unknown status is only logged; after 60 attempts the run has timed out.
import type { TaskStatusResponse } from '@stockwise/contract';
import type { PolledTaskStatus } from '../../api/forecasting.ts';
import { i18n } from '../../i18n.ts';

export const pollIntervalMs = 2_000;
export const maxPollAttempts = 60;

export type TaskResults = NonNullable<TaskStatusResponse['results']>;
export type Progress = TaskStatusResponse['progress'];

export type PollStep =
  | { kind: 'wait'; status: string }
  | { kind: 'done'; results: TaskResults }
  | { kind: 'error'; message: string };

export type PollOutcome = { kind: 'done'; results: TaskResults; attempts: number } | { kind: 'error'; message: string; attempts: number };

const waitingStatuses = new Set(['pending', 'processing', 'running', 'not_found']);

const ownError = (task: PolledTaskStatus): string | null => (typeof task.error === 'string' && task.error.trim() !== '' ? task.error : null);

/** What one status answer means. */
export function interpretStatus(task: PolledTaskStatus, log: (message: string) => void = console.warn): PollStep {
  if (waitingStatuses.has(task.status)) return { kind: 'wait', status: task.status };
  if (task.status === 'completed') {
    if (task.results) return { kind: 'done', results: task.results };
    return { kind: 'error', message: ownError(task) ?? i18n.t('forecasting.errors.generationMissingResults') };
  }
  if (task.status === 'failed') return { kind: 'error', message: ownError(task) ?? i18n.t('forecasting.errors.generationFailed') };
  log(`Unknown forecast task status "${task.status}" for task ${task.task_id}; still waiting.`);
  return { kind: 'wait', status: task.status };
}

export type PollOptions = {
  taskId: string;
  fetchStatus: (taskId: string) => Promise<PolledTaskStatus>;
  /** Injected so tests run without real waits. */
  sleep?: (ms: number) => Promise<void>;
  onStatus?: (task: PolledTaskStatus, attempt: number) => void;
  log?: (message: string) => void;
  /** Stops polling quietly (the screen went away); resolves as an error with an empty message. */
  signal?: AbortSignal;
  intervalMs?: number;
  maxAttempts?: number;
};

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls until done, failed or out of attempts: wait the interval, ask, interpret; 60 asks at most.
 * A status call that fails for another reason than 404 (network, 5xx) is logged and counts as an
 * attempt: the task keeps running on the server, so one lost answer should not end the wait.
 */
export async function pollGeneration(options: PollOptions): Promise<PollOutcome> {
  const { taskId, fetchStatus, sleep = realSleep, onStatus, log = console.warn, signal, intervalMs = pollIntervalMs, maxAttempts = maxPollAttempts } = options;
  for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
    await sleep(intervalMs);
    if (signal?.aborted) return { kind: 'error', message: '', attempts: attempt - 1 };
    let task: PolledTaskStatus;
    try {
      task = await fetchStatus(taskId);
    } catch (error) {
      log(`Forecast task ${taskId}: status poll ${attempt} failed: ${error instanceof Error ? error.message : String((error as { message?: unknown }).message ?? error)}`);
      continue;
    }
    if (signal?.aborted) return { kind: 'error', message: '', attempts: attempt };
    onStatus?.(task, attempt);
    const step = interpretStatus(task, log);
    if (step.kind === 'done') return { kind: 'done', results: step.results, attempts: attempt };
    if (step.kind === 'error') return { kind: 'error', message: step.message, attempts: attempt };
  }
  return { kind: 'error', message: i18n.t('forecasting.errors.generationTimedOut'), attempts: maxAttempts };
}
