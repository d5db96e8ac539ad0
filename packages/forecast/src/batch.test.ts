import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createForecastPool, forecastProduct, isForecastError, serializeForecast, type ProductForecastInput } from './index.ts';

const DAY_MS = 86_400_000;
const day = (t: number): string => new Date(Date.parse('2025-01-01T00:00:00Z') + t * DAY_MS).toISOString().slice(0, 10);
const inputOf = (days: number, level: number): ProductForecastInput => ({
  sales: Array.from({ length: days }, (_, t) => ({ ds: day(t), y: Math.round(level * (t % 7 >= 5 ? 1.5 : 1)) })),
  stock: [{ ds: day(days - 1), stock_level: level * 10 }],
  horizon: 21,
});

/** Nice values of this process's threads named WorkerThread (Linux /proc). */
function workerThreadNiceValues(): number[] {
  const values: number[] = [];
  for (const task of readdirSync('/proc/self/task')) {
    try {
      if (readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim() !== 'WorkerThread') continue;
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      values.push(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended between listing and reading.
    }
  }
  return values;
}

describe('createForecastPool', () => {
  it('answers each product as the JSON of forecastProduct, in input order, across several calls on the same threads', async () => {
    const pool = createForecastPool({ workers: 2, chunkSize: 2 });
    try {
      const first = Array.from({ length: 5 }, (_, i) => inputOf(90, 4 + i));
      const second = [inputOf(60, 30), { sales: 'not an array' as unknown as [], horizon: 7 }];
      const progress: number[] = [];
      const [a, b] = await Promise.all([pool.forecastProductsAsJson(first, (done) => progress.push(done)), pool.forecastProductsAsJson(second)]);
      expect(a).toEqual(first.map((input) => serializeForecast(forecastProduct(input))));
      expect(progress.at(-1)).toBe(5);
      expect(isForecastError(b[1]!)).toBe(true);
      const expected = forecastProduct(second[0]!);
      if (isForecastError(expected)) throw new Error(expected.error);
      expect(b[0]).toEqual({ json: JSON.stringify(expected), stockoutCount: expected.stockouts.length });
    } finally {
      await pool.close();
    }
  });

  it.runIf(process.platform === 'linux')('runs its threads at a lower CPU priority when asked to work in the background', async () => {
    const pool = createForecastPool({ workers: 2, background: true });
    try {
      await pool.forecastProductsAsJson([inputOf(30, 5), inputOf(30, 6)]);
      // A thread lowers itself when it starts; one that got no work may still be starting.
      await expect.poll(() => workerThreadNiceValues().filter((value) => value === 10).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      // The caller's own thread keeps its priority.
      expect(getPriority()).toBe(0);
    } finally {
      await pool.close();
    }
  });
});
