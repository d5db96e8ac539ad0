import { fixed, type Candidate } from './candidate.ts';

export function naive(): Candidate {
  return {
    name: 'Naive',
    description: 'Repeats the most recent value.',
    minLength: 1,
    fit: () => fixed('Naive', (history, end, horizon) => new Float64Array(horizon).fill(history[end - 1] ?? 0)),
  };
}

export function seasonalNaive(period: number): Candidate {
  return {
    name: `SeasonalNaive(${period})`,
    description: `Repeats the last ${period === 7 ? 'week' : `${period} periods`} exactly.`,
    minLength: period,
    fit: () =>
      fixed(`SeasonalNaive(${period})`, (history, end, horizon) => {
        const out = new Float64Array(horizon);
        for (let j = 0; j < horizon; j++) out[j] = history[end - period + (j % period)] ?? 0;
        return out;
      }),
  };
}

/**
 * Mean of the same seasonal position over the last few cycles. Averaging cycles
 * removes much of the noise seasonal naive copies forward, which matters for
 * hourly data where a single week is a noisy template.
 */
export function seasonalAverage(period: number, cycles: number): Candidate {
  return {
    name: `SeasonalAverage(${period}x${cycles})`,
    description: `Averages the same ${period === 7 ? 'weekday' : 'position'} over the last ${cycles} cycles.`,
    minLength: period * cycles,
    fit: () =>
      fixed(`SeasonalAverage(${period}x${cycles})`, (history, end, horizon) => {
        const out = new Float64Array(horizon);
        for (let j = 0; j < horizon; j++) {
          let sum = 0;
          for (let c = 1; c <= cycles; c++) sum += history[end - c * period + (j % period)] ?? 0;
          out[j] = sum / cycles;
        }
        return out;
      }),
  };
}
