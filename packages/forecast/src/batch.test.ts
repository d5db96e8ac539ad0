import { readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createForecastPool, forecastProduct, type ProductForecastInput } from './index.ts';
import { threadsNamed } from './priority.ts';

const task = { module: new URL('./batch.test-task.ts', import.meta.url), context: { run: 'test' } };

const DAY_MS = 86_400_000;
const day = (t: number): string => new Date(Date.parse('2025-01-01T00:00:00Z') + t * DAY_MS).toISOString().slice(0, 10);
const inputOf = (days: number, level: number): ProductForecastInput => ({
  sales: Array.from({ length: days }, (_, t) => ({ ds: day(t), y: Math.round(level * (t % 7 >= 5 ? 1.5 : 1)) })),
  stock: [{ ds: day(days - 1), stock_level: level * 10 }],
  horizon: 21,
});

/** Nice values of this process's threads named `name` (Linux /proc). */
function niceValues(name: string): number[] {
  const values: number[] = [];
  for (const id of threadsNamed(name)) {
    try {
      const stat = readFileSync(`/proc/self/task/${id}/stat`, 'utf8');
      values.push(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended between listing and reading.
    }
  }
  return values;
}

describe('createForecastPool', () => {
  it("runs the caller's task module on its threads, in input order, across several calls on the same threads", async () => {
    const pool = createForecastPool<ProductForecastInput, { context: unknown; json: string }>({ workers: 2, chunkSize: 2, task });
    try {
      const first = Array.from({ length: 5 }, (_, i) => inputOf(90, 4 + i));
      const second = [inputOf(60, 30), { sales: 'not an array' as unknown as [], horizon: 7 }];
      const progress: number[] = [];
      const [a, b] = await Promise.all([pool.run(first, (done) => progress.push(done)), pool.run(second)]);
      expect(a).toEqual(first.map((input) => ({ context: task.context, json: JSON.stringify(forecastProduct(input)) })));
      expect(progress.at(-1)).toBe(5);
      expect(b.map((result) => result.json)).toEqual(second.map((input) => JSON.stringify(forecastProduct(input))));
    } finally {
      await pool.close();
    }
  });

  it('runs the task on the calling thread when given one worker', async () => {
    const pool = createForecastPool<ProductForecastInput, { context: unknown; json: string }>({ workers: 1, task });
    try {
      expect(await pool.run([inputOf(30, 5)])).toEqual([{ context: task.context, json: JSON.stringify(forecastProduct(inputOf(30, 5))) }]);
    } finally {
      await pool.close();
    }
  });

  it.runIf(process.platform === 'linux')("runs its threads and the garbage collector's at a lower CPU priority when asked to work in the background", async () => {
    const pool = createForecastPool({ workers: 2, background: true, task });
    try {
      await pool.run([inputOf(30, 5), inputOf(30, 6)]);
      // A thread lowers itself when it starts; one that got no work may still be starting.
      await expect.poll(() => niceValues('WorkerThread').filter((value) => value === 10).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      // V8's platform threads (Node names them) collect the threads' garbage.
      expect(niceValues('V8Worker').length).toBeGreaterThan(0);
      expect(niceValues('V8Worker').every((value) => value === 10)).toBe(true);
      // The caller's own thread keeps its priority.
      expect(getPriority()).toBe(0);
    } finally {
      await pool.close();
    }
  });
});
