// The polling state machine of spec §4 with an injected sleep: no real 2 s waits.
import { beforeAll, describe, expect, it } from 'vitest';
import type { PolledTaskStatus } from '../../api/forecasting.ts';
import { initTestI18n } from '../../test/i18n.ts';
import { interpretStatus, maxPollAttempts, pollGeneration, pollIntervalMs, type TaskResults } from './generation-poll.ts';

beforeAll(initTestI18n);

const results: TaskResults = { style_code: null, forecast_days: 90, products: 3, failed: [], stockouts: 1, duration_ms: 12 };
const task = (status: string, extra: Partial<PolledTaskStatus> = {}): PolledTaskStatus => ({ task_id: 't1', status, progress: { done: 1, total: 3 }, results: null, error: null, ...extra });

/** Answers the given statuses in turn (the last one repeats), records sleeps and log lines. */
function script(answers: (PolledTaskStatus | Error)[]) {
  const sleeps: number[] = [];
  const logs: string[] = [];
  let calls = 0;
  return {
    sleeps,
    logs,
    calls: () => calls,
    options: {
      taskId: 't1',
      fetchStatus: async () => {
        const answer = answers[Math.min(calls, answers.length - 1)]!;
        calls += 1;
        if (answer instanceof Error) throw answer;
        return answer;
      },
      sleep: async (ms: number) => void sleeps.push(ms),
      log: (line: string) => void logs.push(line),
    },
  };
}

describe('interpretStatus', () => {
  it.each(['pending', 'processing', 'running', 'not_found'])('%s keeps waiting', (status) => {
    expect(interpretStatus(task(status))).toEqual({ kind: 'wait', status });
  });
  it('completed with results is done', () => {
    expect(interpretStatus(task('completed', { results }))).toEqual({ kind: 'done', results });
  });
  it('completed without results is an error, with the task error first', () => {
    expect(interpretStatus(task('completed'))).toEqual({ kind: 'error', message: 'Generation completed but results were missing.' });
    expect(interpretStatus(task('completed', { error: 'Stored 0 of 3.' }))).toEqual({ kind: 'error', message: 'Stored 0 of 3.' });
  });
  it('failed is an error, with the task error first', () => {
    expect(interpretStatus(task('failed'))).toEqual({ kind: 'error', message: 'Report generation failed.' });
    expect(interpretStatus(task('failed', { error: 'Worker crashed' }))).toEqual({ kind: 'error', message: 'Worker crashed' });
  });
  it('an unknown status is only logged', () => {
    const logs: string[] = [];
    expect(interpretStatus(task('paused'), (line) => logs.push(line))).toEqual({ kind: 'wait', status: 'paused' });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain('paused');
  });
});

describe('pollGeneration', () => {
  it('waits 2 s before each poll and finishes when completed with results', async () => {
    const run = script([task('pending'), task('not_found', { error: 'Task not found or not yet processed by backend.' }), task('running'), task('processing'), task('completed', { results })]);
    const seen: string[] = [];
    const outcome = await pollGeneration({ ...run.options, onStatus: (answer) => seen.push(answer.status) });
    expect(outcome).toEqual({ kind: 'done', results, attempts: 5 });
    expect(seen).toEqual(['pending', 'not_found', 'running', 'processing', 'completed']);
    expect(run.sleeps).toEqual([pollIntervalMs, pollIntervalMs, pollIntervalMs, pollIntervalMs, pollIntervalMs]);
    expect(pollIntervalMs).toBe(2000);
  });

  it('ends with the missing-results message', async () => {
    expect(await pollGeneration(script([task('running'), task('completed')]).options)).toEqual({ kind: 'error', message: 'Generation completed but results were missing.', attempts: 2 });
  });

  it('ends with the failed message, or the task error', async () => {
    expect(await pollGeneration(script([task('failed')]).options)).toEqual({ kind: 'error', message: 'Report generation failed.', attempts: 1 });
    expect(await pollGeneration(script([task('failed', { error: 'No products' })]).options)).toEqual({ kind: 'error', message: 'No products', attempts: 1 });
  });

  it('times out after 60 attempts', async () => {
    const run = script([task('running')]);
    expect(await pollGeneration(run.options)).toEqual({ kind: 'error', message: 'Report generation timed out.', attempts: 60 });
    expect(maxPollAttempts).toBe(60);
    expect(run.calls()).toBe(60);
    expect(run.sleeps).toHaveLength(60);
  });

  it('keeps waiting through unknown statuses (logged) and failed status calls (logged, counted)', async () => {
    const run = script([task('mystery'), new Error('socket hang up'), task('completed', { results })]);
    expect(await pollGeneration(run.options)).toEqual({ kind: 'done', results, attempts: 3 });
    expect(run.logs).toHaveLength(2);
    expect(run.logs[1]).toContain('socket hang up');
  });

  it('an unknown status forever still times out', async () => {
    const run = script([task('mystery')]);
    expect(await pollGeneration(run.options)).toMatchObject({ kind: 'error', message: 'Report generation timed out.' });
    expect(run.logs).toHaveLength(60);
  });

  it('stops quietly when aborted', async () => {
    const controller = new AbortController();
    const run = script([task('running')]);
    const outcome = await pollGeneration({ ...run.options, signal: controller.signal, onStatus: () => controller.abort() });
    expect(outcome).toEqual({ kind: 'error', message: '', attempts: 1 });
  });
});
